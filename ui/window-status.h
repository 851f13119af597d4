/* What LmWindow says about its state (window-status.c): the info bar's messages, each about
 * a topic so that it goes when it stops being true; the busy indicator of a long render; the
 * status bar (size, timings, zoom, the GPU's speed-up); the diff bar's text and Compare's
 * tooltip. */
#pragma once

#include "window.h"
#include "core/library/photo-tags.h"

G_BEGIN_DECLS

typedef struct _LmWindowStatus LmWindowStatus;

/* What a message in the info bar is about, so that it goes when it stops being true. */
typedef enum {
  LM_TOPIC_PHOTO,  /* the photo being edited (a merge's notice): goes with the photo */
  LM_TOPIC_OPEN,   /* a photo that could not be opened: goes at the next open */
  LM_TOPIC_RENDER, /* a render failed or went otherwise: goes with a render that did not */
  LM_TOPIC_EXPORT, /* an export's outcome: goes when the next export starts */
  LM_TOPIC_PASTE,  /* edits on the clipboard that could not be pasted: goes at the next paste */
} LmMessageTopic;

void lm_window_status_init (LmWindow *self);
/* Stops the busy indicator's clock (the window is being disposed). */
void lm_window_status_stop (LmWindow *self);
void lm_window_status_free (LmWindow *self);

/* Shows MESSAGE in the info bar with TYPE's colour and icon, about the photo being edited. */
void lm_window_show_message (LmWindow *self, GtkMessageType type, const char *message);
void lm_window_show_message_about (LmWindow *self, LmMessageTopic topic, GtkMessageType type,
                                   const char *message);
/* Hides the info bar where its message is about TOPIC. */
void lm_window_clear_message (LmWindow *self, LmMessageTopic topic);
/* Hides the info bar whatever its message is about (another photo is shown). */
void lm_window_clear_messages (LmWindow *self);

/* A render of GENERATION is asked for; one (or its failure) is in. */
void lm_window_await_render (LmWindow *self, guint64 generation);
void lm_window_render_arrived (LmWindow *self, guint64 generation);

/* TEXT in the status bar, where the timings are, until the next render's replace it: what a
 * key could not do and why. */
void lm_window_show_hint (LmWindow *self, const char *text);

/* The timings of a step list, their names as the panels say them. */
char *lm_window_format_timings (const LmTimings *timings);
const char *lm_window_backend_label (const char *name);
/* The status bar of the refined preview R (and the mask it brings, over the view); the
 * speed-up alone. */
void lm_window_update_status (LmWindow *self, const LmRenderResult *r);
void lm_window_show_speedup (LmWindow *self);
/* The renders timed so far are of another source: no speed-up until both backends have
 * rendered this one in full. */
void lm_window_forget_timings (LmWindow *self);
/* The histogram's tooltip says where R's counts come from (a large photo's pyramid). */
void lm_window_set_histogram_origin (LmWindow *self, const LmRenderResult *r);
/* The view's zoom in the status bar ("Fit (23 %)", "100 %"), kept as it changes. */
void lm_window_show_zoom (LmWindow *self);
/* The photo's stars (or its reject) and colour labels in the status bar; NULL: none shown. */
void lm_window_show_tags (LmWindow *self, const LmPhotoTags *tags);
void lm_window_show_compare (LmWindow *self, const LmRenderResult *r);
void lm_window_update_compare_tooltip (LmWindow *self);

G_END_DECLS
