/* LmValueField (value-field.h). */
#include "value-field.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

struct _LmValueField {
  GtkStack parent_instance;
  GtkAdjustment *adjustment;
  int digits, fine_digits;
  GtkWidget *button, *label, *entry;
  gboolean leaving; /* the entry being left: its focus-out sets nothing more */
};

G_DEFINE_FINAL_TYPE (LmValueField, lm_value_field, GTK_TYPE_STACK)

enum { COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

gboolean
lm_value_parse (const char *text, double *value)
{
  /* The typographic minus (U+2212) as ASCII's: a value copied from a document may have it. */
  g_autofree char *minus = g_strstrip (g_strdup (text));
  g_auto (GStrv) parts = g_strsplit (minus, "\342\210\222", -1);
  g_autofree char *typed = g_strjoinv ("-", parts);
  if (*typed == '\0')
    return FALSE;
  char *end = NULL;
  double v = strtod (typed, &end); /* the locale's decimal mark */
  const struct lconv *lc = localeconv ();
  /* "0.5" is also understood where the mark is a comma, unless "." groups thousands there
   * (German "6.500" means 6500: refused rather than read as 6.5). */
  if (*end != '\0' && strcmp (lc->decimal_point, ".") != 0 && strchr (lc->thousands_sep, '.') == NULL)
    v = g_ascii_strtod (typed, &end);
  if (end == typed || *end != '\0' || !isfinite (v))
    return FALSE;
  *value = v;
  return TRUE;
}

char *
lm_value_format (double value, int digits, int fine_digits)
{
  fine_digits = MAX (digits, fine_digits);
  if (fabs (value) < 0.5 * pow (10.0, -fine_digits))
    value = 0.0; /* never "-0.00" */
  char *text = g_strdup_printf ("%.*f", fine_digits, value);
  const char *mark = localeconv ()->decimal_point;
  char *point = strstr (text, mark);
  if (point == NULL)
    return text;
  char *keep = point + strlen (mark) + digits; /* the end of DIGITS' decimals */
  char *end = text + strlen (text);
  while (end > keep && end[-1] == '0')
    *--end = '\0';
  if (digits == 0 && end == point + strlen (mark))
    *point = '\0';
  return text;
}

static void
show_value (LmValueField *self)
{
  g_autofree char *text = lm_value_format (gtk_adjustment_get_value (self->adjustment), self->digits,
                                           self->fine_digits);
  gtk_label_set_text (GTK_LABEL (self->label), text);
}

static void
stop_typing (LmValueField *self)
{
  self->leaving = TRUE;
  gboolean had_focus = gtk_widget_has_focus (self->entry);
  gtk_stack_set_visible_child (GTK_STACK (self), self->button);
  if (had_focus)
    gtk_widget_grab_focus (self->button); /* the keyboard stays where it was, not lost */
  self->leaving = FALSE;
}

static void
on_button (GtkButton *button, LmValueField *self)
{
  g_autofree char *text = lm_value_format (gtk_adjustment_get_value (self->adjustment), self->digits,
                                           self->fine_digits);
  gtk_entry_set_text (GTK_ENTRY (self->entry), text);
  gtk_stack_set_visible_child (GTK_STACK (self), self->entry);
  gtk_widget_grab_focus (self->entry); /* selects it all: typing replaces the value */
}

/* The typed value set, clamped to the range; FALSE (and a bell) when it is no number. */
static gboolean
take_typed (LmValueField *self)
{
  double v;
  if (!lm_value_parse (gtk_entry_get_text (GTK_ENTRY (self->entry)), &v))
    {
      gtk_widget_error_bell (self->entry);
      return FALSE;
    }
  double lo = gtk_adjustment_get_lower (self->adjustment), hi = gtk_adjustment_get_upper (self->adjustment);
  gtk_adjustment_set_value (self->adjustment, CLAMP (v, lo, hi));
  show_value (self); /* as clamped, also when the value was already that */
  g_signal_emit (self, signals[COMMITTED], 0);
  return TRUE;
}

static void
on_activate (GtkEntry *entry, LmValueField *self)
{
  if (take_typed (self))
    stop_typing (self);
  else
    gtk_editable_select_region (GTK_EDITABLE (entry), 0, -1); /* to be typed again */
}

static gboolean
on_entry_key (GtkWidget *entry, GdkEventKey *event, LmValueField *self)
{
  if (event->keyval != GDK_KEY_Escape)
    return GDK_EVENT_PROPAGATE;
  stop_typing (self);
  return GDK_EVENT_STOP;
}

static gboolean
on_focus_out (GtkWidget *entry, GdkEventFocus *event, LmValueField *self)
{
  if (!self->leaving && gtk_stack_get_visible_child (GTK_STACK (self)) == self->entry)
    {
      take_typed (self); /* not a number: the value stays as it was */
      stop_typing (self);
    }
  return GDK_EVENT_PROPAGATE;
}

static void
lm_value_field_dispose (GObject *object)
{
  LmValueField *self = LM_VALUE_FIELD (object);
  if (self->adjustment)
    g_signal_handlers_disconnect_by_data (self->adjustment, self);
  if (self->entry) /* dispose may run twice: the entry is gone the second time */
    g_signal_handlers_disconnect_by_data (self->entry, self);
  self->entry = self->button = self->label = NULL;
  g_clear_object (&self->adjustment);
  G_OBJECT_CLASS (lm_value_field_parent_class)->dispose (object);
}

static void
lm_value_field_class_init (LmValueFieldClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_value_field_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "valuefield");
  signals[COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                     NULL, NULL, G_TYPE_NONE, 0);
}

