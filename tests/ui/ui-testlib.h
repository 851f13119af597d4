/* What the window tests share: the window under test, waiting for its renders, reading its
 * view and histogram, finding its controls, and input as a person gives it: pointer and keys
 * through the X server (XTest), so that they reach GTK through its event queue like a real
 * mouse's and keyboard's. */
#pragma once

#include <gtk/gtk.h>

#include "core/edit/pipeline.h"
#include "core/ops/histogram.h"
#include "core/ops/op.h"
#include "ui/image-view.h"
#include "ui/window.h"

/* The window under test, made by ui_test_init. */
extern LmWindow *ui_window;

/* gtk_test_init, fatal criticals, then a window of 1100×760 showing PHOTO (a file of the
 * repository's test corpus, tests/data/photos/, when relative), its first render in. */
void ui_test_init (int *argc, char ***argv, const char *photo);
/* As ui_test_init, in the language the environment asks for (LANGUAGE, LC_ALL, …), with
 * Lumen's catalogue bound as its programs bind it (gtk_test_init leaves the C locale). */
void ui_test_init_localized (int *argc, char ***argv, const char *photo);
/* Lumen's settings (in memory under meson test: the window's own, shared in the process),
 * or NULL where the schema is not installed. ui_test_init turns keep-edits off: the tests
 * edit the corpus's photos in place and must leave no sidecar beside them. */
GSettings *ui_settings (void);
/* The path of NAME in the test corpus (LUMEN_TEST_DATA): "photos/chelsea.png". */
char *ui_test_data (const char *name);
/* The image at PATH, read by Lumen's loader into host memory; a failure fails the test. */
LmImage *ui_load_image (const char *path);
/* lumen-cli (LUMEN_CLI) with ARGS (NULL-terminated, without the program), run to its end: it
 * must succeed and print nothing on stderr. */
void ui_run_cli (const char *const *args);
/* The corpus's NAME copied to DEST, a file of the test's own that it may change or keep
 * sidecars beside; returns DEST, newly allocated. A test's folder goes with
 * lm_test_remove_tree (tests/unit/test-util.h, linked into every window test). */
char *ui_copy_test_data (const char *name, const char *dest);

/* Runs the main loop until a result of KIND arrives (for previews: the refined one of the
 * newest request); fails the test after 60 s. */
void ui_await_result (int kind);
/* The newest request's refined result is in, no other render is pending. */
void ui_settle (void);
/* ui_settle awaits a result still to come: one that came while the input asking for it was
 * handled (ui_key, ui_drag… run the main loop) would be missed. After ui_track_results, the
 * window's refined previews are counted as they come, and ui_settle_tracked returns once the
 * newest request's is in, whenever it came; fails the test after 60 s. */
void ui_track_results (void);
void ui_settle_tracked (void);
/* Runs the main loop for MS milliseconds. */
void ui_wait_ms (guint ms);
/* Runs what is pending in the main loop. */
void ui_flush (void);

GBytes *ui_view_pixels (void);
LmHistogram ui_histogram (void);
GtkWidget *ui_control (LmOpId op, const char *name);
LmImageView *ui_image_view (void);
/* The first widget named NAME under WIDGET (gtk_widget_set_name / the .ui's name). */
GtkWidget *ui_find_named (GtkWidget *widget, const char *name);
/* The image view's paint now, as the screen would show it. */
cairo_surface_t *ui_paint_view (void);
/* WIDGET's paint now (RGB24, its allocation's size). */
cairo_surface_t *ui_paint_widget (GtkWidget *widget);
/* The largest difference between two views' pixels (RGBA8), colour channel by channel. */
int ui_view_distance (const LmImage *a, const LmImage *b);
/* The RGB of the painted pixel (X, Y) of S. */
guint32 ui_painted (cairo_surface_t *s, int x, int y);
void ui_activate (const char *action);

/* Real input through the X server, in WIDGET's coordinates. Each returns once GTK has
 * handled what the server sent. */
void ui_pointer_move (GtkWidget *widget, double x, double y);
void ui_pointer_button (guint button, gboolean press);
/* A press at (X0, Y0), STEPS moves to (X1, Y1), a release there. */
void ui_drag (GtkWidget *widget, double x0, double y0, double x1, double y1, int steps);
void ui_click (GtkWidget *widget, double x, double y);
/* KEYVAL pressed and released with MODIFIERS (GDK_CONTROL_MASK, GDK_SHIFT_MASK, GDK_MOD1_MASK:
 * Alt) held. */
void ui_key (guint keyval, GdkModifierType modifiers);
/* The same, the key held down for MS milliseconds while the main loop runs: for a key whose
 * press makes the widget that gets its release (Ctrl+L's location field in an Open chooser:
 * not yet drawn at once, and GTK is critical about a key sent to it). */
