/* The photos of a develop batch (develop-list.h). */
#include "develop-list.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/file-read.h"
#include "../io/raw-sniff.h"
#include "../io/text-input.h"

gboolean
lm_develop_is_photo_name (const char *name)
{
  static const char *const exts[] = { ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".webp" };
  const char *dot = strrchr (name, '.');
  for (guint i = 0; dot && i < G_N_ELEMENTS (exts); i++)
    if (g_ascii_strcasecmp (dot, exts[i]) == 0)
      return TRUE;
  return lm_raw_has_suffix (name);
}

typedef struct {
  const char *dollar, *brace;
} Variable;

/* The variables, in the order of the switch in lm_develop_name. */
static const Variable variables[] = {
  { "$(FILE_NAME)", "{name}" },
  { "$(FILE_EXTENSION)", "{ext}" },
  { "$(SEQUENCE)", "{n}" },
};

char *
lm_develop_name (const char *pattern, const char *photo, guint index, GError **error)
{
  g_autofree char *base = g_path_get_basename (photo);
  char *dot = strrchr (base, '.');
  const char *ext = "";
  if (dot && dot != base)
    {
      *dot = '\0';
      ext = dot + 1;
    }
  g_autoptr (GString) name = g_string_new (NULL);
  for (const char *p = pattern; *p;)
    {
      if (p[0] == '$' && p[1] == '$')
        {
          g_string_append_c (name, '$');
          p += 2;
          continue;
        }
      if (*p != '$' && *p != '{')
        {
          g_string_append_c (name, *p++);
          continue;
        }
      guint v;
      gsize len = 0;
      for (v = 0; v < G_N_ELEMENTS (variables); v++)
        {
          const char *word = *p == '$' ? variables[v].dollar : variables[v].brace;
          if (g_str_has_prefix (p, word))
            {
              len = strlen (word);
              break;
            }
        }
      if (v == G_N_ELEMENTS (variables))
        {
          if (*p == '{' || (p[0] == '$' && p[1] == '('))
            {
              const char *end = strchr (p, *p == '{' ? '}' : ')');
              g_autofree char *quoted = lm_text_quote (p, end ? end - p + 1 : -1);
              g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           _("name pattern: unknown variable “%s” (known: $(FILE_NAME), $(FILE_EXTENSION), "
                             "$(SEQUENCE), or {name}, {ext}, {n})"),
                           quoted);
              return NULL;
            }
          g_string_append_c (name, *p++);
          continue;
        }
      switch (v)
        {
        case 0:
          g_string_append (name, base);
          break;
        case 1:
          g_string_append (name, ext);
          break;
        default:
          g_string_append_printf (name, "%04u", index);
          break;
        }
      p += len;
    }
  return g_string_free (g_steal_pointer (&name), FALSE);
}

gboolean
lm_develop_pattern_check (const char *pattern, GError **error)
{
  g_autofree char *name = lm_develop_name (pattern, "photo.jpg", 1, error);
  return name != NULL;
}

static LmBatchStack *
photo_new (const char *id, const char *photo, const char *sidecar, char *source)
{
  LmBatchStack *s = g_new0 (LmBatchStack, 1);
  s->id = g_strdup (id);
  s->source = source;
  s->files = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (s->files, g_strdup (photo));
  if (sidecar)
    g_ptr_array_add (s->files, g_strdup (sidecar));
  return s;
}

const char *
lm_develop_photo_of (const LmBatchStack *stack)
{
  return stack->files->pdata[0];
}

const char *
lm_develop_sidecar_of (const LmBatchStack *stack)
{
  return stack->files->len > 1 ? stack->files->pdata[1] : NULL;
}

static gboolean
list_folder (GPtrArray *paths, const char *input, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (input, 0, error);
  if (dir == NULL)
    return FALSE;
  const char *name;
  while ((name = g_dir_read_name (dir)))
    if (name[0] != '.' && lm_develop_is_photo_name (name))
      {
        g_autofree char *path = g_build_filename (input, name, NULL);
        /* A subfolder named like a photo is not one; a fifo or a device is, and fails alone
         * when it is read (the loader refuses it by name). */
        if (!g_file_test (path, G_FILE_TEST_IS_DIR))
          g_ptr_array_add (paths, g_steal_pointer (&path));
      }
  return TRUE;
}

