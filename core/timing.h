/* A breakdown of where the time of one run went: load, upload, each operation, download,
 * save. */
#pragma once

#include <stdio.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *label;
  double ms;
  gboolean cached; /* the result came from the cache; ms is 0 */
  char *beside;    /* NULL, or what this ran beside on another thread (the label of that
                    * entry): its time is then not part of the total, which is the caller's */
} LmTiming;

typedef struct {
  GArray *entries; /* of LmTiming */
} LmTimings;

void lm_timings_init (LmTimings *timings);
void lm_timings_clear (LmTimings *timings);
/* Drops the entries after the first LENGTH: those of an attempt that is made again. */
void lm_timings_truncate (LmTimings *timings, guint length);
void lm_timings_add (LmTimings *timings, const char *label, double ms);
void lm_timings_add_cached (LmTimings *timings, const char *label);
/* Work done on another thread beside the entry labelled BESIDE: shown, not added to the total. */
void lm_timings_add_beside (LmTimings *timings, const char *label, double ms, const char *beside);
/* The sum of the entries that are not beside another. */
double lm_timings_total (const LmTimings *timings);
const LmTiming *lm_timings_find (const LmTimings *timings, const char *label);

/* One line per entry, then the total: "  blur        12.34 ms". */
/* LABEL padded with spaces to WIDTH characters: printf's %-10s pads by bytes, which
 * misaligns columns of translated labels such as "Zusammenführen". */
char *lm_pad_label (const char *label, int width);

void lm_timings_print (const LmTimings *timings, FILE *stream);

/* Milliseconds on the host's monotonic clock since START_US. */
double lm_ms_since (gint64 start_us);

G_END_DECLS
