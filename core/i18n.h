/* Locale and message catalogue set-up, the same for every Lumen program. */
#pragma once

/* Sets the locale from the environment and binds Lumen's catalogue: LUMEN_LOCALEDIR's when
 * set; the build tree's when the program runs from one (build/po, as meson compiles it);
 * else the installed one. */
void lm_i18n_init (void);
