/* stb_image's Radiance loader, compiled for the unit tests alone: an independent oracle of
 * valid .hdr files (test-rgbe.c, test-radiance-read.c). Lumen itself reads them with its own
 * reader (core/io/radiance-read.c): stb's loops for ever on a truncated run-length encoded
 * file. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STBI_FAILURE_USERMSG

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image.h>
#pragma GCC diagnostic pop
