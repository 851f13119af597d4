/* XMP packets as they travel from a source to an export: the packet's XML text, edited only
 * where Lumen has something to say (which tool wrote the file, its orientation); everything
 * else is kept byte for byte. Extended XMP (JPEG's "http://ns.adobe.com/xmp/extension/"
 * segments, for packets over 64 KB) is not read. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_XMP_NS "http://ns.adobe.com/xap/1.0/"
#define LM_XMP_TIFF_NS "http://ns.adobe.com/tiff/1.0/"
#define LM_XMP_EXIF_NS "http://ns.adobe.com/exif/1.0/"

/* "Lumen <version>": the Software and CreatorTool of what Lumen writes. */
const char *lm_xmp_creator_tool (void);

/* The packet to write for an export WIDTH by HEIGHT pixels of a source whose packet is PACKET
 * (NULL: none): PACKET with xmp:CreatorTool set to lm_xmp_creator_tool () (added to its first
 * rdf:Description when absent), a tiff:Orientation it holds set to 1 (the pixels are stored
 * upright), the exif:PixelXDimension and tiff:ImageWidth it holds set to WIDTH and the
 * exif:PixelYDimension and tiff:ImageLength to HEIGHT (none added), wrapped in <?xpacket?>
 * instructions where it had none; a fresh packet holding only CreatorTool when PACKET is NULL.
 * NULL when PACKET is not well-formed XML (GMarkup's reading) or holds a NUL: a broken packet
 * is not passed on. A packet that parses but has no rdf:Description is kept as it is. */
GBytes *lm_xmp_for_export (GBytes *packet, guint width, guint height);

/* PACKET with the property NAME of the namespace NS set to VALUE (escaped here): its
 * attribute or element changed where present, otherwise, when ADD, an attribute added to the
 * first rdf:Description (with a declaration of NS under DEFAULT_PREFIX where NS has none).
 * NULL when nothing could be set (no such property and !ADD, or no rdf:Description). The
 * result is not checked for well-formedness: lm_xmp_for_export does that. */
GBytes *lm_xmp_set_property (GBytes *packet, const char *ns, const char *default_prefix,
                             const char *name, const char *value, gboolean add);

/* The value of the property NAME of the namespace NS (under any prefix the packet binds to NS):
 * the first one's, an attribute of a tag or a child element holding only text, unescaped;
 * NULL when PACKET (NULL: none) has no such property or is not well-formed. */
char *lm_xmp_get_property (GBytes *packet, const char *ns, const char *name);

/* PACKET without any property NAME of NS: attributes with the blanks before them, elements
 * (whatever they hold) with the blanks before them; everything else byte for byte. A new
 * reference to PACKET when it has none. */
GBytes *lm_xmp_remove_property (GBytes *packet, const char *ns, const char *name);

/* The items of the array property NAME of NS (an element holding an rdf:Seq, rdf:Bag or
 * rdf:Alt of rdf:li), unescaped, in order; an empty vector for an empty array; NULL when
 * PACKET has no such property, or it is no array, or PACKET is not well-formed. */
char **lm_xmp_get_array (GBytes *packet, const char *ns, const char *name);

/* PACKET with the array property NAME of NS set to ITEMS (escaped here) in an ARRAY_TYPE
 * ("rdf:Seq", "rdf:Bag", "rdf:Alt"): the contents of every element NAME replaced, an
 * attribute NAME (no RDF: an array is never one) removed; where there was no element, one
 * added as the last child of the rdf:Description that binds NS, else of the first (declaring
 * NS there under DEFAULT_PREFIX). NULL when there is no rdf:Description to add it to. */
GBytes *lm_xmp_set_array (GBytes *packet, const char *ns, const char *default_prefix, const char *name,
                          const char *array_type, const char *const *items);

/* The tiff:Orientation (1..8) PACKET states; 0 when it states none, or a value out of range,
 * or PACKET (NULL: none) is not well-formed. */
int lm_xmp_orientation (GBytes *packet);

/* Whether PACKET is well-formed XML as GMarkup reads it (after a UTF-8 byte order mark), with
 * no NUL. */
gboolean lm_xmp_is_well_formed (GBytes *packet);

G_END_DECLS
