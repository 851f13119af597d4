/* lumen-cli: shared pieces of its commands. */
#pragma once

#include <glib.h>

#include "core/backend/backend.h"
#include "core/image.h"
#include "core/io/io.h"
#include "core/edit/pipeline.h"
#include "core/timing.h"

G_BEGIN_DECLS

enum {
  LM_EXIT_OK = 0,
  LM_EXIT_FAILURE = 1, /* any error: one line on stderr names the file and the cause */
  LM_EXIT_USAGE = 2,
};

/* Prints "lumen-cli: MESSAGE" on one line of stderr. */
void lm_cli_error (const char *format, ...) G_GNUC_PRINTF (1, 2);
int lm_cli_usage_error (const char *message);

/* A command's options: PARAMETER (what follows the command in --help's first line) and
 * SUMMARY, translated; DESCRIPTION, the end of --help, or NULL; GROUP as the main group, or
 * NULL for a plain one; ENTRIES added to it. Every flag's help is in Lumen's domain. */
GOptionContext *lm_cli_options_new (const char *parameter, const char *summary, const char *description,
                                    GOptionGroup *group, const GOptionEntry *entries);
/* Parses ARGC and ARGV with CONTEXT; FALSE once a usage error is said (lm_cli_usage_error):
 * the command exits with LM_EXIT_USAGE. */
gboolean lm_cli_options_parse (GOptionContext *context, int *argc, char ***argv);

/* "lumen-cli: note: PATH: NOTE" on stderr, one line a note: what a loader or a writer could
 * not keep as the file has it (LmImage.notes, LmSaveOptions.notes). NOTES may be NULL. */
void lm_cli_notes (const char *path, GPtrArray *notes);

/* The operation flags (--gray MODE, --gray-amount A, …, --blur SIGMA, --params FILE),
 * generated from the operations' parameter tables, as an option group whose values are
 * applied to a pipeline after parsing. */
typedef struct _LmCliOps LmCliOps;
LmCliOps *lm_cli_ops_new (void);
void lm_cli_ops_free (LmCliOps *ops);
GOptionGroup *lm_cli_ops_group (LmCliOps *ops);
/* Applies --params first, then every flag in the order given. */
gboolean lm_cli_ops_apply (LmCliOps *ops, LmPipeline *pipeline, GError **error);
/* As lm_cli_ops_apply, for the photo INPUT: a camera raw's pipeline first (its development and
 * display transform), the flags over it, then fitted to it (lm_pipeline_fit_source: --raw-*
 * flags on a photo that is no raw leave no [raw] in its preset). INPUT NULL: no photo, a
 * preset alone, which keeps every flag. */
gboolean lm_cli_ops_apply_for (LmCliOps *ops, LmPipeline *pipeline, const char *input, GError **error);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmCliOps, lm_cli_ops_free)

/* The tone-mapping flags of lumen-cli hdr and batch, generated from tone mapping's LmOpInfo
 * (lm_tonemap_op_info): a flag for each number parameter (--gamma, --intensity,
 * --light-adapt, …: its name with "-" for "_"), with its range, label and when-rule, and
 * --gamma-correction, the merge's. --tonemap itself (its first parameter) stays each
 * command's own entry: its default differs. */
#define LM_CLI_TONE_MAX 16

typedef struct {
  char *tonemap;
  double gamma_correction;
  union {
    /* Tone mapping's number parameters: value[k − 1] is its LmOpInfo's params[k] (params[0],
     * the operator, is --tonemap's); lm_cli_tone_add_entries sets the defaults. */
    double value[LM_CLI_TONE_MAX];
    double gamma; /* value[0], params[1], which hdr and batch check */
  };
  int depth; /* --depth: bits per channel of a tone-mapped output, 8 or 16 */
} LmCliTone;

#define LM_CLI_TONE_INIT { 0 }

/* Adds --gamma, --gamma-correction and the operators' parameters to CONTEXT's main group, and
 * sets TONE to their defaults: the table's, as the window's. */
void lm_cli_tone_add_entries (GOptionContext *context, LmCliTone *tone);
/* Whether TONE's --depth suits an output of TYPE: 8, or 16 for PNG and TIFF (JPEG is 8-bit,
 * radiance files are float). A G_OPTION_ERROR (a usage error) names why not. */
gboolean lm_cli_tone_check_depth (const LmCliTone *tone, LmFileType type, GError **error);
/* TONE's flags as parameters; FALLBACK is the operator when --tonemap was not given. */
gboolean lm_cli_tone_params (const LmCliTone *tone, LmTonemapKind fallback, LmTonemapParams *params,
                             GError **error);

