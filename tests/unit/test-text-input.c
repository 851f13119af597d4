/* core/io/text-input.c: the bounded reader of small text files, the quoting of a user's text in
 * messages, and the one number parser. Expected values are written out here. */
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/error.h"
#include "core/io/text-input.h"
#include "test-util.h"

static void
assert_quote (const char *text, gssize len, const char *want)
{
  g_autofree char *got = lm_text_quote (text, len);
  g_assert_cmpstr (got, ==, want);
  g_assert_true (g_utf8_validate (got, -1, NULL));
}

static void
test_quote_escapes (void)
{
  assert_quote ("bt601", -1, "bt601");
  assert_quote ("Stärke ✓", -1, "Stärke ✓");
  assert_quote ("a\xff\xfe" "b", -1, "a\\xFF\\xFEb");
  assert_quote ("\x1b[31mred", -1, "\\x1B[31mred");
  assert_quote ("a\nb\tc\rd\x7f", -1, "a\\nb\\tc\\rd\\x7F");
  assert_quote ("x\xe2\x80\xae" "y", -1, "x\\u{202E}y"); /* right-to-left override */
  assert_quote ("\xc3", -1, "\\xC3");                   /* a sequence cut short */
  assert_quote ("a\0b", 3, "a\\x00b");
}

static void
test_quote_cut (void)
{
  g_autofree char *eighty = g_strnfill (LM_TEXT_QUOTE_MAX, 'x');
  assert_quote (eighty, -1, eighty);
  g_autofree char *longer = g_strnfill (10 * 1000 * 1000, 'x');
  g_autofree char *want = g_strconcat (eighty, "…", NULL);
  assert_quote (longer, -1, want);

  /* Characters, not bytes: 100 × "é" keeps 80 of them, whole. */
  GString *accents = g_string_new (NULL), *kept = g_string_new (NULL);
  for (int i = 0; i < 100; i++)
    g_string_append (accents, "é");
  for (int i = 0; i < LM_TEXT_QUOTE_MAX; i++)
    g_string_append (kept, "é");
  g_string_append (kept, "…");
  assert_quote (accents->str, -1, kept->str);
  g_string_free (accents, TRUE), g_string_free (kept, TRUE);

  /* An escape is never cut in two: 78 characters and a 4-character escape make 82. */
  g_autofree char *a78 = g_strnfill (78, 'a');
  g_autofree char *bad = g_strconcat (a78, "\xff", NULL);
  g_autofree char *cut = g_strconcat (a78, "…", NULL);
  assert_quote (bad, -1, cut);

  g_autofree char *all = lm_text_escape (longer, -1, -1);
  g_assert_cmpuint (strlen (all), ==, strlen (longer));
}

static void
assert_number (const char *text, double want)
{
  double v = -12345.0;
  GError *error = NULL;
  g_assert_true (lm_text_parse_double (text, &v, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (v, ==, want);
}

static void
assert_not_number (const char *text, const char *cause)
{
  double v = -12345.0;
  GError *error = NULL;
  g_assert_false (lm_text_parse_double (text, &v, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, cause));
  g_assert_cmpfloat (v, ==, -12345.0);
  g_error_free (error);
}

static void
test_parse_double (void)
{
  assert_number ("0.5", 0.5);
  assert_number ("-2", -2.0);
  assert_number ("1e3", 1000.0);
  assert_number ("1e-320", 1e-320); /* a subnormal: a number */
  assert_number ("1e-400", 0.0);    /* below every double: the nearest, 0 */
  assert_not_number ("nan", "not a number");
  assert_not_number ("NaN", "not a number");
  assert_not_number ("inf", "not a finite number");
  assert_not_number ("-infinity", "not a finite number");
  assert_not_number ("1e400", "not a finite number");
  assert_not_number ("-1e400", "not a finite number");
  assert_not_number ("", "not a number");
  assert_not_number ("wide", "“wide”");
  assert_not_number ("1,5", "not a number"); /* the C locale's point, whatever the user's */
  assert_not_number (" 1", "not a number");
  assert_not_number ("1 ", "not a number");
  g_autofree char *longer = g_strnfill (100000, '9');
  g_autofree char *digits = g_strconcat (longer, "x", NULL);
  double v;
  GError *error = NULL;
  g_assert_false (lm_text_parse_double (digits, &v, &error));
  g_assert_cmpuint (strlen (error->message), <, 200); /* quoted, not echoed */
  g_error_free (error);
}

/* Reads PATH and expects a failure whose message holds CAUSE. */
static void
assert_refused (const char *path, LmTextFileFlags flags, const char *cause)
{
  GError *error = NULL;
  gint64 start = g_get_monotonic_time ();
  g_autofree char *text = lm_text_file_read (path, flags, NULL, &error);
  g_assert_null (text);
  g_assert_nonnull (error);
  if (error == NULL)
    return;
  g_test_message ("%s", error->message);
  g_autofree char *display = g_filename_display_name (path);
  g_assert_true (g_str_has_prefix (error->message, display));
  g_assert_nonnull (strstr (error->message, cause));
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
  g_error_free (error);
}

static void
test_file_read (void)
{
  g_autofree char *ok = lm_test_write_tmp ("ok.txt", "[gray]\nmode=bt601\n", 18);
  gsize len = 0;
  GError *error = NULL;
  g_autofree char *text = lm_text_file_read (ok, LM_TEXT_FILE_UTF8, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "[gray]\nmode=bt601\n");
  g_assert_cmpuint (len, ==, 18);

  g_autofree char *nul = lm_test_write_tmp ("nul.txt", "a\nb\nc\0d\n", 8);
  assert_refused (nul, LM_TEXT_FILE_ANY, "line 3 holds a NUL byte");
  g_autofree char *latin = lm_test_write_tmp ("latin.txt", "a 1\nb 2\nStra\xdf" "e 3\n", 17);
  assert_refused (latin, LM_TEXT_FILE_UTF8, "line 3 is not UTF-8 text: “Stra\\xDFe 3”");
  g_autofree char *again = lm_text_file_read (latin, LM_TEXT_FILE_ANY, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (again);

  assert_refused ("/dev/zero", LM_TEXT_FILE_ANY, "not a regular file");
  assert_refused (lm_test_tmp_dir (), LM_TEXT_FILE_ANY, "folder");
  g_autofree char *missing = g_build_filename (lm_test_tmp_dir (), "missing.txt", NULL);
  assert_refused (missing, LM_TEXT_FILE_ANY, "no such file");
  g_autofree char *fifo = g_build_filename (lm_test_tmp_dir (), "fifo", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  assert_refused (fifo, LM_TEXT_FILE_ANY, "not a regular file");

  /* One byte over the bound, sparse: refused by its size, before reading. */
  g_autofree char *big = lm_test_write_tmp ("big.txt", "", 0);
  g_assert_cmpint (truncate (big, (off_t) LM_TEXT_FILE_MAX + 1), ==, 0);
  assert_refused (big, LM_TEXT_FILE_ANY, "larger than 16.0");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/text/quote/escapes", test_quote_escapes);
  g_test_add_func ("/text/quote/cut", test_quote_cut);
  g_test_add_func ("/text/parse-double", test_parse_double);
  g_test_add_func ("/text/file-read", test_file_read);
  return g_test_run ();
}
