#include "large_still.h"
#include <png.h>
#include <stdio.h>
#include <jpeglib.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>

static void set_error(char *error, const char *what) {
    snprintf(error, 256, "%s", what);
}

static int sniff(FILE *f) {
    unsigned char sig[8] = {0};
    size_t n = fread(sig, 1, 8, f);
    rewind(f);
    if (n == 8 && png_sig_cmp(sig, 0, 8) == 0) return SEGUE_LARGE_PNG;
    if (n >= 3 && sig[0] == 0xFF && sig[1] == 0xD8 && sig[2] == 0xFF) return SEGUE_LARGE_JPEG;
    return SEGUE_LARGE_UNKNOWN;
}

// ---- Averaging rows down -------------------------------------------------------------------------------------------

// Sums of the source pixels falling into one output row (colour weighted by alpha), written out when the row is done.
// Output column x averages source columns [x·sw/tw, (x+1)·sw/tw) (`span`), output row y source rows [y·sh/th, …).
typedef struct {
    uint32_t sw, sh, tw, th;
    uint32_t *span;       // source columns in each output column
    uint64_t *sums;       // tw * 4: alpha-weighted R, G, B, and A (opaque: plain R, G, B)
    uint64_t rows;        // source rows summed into the output row so far
    uint32_t row;         // the output row being summed
    int opaque;           // every pixel has alpha 255: plain sums
    uint8_t *out;
} reducer;

static int reducer_init(reducer *r, uint32_t sw, uint32_t sh, uint32_t tw, uint32_t th, int opaque, uint8_t *out) {
    memset(r, 0, sizeof *r);
    r->sw = sw; r->sh = sh; r->tw = tw; r->th = th; r->out = out; r->opaque = opaque;
    r->span = malloc(sizeof(uint32_t) * tw);
    r->sums = calloc((size_t)tw * 4, sizeof(uint64_t));
    if (!r->span || !r->sums) return -1;
    for (uint32_t x = 0; x < tw; x++)
        r->span[x] = (uint32_t)((uint64_t)(x + 1) * sw / tw - (uint64_t)x * sw / tw);
    return 0;
}

static void reducer_free(reducer *r) { free(r->span); free(r->sums); }

static void reducer_flush(reducer *r) {
    uint8_t *dst = r->out + (size_t)r->row * r->tw * 4;
    for (uint32_t x = 0; x < r->tw; x++) {
        const uint64_t *s = r->sums + (size_t)x * 4;
        uint64_t n = (uint64_t)r->span[x] * r->rows;
        if (n == 0) { memset(dst + 4 * x, 0, 4); continue; }
        if (r->opaque) {
            for (int c = 0; c < 3; c++) dst[4 * x + c] = (uint8_t)((s[c] + n / 2) / n);
            dst[4 * x + 3] = 255;
        } else {
            uint64_t a = s[3];
            for (int c = 0; c < 3; c++) dst[4 * x + c] = a ? (uint8_t)((s[c] + a / 2) / a) : 0;
            dst[4 * x + 3] = (uint8_t)((a + n / 2) / n);
        }
    }
    memset(r->sums, 0, sizeof(uint64_t) * r->tw * 4);
    r->rows = 0;
}

// Adds source row `y` (sw RGBA pixels); rows arrive in order. Each output column's run of source pixels is summed in
// locals first (this file is built without optimisation in debug builds: the loop is kept plain).
static void reducer_add(reducer *r, uint32_t y, const uint8_t *rgba) {
    uint32_t target = (uint32_t)((uint64_t)y * r->th / r->sh);
    if (target != r->row) { reducer_flush(r); r->row = target; }
    const uint8_t *p = rgba;
    uint64_t *s = r->sums;
    for (uint32_t x = 0; x < r->tw; x++, s += 4) {
        uint32_t n = r->span[x];
        const uint8_t *end = p + 4 * (size_t)n;
        uint64_t s0 = 0, s1 = 0, s2 = 0, sa = 0;
        if (r->opaque) {
            for (; p < end; p += 4) { s0 += p[0]; s1 += p[1]; s2 += p[2]; }
        } else {
            for (; p < end; p += 4) { uint32_t a = p[3]; s0 += (uint32_t)p[0] * a; s1 += (uint32_t)p[1] * a; s2 += (uint32_t)p[2] * a; sa += a; }
        }
        s[0] += s0; s[1] += s1; s[2] += s2; s[3] += sa;
    }
    r->rows++;
}

