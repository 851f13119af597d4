/* The XMP packet's edits. A packet is RDF in XML, and of it Lumen changes one or two values:
 * rather than a DOM that would re-serialize (and reorder, re-indent, re-escape) the whole
 * packet, a lexer finds the start tags and their attributes, the values to change are
 * replaced in place and everything else is copied byte for byte; GMarkup then checks the
 * result is still well-formed. RDF gives a property either as an attribute of an
 * rdf:Description (<rdf:Description xmp:CreatorTool="…"/>) or as a child element
 * (<xmp:CreatorTool>…</xmp:CreatorTool>); both are found, under whatever prefix the packet
 * binds the namespace to. */
#define _GNU_SOURCE
#include "xmp.h"

#include <string.h>

#include "config.h"

#define RDF_DESCRIPTION "rdf:Description"

typedef struct {
  gsize name, name_len;
  gsize value, value_len; /* between the quotes */
} Attr;

typedef struct {
  gsize start;       /* at '<' */
  gsize close;       /* where the tag's '>' (or "/>") begins: where attributes go */
  gsize end;         /* past '>' */
  gsize name, name_len;
  gboolean closing;  /* </name> */
  gboolean empty;    /* <name … /> */
  GArray *attrs;     /* of Attr */
} Tag;

typedef struct {
  gsize from, to;
  char *text;
} Edit;

static gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Past the first NEEDLE at or after FROM; N when there is none. */
static gsize
past (const char *s, gsize n, gsize from, const char *needle)
{
  gsize k = strlen (needle);
  const char *hit = from <= n ? memmem (s + from, n - from, needle, k) : NULL;
  return hit ? (gsize) (hit - s) + k : n;
}

static gboolean
starts_with (const char *s, gsize n, gsize at, const char *prefix)
{
  gsize k = strlen (prefix);
  return at <= n && n - at >= k && memcmp (s + at, prefix, k) == 0;
}

static gboolean
span_is (const char *s, gsize at, gsize len, const char *text)
{
  return strlen (text) == len && memcmp (s + at, text, len) == 0;
}

/* The next start or end tag at or after *POS (comments, processing instructions, CDATA and
 * declarations skipped); FALSE at the end or where the markup stops making sense. */
