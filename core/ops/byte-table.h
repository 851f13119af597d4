/* A row of bytes through a 256-entry table, on the widest unit the CPU has: with AVX-512
 * VBMI the table sits in four registers and 64 bytes are looked up at once (two byte
 * permutes and a blend), where a scalar loop does one load a byte. */
#pragma once

#include <glib.h>

void lm_byte_table_row (const guint8 *in, guint8 *out, gsize n, const guint8 table[256]);
