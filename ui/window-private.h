/* What the files of LmWindow share: window.c (life, rendering, results, actions) and the
 * window-*.c files of one concern each. Not part of window.h. */
#pragma once

#include "window.h"

#include "core/edit/history.h"
#include "hdr-dialog.h"
#include "histogram-view.h"
#include "image-view.h"
#include "op-panel.h"
#include "core/io/fits.h"

G_BEGIN_DECLS

typedef struct _LmWindowTools LmWindowTools; /* window-tools.c's */
typedef struct _LmWindowColor LmWindowColor; /* window-color.c's */
typedef struct _LmWindowAstro LmWindowAstro; /* window-astro.c's */

/* What a message in the info bar is about, so that it goes when it stops being true. */
typedef enum {
  LM_TOPIC_PHOTO,  /* the photo being edited (a merge's notice): goes with the photo */
  LM_TOPIC_OPEN,   /* a photo that could not be opened: goes at the next open */
  LM_TOPIC_RENDER, /* a render failed or went otherwise: goes with a render that did not */
  LM_TOPIC_EXPORT, /* an export's outcome: goes when the next export starts */
  LM_TOPIC_PASTE,  /* edits on the clipboard that could not be pasted: goes at the next paste */
} LmMessageTopic;

/* A step that waits for an answer (or an export) and may never run: THEN (a
 * void (*) (LmWindow *, gpointer)) with DATA, which DESTROY frees either way. */
typedef struct {
  GCallback then;
  gpointer data;
  GDestroyNotify destroy;
} LmWindowThen;

struct _LmWindow {
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkHeaderBar *header;
  GtkMenuButton *recent_button;
  GtkWidget *gpu_button;
  GtkWidget *compare_button;
  GtkInfoBar *info_bar;
  GtkImage *info_icon;
  GtkLabel *info_label;
  GtkWidget *busy_box;
  GtkSpinner *busy_spinner;
  GtkStack *view_stack;
  GtkRevealer *diff_revealer;
  GtkLabel *diff_label;
  GtkAdjustment *gain_adjustment;
  GtkBox *side_panel;
  GtkBox *histogram_box; /* above the side panel: it stays in view while the panel scrolls */
  GtkCheckButton *log_check;
  GtkCheckButton *seen_check;
  GtkLabel *status_image;
  GtkLabel *status_zoom;
  GtkLabel *status_timings;
  GtkLabel *status_speedup;

  LmImageView *image_view;
  LmHistogramView *histogram_view;
  LmOpPanel *panels[LM_N_OPS];
  LmOpPanel *tonemap_panel; /* shown while the source is radiance */
  GtkWidget *tonemap_separator;

  GSettings *settings; /* NULL when the schema is not installed: defaults then */
  LmRenderWorker *worker;
  LmImage *source;     /* host memory */
  GFile *file;
  LmPipeline pipeline;
  LmHistory *history;
  guint commit_source;
  guint64 generation;  /* of the newest request */
  guint64 shown;       /* of the newest result shown */
  gint64 changed_us;   /* when the newest edit was made */
  LmBackendKind backend;
  gboolean cuda_usable;
  char *cuda_description;
  char *cuda_unavailable; /* why not, once the worker has said so */
  LmMessageTopic message_topic; /* what the info bar's message is about */
  /* Busy: a render asked for and not yet in. The indicator shows once no result has come
   * for BUSY_AFTER_MS (window.c), so that quick renders do not flicker it. */
  guint64 awaited;        /* the generation whose refined result ends the wait; 0: none */
  guint busy_source;      /* the timer that shows the indicator */
  gboolean busy_shown;
  gboolean before;     /* the original is shown while the key is held */
  /* Split view: the "before" half is rendered with the request that first shows a region
   * and kept while only edits change; a result carries it with its own region, so that it
   * is never painted over another. */
  gboolean split;
  gboolean have_before;   /* the image view holds the "before" of before_rect */
  LmViewRect before_rect;
  LmStage before_tonemap; /* what a radiance source's "before" is tone mapped with */
  guint64 before_since;   /* the first generation rendered with that tone mapping */
  LmPipeline before_geometry; /* and that geometry (crop, turns: the "before" keeps them) */
  gboolean comparing;
  /* The last full-resolution render on the CPU [0] and CUDA [1] that computed every
   * operation of TIMED (none from the cache): a speed-up is shown only between two renders
   * of one pipeline, both really run. */
  double full_ms[2];
  LmPipeline timed[2];

  GtkWidget *progress_dialog;
  GtkProgressBar *progress_bar;
  GCancellable *export_cancellable;
  LmWindowThen *after_export; /* what the discard prompt's Export… goes on with */

  guint open_serial;         /* of the newest open: an older load that ends later is dropped */
  GtkWidget *discard_dialog; /* the discard prompt, while it is up */

