/* LmValueField: a slider's value, shown as a number that can be typed. A click on the number
 * (or Enter/Space once it has the keyboard) turns it into an entry holding the value, all of
 * it selected; Enter sets what was typed, clamped to the adjustment's range, Escape leaves
 * the value as it was, and leaving the entry sets it as Enter does. Numbers are shown and read
 * in the locale's way ("0,5" in French). Emits "committed" when a typed value is set: an edit
 * is complete. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define LM_TYPE_VALUE_FIELD (lm_value_field_get_type ())
G_DECLARE_FINAL_TYPE (LmValueField, lm_value_field, LM, VALUE_FIELD, GtkStack)

/* Shows ADJUSTMENT's value with DIGITS decimals, or FINE_DIGITS where the value lies between
 * two of DIGITS' steps (a fine step put it there). */
GtkWidget *lm_value_field_new (GtkAdjustment *adjustment, int digits, int fine_digits);

/* The button showing the number (a click on it starts typing) and the entry typed into. */
GtkWidget *lm_value_field_get_button (LmValueField *self);
GtkWidget *lm_value_field_get_entry (LmValueField *self);

/* TEXT as a number in the locale's way (its decimal mark; "." also where that is ","),
 * surrounding spaces allowed; FALSE when it is not wholly one finite number. */
gboolean lm_value_parse (const char *text, double *value);

/* VALUE with DIGITS decimals, or up to FINE_DIGITS where fewer would round it, trailing
 * zeros past DIGITS dropped; the locale's decimal mark. */
char *lm_value_format (double value, int digits, int fine_digits);

G_END_DECLS
