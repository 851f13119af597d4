#include "stacks.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/file-read.h"
#include "../io/raw-sniff.h"
#include "../hdr/stack.h"
#include "../io/text-input.h"

void
lm_batch_stack_free (gpointer data)
{
  LmBatchStack *s = data;
  g_free (s->id);
  g_free (s->folder);
  g_free (s->source);
  g_clear_pointer (&s->files, g_ptr_array_unref);
  g_clear_pointer (&s->times, g_array_unref);
  g_free (s->problem);
  g_free (s);
}

void
lm_batch_list_free (LmBatchList *list)
{
  if (list == NULL)
    return;
  g_ptr_array_unref (list->stacks);
  g_free (list->empty_input);
  g_free (list);
}

gboolean
lm_batch_id_valid (const char *text)
{
  if (text == NULL || *text == '\0' || *text == '.' || !g_utf8_validate (text, -1, NULL))
    return FALSE;
  for (const char *p = text; *p; p++)
    if (*p == '/' || (guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return TRUE;
}

char *
lm_batch_id_short (const char *id)
{
  if (strlen (id) <= LM_BATCH_ID_LISTED_MAX)
    return g_strdup (id);
  g_autofree char *head = lm_text_escape (id, -1, 64);
  g_autofree char *hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, id, -1);
  return g_strdup_printf ("%s~%.16s", head, hash);
}

static gboolean
is_image_name (const char *name)
{
  static const char *const exts[] = { ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp" };
  const char *dot = strrchr (name, '.');
  for (guint i = 0; dot && i < G_N_ELEMENTS (exts); i++)
    if (g_ascii_strcasecmp (dot, exts[i]) == 0)
      return TRUE;
  /* Not a camera raw: raw brackets are not merged yet (core/merge/job.c says so of one given
   * by name), and a camera writing RAW+JPEG leaves the JPEGs to merge. */
  return FALSE;
}

static gboolean
add_folder (GPtrArray *stacks, const char *input, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (input, 0, error);
  if (dir == NULL)
    return FALSE;
  const char *name;
  while ((name = g_dir_read_name (dir)))
    {
      if (name[0] == '.')
        continue;
      g_autofree char *path = g_build_filename (input, name, NULL);
      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        continue;
      /* The id is a field of the journal's tab-separated lines and an output's name:
       * control characters or a name that is not UTF-8 could not be recorded. */
      if (!lm_batch_id_valid (name))
        {
          g_autofree char *display = g_filename_display_name (path);
          g_printerr (_("lumen-cli: %s: skipped: a stack folder's name must be UTF-8 without tabs, "
                        "newlines or other control characters\n"), display);
          continue;
        }
      LmBatchStack *s = g_new0 (LmBatchStack, 1);
      s->id = g_strdup (name);
      s->source = g_filename_display_name (path);
      s->folder = g_steal_pointer (&path);
      g_ptr_array_add (stacks, s);
    }
  return TRUE;
}

/* The line number of OFFSET in TEXT. */
static guint
line_of (const char *text, gsize offset)
{
  guint line = 1;
  for (gsize i = 0; i < offset; i++)
    line += text[i] == '\n';
  return line;
}

typedef struct {
  LmBatchStack *stack;
  int first, last; /* lines, 0-based */
} ManifestBlock;

static gboolean
add_manifest (GPtrArray *stacks, const char *input, GError **error)
{
  g_autofree char *display = g_filename_display_name (input);
  g_autoptr (GBytes) bytes = lm_file_read (input, LM_FILE_KIND_TEXT, LM_FILE_RECORDS_MAX, error);
  if (bytes == NULL)
    return FALSE;
  gsize size = 0;
  const char *text = g_bytes_get_data (bytes, &size);
  if (text == NULL)
    text = "";
  /* Lines are split as C strings: past a NUL byte every line would be lost unseen. */
  const char *nul = memchr (text, '\0', size);
  if (nul)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                   _("%s: line %u: a NUL byte: a manifest is text (stack_id<TAB>image<TAB>seconds lines)"),
                   display, line_of (text, nul - text));
      return FALSE;
    }
  g_autofree char *dir = g_path_get_dirname (input);
  /* One stack's lines are one block: the same id again after other stacks' lines is most
   * likely a second stack given the same id (two manifests put together), which would be
   * merged with the first into one stack of both's exposures. */
  g_autoptr (GHashTable) by_id = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  ManifestBlock *current = NULL;
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (int i = 0; lines[i]; i++)
    {
      char *line = lines[i];
      gsize len = strlen (line);
      if (len > 0 && line[len - 1] == '\r')
        line[len - 1] = '\0';
      if (*line == '\0' || *line == '#')
        continue;
      g_auto (GStrv) f = g_strsplit (line, "\t", -1);
      if (!lm_batch_id_valid (f[0]))
        {
          /* The file's content is at fault, not the command: bad input (exit 1). */
          g_autofree char *quoted = lm_text_quote (f[0], -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                       _("%s: line %d: “%s” cannot name a stack (no “/”, no leading “.”, no control "
                         "characters)"), display, i + 1, quoted);
          return FALSE;
        }
      ManifestBlock *block = g_hash_table_lookup (by_id, f[0]);
      if (block && block != current)
        {
          g_autofree char *quoted = lm_text_quote (f[0], -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                       _("%s: line %d: stack id “%s” again, after other stacks’ lines; its first lines are "
                         "%d–%d: two stacks cannot share an id (each names an output), and one stack’s lines "
                         "must be together"),
                       display, i + 1, quoted, block->first + 1, block->last + 1);
          return FALSE;
        }
      if (block == NULL)
        {
          LmBatchStack *s = g_new0 (LmBatchStack, 1);
          s->id = g_strdup (f[0]);
          s->source = g_strdup_printf (_("%s, line %d"), display, i + 1);
          s->files = g_ptr_array_new_with_free_func (g_free);
          s->times = g_array_new (FALSE, FALSE, sizeof (double));
          g_ptr_array_add (stacks, s);
          block = g_new0 (ManifestBlock, 1);
          *block = (ManifestBlock) { s, i, i };
          g_hash_table_insert (by_id, s->id, block);
        }
      current = block;
      block->last = i;
      LmBatchStack *s = block->stack;
      /* A bad line spoils its stack only: the batch goes on with the others. */
      double t = 0.0;
      if (s->problem)
        continue;
      if (g_strv_length (f) != 3 || *f[1] == '\0')
        s->problem = g_strdup_printf (_("%s: line %d: expected “stack_id<TAB>image<TAB>seconds”"),
                                      display, i + 1);
      else if (!lm_hdr_parse_seconds (g_strstrip (f[2]), &t, NULL))
        {
          /* The one parser of exposure times ("0.004", "1/250"), as --times and --exposures. */
          g_autofree char *quoted = lm_text_quote (f[2], -1);
          s->problem = g_strdup_printf (_("%s: line %d: “%s” is not a time in seconds"), display, i + 1, quoted);
        }
      else
        {
          g_ptr_array_add (s->files, g_path_is_absolute (f[1]) ? g_strdup (f[1])
                                                                : g_build_filename (dir, f[1], NULL));
          g_array_append_val (s->times, t);
        }
    }
  return TRUE;
}

