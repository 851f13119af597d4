/* The boxes as CSV or JSON (cli-objects-text.h). */
#include "cli-objects-text.h"

#include <string.h>

#include "core/detect/group.h"

gboolean
lm_cli_boxes_json (const char *path)
{
  return g_str_has_suffix (path, ".json") || g_str_has_suffix (path, ".JSON");
}

static void
append_json_string (GString *out, const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      guchar c = (guchar) *p;
      if (c == '"' || c == '\\')
        g_string_append_printf (out, "\\%c", c);
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
  g_string_append_c (out, '"');
}

/* A CSV field: quoted where it holds a comma, a quote or a line break (RFC 4180). */
static void
append_csv_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* BOXES as JSON objects, each on its own line after INDENT. */
static void
append_json_boxes (GString *out, const GArray *boxes, const char *label, const char *indent)
{
  g_string_append_c (out, '[');
  for (guint i = 0; i < boxes->len; i++)
    {
      const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
      g_string_append (out, i ? ",\n" : "\n");
      g_string_append_printf (out, "%s{\"label\": ", indent);
      append_json_string (out, label);
      g_string_append_printf (out, ", \"x\": %d, \"y\": %d, \"width\": %d, \"height\": %d, \"score\": %d}", b->x,
                              b->y, b->width, b->height, b->neighbors);
    }
  if (boxes->len)
    g_string_append_printf (out, "\n%.*s", (int) MAX (strlen (indent), 2) - 2, indent);
  g_string_append_c (out, ']');
}

/* BOXES as CSV rows, each after PREFIX (the file's field and its comma, or nothing). */
static void
append_csv_rows (GString *out, const GArray *boxes, const char *label, const char *prefix)
{
  for (guint i = 0; i < boxes->len; i++)
    {
      const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
      g_string_append (out, prefix);
      append_csv_field (out, label);
      g_string_append_printf (out, ",%d,%d,%d,%d,%d\n", b->x, b->y, b->width, b->height, b->neighbors);
    }
}

char *
lm_cli_boxes_text (const GArray *boxes, const char *label, gboolean json)
{
  GString *out = g_string_new (json ? NULL : "label,x,y,width,height,score\n");
  if (json)
    {
      append_json_boxes (out, boxes, label, "  ");
      g_string_append_c (out, '\n');
    }
  else
    append_csv_rows (out, boxes, label, "");
  return g_string_free (out, FALSE);
}

char *
lm_cli_batch_boxes_text (const LmCliPhotoBoxes *photos, guint n, const char *label, gboolean json)
{
  GString *out = g_string_new (json ? "[" : "file,label,x,y,width,height,score\n");
  for (guint k = 0; k < n; k++)
    {
      const LmCliPhotoBoxes *p = &photos[k];
      if (!json)
        {
          if (p->boxes == NULL)
            continue;
          g_autoptr (GString) prefix = g_string_new (NULL);
          append_csv_field (prefix, p->file);
          g_string_append_c (prefix, ',');
          append_csv_rows (out, p->boxes, label, prefix->str);
          continue;
        }
      g_string_append (out, k ? ",\n  {\"file\": " : "\n  {\"file\": ");
      append_json_string (out, p->file);
      if (p->boxes)
        {
          g_string_append (out, ", \"boxes\": ");
          append_json_boxes (out, p->boxes, label, "      ");
        }
      else
        {
          g_string_append (out, ", \"error\": ");
          append_json_string (out, p->error ? p->error : "");
        }
      g_string_append_c (out, '}');
    }
  if (json)
    g_string_append (out, n ? "\n]\n" : "]\n");
  return g_string_free (out, FALSE);
}
