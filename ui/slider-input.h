/* What the panels' sliders and choices do with the wheel, modifiers and a held button, as
 * GNOME's and darktable's do:
 * - The wheel over a slider or a choice that does not have the keyboard scrolls the panel
 *   around it; once a click (or Tab) has given it the keyboard, the wheel changes it. A
 *   panel scrolled with the wheel then changes nothing that passes under the pointer.
 * - Shift or Ctrl held as a slider is pressed: a fine drag, the value moving a tenth as far
 *   as in a plain drag, from where it was (the knob does not jump to the pointer).
 * - The arrow keys: a step (Right and Up more); with Shift, a fine step; Page Up/Down ten
 *   steps (Page Up more).
 * A fine step is a tenth of the slider's step (its adjustment's step increment). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* How much slower a fine drag moves than a plain one. */
#define LM_SLIDER_FINE 10.0

/* WIDGET (a GtkRange or a GtkComboBox) lets the wheel through to the panel unless it has
 * the keyboard. */
void lm_slider_wheel_needs_focus (GtkWidget *widget);

/* RANGE gets fine drags and fine arrow steps, its values snapped to FINE_STEP (0: not
 * snapped, for a slider over a position whose value is snapped elsewhere). */
void lm_slider_add_fine (GtkRange *range, double fine_step);

G_END_DECLS
