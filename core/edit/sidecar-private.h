/* What pipeline.c, sidecar-instances.c and sidecar-masks.c share of the sidecar's form. */
#pragma once

#include "pipeline.h"

G_BEGIN_DECLS

/* "[GROUP]: unknown parameter “KEY”". FALSE. */
gboolean lm_sidecar_unknown_key (const char *group, const char *key, GError **error);

/* KEY's value, unescaped; NULL with a message naming GROUP and KEY where it is not UTF-8 or has
 * a bad escape. */
char *lm_sidecar_get_value (GKeyFile *keyfile, const char *group, const char *key, GError **error);

/* GROUP into STAGE as lm_stage_from_keyfile does; WITH_NAME also takes a "name" key (version
 * 2: an instance's name). */
gboolean lm_sidecar_stage_from_keyfile (LmStage *stage, GKeyFile *keyfile, const char *group, gboolean with_enabled,
                                        gboolean with_name, GError **error);

/* Version 2's [lumen] order= (sidecar-instances.c): PIPELINE's instances in the order it
 * lists, primaries keeping their values, instances of an id PIPELINE has too theirs, new ones
 * default; primaries it does not list (operations newer than the file) at their registry
 * place. */
void lm_sidecar_write_order (GKeyFile *keyfile, const LmPipeline *pipeline);
gboolean lm_sidecar_read_order (LmPipeline *pipeline, GKeyFile *keyfile, GError **error);

/* The stage that GROUP (an operation's, "<op>#<id>" from version 2 on) of a file of VERSION
 * names in PIPELINE; NULL with a message where there is none. */
LmStage *lm_sidecar_stage_of_group (LmPipeline *pipeline, const char *group, guint version, GError **error);

/* An instance's mask as the group "<instance's group> mask" (sidecar-masks.c). */
void lm_sidecar_write_mask (GKeyFile *keyfile, const char *group, const LmMask *mask);
/* GROUP (ending in " mask") into the mask of the instance it names, attached. */
gboolean lm_sidecar_read_mask (LmPipeline *pipeline, GKeyFile *keyfile, const char *group, GError **error);

G_END_DECLS
