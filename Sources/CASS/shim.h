#ifndef SEGUE_CASS_SHIM_H
#define SEGUE_CASS_SHIM_H
// libass, imported by SegueText only: reads ASS/SSA caption files and draws their events (styles, positions,
// animated effects), as mpv, VLC and FFmpeg's subtitles filter do.
#include <stdarg.h>
#include <stdio.h>
#include <ass/ass.h>

// libass's messages are informational (fonts it picked, cache sizes): they are not printed. Problems with a caption
// file are found by SegueText's own checks, which name the line; a font that is not found is a warning there.
static inline void segue_ass_quiet(int level, const char *fmt, va_list args, void *data) {
    (void)level; (void)fmt; (void)args; (void)data;
}
static inline void segue_ass_silence(ASS_Library *library) {
    ass_set_message_cb(library, segue_ass_quiet, NULL);
}
#endif
