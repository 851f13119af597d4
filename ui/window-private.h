/* What the files of LmWindow share: window.c (life, rendering, results, actions) and the
 * window-*.c files of one concern each. Each concern keeps its state in a struct of its own,
 * declared by its header (window-status.h, window-export.h, ...) and defined in its .c: the
 * others call its functions and never see its fields. What is here is what every concern
 * works with: the template's widgets, the panels, the photo and the render worker. Not part
 * of window.h. */
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
  GtkLabel *status_tags;

  /* the views and panels window.c builds */
  LmImageView *image_view;
  LmHistogramView *histogram_view;
  GtkBox *instances_box;    /* window-instances.h: a panel per instance, in the pipeline's order */
  GPtrArray *panels;        /* those LmOpPanels in that order (the export's resize has none) */
  LmOpPanel *tonemap_panel; /* shown while the source is radiance or a raw */
  LmOpPanel *raw_panel;     /* shown while the source is a raw (window-raw.h) */

  /* the photo being edited */
  GSettings *settings;      /* NULL when the schema is not installed: defaults then */
  LmImage *source;          /* host memory */
  GFile *file;
  LmPipeline pipeline;
  LmHistory *history;
  guint32 selected_instance; /* window-selection.h */

  /* the render worker: what it is asked, on which backend */
  LmRenderWorker *worker;
  guint64 generation;       /* of the newest request */
  guint64 shown;            /* of the newest result shown */
  LmBackendKind backend;
  gboolean cuda_usable;
  char *cuda_unavailable;   /* why not, once the worker has said so */

  /* each concern's own, seen through its header only */
  struct _LmWindowStatus *status;   /* window-status.h: info bar, busy indicator, status bar */
  struct _LmWindowSplit *split;     /* window-split.h: the before/after split */
  struct _LmWindowOpen *open;       /* window-open.h: the load under way, the discard prompt */
  struct _LmWindowExport *export;   /* window-export.h: the export under way */
  struct _LmWindowSidecar *sidecar; /* window-sidecar.h: the sidecar of the photo's edits */
  struct _LmWindowEdits *edits;     /* window-edits.h: what Revert to Original restores */
  struct _LmWindowHdr *hdr;         /* window-hdr.h: the merge under way, tone mapping */
  struct _LmWindowTools *tools;     /* window-tools.h: the tool bar and the active tool */
  struct _LmWindowColor *color;     /* window-color.h: view transform, monitor profile */
  struct _LmWindowAstro *astro;     /* window-astro.h: a FITS file's data and sources */
  struct _LmApplyRun *apply;        /* window-apply.h: Apply Edits to Photos… under way */
  struct _LmWindowFolder *folder;   /* window-folder.h: the folder's grid and filmstrip */
  struct _LmWindowTags *tags;       /* window-tags.h: the rating keys on the photo */
  struct _LmWindowObjects *objects; /* window-objects.h: objects found in the photo, their boxes */
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

/* window-instances.c: the panel of OP's primary instance (the one that means the operation),
 * NULL for the export's resize. */
LmOpPanel *lm_window_primary_panel (LmWindow *self, LmOpId op);

/* A new source (IMAGE, host memory; from FILE) with self->pipeline as its starting point: a
 * fresh history, the tone mapping panel where it is radiance. The header shows FILE's name as
 * its title and SUBTITLE (NULL: none) under it, such as "HDR, 5 exposures": each line is
 * short enough to be read whole beside the header's buttons. */
void lm_window_start_editing (LmWindow *self, LmImage *image, GFile *file, const char *subtitle);
/* Results in flight are of what was shown before (another photo, or its view before a
 * merge): a new generation drops them. */
void lm_window_drop_results (LmWindow *self);

G_END_DECLS