static int
compare_ids (gconstpointer a, gconstpointer b)
{
  const LmBatchStack *x = *(LmBatchStack *const *) a, *y = *(LmBatchStack *const *) b;
  return strcmp (x->id, y->id);
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

LmBatchList *
lm_batch_list_new (const char *const *inputs, GError **error)
{
  g_autoptr (GPtrArray) stacks = g_ptr_array_new_with_free_func (lm_batch_stack_free);
  g_autofree char *empty_input = NULL;
  for (int i = 0; inputs[i]; i++)
    {
      g_autofree char *display = g_filename_display_name (inputs[i]);
      guint before = stacks->len;
      gboolean ok;
      if (g_file_test (inputs[i], G_FILE_TEST_IS_DIR))
        ok = add_folder (stacks, inputs[i], error);
      else if (g_str_has_suffix (inputs[i], ".tsv"))
        ok = add_manifest (stacks, inputs[i], error);
      else if (!g_file_test (inputs[i], G_FILE_TEST_EXISTS))
        {
          /* A misspelt INPUT: a usage error, as one that is neither kind is. */
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s: no such file or folder"), display);
          ok = FALSE;
        }
      else
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: neither a folder of stack folders nor a .tsv manifest"), display);
          ok = FALSE;
        }
      if (!ok)
        return NULL;
      if (stacks->len == before && empty_input == NULL)
        empty_input = g_strdup (inputs[i]);
    }
  g_ptr_array_sort (stacks, compare_ids);
  for (guint i = 1; i < stacks->len; i++)
    {
      const LmBatchStack *a = stacks->pdata[i - 1], *b = stacks->pdata[i];
      if (strcmp (a->id, b->id) == 0)
        {
          /* Two stacks of one id would write one output. */
          g_autofree char *quoted = lm_text_quote (a->id, -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("stack id “%s” is given twice (%s and %s): outputs are named after the ids"),
                       quoted, a->source, b->source);
          return NULL;
        }
    }
  LmBatchList *list = g_new0 (LmBatchList, 1);
  list->stacks = g_steal_pointer (&stacks);
  list->empty_input = g_steal_pointer (&empty_input);
  return list;
}

gboolean
lm_batch_stack_members (const LmBatchStack *stack, GPtrArray **files, GArray **times, GError **error)
{
  if (stack->problem)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "%s", stack->problem);
      return FALSE;
    }
  if (stack->folder == NULL)
    {
      *files = g_ptr_array_ref (stack->files);
      *times = g_array_ref (stack->times);
      return TRUE;
    }
  g_autofree char *listing = g_build_filename (stack->folder, "exposures.txt", NULL);
  if (g_file_test (listing, G_FILE_TEST_EXISTS))
    return lm_hdr_read_exposures (listing, files, times, error);

  g_autoptr (GDir) dir = g_dir_open (stack->folder, 0, error);
  if (dir == NULL)
    return FALSE;
  g_autoptr (GPtrArray) found = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)))
    if (name[0] != '.' && is_image_name (name))
      g_ptr_array_add (found, g_build_filename (stack->folder, name, NULL));
  g_ptr_array_sort (found, compare_paths);
  *files = g_steal_pointer (&found);
  *times = NULL;
  return TRUE;
}
