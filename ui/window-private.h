/* What the files of LmWindow share: window.c (life, rendering, results, actions) and the
 * window-*.c files of one concern each. Not part of window.h. */
#pragma once

#include "window.h"

#include "core/edit/history.h"
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
  gboolean comparing;

  /* window-apply.c */
  struct _LmApplyRun *apply; /* Apply Edits to Photos… while it runs or shows its outcome */

  struct _LmWindowStatus *status; /* the info bar, the busy indicator, the status bar */
  struct _LmWindowSplit *split;   /* the before/after split, the original held */
  struct _LmWindowOpen *open;     /* the load under way, the discard prompt */
  struct _LmWindowExport *export; /* the export under way and its progress dialog */
  struct _LmWindowSidecar *sidecar; /* the sidecar that keeps the photo's edits */
  struct _LmWindowEdits *edits;   /* what Revert to Original restores */
  struct _LmWindowHdr *hdr;       /* the Merge HDR dialog, the merge under way */
  struct _LmWindowTools *tools;   /* the tool bar, the tool that has the pointer */
  struct _LmWindowColor *color;   /* the view transform and the monitor's profile */
  struct _LmWindowAstro *astro;   /* a FITS file's data, stretch and sources */
};

/* window.c */
/* A request for what is edited and shown now, with the next generation when NEXT. */
LmRenderRequest lm_window_request_now (LmWindow *self, gboolean next, gboolean *ok);
/* Records the edits made so far as one undo step (ends the wait that groups quick edits). */
void lm_window_commit (LmWindow *self);
/* TRUE while quick edits wait to be gathered into one undo step (lm_window_commit ends it). */
gboolean lm_window_commit_pending (LmWindow *self);
void lm_window_request_render (LmWindow *self);
void lm_window_show_pipeline (LmWindow *self);
void lm_window_on_panel_changed (LmOpPanel *panel, LmWindow *self);
void lm_window_on_panel_committed (LmOpPanel *panel, LmWindow *self);
/* A new source (IMAGE, host memory; from FILE) with self->pipeline as its starting point: a
 * fresh history, the tone mapping panel where it is radiance. The header shows FILE's name as
 * its title and SUBTITLE (NULL: none) under it, such as "HDR, 5 exposures": each line is
 * short enough to be read whole beside the header's buttons. */
void lm_window_start_editing (LmWindow *self, LmImage *image, GFile *file, const char *subtitle);
/* Results in flight are of what was shown before (another photo, or its view before a
 * merge): a new generation drops them. */
void lm_window_drop_results (LmWindow *self);

G_END_DECLS
