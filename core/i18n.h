/* Locale and message catalogue set-up, the same for every Lumen program. */
#pragma once

/* Sets the locale from the environment and binds Lumen's catalogue: the installed one, or
 * LUMEN_LOCALEDIR's (the build tree's, for tests and uninstalled runs). */
void lm_i18n_init (void);
