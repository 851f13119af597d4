/* Sorting and filtering a folder's photos (folder-order.h). */
#include "folder-order.h"

#include <string.h>

gboolean
lm_folder_filter_keeps (const LmFolderFilter *filter, const LmPhotoRecord *record)
{
  gboolean rejected = record->rating < 0;
  switch (filter->rejects)
    {
    case LM_FOLDER_REJECTS_ONLY:
      if (!rejected)
        return FALSE;
      break;
    case LM_FOLDER_REJECTS_HIDDEN:
      if (rejected)
        return FALSE;
      /* fall through */
    case LM_FOLDER_REJECTS_SHOWN:
      /* A rejected photo has no stars: a filter of stars leaves it out. */
      if (filter->min_rating > 0 && record->rating < filter->min_rating)
        return FALSE;
      break;
    }
  if (filter->labels && (record->labels & filter->labels) == 0)
    return FALSE;
  if (filter->types && (filter->types & (1u << record->type)) == 0)
    return FALSE;
  return TRUE;
}

typedef struct {
  GPtrArray *records;
  LmFolderSort sort;
  gboolean descending;
} Order;

static int
by_name (const LmPhotoRecord *a, const LmPhotoRecord *b)
{
  int c = strcmp (a->collate_key, b->collate_key);
  /* Two names that collate alike (café.jpg and cafe\u0301.jpg) still have one order. */
  return c ? c : strcmp (a->path, b->path);
}

static int
compare (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const Order *o = data;
  const LmPhotoRecord *a = o->records->pdata[*(const guint *) pa];
  const LmPhotoRecord *b = o->records->pdata[*(const guint *) pb];
  int c = 0;
  switch (o->sort)
    {
    case LM_FOLDER_SORT_NAME:
      break;
    case LM_FOLDER_SORT_TAKEN:
      c = (a->taken > b->taken) - (a->taken < b->taken);
      break;
    case LM_FOLDER_SORT_RATING:
      c = (b->rating > a->rating) - (b->rating < a->rating);
      break;
    }
  if (c == 0)
    c = by_name (a, b);
  return o->descending ? -c : c;
}

GArray *
lm_folder_order (GPtrArray *records, LmFolderSort sort, gboolean descending, const LmFolderFilter *filter)
{
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), records->len);
  for (guint i = 0; i < records->len; i++)
    if (filter == NULL || lm_folder_filter_keeps (filter, records->pdata[i]))
      g_array_append_val (order, i);
  Order o = { records, sort, descending };
  g_array_sort_with_data (order, compare, &o);
  return order;
}
