/* lumen-cli batch: its pieces. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int lm_cli_batch_main (int argc, char **argv);
/* --report OUTDIR */
int lm_cli_batch_report (const char *outdir);

G_END_DECLS