  LmHdrDialog *hdr_dialog;
  GCancellable *merge_cancellable;
  GFile *merge_first;      /* the first exposure of the merge under way */
  guint merge_count;
  LmStage tonemap_default; /* what Revert restores: Mertens' fusion needs none */

  /* window-sidecar.c */
  char *sidecar_photo;     /* the photo whose sidecar keeps the edits; NULL: none is kept */
  LmPipeline sidecar_kept; /* what its sidecar holds (what the photo opened with) */
  guint sidecar_source;    /* the pending save */

  /* window-apply.c */
  struct _LmApplyRun *apply; /* Apply Edits to Photos… while it runs or shows its outcome */

  LmWindowTools *tools;    /* the tools on the view: window-tools.c */
  LmWindowColor *color;    /* the view transform and the monitor's profile: window-color.c */
  LmWindowAstro *astro;    /* a FITS file's data, stretch and sources: window-astro.c */
};

/* window.c */
/* A request for what is edited and shown now, with the next generation when NEXT. */
LmRenderRequest lm_window_request_now (LmWindow *self, gboolean next, gboolean *ok);
/* Records the edits made so far as one undo step (ends the wait that groups quick edits). */
void lm_window_commit (LmWindow *self);
void lm_window_request_render (LmWindow *self);
void lm_window_show_pipeline (LmWindow *self);
void lm_window_on_panel_changed (LmOpPanel *panel, LmWindow *self);
void lm_window_on_panel_committed (LmOpPanel *panel, LmWindow *self);
/* A new source (IMAGE, host memory; from FILE) with self->pipeline as its starting point: a
 * fresh history, the tone mapping panel where it is radiance. The header shows FILE's name as
 * its title and SUBTITLE (NULL: none) under it, such as "HDR, 5 exposures": each line is
 * short enough to be read whole beside the header's buttons. */
void lm_window_start_editing (LmWindow *self, LmImage *image, GFile *file, const char *subtitle);

/* window-status.c: what the window says about its state. */
/* Shows MESSAGE in the info bar with TYPE's colour and icon, about the photo being edited. */
void lm_window_show_message (LmWindow *self, GtkMessageType type, const char *message);
void lm_window_show_message_about (LmWindow *self, LmMessageTopic topic, GtkMessageType type,
                                   const char *message);
/* Hides the info bar where its message is about TOPIC. */
void lm_window_clear_message (LmWindow *self, LmMessageTopic topic);
/* A render of GENERATION is asked for; one (or its failure) is in. */
void lm_window_await_render (LmWindow *self, guint64 generation);
void lm_window_render_arrived (LmWindow *self, guint64 generation);
/* The timings of a step list, their names as the panels say them. */
char *lm_window_format_timings (const LmTimings *timings);
const char *lm_window_backend_label (const char *name);
/* The status bar of the refined preview R; the speed-up alone. */
void lm_window_update_status (LmWindow *self, const LmRenderResult *r);
/* The histogram's tooltip says where R's counts come from (a large photo's pyramid). */
void lm_window_set_histogram_origin (LmWindow *self, const LmRenderResult *r);
void lm_window_show_speedup (LmWindow *self);
/* The view's zoom in the status bar ("Fit (23 %)", "100 %"), kept as it changes. */
void lm_window_show_zoom (LmWindow *self);
void lm_window_show_compare (LmWindow *self, const LmRenderResult *r);
void lm_window_update_compare_tooltip (LmWindow *self);

/* window-open.c: opening a photo (the Open action, recent files, drag and drop). */
/* Asks before edits that are in neither an export nor a sidecar would be lost. THEN, a
 * void (*) (LmWindow *, gpointer), runs with DATA when they may go: at once where there is
 * nothing to lose, else once the prompt is answered with Discard, or with Export… and that
 * export has succeeded; never when it is cancelled. The prompt does not wait (no nested
 * main loop). */
void lm_window_confirm_discard (LmWindow *self, GCallback then, gpointer data);
/* The same, with DESTROY freeing DATA whether THEN ran or not. */
void lm_window_confirm_discard_full (LmWindow *self, GCallback then, gpointer data,
                                     GDestroyNotify destroy);
/* Runs THEN (at most once) and frees it. */
void lm_window_then_run (LmWindowThen *then, LmWindow *self);
void lm_window_then_free (LmWindowThen *then);
void lm_window_open_action (GSimpleAction *action, GVariant *param, gpointer data);
/* The file choosers' filter of the photos Lumen reads. */
void lm_window_add_image_filter (GtkFileChooser *chooser);
void lm_window_on_recent_activated (GtkRecentChooser *chooser, LmWindow *self);
void lm_window_on_drag_data (GtkWidget *widget, GdkDragContext *context, int x, int y,
                             GtkSelectionData *data, guint info, guint time, LmWindow *self);

