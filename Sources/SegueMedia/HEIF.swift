import CFFmpeg
import CStillImage
import Foundation
import SegueCore

// HEIC/HEIF (and AVIF) stills through libheif, which FFmpeg 5.1 cannot read. One owner per libheif handle.

/// A libheif call's failure as a `MediaError`: the call's name and libheif's own message. The one checked choke
/// point for libheif calls.
enum HEIF {
    static func check(_ e: heif_error, _ function: String, path: String?) throws {
        guard e.code != heif_error_Ok else { return }
        let message = e.message.map { String(cString: $0) } ?? "error \(e.code.rawValue)"
        throw MediaError(path: path, function: function, code: Int32(e.code.rawValue), message: message)
    }

    /// Whether libheif recognises `path` as a HEIF file (HEIC, AVIF, …) from its first bytes (`heif_check_filetype`),
    /// supported or not: such files are read with libheif, never with FFmpeg.
    static func isHEIF(path: String) -> Bool {
        // Only a regular file is read (a FIFO would block): `MediaInput.check` refuses the others.
        var st = stat()
        guard stat(path, &st) == 0, InputPolicy.nonRegularKind(st.st_mode) == nil, let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        let head = [UInt8]((try? h.read(upToCount: 64)) ?? Data())
        guard head.count >= 12 else { return false }
        let r = head.withUnsafeBufferPointer { heif_check_filetype($0.baseAddress, Int32($0.count)) }
        return r == heif_filetype_yes_supported || r == heif_filetype_yes_unsupported
    }

    /// The MIME type libheif reports for `path` ("image/heic", "image/avif", …).
    static func mimeType(path: String) -> String {
        guard let h = FileHandle(forReadingAtPath: path), let data = try? h.read(upToCount: 64) else { return "image/heif" }
        try? h.close()
        let head = [UInt8](data)
        return head.withUnsafeBufferPointer { heif_get_file_mime_type($0.baseAddress, Int32($0.count)) }.map { String(cString: $0) } ?? "image/heif"
    }
}

/// A libheif context holding one file (`heif_context_alloc` / `heif_context_free`).
final class HEIFContext {
    let ptr: OpaquePointer
    let path: String
    /// Reads `path`. Wraps `heif_context_read_from_file`. Throws `MediaError`.
    init(path: String) throws {
        self.path = path
        guard let c = heif_context_alloc() else { throw MediaError(path: path, function: "heif_context_alloc", message: "out of memory") }
        ptr = c
        try HEIF.check(heif_context_read_from_file(c, path, nil), "heif_context_read_from_file", path: path)
    }
    init(empty: Void) throws {
        path = ""
        guard let c = heif_context_alloc() else { throw MediaError(path: nil, function: "heif_context_alloc", message: "out of memory") }
        ptr = c
    }
    deinit { heif_context_free(ptr) }

    /// The primary image (`heif_context_get_primary_image_handle`).
    func primaryImage() throws -> HEIFImageHandle {
        var h: OpaquePointer?
        try HEIF.check(heif_context_get_primary_image_handle(ptr, &h), "heif_context_get_primary_image_handle", path: path)
        return HEIFImageHandle(h!, context: self)
    }
}

/// An image item of a HEIF file (`heif_image_handle_release`). Keeps its context alive.
final class HEIFImageHandle {
    let ptr: OpaquePointer
    let context: HEIFContext
    init(_ ptr: OpaquePointer, context: HEIFContext) { self.ptr = ptr; self.context = context }
    deinit { heif_image_handle_release(ptr) }

