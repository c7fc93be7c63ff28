#ifndef SEGUE_CTEXTSHAPING_SHIM_H
#define SEGUE_CTEXTSHAPING_SHIM_H
// The text-shaping libraries, imported by SegueText only: libraqm (bidirectional text with FriBidi, script
// itemisation and shaping with HarfBuzz, in one call per line), FreeType (glyph outlines, coverage, the stroker that
// draws outlines, colour bitmap fonts), fontconfig (finding fonts by family, and per character for fallback) and
// libunibreak (the Unicode line-breaking rules, UAX #14).
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_GLYPH_H
#include FT_STROKER_H
#include FT_OUTLINE_H
#include FT_SIZES_H
#include <raqm.h>
#include <hb.h>
#include <fontconfig/fontconfig.h>
#include <linebreak.h>

// Swift cannot read C macros that take arguments or stand for strings: these name them.
static const int segue_ft_load_no_hinting = FT_LOAD_NO_HINTING;
static const int segue_ft_load_color = FT_LOAD_COLOR;
static const int segue_ft_load_default = FT_LOAD_DEFAULT;
static const long segue_ft_face_flag_color = FT_FACE_FLAG_COLOR;
static const long segue_ft_face_flag_scalable = FT_FACE_FLAG_SCALABLE;
static const long segue_ft_face_flag_fixed_sizes = FT_FACE_FLAG_FIXED_SIZES;

// fontconfig's FcPatternAdd* and FcPatternGet* for the objects SegueText uses, by name.
static inline FcBool segue_fc_add_string(FcPattern *p, const char *object, const char *value) {
    return FcPatternAddString(p, object, (const FcChar8 *)value);
}
static inline const char *segue_fc_get_string(FcPattern *p, const char *object, int n) {
    FcChar8 *s = NULL;
    return FcPatternGetString(p, object, n, &s) == FcResultMatch ? (const char *)s : NULL;
}
static inline int segue_fc_get_integer(FcPattern *p, const char *object, int fallback) {
    int v = 0;
    return FcPatternGetInteger(p, object, 0, &v) == FcResultMatch ? v : fallback;
}
static inline FcCharSet *segue_fc_get_charset(FcPattern *p) {
    FcCharSet *c = NULL;
    return FcPatternGetCharSet(p, FC_CHARSET, 0, &c) == FcResultMatch ? c : NULL;
}
static inline FcBool segue_fc_get_bool(FcPattern *p, const char *object) {
    FcBool v = FcFalse;
    return FcPatternGetBool(p, object, 0, &v) == FcResultMatch ? v : FcFalse;
}
#endif