/* window-export.c: the Export action, its progress dialog and its end. */
void lm_window_export_action (GSimpleAction *action, GVariant *param, gpointer data);
/* The Export action's questions (file, quality); TRUE when an export has started. */
gboolean lm_window_export_interactive (LmWindow *self);
void lm_window_finish_export (LmWindow *self, const LmRenderResult *r);

/* window-split.c: the before/after split and the key that shows the original. */
void lm_window_forget_before (LmWindow *self);
gboolean lm_window_needs_before (LmWindow *self, const LmRenderRequest *req);
void lm_window_show_before (LmWindow *self, const LmRenderResult *r);
void lm_window_split_changed (GSimpleAction *action, GVariant *state, gpointer data);
gboolean lm_window_on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self);

/* window-sidecar.c: the photo's edits kept in its sidecar. */
/* FILE is opening: its sidecar (when the keep-edits setting allows) is read into
 * self->pipeline and kept from now on. FALSE (the pipeline untouched) when it could not be
 * read: the message names the file and the cause; that file is not written over until an
 * edit is made. */
gboolean lm_window_sidecar_open (LmWindow *self, GFile *file, GError **error);
/* The pipeline changed: saved a moment after the last change. */
void lm_window_sidecar_changed (LmWindow *self);
/* Saves what is pending now; a failure shows in the info bar. */
void lm_window_sidecar_flush (LmWindow *self);
/* Flushes and keeps no more sidecar (the photo closes, or a merge replaces it). */
void lm_window_sidecar_close (LmWindow *self);
/* The history's current step is in the sidecar: marks it saved (no prompt for it). */
void lm_window_sidecar_mark_saved (LmWindow *self);

/* window-edits.c: Revert to Original, Copy Edits, Paste Edits. */
void lm_window_revert_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_copy_edits_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_paste_edits_action (GSimpleAction *action, GVariant *param, gpointer data);

/* window-apply.c: Apply Edits to Photos…, each photo exported as the Export action does. */
void lm_window_apply_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_apply_free (LmWindow *self);

/* window-hdr.c: the Merge HDR dialog and the tone mapping panel of its result. */
void lm_window_merge_hdr_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_finish_merge (LmWindow *self, const LmRenderResult *r);
void lm_window_build_tonemap_panel (LmWindow *self);

/* window-geometry.c: the view follows the size the pipeline renders; rotate and flip. */
/* What the view renders now: the pipeline, with only its geometry while the original is
 * held, and as the active tool wants it (lm_window_tools_adjust). */
void lm_window_view_pipeline (LmWindow *self, LmPipeline *pipeline);
/* The image view's size becomes what PIPELINE (as the view renders it) makes of the source. */
void lm_window_follow_size (LmWindow *self, const LmPipeline *pipeline);
/* The size of the image crop applies to (after rotation and straightening) under PIPELINE. */
void lm_window_crop_input_size (LmWindow *self, const LmPipeline *pipeline, guint *width, guint *height);
void lm_window_add_geometry_actions (LmWindow *self);
void lm_window_update_geometry_actions (LmWindow *self);

/* window-tools.c: the tool bar and the tools on the view. */
void lm_window_tools_init (LmWindow *self);
void lm_window_tools_free (LmWindow *self);
void lm_window_tools_update_actions (LmWindow *self);
/* The tool bar above the view. */
GtkWidget *lm_window_tools_bar (LmWindow *self);
/* PIPELINE as the active tool shows it (crop off while cropping). */
void lm_window_tools_adjust (LmWindow *self, LmPipeline *pipeline);
/* A crop being drawn is applied (no render: the caller's edit follows). */
void lm_window_tools_finish (LmWindow *self);
/* A crop being drawn is dropped (no render: the caller's follows): the pipeline it was drawn
 * on is being replaced. */
void lm_window_tools_cancel (LmWindow *self);

/* window-color.c: colour management of the view. */
void lm_window_color_init (LmWindow *self);
void lm_window_color_free (LmWindow *self);
/* REQ (a preview) goes through the view transform of the photo and monitor now (made when
 * either changed) and asks for the histogram as seen where the toggle is on. */
void lm_window_color_prepare (LmWindow *self, LmRenderRequest *req);
void lm_window_monitor_profile_action (GSimpleAction *action, GVariant *param, gpointer data);

/* window-astro.c: FITS files (their float data, display stretch, source detection). */
void lm_window_astro_init (LmWindow *self);
void lm_window_astro_free (LmWindow *self);
/* TRUE while a FITS file is open. */
gboolean lm_window_astro_active (LmWindow *self);
/* DATA (GRAY_F32, host) of FILE with INFO (taken) opens: shown once its first view is in. */
void lm_window_astro_open (LmWindow *self, LmImage *data, LmFitsInfo *info, GFile *file);
/* A photo opens instead. */
void lm_window_astro_close (LmWindow *self);
/* The data histogram over the preview's. */
void lm_window_astro_show_histogram (LmWindow *self);
void lm_window_astro_backend_changed (LmWindow *self);

G_END_DECLS