// ---- PNG ----------------------------------------------------------------------------------------------------------

typedef struct { char *error; } png_context;

static void png_error_fn(png_structp png, png_const_charp message) {
    png_context *c = png_get_error_ptr(png);
    snprintf(c->error, 256, "libpng: %s", message);
    png_longjmp(png, 1);
}
static void png_warning_fn(png_structp png, png_const_charp message) { (void)png; (void)message; }

static int png_read(FILE *f, segue_large_still_info *info, uint32_t tw, uint32_t th, uint8_t *out, char *error) {
    png_context ctx = { error };
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &ctx, png_error_fn, png_warning_fn);
    if (!png) { set_error(error, "libpng: out of memory"); return -1; }
    png_infop pi = png_create_info_struct(png);
    uint8_t *volatile row = NULL;
    reducer r;
    memset(&r, 0, sizeof r);
    volatile int reducing = 0;
    if (!pi || setjmp(png_jmpbuf(png))) {
        if (reducing) reducer_free(&r);
        free(row);
        png_destroy_read_struct(&png, pi ? &pi : NULL, NULL);
        if (!error[0]) set_error(error, "libpng: cannot read the file");
        return -1;
    }
    // The largest picture this reads: 2^20 pixels a side (the size the caller checks against its own limit first).
    png_set_user_limits(png, 1u << 20, 1u << 20);
    png_init_io(png, f);
    png_read_info(png, pi);
    uint32_t w = png_get_image_width(png, pi), h = png_get_image_height(png, pi);
    int type = png_get_color_type(png, pi);
    if (info) {
        info->kind = SEGUE_LARGE_PNG;
        info->width = w; info->height = h;
        info->has_alpha = (type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, pi, PNG_INFO_tRNS);
        info->interlaced = png_get_interlace_type(png, pi) != PNG_INTERLACE_NONE;
        info->bit_depth = png_get_bit_depth(png, pi);
        png_destroy_read_struct(&png, &pi, NULL);
        return 0;
    }
    if (png_get_interlace_type(png, pi) != PNG_INTERLACE_NONE) {
        set_error(error, "an interlaced (Adam7) PNG this large cannot be read row by row; save it without interlacing");
        png_destroy_read_struct(&png, &pi, NULL);
        return -1;
    }
    if (tw == 0 || th == 0 || tw > w || th > h) {
        set_error(error, "the size asked for is not a reduction of the picture");
        png_destroy_read_struct(&png, &pi, NULL);
        return -1;
    }
    // Everything to 8-bit RGBA: palette and low-bit grey expanded, tRNS to alpha, 16 bits scaled, grey to RGB, opaque
    // alpha added where there is none.
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, pi);
    row = malloc((size_t)w * 4);
    int opaque = !((type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, pi, PNG_INFO_tRNS));
    if (!row || reducer_init(&r, w, h, tw, th, opaque, out) != 0) {
        free(row); reducer_free(&r);
        set_error(error, "out of memory for a row");
        png_destroy_read_struct(&png, &pi, NULL);
        return -1;
    }
    reducing = 1;
    for (uint32_t y = 0; y < h; y++) {
        png_read_row(png, row, NULL);
        reducer_add(&r, y, row);
    }
    reducer_flush(&r);
    reducer_free(&r);
    reducing = 0;
    free(row);
    png_destroy_read_struct(&png, &pi, NULL);
    return 0;
}

// ---- JPEG ---------------------------------------------------------------------------------------------------------

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *error;
} jpeg_context;

static void jpeg_error_fn(j_common_ptr cinfo) {
    jpeg_context *c = (jpeg_context *)cinfo->err;
    char message[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, message);
    snprintf(c->error, 256, "libjpeg: %s", message);
    longjmp(c->jump, 1);
}
static void jpeg_silent(j_common_ptr cinfo, int level) { (void)cinfo; (void)level; }