static void
lm_value_field_init (LmValueField *self)
{
  gtk_stack_set_homogeneous (GTK_STACK (self), TRUE); /* the slider beside keeps its length */
  gtk_stack_set_transition_type (GTK_STACK (self), GTK_STACK_TRANSITION_TYPE_NONE);
}

/* The widest text of any value in the range: its ends, with every fine digit. */
static int
widest (LmValueField *self)
{
  double ends[] = { gtk_adjustment_get_lower (self->adjustment), gtk_adjustment_get_upper (self->adjustment) };
  int chars = 1;
  for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
    {
      g_autofree char *text = g_strdup_printf ("%.*f", self->fine_digits, ends[i]);
      chars = MAX (chars, (int) g_utf8_strlen (text, -1));
    }
  return chars;
}

GtkWidget *
lm_value_field_new (GtkAdjustment *adjustment, int digits, int fine_digits)
{
  LmValueField *self = g_object_new (LM_TYPE_VALUE_FIELD, NULL);
  self->adjustment = g_object_ref (adjustment);
  self->digits = digits;
  self->fine_digits = MAX (digits, fine_digits);
  int chars = widest (self);

  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 1.0f);
  gtk_label_set_width_chars (GTK_LABEL (self->label), chars);
  self->button = gtk_button_new ();
  gtk_button_set_relief (GTK_BUTTON (self->button), GTK_RELIEF_NONE);
  gtk_container_add (GTK_CONTAINER (self->button), self->label);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->button), "slider-value");
  gtk_widget_set_tooltip_text (self->button, _("Click to type a value"));
  g_signal_connect (self->button, "clicked", G_CALLBACK (on_button), self);

  self->entry = gtk_entry_new ();
  gtk_entry_set_width_chars (GTK_ENTRY (self->entry), chars);
  gtk_entry_set_max_width_chars (GTK_ENTRY (self->entry), chars);
  gtk_entry_set_alignment (GTK_ENTRY (self->entry), 1.0f);
  gtk_entry_set_input_purpose (GTK_ENTRY (self->entry), GTK_INPUT_PURPOSE_NUMBER);
  g_signal_connect (self->entry, "activate", G_CALLBACK (on_activate), self);
  g_signal_connect (self->entry, "key-press-event", G_CALLBACK (on_entry_key), self);
  g_signal_connect (self->entry, "focus-out-event", G_CALLBACK (on_focus_out), self);

  gtk_stack_add_named (GTK_STACK (self), self->button, "value");
  gtk_stack_add_named (GTK_STACK (self), self->entry, "entry");
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_stack_set_visible_child (GTK_STACK (self), self->button);
  g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (show_value), self);
  show_value (self);
  return GTK_WIDGET (self);
}

GtkWidget *
lm_value_field_get_button (LmValueField *self)
{
  return self->button;
}

GtkWidget *
lm_value_field_get_entry (LmValueField *self)
{
  return self->entry;
}