/* A number flag, read by lm_text_parse_double when GOption meets it and checked against
 * MIN..MAX there, so that nan, inf, 1e400 or a value out of range is a usage error that
 * names the flag. */
typedef struct {
  const char *name; /* as GOption passes it: "--gamma" */
  double min, max;
  gboolean integer; /* a whole number; TARGET is an int * */
  gpointer target;  /* a double *, or an int * */
} LmCliNumber;

/* NUMBERS (N of them, alive until the parse ends) become known to lm_cli_number_flag. */
void lm_cli_numbers_add (const LmCliNumber *numbers, guint n);
/* The GOptionArgFunc of every number flag. Its entries are G_OPTION_FLAG_FILENAME: the text
 * as typed reaches the parser, whose message quotes it escaped, rather than a failed
 * conversion to UTF-8 that names nothing. */
gboolean lm_cli_number_flag (const char *name, const char *value, gpointer data, GError **error);
#define LM_CLI_NUMBER_ENTRY(long_name, description, arg_description)                              \
  { long_name, 0, G_OPTION_FLAG_FILENAME, G_OPTION_ARG_CALLBACK, (gpointer) lm_cli_number_flag,    \
    description, arg_description }

/* Whether work that failed with ERROR on BACKEND is to be done again on the CPU, from the
 * images already decoded: only where BACKEND is a GPU's that ran out of memory, lacks the
 * step or failed. On the CPU (no GPU, or --backend cpu) the same work would fail the same
 * way. ASKED is the --backend given: a note says why, once, where the user asked for the GPU
 * (cuda) or the GPU failed; auto, which means "the GPU where it can", stays quiet when the
 * GPU was merely too small. */
gboolean lm_cli_fall_back_to_cpu (LmBackendKind asked, LmBackend *backend, const GError *error);

/* Parses --backend's value. */
gboolean lm_cli_parse_backend (const char *text, LmBackendKind *kind, GError **error);

/* Loads the photo at PATH for the 8-bit operations; a radiance map is refused with an
 * error naming the file, since only `lumen-cli hdr` works on those. */
LmImage *lm_cli_load_photo (const char *path, const LmAllocator *allocator, GError **error);
/* The same, telling TOLD of its image before its pixels are decoded (lm_io_load_telling). */
LmImage *lm_cli_load_photo_telling (const char *path, const LmAllocator *allocator, LmIoImageFunc told, gpointer data,
                                    GError **error);

/* Whether the file at PATH is a camera raw (by its content); FALSE where it cannot be read,
 * which its load then says. */
gboolean lm_cli_is_raw (const char *path);

/* Checks, before any work, that PATH names a format this command writes (8-bit photos;
 * RADIANCE_TOO: also .hdr and .exr) in a place files can be created; the message lists the
 * command's own extensions. */
gboolean lm_cli_check_output (const char *path, gboolean radiance_too, GError **error);

/* Whether BACKEND's work memory is apart from the host's: only then do upload and download
 * move pixels (on the CPU they share the image), and only then does --timings show them. */
gboolean lm_cli_backend_transfers (LmBackend *backend);

/* --mask-out and --mask-instance (cli-mask.c). The id of the instance of PIPELINE whose mask is
 * written: the one NAME names (--mask-instance: its sidecar group, "exposure" or "exposure#64",
 * or its name), or, NAME NULL, the only one with a mask. FALSE, with one line saying why,
 * where none has a mask, NAME names none or one without a mask, several have one and NAME is
 * NULL, or the instance is off (a mask that is not rendered). */
gboolean lm_cli_mask_instance (const LmPipeline *pipeline, const char *name, guint32 *id, GError **error);
/* Checks before any work that PATH is a .png that can be written (lm_io_check_output). */
gboolean lm_cli_mask_check_output (const char *path, GError **error);
/* MASK (GRAY_F32, 0..1, host memory) written to PATH as a 16-bit gray PNG (0..65535), as every
 * output is: through a temporary renamed into place, or with the command's atomic group. */
gboolean lm_cli_mask_save (const LmImage *mask, const char *path, GError **error);

/* "Commands:" and a line for each command, for --help. */
char *lm_cli_commands_help (void);

int lm_cli_process_main (int argc, char **argv);
int lm_cli_compare_main (int argc, char **argv);
int lm_cli_hdr_main (int argc, char **argv);
int lm_cli_detect_main (int argc, char **argv);
int lm_cli_detect_objects_main (int argc, char **argv);
int lm_cli_tags_main (int argc, char **argv);
int lm_cli_thumbnails_main (int argc, char **argv);
int lm_cli_presets_main (int argc, char **argv);

G_END_DECLS
