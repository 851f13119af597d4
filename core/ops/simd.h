/* CPU code paths for wider vector units: hot row loops are compiled twice, for x86-64-v3
 * (AVX2, FMA) and the baseline, and the loader picks one at start-up, so that one binary
 * runs everywhere and uses AVX2 where it exists. */
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define LM_SIMD_CLONES __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define LM_SIMD_CLONES
#endif
