/* Helpers shared by the unit tests. */
#pragma once

#include <glib.h>

#include "core/image.h"

/* A host image of FORMAT, every byte set to POISON, so that an unwritten pixel shows. */
LmImage *lm_test_image_new (LmFormat format, guint width, guint height, guint8 poison);

/* A host RGBA8 image from WIDTH × HEIGHT pixels given as R, G, B, A bytes. */
LmImage *lm_test_rgba_from (guint width, guint height, const guint8 *pixels);

/* A host GRAY8 image from WIDTH × HEIGHT bytes. */
LmImage *lm_test_gray_from (guint width, guint height, const guint8 *pixels);

/* The folder of the shared test data (LUMEN_TEST_DATA), failing the test when it is absent. */
const char *lm_test_data_dir (void);

/* A fresh temporary folder, removed with its contents at exit. */
const char *lm_test_tmp_dir (void);