void ui_key_held (guint keyval, GdkModifierType modifiers, guint ms);
/* KEYVAL pressed (PRESS) or released alone, so that it is held across other input: Enter
 * held while the dialog it answered closes and the next one opens; the server repeats it. */
void ui_key_press (guint keyval, gboolean press);
/* MODIFIERS' keys (Control, Shift, Alt) pressed, or released, through the X server: held
 * across a drag (a Shift-drag) between two calls. */
void ui_modifiers (GdkModifierType modifiers, gboolean press);
/* Text typed key by key (ASCII; Shift held where the key's character needs it). */
void ui_type (const char *text);

/* Every widget of TYPE under WIDGET (itself included, internal children too), in the
 * order of the widget tree. */
GPtrArray *ui_find_all (GtkWidget *widget, GType type);
/* The widget named NAME under WIDGET, internal children (a dialog's) included; NULL if none. */
GtkWidget *ui_find_named_within (GtkWidget *widget, const char *name);
/* Gives WIDGET's toplevel the keyboard, as clicking on it would under a window manager (a
 * dialog gets none by itself under Xvfb, and its parent gets none back when it closes). */
void ui_focus_window (GtkWidget *widget);
/* Turns the mouse wheel over WIDGET's scrolled window (at its right edge, over the scrollbar:
 * not over a slider) until WIDGET is wholly inside it. */
void ui_scroll_into_view (GtkWidget *widget);

/* A click in the middle of WIDGET. */
void ui_click_middle (GtkWidget *widget);
/* The first visible button under ROOT (internal children included) labelled LABEL, its
 * mnemonic text as given to GTK ("_Export"); NULL if none. */
GtkWidget *ui_button_labelled (GtkWidget *root, const char *label);

/* What a test does with a file chooser once it is on screen: types a name, sets the dialog's
 * own fields, clicks a button or responds. */
typedef void (*UiChooserAnswer) (GtkWidget *dialog, gpointer data);
/* OPEN (OPEN_DATA) opens a file chooser as a person would (Ctrl+E, an action); once the
 * chooser is mapped and drawn, ANSWER (DATA) is called on it, once. Returns when ANSWER has
 * run (OPEN may return only after the dialog closed: its loop runs the watch); fails the test
 * after 30 s. */
void ui_answer_chooser (void (*open) (gpointer open_data), gpointer open_data, UiChooserAnswer answer,
                        gpointer data);
/* In a save chooser: NAME typed over its name field's text (the field has the keyboard). */
void ui_chooser_type_name (const char *name);
/* The chooser DIALOG's Export button clicked. */
void ui_chooser_press_export (GtkWidget *dialog);
/* A ui_answer_chooser ANSWER: the export's chooser told to write NAME (a const char *). */
void ui_export_as (GtkWidget *dialog, gpointer name);
/* The edits in SIDECAR, which must read. */
LmPipeline ui_read_sidecar (const char *sidecar);
/* The OPEN of ui_answer_chooser for the export: Ctrl+E in the window. */
void ui_press_export (gpointer unused);
/* Runs the main loop until PATH exists (an export's rename: the file is whole), then a little
 * longer for the window to take the export's end in; fails the test after 30 s. */
void ui_await_file (const char *path);

/* Opens PATH in the window (lm_window_open, not through a dialog) and runs the main loop
 * until it has rendered (at most 20 s) and settled. */
void ui_open_photo (const char *path);

/* Opens PATH the way a person does from the recent list, PATH put on it first (as an earlier
 * session would have left it): the title bar's recent button, then the item. Returns once
 * the item is clicked, not once the file is open. */
void ui_open_recent (const char *path);

/* Runs the main loop until the Merge HDR dialog DIALOG (an LmHdrDialog) has read every
 * exposure added to it: its hint no longer says it is reading them. Fails the test after 60 s. */
void ui_await_exposures (GtkWidget *dialog);
/* KEYVAL with the photo's view holding the keyboard, then the render it asks for, if any,
 * and the layout a tool's bar changes (as a person waits to see the tool before dragging). */
void ui_key_on_view (guint keyval);
/* The dialog of Apply Edits to Photos… once its outcome shows (its Close); NULL after 60 s. */
GtkWidget *ui_await_apply_outcome (void);
/* The locale NAME ("fr_FR") in UTF-8 where the system has none installed: made by localedef
 * (package locales) into DIR, with LOCPATH pointing there, glibc reading it at each
 * setlocale. TRUE when setlocale (LC_ALL, "NAME.UTF-8") works; else ERROR (may be NULL) says
 * why. The program's locale is left at "C". */
gboolean ui_make_locale (const char *name, const char *dir, char **error);
