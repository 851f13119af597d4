/* The few LibRaw names that changed between 0.20 (Debian 12), 0.21 (Ubuntu 24.04) and 0.22,
 * so that raw.c reads as one program against all of them. */
#pragma once

#include <libraw.h>

#if LIBRAW_COMPILE_CHECK_VERSION_NOTLESS(0, 21)
/* 0.21 moved the decoder's limits into rawparams, kept one inset crop per source (the maker's
 * and the aspect's), made the buffer const and dropped the memory-error callback: out of
 * memory is an error code only. */
#define LM_RAW_PARAMS(lr)     ((lr)->rawparams)
#define LM_RAW_INSET_CROP(lr) ((lr)->sizes.raw_inset_crops[0])
#define LM_RAW_INIT_FLAGS     (LIBRAW_OPIONS_NO_DATAERR_CALLBACK)
#define LM_RAW_BUFFER(data)   ((const void *) (data))
#define LM_RAW_HAS_MEMERROR_HANDLER 0
#else
#define LM_RAW_PARAMS(lr)     ((lr)->params)
#define LM_RAW_INSET_CROP(lr) ((lr)->sizes.raw_inset_crop)
#define LM_RAW_INIT_FLAGS     (LIBRAW_OPIONS_NO_DATAERR_CALLBACK | LIBRAW_OPIONS_NO_MEMERR_CALLBACK)
/* LibRaw's buffer stream only reads: the cast is what 0.20's prototype asks, no more. */
#define LM_RAW_BUFFER(data)   ((void *) (data))
#define LM_RAW_HAS_MEMERROR_HANDLER 1
#endif

#if LIBRAW_COMPILE_CHECK_VERSION_NOTLESS(0, 22)
typedef INT64 LmRawOffset; /* where a data error was found: 64 bits from 0.22 */
#else
typedef int LmRawOffset;
#endif
