#ifndef SEGUE_CFFMPEG_SHIM_H
#define SEGUE_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavdevice/avdevice.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/avutil.h>
#include <libavutil/avstring.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libavutil/hash.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/mastering_display_metadata.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>

// Function-like macros do not import into Swift; these wrap them.
static inline int segue_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int segue_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t segue_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline const char *segue_err2str(int code, char *buf, size_t size) {
    av_strerror(code, buf, size);
    return buf;
}
static inline const int32_t *segue_stream_display_matrix(AVStream *st) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!data || size < 9 * sizeof(int32_t)) return 0;
    return (const int32_t *)data;
}
// get_format for decoders with a CUDA device: the CUDA surface format when the codec's hwaccel offers it, else the
// first software format (the codec then decodes on the CPU).
static inline enum AVPixelFormat segue_get_format_cuda(struct AVCodecContext *ctx, const enum AVPixelFormat *fmts) {
    (void)ctx;
    for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++) if (*p == AV_PIX_FMT_CUDA) return *p;
    for (const enum AVPixelFormat *p = fmts; *p != AV_PIX_FMT_NONE; p++) {
        const AVPixFmtDescriptor *d = av_pix_fmt_desc_get(*p);
        if (d && !(d->flags & AV_PIX_FMT_FLAG_HWACCEL)) return *p;
    }
    return fmts[0];
}
static inline const AVDOVIDecoderConfigurationRecord *segue_stream_dovi_config(AVStream *st) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(st, AV_PKT_DATA_DOVI_CONF, &size);
    if (!data || size < sizeof(AVDOVIDecoderConfigurationRecord)) return 0;
    return (const AVDOVIDecoderConfigurationRecord *)data;
}
// glibc's M_PERTURB: every malloc'd block (not calloc's) starts filled with ~v and every freed one is filled with v.
#include <malloc.h>
static inline void segue_malloc_perturb(int v) { mallopt(M_PERTURB, v); }
static inline void segue_malloc_mmap_threshold(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }
static inline int segue_set_stereo_layout(AVChannelLayout *layout) {
    AVChannelLayout stereo = AV_CHANNEL_LAYOUT_STEREO;
    return av_channel_layout_copy(layout, &stereo);
}
// AVERROR_EXIT: what an I/O call returns when the interrupt callback stopped it.
static inline int segue_averror_exit(void) { return AVERROR_EXIT; }
static inline int segue_averror(int e) { return AVERROR(e); }
// The input guard (SegueMedia's InputFile): libavformat opens every file of a demuxer through the context's io_open
// (the main input, an HLS playlist's segments, image2's pictures); this one asks `allow` first (0: open it, a
// negative AVERROR: refuse) and then calls the io_open the context had. The guard lives in the context's `opaque`.
typedef int (*segue_io_open_fn)(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options);
typedef struct SegueIOGuard {
    segue_io_open_fn default_open;
    int (*allow)(void *context, const char *url);
    void *context;
} SegueIOGuard;
static inline int segue_guarded_io_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    SegueIOGuard *g = (SegueIOGuard *)s->opaque;
    if (!g || !g->default_open || !g->allow) return AVERROR(EPERM);
    int r = g->allow(g->context, url);
    if (r < 0) return r;
    return g->default_open(s, pb, url, flags, options);
}
static inline void segue_install_io_guard(AVFormatContext *s, SegueIOGuard *g) {
    g->default_open = s->io_open;
    s->opaque = g;
    s->io_open = segue_guarded_io_open;
}
static inline int segue_averror_eperm(void) { return AVERROR(EPERM); }
#endif
