/* (being written) */
#include "ui-testlib.h"

int
main (int argc, char **argv)
{
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  return g_test_run ();
}
