/* The operations, in pipeline order: the one list that everything else is generated from.
 *
 *   LM_OP (ID, name, Name, KIND)
 *
 * ID gives LM_OP_<ID> (the LmOpId enum, op-id.h); name is the operation's name (its CLI flag
 * --<name>, its sidecar group [<name>]) and its files' name: core/ops/<name>.c (parameter
 * description and CPU reference, defining lm_<name>_op), core/ops/<name>-math.h (its
 * Lm<Name>Params struct and per-pixel math, shared by gcc and nvcc), kernels/<name>.cu (its
 * CUDA kernel and LmKOp lm_k_<name>_op: launch and scratch memory) or, optionally, the host
 * launch in core/ops/<name>-cuda.c (built only with CUDA). KIND says how it runs (LmOpKind,
 * op.h): GEOMETRY moves pixels and may change the size; POINT maps each channel on its own
 * and POINT_COLOR also each pixel's colour as a whole: consecutive POINT and POINT_COLOR
 * operations run as one fused pass (point-math.h), and have no kernel of their own; PIXEL is
 * a per-pixel pass of its own (it may change the format); GLOBAL needs a first pass over the
 * image (equalize's histogram); AREA reads neighbours; EXPORT runs only on export and in
 * lumen-cli, not in the window's view.
 *
 * Read by C as an X-macro (define LM_OP, include this file, undefine it) and by meson
 * (kernels/meson.build: every line that starts with "LM_OP (" names one operation's
 * sources). Math headers are included here, once each, so that the parameter structs are
 * known wherever the list is: include this file once at file level (op-id.h does) before any
 * X-macro use inside a declaration. */
#include "lens-math.h"
#include "rotate-math.h"
#include "straighten-math.h"
#include "crop-math.h"
#include "denoise-math.h"
#include "wb-math.h"
#include "exposure-math.h"
#include "contrast-math.h"
#include "curve-math.h"
#include "saturation-math.h"
#include "colormix-math.h"
#include "toneeq-math.h"
#include "localcontrast-math.h"
#include "vignette-math.h"
#include "gray-math.h"
#include "equalize-math.h"
#include "blur-math.h"
#include "sharpen-math.h"
#include "resize-math.h"

#ifdef LM_OP
LM_OP (LENS, lens, Lens, GEOMETRY)
LM_OP (ROTATE, rotate, Rotate, GEOMETRY)
LM_OP (STRAIGHTEN, straighten, Straighten, GEOMETRY)
LM_OP (CROP, crop, Crop, GEOMETRY)
LM_OP (DENOISE, denoise, Denoise, AREA)
LM_OP (WB, wb, Wb, POINT)
LM_OP (EXPOSURE, exposure, Exposure, POINT)
LM_OP (CONTRAST, contrast, Contrast, POINT)
LM_OP (CURVE, curve, Curve, POINT_COLOR)
LM_OP (SATURATION, saturation, Saturation, POINT_COLOR)
LM_OP (COLORMIX, colormix, Colormix, POINT_COLOR)
LM_OP (TONEEQ, toneeq, Toneeq, AREA)
LM_OP (LOCALCONTRAST, localcontrast, Localcontrast, AREA)
LM_OP (VIGNETTE, vignette, Vignette, PIXEL)
LM_OP (GRAY, gray, Gray, PIXEL)
LM_OP (EQUALIZE, equalize, Equalize, GLOBAL)
LM_OP (BLUR, blur, Blur, AREA)
LM_OP (SHARPEN, sharpen, Sharpen, AREA)
LM_OP (RESIZE, resize, Resize, EXPORT)
#endif
