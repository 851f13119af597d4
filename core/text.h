/* Text a user hands to Lumen: numbers, in files and on the command line, read by one parser;
 * and a user's words quoted in a message at a bounded length, with what a terminal cannot
 * show escaped. Reading a text file: core/io/text-input.h. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What lm_text_quote keeps of a user's text, in characters (an escape counts as its
 * characters), before it cuts with "…". */
#define LM_TEXT_QUOTE_MAX 80

/* TEXT (LENGTH bytes, or up to its NUL when LENGTH is -1) as a message quotes it: at most
 * LM_TEXT_QUOTE_MAX characters, then "…"; bytes that are not UTF-8 as \xNN, control
 * characters as \n, \t, \r or \xNN, other unprintable characters as \u{NNNN}. Without
 * quotation marks: the message has its own. */
char *lm_text_quote (const char *text, gssize length);

/* As lm_text_quote, cut after MAX_CHARS characters (never when MAX_CHARS is negative). */
char *lm_text_escape (const char *text, gssize length, glong max_chars);

/* Reads TEXT, all of it, as a decimal number in the C locale ("0.5", "-2", "1e-3"). A number
 * too small for a double (1e-320, 1e-400) reads as the nearest double, down to 0: it is a
 * number, and the caller's range judges it. "nan", "inf" and numbers too large for a double
 * (1e400) are refused. The message quotes TEXT (lm_text_quote) and names no context: the
 * caller prefixes its own (g_prefix_error). */
gboolean lm_text_parse_double (const char *text, double *value, GError **error);

G_END_DECLS
