/* One photo developed as `lumen-cli --params SIDECAR -o OUT PHOTO` develops it: the render
 * (in one piece on the backend, in tiles where it does not fit, a raw's scene for a radiance
 * output), the CPU's render where the GPU cannot, the photo's metadata on the result, and the
 * save. lumen-cli, `lumen-cli batch develop` and the window's Export Selected… all call this,
 * so that a photo exported by any of them is the same file. */
#pragma once

#include <glib.h>

#include "../backend/backend.h"
#include "../color/profile.h"
#include "../edit/pipeline.h"
#include "../image.h"
#include "../io/io.h"
#include "../timing.h"

G_BEGIN_DECLS

/* Whether the file at PATH is a camera raw, by its content; FALSE where it cannot be read,
 * which its load then says. */
gboolean lm_develop_is_raw (const char *path);

/* What happens on the way that the person is told (a fall-back to the CPU, a profile that
 * cannot be read, the edits a raw's scene leaves out): one line each, appended to SAID (of
 * char *), without the program's name. */

/* Whether work that failed with ERROR on BACKEND is to be done again on the CPU: only where
 * BACKEND is a GPU's that ran out of memory, lacks the step or failed. ASKED is the backend
 * the person asked for: a note goes to SAID (may be NULL) where they asked for the GPU, or
 * the GPU failed. */
gboolean lm_develop_fall_back (LmBackendKind asked, LmBackend *backend, const GError *error, GPtrArray *said);

/* SOURCE (a raw) developed on BACKEND by PIPELINE's raw stage and its edits on scene light, in
 * host memory: the scene in linear Rec. 2020 (RGBA_F32), what a .exr of a raw holds. A note
 * in SAID names the edits that act after the display transform, which OUTPUT lacks. */
LmImage *lm_develop_scene (LmBackend *backend, LmImage *source, LmColorProfile *color, const LmPipeline *pipeline,
                           const char *output, LmTimings *timings, GPtrArray *said, GError **error);

/* SOURCE (loaded from IN_PATH) through PIPELINE on *BACKEND, with SOURCE's metadata: in one
 * piece where it fits, else in tiles; a raw's scene where OUTPUT is .hdr/.exr. A GPU that
 * cannot is replaced in *BACKEND by the CPU's, which renders it from SOURCE (ASKED: the
 * --backend given, for the note). The result stays in device memory where ON_DEVICE asks and
 * the render was in one piece (for nvJPEG); host memory otherwise. MASK_ID not 0: that
 * instance's mask in *MASK (host memory, GRAY_F32). Fails naming IN_PATH where PIPELINE asks
 * for lens correction the photo cannot have. The render runs once: on the CPU its steps'
 * outputs alternate between two buffers, taken first from BUFFERS (of LmImage in host memory,
 * e.g. faulted in beside the decoding: prefault.h; may be NULL). */
LmImage *lm_develop_photo (LmBackend **backend, LmBackendKind asked, const char *in_path, LmImage *source,
                           const LmPipeline *pipeline, const char *output, gboolean on_device, guint32 mask_id,
                           LmImage **mask, GPtrArray *buffers, LmTimings *timings, GPtrArray *said,
                           GError **error);

/* IMAGE (lm_develop_photo's result) written to OUTPUT atomically: by nvJPEG where NVJPEG asks
 * and it can (IMAGE on BACKEND's device), else by the CPU's writers, with a note in SAID
 * saying why not. OPTIONS->notes receives what the writer could not keep. */
gboolean lm_develop_save (LmBackend *backend, LmImage *image, const char *output, gboolean nvjpeg,
                          const LmSaveOptions *options, LmTimings *timings, GPtrArray *said, GError **error);

/* IMAGE as nvJPEG encodes it where NVJPEG asks and it can (the bytes of a JPEG file, in
 * *ENCODED, *HOST left NULL), else in host memory in *HOST (downloaded where it was on the
 * device, into memory of DOWNLOAD_TO's where not NULL), with a note in SAID (naming OUTPUT)
 * where nvJPEG was asked for and could not. The batch's way to lm_develop_save's bytes
 * through its own commit. */
gboolean lm_develop_encode (LmBackend *backend, LmImage *image, const char *output, gboolean nvjpeg,
                            const LmSaveOptions *options, const LmAllocator *download_to, GBytes **encoded,
                            LmImage **host, LmTimings *timings, GPtrArray *said, GError **error);

G_END_DECLS