    /// Size after the file's transformations (irot, imir, clap), as decoded.
    var size: PixelSize { PixelSize(width: Int(heif_image_handle_get_width(ptr)), height: Int(heif_image_handle_get_height(ptr))) }
    /// Size as coded (the `ispe` property), before the transformations.
    var storedSize: PixelSize { PixelSize(width: Int(heif_image_handle_get_ispe_width(ptr)), height: Int(heif_image_handle_get_ispe_height(ptr))) }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(ptr) != 0 }
    var lumaBits: Int { Int(heif_image_handle_get_luma_bits_per_pixel(ptr)) }

    /// Decodes the image as 8-bit interleaved R′G′B′A (libheif's own Y′CbCr → R′G′B′ conversion, with the file's
    /// colour profile), its transformations applied (`heif_decode_image`), into an RGBA `Frame` (alpha straight,
    /// 255 where the image has none; a file flagged premultiplied is divided back, `round(c·255 / a)`).
    /// Throws `MediaError`.
    func decodeRGBA() throws -> Frame {
        var img: OpaquePointer?
        try HEIF.check(heif_decode_image(ptr, &img, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil), "heif_decode_image", path: context.path)
        let image = HEIFImage(img!)
        let w = Int(heif_image_get_width(image.ptr, heif_channel_interleaved)), h = Int(heif_image_get_height(image.ptr, heif_channel_interleaved))
        var stride: Int32 = 0
        guard w > 0, h > 0, let src = heif_image_get_plane_readonly(image.ptr, heif_channel_interleaved, &stride) else {
            throw MediaError(path: context.path, function: "heif_image_get_plane_readonly", message: "libheif gave no interleaved RGBA plane")
        }
        let frame = try Frame.allocated(width: w, height: h, format: AV_PIX_FMT_RGBA)
        let dst = frame.ptr.pointee.data.0!, dstStride = Int(frame.ptr.pointee.linesize.0)
        for y in 0..<h { (dst + y * dstStride).update(from: src + y * Int(stride), count: w * 4) }
        if heif_image_is_premultiplied_alpha(image.ptr) != 0 {
            for y in 0..<h {
                let row = dst + y * dstStride
                for x in 0..<w {
                    let a = UInt32(row[4 * x + 3])
                    guard a > 0 && a < 255 else { continue }
                    for c in 0..<3 { row[4 * x + c] = UInt8(min(255, (UInt32(row[4 * x + c]) * 255 + a / 2) / a)) }
                }
            }
        }
        frame.ptr.pointee.color_range = AVCOL_RANGE_JPEG
        return frame
    }
}

/// A decoded or to-be-encoded libheif image (`heif_image_release`).
final class HEIFImage {
    let ptr: OpaquePointer
    init(_ ptr: OpaquePointer) { self.ptr = ptr }
    deinit { heif_image_release(ptr) }
}

/// A libheif encoder (`heif_encoder_release`).
final class HEIFEncoder {
    let ptr: OpaquePointer
    init(_ ptr: OpaquePointer) { self.ptr = ptr }
    deinit { heif_encoder_release(ptr) }
}

extension StillImage {
    /// Writes `image` as a HEIC file (HEVC through libheif's x265 plugin, lossy `quality` 0…100) whose `irot`/`imir`
    /// properties ask for EXIF orientation `orientation` (1…8; libheif's `heif_encoding_options.image_orientation`
    /// stores the picture as given and records the transformation a reader applies to show it, as a camera does).
    /// For tests and examples: `heif-enc` 1.15 cannot write these properties.
    /// Throws `MediaError`.
    public static func writeHEIC(_ image: RGBAImage, to path: String, orientation: Int = 1, quality: Int = 90) throws {
        let context = try HEIFContext(empty: ())
        var img: OpaquePointer?
        try HEIF.check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, heif_chroma_interleaved_RGBA, &img),
                       "heif_image_create", path: path)
        let picture = HEIFImage(img!)
        try HEIF.check(heif_image_add_plane(picture.ptr, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8),
                       "heif_image_add_plane", path: path)
        var stride: Int32 = 0
        let dst = heif_image_get_plane(picture.ptr, heif_channel_interleaved, &stride)!
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height { (dst + y * Int(stride)).update(from: src.baseAddress! + y * image.width * 4, count: image.width * 4) }
        }
        var enc: OpaquePointer?
        try HEIF.check(heif_context_get_encoder_for_format(context.ptr, heif_compression_HEVC, &enc), "heif_context_get_encoder_for_format", path: path)
        let encoder = HEIFEncoder(enc!)
        try HEIF.check(heif_encoder_set_lossy_quality(encoder.ptr, Int32(quality)), "heif_encoder_set_lossy_quality", path: path)
        guard let options = heif_encoding_options_alloc() else { throw MediaError(path: path, function: "heif_encoding_options_alloc", message: "out of memory") }
        defer { heif_encoding_options_free(options) }
        options.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation))
        try HEIF.check(heif_context_encode_image(context.ptr, picture.ptr, encoder.ptr, options, nil), "heif_context_encode_image", path: path)
        try HEIF.check(heif_context_write_to_file(context.ptr, path), "heif_context_write_to_file", path: path)
    }
}
