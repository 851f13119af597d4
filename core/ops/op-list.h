/* The operations, in pipeline order: the one list that everything else is generated from.
 *
 *   LM_OP (ID, name, Name)
 *
 * ID gives LM_OP_<ID> (the LmOpId enum, op.h); name is the operation's name (its CLI flag
 * --<name>, its sidecar group [<name>]) and its files' name: core/ops/<name>.c (parameter
 * description and CPU reference, defining lm_<name>_op), core/ops/<name>-math.h (its
 * Lm<Name>Params struct and per-pixel math, shared by gcc and nvcc), kernels/<name>.cu (its
 * CUDA kernel and LmKOp lm_k_<name>_op: launch and scratch memory) or, optionally, the host
 * launch in core/ops/<name>-cuda.c (built only with CUDA). Read by C as an X-macro (define
 * LM_OP, include this file, undefine it: op.h, ops.h, registry.c, edit/pipeline.h,
 * kernels/kernels.h, backend/cuda.c) and by meson (kernels/meson.build: every line that
 * starts with "LM_OP (" names one operation's sources). Math headers are included here,
 * once each, so that the parameter structs are known wherever the list is: include this file
 * once at file level (op.h does) before any X-macro use inside a declaration. */
#include "gray-math.h"
#include "equalize-math.h"
#include "blur-math.h"

#ifdef LM_OP
LM_OP (GRAY, gray, Gray)
LM_OP (EQUALIZE, equalize, Equalize)
LM_OP (BLUR, blur, Blur)
#endif
