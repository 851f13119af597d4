/* What the files of LmWindow share: window.c (life, rendering, results, actions) and the
 * window-*.c files of one concern each. Not part of window.h. */
#pragma once

#include "window.h"

#include "core/history.h"
#include "hdr-dialog.h"
#include "histogram-view.h"
#include "image-view.h"
#include "op-panel.h"

G_BEGIN_DECLS

struct _LmWindow {
  GtkApplicationWindow parent_instance;

  /* template children */
  GtkHeaderBar *header;
  GtkMenuButton *recent_button;
  GtkWidget *gpu_button;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkStack *view_stack;
  GtkRevealer *diff_revealer;
  GtkLabel *diff_label;
  GtkAdjustment *gain_adjustment;
  GtkBox *side_panel;
  GtkCheckButton *log_check;
  GtkLabel *status_image;
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
  gboolean before;     /* the original is shown while the key is held */
  /* Split view: the "before" half is rendered with the request that first shows a region
   * and kept while only edits change; a result carries it with its own region, so that it
   * is never painted over another. */
  gboolean split;
  gboolean have_before;   /* the image view holds the "before" of before_rect */
  LmViewRect before_rect;
  LmStage before_tonemap; /* what a radiance source's "before" is tone mapped with */
  guint64 before_since;   /* the first generation rendered with that tone mapping */
  gboolean comparing;
  double full_ms[2];   /* the last full-resolution render on the CPU [0] and CUDA [1] */

  GtkWidget *progress_dialog;
  GtkProgressBar *progress_bar;
  GCancellable *export_cancellable;

  LmHdrDialog *hdr_dialog;
  GCancellable *merge_cancellable;
  GFile *merge_first;      /* the first exposure of the merge under way */
  guint merge_count;
  LmStage tonemap_default; /* what Reset All restores: Mertens' fusion needs none */
};

/* window.c */
void lm_window_show_message (LmWindow *self, GtkMessageType type, const char *message);
/* A request for what is edited and shown now, with the next generation when NEXT. */
LmRenderRequest lm_window_request_now (LmWindow *self, gboolean next, gboolean *ok);
void lm_window_request_render (LmWindow *self);
void lm_window_show_pipeline (LmWindow *self);
void lm_window_on_panel_changed (LmOpPanel *panel, LmWindow *self);
void lm_window_on_panel_committed (LmOpPanel *panel, LmWindow *self);
char *lm_window_format_timings (const LmTimings *timings);
const char *lm_window_backend_label (const char *name);
/* A new source (IMAGE, host memory; from FILE, titled TITLE) with self->pipeline as its
 * starting point: a fresh history, the tone mapping panel where it is radiance. */
void lm_window_start_editing (LmWindow *self, LmImage *image, GFile *file, const char *title);

/* window-open.c: opening a photo (the Open action, recent files, drag and drop). */
/* Asks before edits that are in neither an export nor a sidecar would be lost. THEN, a
 * void (*) (LmWindow *, gpointer), runs with DATA when they may go. */
void lm_window_confirm_discard (LmWindow *self, GCallback then, gpointer data);
void lm_window_open_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_on_recent_activated (GtkRecentChooser *chooser, LmWindow *self);
void lm_window_on_drag_data (GtkWidget *widget, GdkDragContext *context, int x, int y,
                             GtkSelectionData *data, guint info, guint time, LmWindow *self);

/* window-export.c: the Export action, its progress dialog and its end. */
void lm_window_export_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_finish_export (LmWindow *self, const LmRenderResult *r);

/* window-split.c: the before/after split and the key that shows the original. */
void lm_window_forget_before (LmWindow *self);
gboolean lm_window_needs_before (LmWindow *self, const LmRenderRequest *req);
void lm_window_show_before (LmWindow *self, const LmRenderResult *r);
void lm_window_split_changed (GSimpleAction *action, GVariant *state, gpointer data);
gboolean lm_window_on_key (GtkWidget *widget, GdkEventKey *event, LmWindow *self);

/* window-hdr.c: the Merge HDR dialog and the tone mapping panel of its result. */
void lm_window_merge_hdr_action (GSimpleAction *action, GVariant *param, gpointer data);
void lm_window_finish_merge (LmWindow *self, const LmRenderResult *r);
void lm_window_build_tonemap_panel (LmWindow *self);

G_END_DECLS
