import CFFmpeg
import CLargeStill
import CStillImage
import Foundation
import SegueCore

/// A still picture too large to decode whole, read shrunk on load (`Sources/CLargeStill`): a PNG row by row with
/// libpng, a JPEG with libjpeg-turbo's DCT scaling (1/2, 1/4 or 1/8 as it decodes), each then averaged down to the size
/// it is shown at. FFmpeg refuses pictures of more than about 268 million pixels (`av_image_check_size`), and below that
/// a 200-megapixel panorama would still cost it several hundred MiB as planes and as RGBA.
///
/// Which pictures: PNG and JPEG files (by their signature) of more than `threshold` pixels; other stills, and smaller
/// ones, go through FFmpeg as before. None of more than the input policy's `maxLargeStillPixels` is read at all (the
/// decompression-bomb limit for these, `--max-megapixels`).
///
/// Memory bound: one source row (at most 4 bytes × the width after DCT scaling), a row of 64-bit sums (32 bytes × the
/// output width), and the output picture, which is the size the layer is shown at and never more than `maxSide`
/// pixels on its long side (256 MiB of RGBA for a square one); the full picture is never held. A 20000×20000 PNG in a
/// 640-pixel edit peaks at a few MiB above the process's own size (`LargeStillTests` measures the peak RSS).
struct LargeStill {
    let path: String
    /// Stored size.
    let size: PixelSize
    let hasAlpha: Bool
    /// "PNG (16-bit)", "JPEG".
    let format: String
    /// A JPEG's EXIF orientation (1…8), or a PNG's (its `eXIf` chunk); nil when none.
    let exifOrientation: Int?

    /// Pictures above this many pixels (64 Mi, 8192×8192) are read shrunk on load.
    static let threshold = 1 << 26
    /// The longest side a large still is decoded to, however large it is shown.
    static let maxSide = SourceInfo.largeStillMaxSide

    /// The large still at `path`, or nil when it is not a PNG or JPEG of more than `threshold` pixels.
    /// - Throws: `LimitExceeded` for a picture over `policy.limits.maxLargeStillPixels` (read from its header).
    static func probe(path: String, policy: InputPolicy) throws -> LargeStill? {
        var info = segue_large_still_info()
        guard segue_large_still_probe(path, &info) == 0 else {
            // Not readable as PNG or JPEG here: FFmpeg's reading will say why, as for any other file.
            return nil
        }
        guard info.kind != Int32(SEGUE_LARGE_UNKNOWN) else { return nil }
        let pixels = Int(info.width) * Int(info.height)
        guard pixels > threshold else { return nil }
        let kind = info.kind == Int32(SEGUE_LARGE_PNG) ? "PNG" : "JPEG"
        guard pixels <= policy.limits.maxLargeStillPixels else {
            throw LimitExceeded.picture(path, PixelSize(width: Int(info.width), height: Int(info.height)), policy.limits, largeStill: true)
        }
        let orientation = info.kind == Int32(SEGUE_LARGE_JPEG) ? (info.exif_orientation > 0 ? Int(info.exif_orientation) : nil)
            : ExifOrientation.pngExifBlock(path: path).map { Int($0.withUnsafeBufferPointer { segue_exif_orientation($0.baseAddress, UInt32($0.count)) }) }.flatMap { (1...8).contains($0) ? $0 : nil }
        return LargeStill(path: path, size: PixelSize(width: Int(info.width), height: Int(info.height)), hasAlpha: info.has_alpha != 0,
                          format: kind + (info.bit_depth > 8 ? " (\(info.bit_depth)-bit)" : ""), exifOrientation: orientation)
    }

    /// The size decoded for a request: `requested` (the layer's reduction, each side at most the stored one), or the
    /// stored size; in either case no side above `maxSide`, the long side scaled to it keeping the aspect ratio.
    func decodeSize(for requested: PixelSize?) -> PixelSize {
        var s = requested.map { PixelSize(width: min($0.width, size.width), height: min($0.height, size.height)) } ?? size
        let longest = max(s.width, s.height)
        if longest > LargeStill.maxSide {
            let k = Double(LargeStill.maxSide) / Double(longest)
            s = PixelSize(width: max(1, Int((Double(s.width) * k).rounded())), height: max(1, Int((Double(s.height) * k).rounded())))
        }
        return PixelSize(width: max(1, s.width), height: max(1, s.height))
    }

    /// The picture reduced to `target` (`decodeSize`), straight RGBA. - Throws: `MediaError` with libpng's or libjpeg's
    /// message.
    func decode(to target: PixelSize) throws -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * 4)
        var error = [CChar](repeating: 0, count: 256)
        let rc = pixels.withUnsafeMutableBufferPointer { out in
            segue_large_still_decode(path, UInt32(target.width), UInt32(target.height), out.baseAddress, &error)
        }
        guard rc == 0 else {
            let message = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MediaError(path: path, function: "segue_large_still_decode", message: "cannot read the \(size) picture shrunk to \(target): \(message)")
        }
        return RGBAImage(width: target.width, height: target.height, pixels: pixels)
    }
}