static int
compare_paths (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* A name no output file can have fails its photo, not the batch. */
static void
add_named (GPtrArray *stacks, const char *pattern, const char *photo, guint index)
{
  GError *e = NULL;
  g_autofree char *id = lm_develop_name (pattern, photo, index, &e);
  LmBatchStack *s = photo_new (id ? id : "", photo, NULL, g_filename_display_name (photo));
  if (id == NULL || !lm_batch_id_valid (id))
    {
      /* An id the journal cannot hold: the photo is listed under a stand-in made of its index. */
      g_free (s->id);
      s->id = g_strdup_printf ("photo-%04u", index);
      s->problem = e ? g_strdup (e->message)
                     : g_strdup_printf (_("%s: its name pattern gives “%s”, which cannot name a file"), s->source,
                                        id);
    }
  g_clear_error (&e);
  g_ptr_array_add (stacks, s);
}

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
  if (memchr (text, '\0', size))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                   _("%s: a NUL byte: a manifest is text (id<TAB>photo[<TAB>sidecar] lines)"), display);
      return FALSE;
    }
  g_autofree char *dir = g_path_get_dirname (input);
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
      guint n = g_strv_length (f);
      if (!lm_batch_id_valid (f[0]))
        {
          g_autofree char *quoted = lm_text_quote (f[0], -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT,
                       _("%s: line %d: “%s” cannot name an output (no “/”, no leading “.”, no control "
                         "characters)"),
                       display, i + 1, quoted);
          return FALSE;
        }
      g_autofree char *photo = n >= 2 && *f[1] ? (g_path_is_absolute (f[1]) ? g_strdup (f[1])
                                                                             : g_build_filename (dir, f[1], NULL))
                                               : g_strdup ("");
      g_autofree char *sidecar = n == 3 && *f[2] ? (g_path_is_absolute (f[2]) ? g_strdup (f[2])
                                                                               : g_build_filename (dir, f[2], NULL))
                                                 : NULL;
      LmBatchStack *s = photo_new (f[0], photo, sidecar, g_strdup_printf (_("%s, line %d"), display, i + 1));
      if (n < 2 || n > 3 || *f[1] == '\0')
        s->problem = g_strdup_printf (_("%s: line %d: expected “id<TAB>photo” or “id<TAB>photo<TAB>sidecar”"),
                                      display, i + 1);
      g_ptr_array_add (stacks, s);
    }
  return TRUE;
}

static int
compare_ids (gconstpointer a, gconstpointer b)
{
  const LmBatchStack *x = *(LmBatchStack *const *) a, *y = *(LmBatchStack *const *) b;
  return strcmp (x->id, y->id);
}

/* STACKS sorted by id (the order shards split), with no id twice: two photos of one name would
 * write one output. */
static LmBatchList *
finish_list (GPtrArray *stacks, char *empty_input, GError **error)
{
  g_ptr_array_sort (stacks, compare_ids);
  for (guint i = 1; i < stacks->len; i++)
    {
      const LmBatchStack *a = stacks->pdata[i - 1], *b = stacks->pdata[i];
      if (strcmp (a->id, b->id) == 0)
        {
          g_autofree char *quoted = lm_text_quote (a->id, -1);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("two photos would be named “%s” (%s and %s): give a name pattern that tells them "
                         "apart, such as $(FILE_NAME)-$(FILE_EXTENSION)"),
                       quoted, a->source, b->source);
          g_free (empty_input);
          return NULL;
        }
    }
  LmBatchList *list = g_new0 (LmBatchList, 1);
  list->stacks = g_ptr_array_ref (stacks);
  list->empty_input = empty_input;
  return list;
}

static LmBatchList *
list_new (const char *const *inputs, const char *pattern, gboolean photos_too, GError **error)
{
  if (!lm_develop_pattern_check (pattern, error))
    return NULL;
  g_autoptr (GPtrArray) stacks = g_ptr_array_new_with_free_func (lm_batch_stack_free);
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func (g_free);
  char *empty_input = NULL;
  for (int i = 0; inputs[i]; i++)
    {
      g_autofree char *display = g_filename_display_name (inputs[i]);
      guint before = stacks->len + photos->len;
      gboolean ok;
      if (g_file_test (inputs[i], G_FILE_TEST_IS_DIR))
        ok = list_folder (photos, inputs[i], error);
      else if (g_str_has_suffix (inputs[i], ".tsv"))
        ok = add_manifest (stacks, inputs[i], error);
      else if (photos_too && g_file_test (inputs[i], G_FILE_TEST_EXISTS))
        {
          /* A photo named on the command line is taken whatever it is: one that is not a
           * photo fails alone when it is read, by name. */
          g_ptr_array_add (photos, g_strdup (inputs[i]));
          ok = TRUE;
        }
      else
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       g_file_test (inputs[i], G_FILE_TEST_EXISTS)
                         ? _("%s: neither a folder of photos nor a .tsv manifest")
                         : _("%s: no such file or folder"),
                       display);
          ok = FALSE;
        }
      if (!ok)
        {
          g_free (empty_input);
          return NULL;
        }
      if (stacks->len + photos->len == before && empty_input == NULL)
        empty_input = g_strdup (inputs[i]);
    }
  g_ptr_array_sort (photos, compare_paths);
  for (guint k = 0; k < photos->len; k++)
    add_named (stacks, pattern, photos->pdata[k], k + 1);
  return finish_list (stacks, empty_input, error);
}

LmBatchList *
lm_develop_list_new (const char *const *inputs, const char *pattern, GError **error)
{
  return list_new (inputs, pattern, FALSE, error);
}

LmBatchList *
lm_photo_list_new (const char *const *inputs, const char *pattern, GError **error)
{
  return list_new (inputs, pattern, TRUE, error);
}

LmBatchList *
lm_develop_list_of_photos (const char *const *photos, guint n, const char *pattern, GError **error)
{
  if (!lm_develop_pattern_check (pattern, error))
    return NULL;
  g_autoptr (GPtrArray) stacks = g_ptr_array_new_with_free_func (lm_batch_stack_free);
  for (guint k = 0; k < n; k++)
    add_named (stacks, pattern, photos[k], k + 1);
  return finish_list (stacks, NULL, error);
}
