#ifndef SEGUE_CSVG_SHIM_H
#define SEGUE_CSVG_SHIM_H
// SVG stills drawn by librsvg into a cairo image surface, imported by SegueMedia only (SVGStill.swift). Each handle is
// made from the file's bytes alone, with no base file or URL: librsvg then refuses every external reference (images,
// XInclude, style sheets by file or URL; only data: URLs inside the document load).
#include <stdint.h>
#include <string.h>
#include <librsvg/rsvg.h>
#include <cairo.h>

// Copies a GError's message into `error` (size bytes) and frees the GError.
static inline void segue_svg_take_error(GError *e, char *error, size_t size, const char *fallback) {
    const char *m = (e && e->message) ? e->message : fallback;
    if (error && size) { strncpy(error, m, size - 1); error[size - 1] = 0; }
    if (e) g_error_free(e);
}

// A handle for the SVG document in `data` (`length` bytes, gzip-compressed or not), without a base file; NULL with
// librsvg's message in `error` when it cannot be parsed. Free it with segue_svg_free.
static inline RsvgHandle *segue_svg_open(const uint8_t *data, size_t length, char *error, size_t size) {
    GError *e = NULL;
    RsvgHandle *h = rsvg_handle_new_from_data(data, length, &e);
    if (!h) segue_svg_take_error(e, error, size, "cannot parse the SVG document");
    else if (e) g_error_free(e);
    return h;
}

static inline void segue_svg_free(RsvgHandle *h) { if (h) g_object_unref(h); }

// The document's size in pixels at 96 dpi: its width and height when given in absolute units, else its viewBox's size.
// 0 when it has neither.
static inline int segue_svg_size(RsvgHandle *h, double *width, double *height) {
    rsvg_handle_set_dpi(h, 96);
    if (rsvg_handle_get_intrinsic_size_in_pixels(h, width, height) && *width > 0 && *height > 0) return 1;
    gboolean hw, hh, hv; RsvgLength lw, lh; RsvgRectangle vb;
    rsvg_handle_get_intrinsic_dimensions(h, &hw, &lw, &hh, &lh, &hv, &vb);
    if (hv && vb.width > 0 && vb.height > 0) { *width = vb.width; *height = vb.height; return 1; }
    return 0;
}

// Draws the whole document scaled to width × height pixels into `out` (width × height × 4 bytes) as R, G, B, A bytes
// with PREMULTIPLIED alpha, as cairo's ARGB32 holds them (one 32-bit native-endian word a pixel, A in the top byte):
// the bytes are reordered, the values untouched. Returns 0, or -1 with the message in `error`.
static inline int segue_svg_render(RsvgHandle *h, int width, int height, uint8_t *out, char *error, size_t size) {
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        segue_svg_take_error(NULL, error, size, cairo_status_to_string(cairo_surface_status(s)));
        cairo_surface_destroy(s);
        return -1;
    }
    cairo_t *cr = cairo_create(s);
    RsvgRectangle viewport = { 0, 0, (double)width, (double)height };
    GError *e = NULL;
    gboolean ok = rsvg_handle_render_document(h, cr, &viewport, &e);
    cairo_destroy(cr);
    if (!ok) { segue_svg_take_error(e, error, size, "librsvg cannot draw the document"); cairo_surface_destroy(s); return -1; }
    if (e) g_error_free(e);
    cairo_surface_flush(s);
    const uint8_t *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)(data + (size_t)y * stride);
        uint8_t *o = out + (size_t)y * width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            o[4 * x] = (p >> 16) & 255; o[4 * x + 1] = (p >> 8) & 255; o[4 * x + 2] = p & 255; o[4 * x + 3] = p >> 24;
        }
    }
    cairo_surface_destroy(s);
    return 0;
}
#endif
