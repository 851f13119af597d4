/* The display stretch (core/astro/stretch.h) on a backend. */
#pragma once

#include <glib.h>

#include "../astro/stretch.h"
#include "backend.h"

G_BEGIN_DECLS

/* lm_stretch_cpu on BACKEND (the CPU, or the CUDA backend's device: IMAGE and OUT in its work
 * memory). */
gboolean lm_stretch_run (LmBackend *backend, const LmImage *image, double low, double high,
                         const guint8 *table, gboolean flip, LmImage *out, GError **error);

G_END_DECLS