// The EXIF Orientation of an APP1 segment ("Exif\0\0" + TIFF structure), parsed by libexif; 0 when none.
static int exif_orientation(const uint8_t *data, unsigned int size) {
    if (size < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 0;
    ExifData *ed = exif_data_new_from_data(data, size);
    if (!ed) return 0;
    int value = 0;
    ExifEntry *e = exif_content_get_entry(ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (e && e->format == EXIF_FORMAT_SHORT && e->components >= 1 && e->data) value = exif_get_short(e->data, exif_data_get_byte_order(ed));
    exif_data_unref(ed);
    return value >= 1 && value <= 8 ? value : 0;
}

static int jpeg_read(FILE *f, segue_large_still_info *info, uint32_t tw, uint32_t th, uint8_t *out, char *error) {
    struct jpeg_decompress_struct cinfo;
    jpeg_context ctx;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&ctx.base);
    ctx.base.error_exit = jpeg_error_fn;
    ctx.base.emit_message = jpeg_silent;
    ctx.error = error;
    uint8_t *volatile row = NULL;
    reducer r;
    memset(&r, 0, sizeof r);
    volatile int reducing = 0;
    if (setjmp(ctx.jump)) {
        if (reducing) reducer_free(&r);
        free(row);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_stdio_src(&cinfo, f);
    if (info) jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    if (info) {
        info->kind = SEGUE_LARGE_JPEG;
        info->width = cinfo.image_width; info->height = cinfo.image_height;
        info->has_alpha = 0; info->interlaced = 0; info->bit_depth = 8;
        for (jpeg_saved_marker_ptr m = cinfo.marker_list; m; m = m->next) {
            if (m->marker == JPEG_APP0 + 1 && (info->exif_orientation = exif_orientation(m->data, m->data_length)) != 0) break;
        }
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    uint32_t w = cinfo.image_width, h = cinfo.image_height;
    if (tw == 0 || th == 0 || tw > w || th > h) {
        set_error(error, "the size asked for is not a reduction of the picture");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
        set_error(error, "a CMYK JPEG this large is not read (convert it to RGB)");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    // The DCT does the first reduction: the largest of 1/8, 1/4, 1/2 that still leaves at least the size asked for.
    cinfo.out_color_space = JCS_EXT_RGBA;
    cinfo.scale_num = 1;
    for (unsigned denom = 8; denom >= 1; denom /= 2) {
        cinfo.scale_denom = denom;
        jpeg_calc_output_dimensions(&cinfo);
        if ((denom == 1) || (cinfo.output_width >= tw && cinfo.output_height >= th)) break;
    }
    jpeg_start_decompress(&cinfo);
    uint32_t sw = cinfo.output_width, sh = cinfo.output_height;
    row = malloc((size_t)sw * 4);
    if (!row || reducer_init(&r, sw, sh, tw, th, 1, out) != 0) {
        free(row); reducer_free(&r);
        set_error(error, "out of memory for a row");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    reducing = 1;
    uint32_t y = 0;
    while (cinfo.output_scanline < sh) {
        JSAMPROW rows[1] = { row };
        if (jpeg_read_scanlines(&cinfo, rows, 1) != 1) break;
        reducer_add(&r, y++, row);
    }
    reducer_flush(&r);
    reducer_free(&r);
    reducing = 0;
    free(row);
    row = NULL;
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

// ---- Entry points -------------------------------------------------------------------------------------------------

int segue_large_still_probe(const char *path, segue_large_still_info *info) {
    memset(info, 0, sizeof *info);
    FILE *f = fopen(path, "rb");
    if (!f) { snprintf(info->error, 256, "cannot open the file"); return -1; }
    int kind = sniff(f), rc = 0;
    if (kind == SEGUE_LARGE_PNG) rc = png_read(f, info, 0, 0, NULL, info->error);
    else if (kind == SEGUE_LARGE_JPEG) rc = jpeg_read(f, info, 0, 0, NULL, info->error);
    fclose(f);
    return rc;
}

int segue_large_still_decode(const char *path, uint32_t width, uint32_t height, uint8_t *out, char *error) {
    error[0] = 0;
    FILE *f = fopen(path, "rb");
    if (!f) { set_error(error, "cannot open the file"); return -1; }
    int kind = sniff(f), rc;
    if (kind == SEGUE_LARGE_PNG) rc = png_read(f, NULL, width, height, out, error);
    else if (kind == SEGUE_LARGE_JPEG) rc = jpeg_read(f, NULL, width, height, out, error);
    else { set_error(error, "neither PNG nor JPEG"); rc = -1; }
    fclose(f);
    return rc;
}
