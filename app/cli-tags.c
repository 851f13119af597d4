/* lumen-cli tags PHOTO…: a photo's star rating, reject and colour labels, read from and
 * written to its XMP sidecar (core/library/photo-tags.h), as darktable and digiKam read them. */
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "core/error.h"
#include "core/library/photo-tags.h"

/* The colours as the options name them, in darktable's order (bit k of the labels). */
static const char *const color_words[LM_LABEL_COUNT] = { "red", "yellow", "green", "blue", "purple" };

typedef struct {
  int rating; /* -2: unchanged */
  gboolean reject, clear_labels;
  char *label, *toggle_label;
  char **photos;
} Options;

/* TEXT ("red,green") as label bits; FALSE with a usage message for an unknown colour. */
static gboolean
parse_labels (const char *option, const char *text, guint *labels, GError **error)
{
  *labels = 0;
  g_auto (GStrv) words = g_strsplit (text, ",", -1);
  for (guint i = 0; words[i]; i++)
    {
      const char *word = g_strstrip (words[i]);
      int k = 0;
      while (k < LM_LABEL_COUNT && g_ascii_strcasecmp (word, color_words[k]) != 0)
        k++;
      if (k == LM_LABEL_COUNT)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("%s: unknown colour “%s” (red, yellow, green, blue, purple)"), option, word);
          return FALSE;
        }
      *labels |= 1u << k;
    }
  return TRUE;
}

static char *
describe (const char *photo, const LmPhotoTags *tags)
{
  g_autoptr (GString) labels = g_string_new (NULL);
  for (int k = 0; k < LM_LABEL_COUNT; k++)
    if (tags->labels & (1u << k))
      g_string_append_printf (labels, "%s%s", labels->len ? "," : "", color_words[k]);
  g_autofree char *display = g_filename_display_name (photo);
  if (tags->rating == LM_RATING_REJECTED)
    return g_strdup_printf (_("%s: rejected, labels %s"), display, labels->len ? labels->str : _("none"));
  return g_strdup_printf (_("%s: rating %d, labels %s"), display, tags->rating, labels->len ? labels->str : _("none"));
}

/* One photo: its tags changed as the options say (when they say anything) and printed. */
static gboolean
tag_photo (const Options *o, guint set_labels, guint toggle_labels, const char *photo, GError **error)
{
  /* A sidecar beside a mistyped name would be a sidecar of nothing. */
  GStatBuf st;
  gboolean exists = g_stat (photo, &st) == 0;
  if (!exists || S_ISDIR (st.st_mode))
    {
      lm_set_file_error (error, LM_ERROR_IO, photo, "%s", exists ? _("is a folder, not a photo") : _("no such file"));
      return FALSE;
    }
  LmPhotoTags tags;
  if (!lm_photo_tags_read (photo, &tags, error))
    return FALSE;
  gboolean change = o->rating != -2 || o->reject || o->clear_labels || o->label || o->toggle_label;
  if (o->reject)
    tags.rating = LM_RATING_REJECTED;
  else if (o->rating != -2)
    tags.rating = o->rating;
  if (o->clear_labels)
    tags.labels = 0;
  else if (o->label)
    tags.labels = set_labels;
  else if (o->toggle_label)
    tags.labels ^= toggle_labels;
  if (change && !lm_photo_tags_write (photo, &tags, error))
    return FALSE;
  g_autofree char *line = describe (photo, &tags);
  printf ("%s\n", line);
  return TRUE;
}

int
lm_cli_tags_main (int argc, char **argv)
{
  Options o = { .rating = -2 };
  const GOptionEntry entries[] = {
    LM_CLI_NUMBER_ENTRY ("rating", N_("Set the star rating (0..5; clears a reject)"), N_("N")),
    { "reject", 0, 0, G_OPTION_ARG_NONE, &o.reject, N_("Mark as rejected"), NULL },
    { "label", 0, 0, G_OPTION_ARG_STRING, &o.label,
      N_("Set the colour labels (red, yellow, green, blue, purple; comma-separated)"), N_("C,…") },
    { "toggle-label", 0, 0, G_OPTION_ARG_STRING, &o.toggle_label, N_("Toggle the colour labels named"), N_("C,…") },
    { "clear-labels", 0, 0, G_OPTION_ARG_NONE, &o.clear_labels, N_("Remove every colour label"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.photos, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[1];
  numbers[0] = (LmCliNumber) { "--rating", 0.0, 5.0, TRUE, &o.rating };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("PHOTO…"),
                          _("Prints or sets the photos' star rating, reject and colour labels, kept in\n"
                            "PHOTO.xmp beside each photo as darktable and digiKam read them."),
                          NULL, NULL, entries);
  int rc = LM_EXIT_OK;
  guint set_labels = 0, toggle_labels = 0;
  GError *e = NULL;
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.photos == NULL || o.photos[0] == NULL)
    rc = lm_cli_usage_error (_("give one photo or more"));
  else if (o.reject && o.rating != -2)
    rc = lm_cli_usage_error (_("--rating and --reject exclude each other"));
  else if ((o.label != NULL) + (o.toggle_label != NULL) + o.clear_labels > 1)
    rc = lm_cli_usage_error (_("--label, --toggle-label and --clear-labels exclude each other"));
  else if ((o.label && !parse_labels ("--label", o.label, &set_labels, &e))
           || (o.toggle_label && !parse_labels ("--toggle-label", o.toggle_label, &toggle_labels, &e)))
    rc = lm_cli_usage_error (e->message);
  else
    {
      for (guint i = 0; o.photos[i]; i++)
        if (!tag_photo (&o, set_labels, toggle_labels, o.photos[i], &e))
          {
            lm_cli_error ("%s", e->message);
            g_clear_error (&e);
            rc = LM_EXIT_FAILURE;
          }
    }
  g_clear_error (&e);
  g_free (o.label);
  g_free (o.toggle_label);
  g_strfreev (o.photos);
  return rc;
}