static gboolean
next_tag (const char *s, gsize n, gsize *pos, Tag *tag)
{
  gsize i = *pos;
  for (;;)
    {
      const char *lt = i < n ? memchr (s + i, '<', n - i) : NULL;
      if (lt == NULL)
        return FALSE;
      i = (gsize) (lt - s);
      if (starts_with (s, n, i, "<!--"))
        i = past (s, n, i + 4, "-->");
      else if (starts_with (s, n, i, "<?"))
        i = past (s, n, i + 2, "?>");
      else if (starts_with (s, n, i, "<![CDATA["))
        i = past (s, n, i + 9, "]]>");
      else if (starts_with (s, n, i, "<!"))
        i = past (s, n, i + 2, ">");
      else
        break;
    }
  g_array_set_size (tag->attrs, 0);
  tag->start = i++;
  tag->closing = i < n && s[i] == '/';
  if (tag->closing)
    i++;
  tag->name = i;
  while (i < n && !is_blank (s[i]) && s[i] != '>' && s[i] != '/')
    i++;
  tag->name_len = i - tag->name;
  if (tag->name_len == 0)
    return FALSE;
  for (;;)
    {
      while (i < n && is_blank (s[i]))
        i++;
      if (i >= n)
        return FALSE;
      if (s[i] == '>' || (s[i] == '/' && i + 1 < n && s[i + 1] == '>'))
        {
          tag->close = i;
          tag->empty = s[i] == '/';
          tag->end = i + (tag->empty ? 2 : 1);
          *pos = tag->end;
          return TRUE;
        }
      Attr a = { .name = i };
      while (i < n && !is_blank (s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/')
        i++;
      a.name_len = i - a.name;
      while (i < n && is_blank (s[i]))
        i++;
      if (a.name_len == 0 || tag->closing || i >= n || s[i] != '=')
        return FALSE;
      i++;
      while (i < n && is_blank (s[i]))
        i++;
      if (i >= n || (s[i] != '"' && s[i] != '\''))
        return FALSE;
      const char *q = memchr (s + i + 1, s[i], n - i - 1);
      if (q == NULL)
        return FALSE;
      a.value = i + 1;
      a.value_len = (gsize) (q - s) - a.value;
      i = (gsize) (q - s) + 1;
      g_array_append_val (tag->attrs, a);
    }
}

/* The prefixes bound to NS anywhere in the packet, and the first tag binding one. */
static GPtrArray *
prefixes_of (const char *s, gsize n, const char *ns, Tag *binding_tag, gboolean *bound_on_description)
{
  GPtrArray *prefixes = g_ptr_array_new_with_free_func (g_free);
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  *bound_on_description = FALSE;
  for (gsize pos = 0; next_tag (s, n, &pos, &tag);)
    for (guint k = 0; k < tag.attrs->len; k++)
      {
        const Attr *a = &g_array_index (tag.attrs, Attr, k);
        if (a->name_len > 6 && memcmp (s + a->name, "xmlns:", 6) == 0 && span_is (s, a->value, a->value_len, ns))
          {
            if (prefixes->len == 0)
              {
                binding_tag->start = tag.start;
                *bound_on_description = span_is (s, tag.name, tag.name_len, RDF_DESCRIPTION);
              }
            g_ptr_array_add (prefixes, g_strndup (s + a->name + 6, a->name_len - 6));
          }
      }
  g_array_unref (tag.attrs);
  return prefixes;
}

/* PREFIXES as a set: a packet may bind a namespace under any number of prefixes, and each
 * name is looked up once rather than against every prefix (8,000 of them took 2.5 s). */
static GHashTable *
prefix_set (GPtrArray *prefixes)
{
  GHashTable *set = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint k = 0; k < prefixes->len; k++)
    g_hash_table_add (set, prefixes->pdata[k]);
  return set;
}

/* Whether the name at AT (LEN bytes) is NAME under one of PREFIXES (a prefix_set). */
static gboolean
is_property (const char *s, gsize at, gsize len, GHashTable *prefixes, const char *name)
{
  gsize nl = strlen (name);
  if (len < nl + 2 || s[at + len - nl - 1] != ':' || memcmp (s + at + len - nl, name, nl) != 0)
    return FALSE;
  g_autofree char *prefix = g_strndup (s + at, len - nl - 1);
  return g_hash_table_contains (prefixes, prefix);
}

static void
add_edit (GArray *edits, gsize from, gsize to, char *text)
{
  Edit e = { from, to, text };
  g_array_append_val (edits, e);
}

static void
clear_edit (gpointer p)
{
  g_free (((Edit *) p)->text);
}

/* Where a property NAME of PREFIXES appears, edits that give it ESCAPED as its value. */
static void
find_property (const char *s, gsize n, GHashTable *prefixes, const char *name, const char *escaped,
               GArray *edits)
{
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  for (gsize pos = 0; next_tag (s, n, &pos, &tag);)
    {
      if (tag.closing)
        continue;
      for (guint k = 0; k < tag.attrs->len; k++)
        {
          const Attr *a = &g_array_index (tag.attrs, Attr, k);
          if (is_property (s, a->name, a->name_len, prefixes, name))
            add_edit (edits, a->value, a->value + a->value_len, g_strdup (escaped));
        }
      if (!is_property (s, tag.name, tag.name_len, prefixes, name) || tag.attrs->len > 0)
        continue; /* an element with attributes (rdf:resource, a qualifier) is not plain text */
      g_autofree char *tag_name = g_strndup (s + tag.name, tag.name_len);
      if (tag.empty)
        {
          add_edit (edits, tag.close, tag.end, g_strdup_printf (">%s</%s>", escaped, tag_name));
          continue;
        }
      /* Its text runs to its end tag; anything but text there (nested markup) is left alone. */
      Tag end = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
      gsize after = pos;
      if (next_tag (s, n, &after, &end) && end.closing && span_is (s, end.name, end.name_len, tag_name)
          && memchr (s + tag.end, '<', end.start - tag.end) == NULL)
        add_edit (edits, tag.end, end.start, g_strdup (escaped));
      g_array_unref (end.attrs);
    }
  g_array_unref (tag.attrs);
}

/* Whether PREFIX is taken anywhere in the packet: bound to another namespace than NS, or
 * naming an element or an attribute. Prefixes are read the packet over, not by scope: a
 * binding of ours under a prefix that means something else elsewhere, or that the elements
 * under it already use unbound, would change what those mean, and the next export would edit
 * them too (an export of an export would then differ from the first). */
static gboolean
prefix_taken (const char *s, gsize n, const char *prefix, const char *ns)
{
  g_autofree char *xmlns = g_strdup_printf ("xmlns:%s", prefix);
  g_autofree char *qualified = g_strdup_printf ("%s:", prefix);
  gsize ql = strlen (qualified);
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  gboolean taken = FALSE;
  for (gsize pos = 0; !taken && next_tag (s, n, &pos, &tag);)
    {
      taken = tag.name_len > ql && memcmp (s + tag.name, qualified, ql) == 0;
      for (guint k = 0; k < tag.attrs->len; k++)
        {
          const Attr *a = &g_array_index (tag.attrs, Attr, k);
          taken = taken || (a->name_len > ql && memcmp (s + a->name, qualified, ql) == 0)
                  || (span_is (s, a->name, a->name_len, xmlns) && !span_is (s, a->value, a->value_len, ns));
        }
    }
  g_array_unref (tag.attrs);
  return taken;
}

/* An attribute for NAME added to the rdf:Description that binds NS, or else to the first one
 * (declaring NS there). FALSE when the packet has no rdf:Description. */
static gboolean
add_property (const char *s, gsize n, const char *ns, const char *default_prefix, GPtrArray *prefixes,
              const Tag *binding_tag, gboolean bound_on_description, const char *name,
              const char *escaped, GArray *edits)
{
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  gboolean found = FALSE;
  for (gsize pos = 0; !found && next_tag (s, n, &pos, &tag);)
    found = !tag.closing && span_is (s, tag.name, tag.name_len, RDF_DESCRIPTION)
            && (!bound_on_description || tag.start == binding_tag->start);
  if (found)
    {
      const char *prefix = prefixes->len > 0 ? prefixes->pdata[0] : default_prefix;
      /* A prefix the packet binds to another namespace: ours gets a name of its own. */
      g_autofree char *own = g_strdup (prefix);
      for (guint k = 1; !bound_on_description && prefix_taken (s, n, own, ns); k++)
        {
          g_free (own);
          own = g_strdup_printf ("%sLumen%u", prefix, k);
        }
      char *text = bound_on_description
                     ? g_strdup_printf (" %s:%s=\"%s\"", own, name, escaped)
                     : g_strdup_printf (" xmlns:%s=\"%s\" %s:%s=\"%s\"", own, ns, own, name, escaped);
      add_edit (edits, tag.close, tag.close, text);
    }
  g_array_unref (tag.attrs);
  return found;
}

static gint
by_position (gconstpointer a, gconstpointer b)
{
  const Edit *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

/* S with EDITS made, every byte outside them copied. */
static GBytes *
apply_edits (const char *s, gsize n, GArray *edits)
{
  g_array_sort (edits, by_position);
  GString *out = g_string_sized_new (n + 64);
  gsize at = 0;
  for (guint k = 0; k < edits->len; k++)
    {
      const Edit *e = &g_array_index (edits, Edit, k);
      if (e->from < at)
        continue; /* overlapping: cannot happen with the lexer's spans, kept safe anyway */
      g_string_append_len (out, s + at, (gssize) (e->from - at));
      g_string_append (out, e->text);
      at = e->to;
    }
  g_string_append_len (out, s + at, (gssize) (n - at));
  return g_string_free_to_bytes (out);
}

GBytes *
lm_xmp_set_property (GBytes *packet, const char *ns, const char *default_prefix, const char *name,
                     const char *value, gboolean add)
{
  g_return_val_if_fail (packet != NULL, NULL);
  gsize n;
  const char *s = g_bytes_get_data (packet, &n);
  if (s == NULL)
    return NULL;
  g_autofree char *escaped = g_markup_escape_text (value, -1);
  g_autoptr (GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  g_array_set_clear_func (edits, clear_edit);
  Tag binding = { 0 };
  gboolean on_description;
  g_autoptr (GPtrArray) prefixes = prefixes_of (s, n, ns, &binding, &on_description);
  g_autoptr (GHashTable) set = prefix_set (prefixes);
  if (prefixes->len > 0)
    find_property (s, n, set, name, escaped, edits);
  if (edits->len == 0
      && (!add
          || !add_property (s, n, ns, default_prefix, prefixes, &binding, on_description, name, escaped, edits)))
    return NULL;

  return apply_edits (s, n, edits);
}

/* The text of the first property NAME of PREFIXES, an attribute's value or a plain
 * element's text, as the packet has it (not unescaped); NULL when there is none. */
static char *
property_text (const char *s, gsize n, GHashTable *prefixes, const char *name)
{
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  Tag end = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  char *text = NULL;
  for (gsize pos = 0; text == NULL && next_tag (s, n, &pos, &tag);)
    {
      if (tag.closing)
        continue;
      for (guint k = 0; k < tag.attrs->len && text == NULL; k++)
        {
          const Attr *a = &g_array_index (tag.attrs, Attr, k);
          if (is_property (s, a->name, a->name_len, prefixes, name))
            text = g_strndup (s + a->value, a->value_len);
        }
      if (text || tag.empty || tag.attrs->len > 0 || !is_property (s, tag.name, tag.name_len, prefixes, name))
        continue;
      gsize after = pos;
      /* Its text runs to its end tag; anything but text there (nested markup) is no value. */
      if (next_tag (s, n, &after, &end) && end.closing && end.name_len == tag.name_len
          && memcmp (s + end.name, s + tag.name, tag.name_len) == 0
          && memchr (s + tag.end, '<', end.start - tag.end) == NULL)
        text = g_strndup (s + tag.end, end.start - tag.end);
    }
  g_array_unref (tag.attrs);
  g_array_unref (end.attrs);
  return text;
}

int
lm_xmp_orientation (GBytes *packet)
{
  if (packet == NULL || !lm_xmp_is_well_formed (packet))
    return 0;
  gsize n;
  const char *s = g_bytes_get_data (packet, &n);
  Tag binding = { 0 };
  gboolean on_description;
  g_autoptr (GPtrArray) prefixes = prefixes_of (s, n, LM_XMP_TIFF_NS, &binding, &on_description);
  g_autoptr (GHashTable) set = prefix_set (prefixes);
  g_autofree char *text = prefixes->len > 0 ? property_text (s, n, set, "Orientation") : NULL;
  guint64 value = 0;
  if (text == NULL || !g_ascii_string_to_unsigned (g_strstrip (text), 10, 1, 8, &value, NULL))
    return 0;
  return (int) value;
}

/* Past the end tag matching the start tag TAG (its end at TAG->end); 0 when the markup ends
 * first. An empty tag is its own end. */
static gsize
element_end (const char *s, gsize n, const Tag *tag)
{
  if (tag->empty)
    return tag->end;
  Tag t = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  gsize result = 0;
  int depth = 1;
  for (gsize pos = tag->end; result == 0 && next_tag (s, n, &pos, &t);)
    {
      if (t.closing)
        depth--;
      else if (!t.empty)
        depth++;
      if (depth == 0)
        result = t.closing && t.name_len == tag->name_len && memcmp (s + t.name, s + tag->name, t.name_len) == 0
                   ? t.end
                   : n + 1; /* mismatched: well-formed packets never get here */
    }
  g_array_unref (t.attrs);
  return result > n ? 0 : result;
}

/* Where the end tag that closes at END begins (past FROM, the start tag's end). */
static gsize
end_tag_start (const char *s, gsize from, gsize end)
{
  const char *lt = g_strrstr_len (s + from, (gssize) (end - from), "</");
  return lt ? (gsize) (lt - s) : end;
}

/* Where the blanks before AT begin: what goes with a removed attribute or element. */
static gsize
blanks_before (const char *s, gsize at)
{
  while (at > 0 && is_blank (s[at - 1]))
    at--;
  return at;
}

/* The spaces and tabs that indent the line of the tag at AT; "" when something precedes it. */
static char *
indent_of (const char *s, gsize at)
{
  gsize k = at;
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
    k--;
  return (k == 0 || s[k - 1] == '\n' || s[k - 1] == '\r') ? g_strndup (s + k, at - k) : g_strdup ("");
}

static void
unescaped_text (GMarkupParseContext *ctx, const char *text, gsize len, gpointer out, GError **error)
{
  g_string_append_len (out, text, (gssize) len);
}

/* RAW (an attribute's value or an element's text, without markup) with its entities and
 * character references replaced, as GMarkup reads them. */
static char *
unescape (const char *raw, gsize len)
{
  static const GMarkupParser parser = { .text = unescaped_text };
  GString *out = g_string_new (NULL);
  GString *doc = g_string_new ("<v>");
  g_string_append_len (doc, raw, (gssize) len);
  g_string_append (doc, "</v>");
  GMarkupParseContext *ctx = g_markup_parse_context_new (&parser, 0, out, NULL);
  gboolean ok = g_markup_parse_context_parse (ctx, doc->str, (gssize) doc->len, NULL)
                && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  g_string_free (doc, TRUE);
  if (!ok)
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

/* The prefixes PACKET binds to NS, as a set, and the packet's text; NULL when PACKET is not
 * well-formed or binds none. */
static GHashTable *
bound_prefixes (GBytes *packet, const char *ns, GPtrArray **prefixes, const char **s, gsize *n)
{
  if (packet == NULL || !lm_xmp_is_well_formed (packet))
    return NULL;
  *s = g_bytes_get_data (packet, n);
  Tag binding = { 0 };
  gboolean on_description;
  *prefixes = prefixes_of (*s, *n, ns, &binding, &on_description);
  if ((*prefixes)->len == 0)
    {
      g_clear_pointer (prefixes, g_ptr_array_unref);
      return NULL;
    }
  return prefix_set (*prefixes);
}

char *
lm_xmp_get_property (GBytes *packet, const char *ns, const char *name)
{
  const char *s;
  gsize n;
  g_autoptr (GPtrArray) prefixes = NULL;
  g_autoptr (GHashTable) set = bound_prefixes (packet, ns, &prefixes, &s, &n);
  if (set == NULL)
    return NULL;
  g_autofree char *raw = property_text (s, n, set, name);
  return raw ? unescape (raw, strlen (raw)) : NULL;
}

/* Edits removing every attribute NAME of PREFIXES; with ELEMENTS, every element NAME too. */
static void
removals (const char *s, gsize n, GHashTable *prefixes, const char *name, gboolean elements, GArray *edits)
{
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  for (gsize pos = 0; next_tag (s, n, &pos, &tag);)
    {
      if (tag.closing)
        continue;
      for (guint k = 0; k < tag.attrs->len; k++)
        {
          const Attr *a = &g_array_index (tag.attrs, Attr, k);
          if (is_property (s, a->name, a->name_len, prefixes, name))
            add_edit (edits, blanks_before (s, a->name), a->value + a->value_len + 1, g_strdup (""));
        }
      gsize end;
      if (elements && is_property (s, tag.name, tag.name_len, prefixes, name) && (end = element_end (s, n, &tag)) > 0)
        {
          add_edit (edits, blanks_before (s, tag.start), end, g_strdup (""));
          pos = end;
        }
    }
  g_array_unref (tag.attrs);
}

GBytes *
lm_xmp_remove_property (GBytes *packet, const char *ns, const char *name)
{
  g_return_val_if_fail (packet != NULL, NULL);
  const char *s;
  gsize n;
  g_autoptr (GPtrArray) prefixes = NULL;
  g_autoptr (GHashTable) set = bound_prefixes (packet, ns, &prefixes, &s, &n);
  if (set == NULL)
    return g_bytes_ref (packet);
  g_autoptr (GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  g_array_set_clear_func (edits, clear_edit);
  removals (s, n, set, name, TRUE, edits);
  return edits->len > 0 ? apply_edits (s, n, edits) : g_bytes_ref (packet);
}

static gboolean
is_array_type (const char *s, const Tag *tag)
{
  return !tag->closing
         && (span_is (s, tag->name, tag->name_len, "rdf:Seq") || span_is (s, tag->name, tag->name_len, "rdf:Bag")
             || span_is (s, tag->name, tag->name_len, "rdf:Alt"));
}

/* The items of the array whose start tag is ARRAY. */
static char **
array_items (const char *s, gsize n, const Tag *array)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_free);
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  Tag end = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  for (gsize pos = array->empty ? n : array->end; next_tag (s, n, &pos, &tag) && !tag.closing;)
    {
      gsize stop = element_end (s, n, &tag);
      if (stop == 0)
        break;
      if (span_is (s, tag.name, tag.name_len, "rdf:li"))
        {
          gsize after = tag.end;
          if (tag.empty)
            g_ptr_array_add (items, g_strdup (""));
          else if (next_tag (s, n, &after, &end) && end.closing && end.end == stop)
            {
              char *item = unescape (s + tag.end, end.start - tag.end);
              if (item)
                g_ptr_array_add (items, item);
            } /* an item holding markup (a struct, a qualified value) is no text */
        }
      pos = stop;
    }
  g_array_unref (tag.attrs);
  g_array_unref (end.attrs);
  g_ptr_array_add (items, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&items), FALSE);
}

char **
lm_xmp_get_array (GBytes *packet, const char *ns, const char *name)
{
  const char *s;
  gsize n;
  g_autoptr (GPtrArray) prefixes = NULL;
  g_autoptr (GHashTable) set = bound_prefixes (packet, ns, &prefixes, &s, &n);
  if (set == NULL)
    return NULL;
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  char **items = NULL;
  for (gsize pos = 0; items == NULL && next_tag (s, n, &pos, &tag);)
    {
      if (tag.closing || tag.empty || !is_property (s, tag.name, tag.name_len, set, name))
        continue;
      gsize after = pos;
      if (next_tag (s, n, &after, &tag) && is_array_type (s, &tag))
        items = array_items (s, n, &tag);
      pos = after;
    }
  g_array_unref (tag.attrs);
  return items;
}

/* The markup of an ARRAY_TYPE of ITEMS inside an element indented by INDENT. */
static char *
array_markup (const char *array_type, const char *const *items, const char *indent)
{
  GString *text = g_string_new ("\n");
  if (items == NULL || items[0] == NULL)
    g_string_append_printf (text, "%s <%s/>\n%s", indent, array_type, indent);
  else
    {
      g_string_append_printf (text, "%s <%s>\n", indent, array_type);
      for (guint k = 0; items[k]; k++)
        {
          g_autofree char *escaped = g_markup_escape_text (items[k], -1);
          g_string_append_printf (text, "%s  <rdf:li>%s</rdf:li>\n", indent, escaped);
        }
      g_string_append_printf (text, "%s </%s>\n%s", indent, array_type, indent);
    }
  return g_string_free (text, FALSE);
}

/* An element NAME holding the array, added as the last child of the rdf:Description that
 * binds NS, or else of the first (declaring NS there). FALSE when there is none. */
static gboolean
add_array (const char *s, gsize n, const char *ns, const char *default_prefix, const char *name,
           const char *array_type, const char *const *items, GArray *edits)
{
  Tag binding = { 0 };
  gboolean on_description;
  g_autoptr (GPtrArray) prefixes = prefixes_of (s, n, ns, &binding, &on_description);
  Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
  gboolean found = FALSE;
  for (gsize pos = 0; !found && next_tag (s, n, &pos, &tag);)
    found = !tag.closing && span_is (s, tag.name, tag.name_len, RDF_DESCRIPTION)
            && (!on_description || tag.start == binding.start);
  gsize end = found ? element_end (s, n, &tag) : 0;
  if (end > 0)
    {
      const char *prefix = prefixes->len > 0 ? prefixes->pdata[0] : default_prefix;
      g_autofree char *own = g_strdup (prefix);
      for (guint k = 1; !on_description && prefix_taken (s, n, own, ns); k++)
        {
          g_free (own);
          own = g_strdup_printf ("%sLumen%u", prefix, k);
        }
      g_autofree char *declaration = on_description ? g_strdup ("") : g_strdup_printf (" xmlns:%s=\"%s\"", own, ns);
      g_autofree char *outer = indent_of (s, tag.start);
      g_autofree char *inner = g_strconcat (outer, " ", NULL);
      g_autofree char *markup = array_markup (array_type, items, inner);
      g_autofree char *element = g_strdup_printf ("\n%s<%s:%s>%s</%s:%s>", inner, own, name, markup, own, name);
      if (tag.empty)
        add_edit (edits, tag.close, tag.end,
                  g_strdup_printf ("%s>%s\n%s</" RDF_DESCRIPTION ">", declaration, element, outer));
      else
        {
          /* before the blanks that precede </rdf:Description> */
          gsize close_at = end_tag_start (s, tag.end, end);
          if (declaration[0])
            add_edit (edits, tag.close, tag.close, g_steal_pointer (&declaration));
          add_edit (edits, blanks_before (s, close_at), blanks_before (s, close_at), g_steal_pointer (&element));
        }
    }
  g_array_unref (tag.attrs);
  return end > 0;
}

GBytes *
lm_xmp_set_array (GBytes *packet, const char *ns, const char *default_prefix, const char *name,
                  const char *array_type, const char *const *items)
{
  g_return_val_if_fail (packet != NULL, NULL);
  gsize n;
  const char *s = g_bytes_get_data (packet, &n);
  if (s == NULL)
    return NULL;
  g_autoptr (GArray) edits = g_array_new (FALSE, FALSE, sizeof (Edit));
  g_array_set_clear_func (edits, clear_edit);
  Tag binding = { 0 };
  gboolean on_description;
  g_autoptr (GPtrArray) prefixes = prefixes_of (s, n, ns, &binding, &on_description);
  g_autoptr (GHashTable) set = prefix_set (prefixes);
  guint replaced = 0;
  if (prefixes->len > 0)
    {
      removals (s, n, set, name, FALSE, edits);
      Tag tag = { .attrs = g_array_new (FALSE, FALSE, sizeof (Attr)) };
      for (gsize pos = 0; next_tag (s, n, &pos, &tag);)
        {
          gsize end;
          if (tag.closing || !is_property (s, tag.name, tag.name_len, set, name)
              || (end = element_end (s, n, &tag)) == 0)
            continue;
          g_autofree char *indent = indent_of (s, tag.start);
          g_autofree char *markup = array_markup (array_type, items, indent);
          if (tag.empty)
            add_edit (edits, tag.close, tag.end,
                      g_strdup_printf (">%s</%.*s>", markup, (int) tag.name_len, s + tag.name));
          else
            add_edit (edits, tag.end, end_tag_start (s, tag.end, end), g_steal_pointer (&markup));
          replaced++;
          pos = end;
        }
      g_array_unref (tag.attrs);
    }
  if (replaced == 0 && !add_array (s, n, ns, default_prefix, name, array_type, items, edits))
    return NULL;
  return apply_edits (s, n, edits);
}

gboolean
lm_xmp_is_well_formed (GBytes *packet)
{
  gsize n;
  const char *s = g_bytes_get_data (packet, &n);
  if (n == 0 || memchr (s, '\0', n) != NULL || n > G_MAXSSIZE)
    return FALSE;
  /* A UTF-8 byte order mark may begin an XML document (sidecars from Windows tools have one);
   * GMarkup takes it for text before the first element. */
  if (n >= 3 && memcmp (s, "\xef\xbb\xbf", 3) == 0)
    {
      s += 3;
      n -= 3;
    }
  static const GMarkupParser nothing = { 0 };
  GMarkupParseContext *ctx = g_markup_parse_context_new (&nothing, 0, NULL, NULL);
  gboolean ok = g_markup_parse_context_parse (ctx, s, (gssize) n, NULL)
                && g_markup_parse_context_end_parse (ctx, NULL);
  g_markup_parse_context_free (ctx);
  return ok;
}

const char *
lm_xmp_creator_tool (void)
{
  return "Lumen " LUMEN_VERSION;
}

#define XPACKET_BEGIN "<?xpacket begin=\"\xef\xbb\xbf\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
#define XPACKET_END "<?xpacket end=\"w\"?>"

static GBytes *
fresh_packet (void)
{
  g_autofree char *tool = g_markup_escape_text (lm_xmp_creator_tool (), -1);
  char *text = g_strdup_printf (XPACKET_BEGIN
                                "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
                                " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
                                "  <rdf:Description rdf:about=\"\"\n"
                                "    xmlns:xmp=\"" LM_XMP_NS "\"\n"
                                "    xmp:CreatorTool=\"%s\"/>\n"
                                " </rdf:RDF>\n"
                                "</x:xmpmeta>\n" XPACKET_END,
                                tool);
  return g_bytes_new_take (text, strlen (text));
}

/* EDITED in place of *PACKET when it is still well-formed; dropped otherwise. */
static void
take_if_well_formed (GBytes **packet, GBytes *edited)
{
  if (edited == NULL)
    return;
  if (lm_xmp_is_well_formed (edited))
    {
      g_bytes_unref (*packet);
      *packet = edited;
    }
  else
    {
      g_debug ("an edit of the XMP packet would break it; left as it was");
      g_bytes_unref (edited);
    }
}

/* The export's size wherever the packet states a size, as exif.c does for the EXIF's: after a
 * crop or a resize the source's size would stay there, for readers to show. */
static void
set_dimensions (GBytes **packet, guint width, guint height)
{
  static const struct
  {
    const char *ns, *prefix, *name;
    gboolean vertical;
  } sizes[] = {
    { LM_XMP_EXIF_NS, "exif", "PixelXDimension", FALSE },
    { LM_XMP_EXIF_NS, "exif", "PixelYDimension", TRUE },
    { LM_XMP_TIFF_NS, "tiff", "ImageWidth", FALSE },
    { LM_XMP_TIFF_NS, "tiff", "ImageLength", TRUE },
  };
  for (gsize k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autofree char *value = g_strdup_printf ("%u", sizes[k].vertical ? height : width);
      take_if_well_formed (packet, lm_xmp_set_property (*packet, sizes[k].ns, sizes[k].prefix, sizes[k].name,
                                                        value, FALSE));
    }
}

GBytes *
lm_xmp_for_export (GBytes *packet, guint width, guint height)
{
  if (packet == NULL)
    return fresh_packet ();
  if (!lm_xmp_is_well_formed (packet))
    {
      g_debug ("the source's XMP packet is not well-formed XML: not written");
      return NULL;
    }
  GBytes *out = g_bytes_ref (packet);
  /* The xpacket wrapper the XMP specification asks for, where a writer left it out (Adobe's
   * XMP Core does, in PNG): the packet itself stays as it was, between the two. */
  gsize n;
  const char *s = g_bytes_get_data (packet, &n);
  if (memmem (s, n, "<?xpacket", 9) == NULL)
    {
      GString *wrapped = g_string_new (XPACKET_BEGIN);
      g_string_append_len (wrapped, s, (gssize) n);
      g_string_append (wrapped, "\n" XPACKET_END);
      take_if_well_formed (&out, g_string_free_to_bytes (wrapped));
    }
  take_if_well_formed (&out, lm_xmp_set_property (out, LM_XMP_NS, "xmp", "CreatorTool",
                                                  lm_xmp_creator_tool (), TRUE));
  take_if_well_formed (&out, lm_xmp_set_property (out, LM_XMP_TIFF_NS, "tiff", "Orientation", "1", FALSE));
  set_dimensions (&out, width, height);
  return out;
}
