#ifndef SEGUE_LARGE_STILL_H
#define SEGUE_LARGE_STILL_H
// Pictures larger than FFmpeg decodes (it refuses more than about 268 million pixels) or than is worth holding whole,
// decoded straight to the size they are shown at without ever holding the full picture: PNG row by row (libpng), JPEG
// with its DCT scaled by 1/2, 1/4 or 1/8 as it is decoded (libjpeg-turbo), then averaged down to the size asked for
// (each output pixel the mean of the source pixels it covers, colour weighted by alpha). Memory: one source row, one
// row of sums, and the output. Used by SegueMedia's `LargeStill`.
#include <stdint.h>
#include <stddef.h>

enum { SEGUE_LARGE_UNKNOWN = 0, SEGUE_LARGE_PNG = 1, SEGUE_LARGE_JPEG = 2 };

typedef struct {
    int kind;               // SEGUE_LARGE_PNG, SEGUE_LARGE_JPEG, or SEGUE_LARGE_UNKNOWN (another format)
    uint32_t width, height; // stored size
    int has_alpha;          // PNG with an alpha channel or tRNS
    int interlaced;         // PNG Adam7 (cannot be read row by row)
    int bit_depth;          // bits per component as stored
    int exif_orientation;   // JPEG: the EXIF Orientation tag (1...8) of its APP1 segment, 0 when none
    char error[256];        // why, when the call returned non-zero
} segue_large_still_info;

// Reads the header of the PNG or JPEG at `path` (the signature decides): size, alpha, interlacing, and for a JPEG its
// EXIF orientation. Returns 0, or -1 with `info->error` set; a file of another format returns 0 with kind UNKNOWN.
int segue_large_still_probe(const char *path, segue_large_still_info *info);

// Decodes the picture at `path` (a PNG or JPEG) reduced to `width` x `height` (each at most the stored size) into
// `out`: width * height * 4 bytes of straight R'G'B'A, rows top first. Returns 0, or -1 with `error` (256 bytes) set.
int segue_large_still_decode(const char *path, uint32_t width, uint32_t height, uint8_t *out, char *error);
#endif
