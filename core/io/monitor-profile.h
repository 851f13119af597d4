/* The monitor profile a user names (the window's preference): a file read within a bound and
 * checked before the view transform is made with it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The contents of the monitor profile file PATH, checked: an RGB profile lcms2 reads and can
 * transform into (lm_monitor_profile_check). Fails with the file's name and the cause. */
GBytes *lm_monitor_profile_load (const char *path, GError **error);

G_END_DECLS
