#ifndef SEGUE_CSTILLIMAGE_SHIM_H
#define SEGUE_CSTILLIMAGE_SHIM_H
// Still-picture libraries FFmpeg 5.1 lacks, imported by SegueMedia only: libheif (HEIC/HEIF/AVIF decoding), libexif
// (EXIF blocks FFmpeg's decoders do not export: PNG's eXIf chunk) and libtiff (the TIFF Orientation tag).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>
#include <libexif/exif-data.h>
#include <libexif/exif-utils.h>
#include <tiffio.h>

// The EXIF Orientation (tag 0x0112 of IFD0, 1...8) of an EXIF block given as a TIFF structure ("II*\0" or "MM\0*",
// as PNG's eXIf chunk holds it), parsed by libexif; 0 when there is none or the block cannot be read. libexif reads
// the block in the form a JPEG APP1 segment carries it ("Exif\0\0" + TIFF structure), so that header is prepended.
// The ExifData handle lives only inside this call.
static inline int segue_exif_orientation(const unsigned char *tiff, unsigned int size) {
    if (size < 8 || size > 0xFFF0) return 0;
    unsigned char *block = (unsigned char *)malloc(size + 6);
    if (!block) return 0;
    memcpy(block, "Exif\0\0", 6);
    memcpy(block + 6, tiff, size);
    ExifData *ed = exif_data_new_from_data(block, size + 6);
    free(block);
    if (!ed) return 0;
    int value = 0;
    ExifEntry *e = exif_content_get_entry(ed->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (e && e->format == EXIF_FORMAT_SHORT && e->components >= 1 && e->data)
        value = exif_get_short(e->data, exif_data_get_byte_order(ed));
    exif_data_unref(ed);
    return value;
}

// The Orientation tag (274) of a TIFF file's first image, read with libtiff (TIFFGetField is variadic, so it is
// wrapped here); 0 when the file has none or cannot be opened. libtiff's warnings and errors are silenced: a
// picture whose metadata libtiff dislikes is still read by FFmpeg, only without an orientation. The TIFF handle
// lives only inside this call.
static inline int segue_tiff_orientation(const char *path) {
    TIFFSetWarningHandler(NULL);
    TIFFSetErrorHandler(NULL);
    TIFF *tif = TIFFOpen(path, "r");
    if (!tif) return 0;
    uint16_t value = 0;
    if (TIFFGetField(tif, TIFFTAG_ORIENTATION, &value) != 1) value = 0;
    TIFFClose(tif);
    return value;
}
#endif
