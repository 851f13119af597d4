/* Answers core/raw/camera-color.h's questions for tests/raw/test_camera_color.py, one a line
 * from stdin:
 *   info KEY VALUES… …  a new LmRawInfo: source N (LmRawMatrixSource), illuminants A B,
 *                       cm1/cm2/fm1/fm2 9 values (row-major; fm sets has_forward),
 *                       ab 3, as_shot 4, daylight 4
 *   mul MODE T TINT R G B   → 4 multipliers (MODE as LmRawWbMode)
 *   temperature M0 M1 M2 M3 → temperature and tint
 *   gray R G B              → 4 multipliers
 *   rec2020 M0 M1 M2 M3     → 9 values, row-major
 *   xyz M0 M1 M2 M3         → 9 values */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/raw/camera-color.h"

static void
read_floats (char ***t, float *out, int n)
{
  for (int i = 0; i < n; i++)
    out[i] = **t ? (float) g_ascii_strtod (*(*t)++, NULL) : 0.0f;
}

static void
read_info (LmRawInfo *info, char **t)
{
  while (*t)
    {
      const char *key = *t++;
      float v[9];
      if (!strcmp (key, "source"))
        read_floats (&t, v, 1), info->matrix_source = (LmRawMatrixSource) v[0];
      else if (!strcmp (key, "illuminants"))
        read_floats (&t, v, 2), info->illuminant[0] = (guint16) v[0], info->illuminant[1] = (guint16) v[1];
      else if (!strcmp (key, "cm1") || !strcmp (key, "cm2"))
        {
          int i = key[2] - '1';
          read_floats (&t, &info->xyz_to_cam[i][0][0], 9);
          info->n_matrices = MAX (info->n_matrices, i + 1);
        }
      else if (!strcmp (key, "fm1") || !strcmp (key, "fm2"))
        read_floats (&t, &info->forward[key[2] - '1'][0][0], 9), info->has_forward = TRUE;
      else if (!strcmp (key, "ab"))
        read_floats (&t, info->analog_balance, 3);
      else if (!strcmp (key, "as_shot"))
        read_floats (&t, info->as_shot, 4);
      else if (!strcmp (key, "daylight"))
        read_floats (&t, info->daylight, 4);
      else
        {
          fprintf (stderr, "camera-color-probe: unknown key %s\n", key);
          exit (2);
        }
    }
}

static void
print_matrix (float m[3][3])
{
  for (int i = 0; i < 9; i++)
    printf ("%.9g%c", m[i / 3][i % 3], i == 8 ? '\n' : ' ');
}

int
main (void)
{
  g_autoptr (LmRawInfo) info = lm_raw_info_new ();
  char line[4096];
  while (fgets (line, sizeof line, stdin))
    {
      g_auto (GStrv) tokens = g_strsplit_set (g_strstrip (line), " \t", -1);
      char **t = tokens + 1;
      float v[6], mul[4], m[3][3];
      const char *what = tokens[0];
      if (!strcmp (what, "info"))
        {
          lm_raw_info_unref (info);
          info = lm_raw_info_new ();
          read_info (info, t);
          printf ("ok\n");
        }
      else if (!strcmp (what, "mul"))
        {
          read_floats (&t, v, 6);
          lm_raw_wb_multipliers (info, (LmRawWbMode) v[0], v[1], v[2], v + 3, mul);
          printf ("%.9g %.9g %.9g %.9g\n", mul[0], mul[1], mul[2], mul[3]);
        }
      else if (!strcmp (what, "temperature"))
        {
          double temperature, tint;
          read_floats (&t, mul, 4);
          lm_raw_wb_temperature_of (info, mul, &temperature, &tint);
          printf ("%.9g %.9g\n", temperature, tint);
        }
      else if (!strcmp (what, "gray"))
        {
          read_floats (&t, v, 3);
          lm_raw_wb_from_gray (info, v, mul);
          printf ("%.9g %.9g %.9g %.9g\n", mul[0], mul[1], mul[2], mul[3]);
        }
      else if (!strcmp (what, "rec2020") || !strcmp (what, "xyz"))
        {
          read_floats (&t, mul, 4);
          (what[0] == 'r' ? lm_raw_camera_to_rec2020 : lm_raw_camera_to_xyz) (info, mul, m);
          print_matrix (m);
        }
      else
        {
          fprintf (stderr, "camera-color-probe: unknown command %s\n", what);
          return 2;
        }
      fflush (stdout);
    }
  return 0;
}
