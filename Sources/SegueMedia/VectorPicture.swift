import Foundation
import SegueCore

/// Pictures drawn from vectors (SVG documents by librsvg, Lottie frames by rlottie): both libraries draw premultiplied
/// alpha, which is what the renderers composite, so their values are used as they are (alpha applied exactly once).
enum VectorPicture {
    /// `image` (R, G, B, A bytes, premultiplied) as a premultiplied `VideoPicture` (sRGB, BT.709 primaries), `hasAlpha`
    /// when any pixel is not opaque.
    static func premultiplied(_ image: RGBAImage) -> VideoPicture {
        var picture = VideoPicture(image)
        picture.hasAlpha = image.pixels.withUnsafeBufferPointer { p in stride(from: 3, to: p.count, by: 4).contains { p[$0] != 255 } }
        return picture
    }

    /// `words` (`size.width` × `size.height` pixels, rows packed), each pixel a native-endian 32-bit word with A in the
    /// top byte, then R, G, B (cairo's and rlottie's ARGB32, premultiplied), as R, G, B, A bytes: reordered, the
    /// values untouched.
    static func rgba(premultipliedARGB words: [UInt32], size: PixelSize) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: words.count * 4)
        pixels.withUnsafeMutableBufferPointer { out in
            for (i, p) in words.enumerated() {
                out[4 * i] = UInt8(truncatingIfNeeded: p >> 16); out[4 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                out[4 * i + 2] = UInt8(truncatingIfNeeded: p); out[4 * i + 3] = UInt8(truncatingIfNeeded: p >> 24)
            }
        }
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// `image` (premultiplied) with straight alpha, rounded to the nearest code (what a still's RGBA reading gives:
    /// `VideoReader.frame(at:)`); fully transparent pixels become (0, 0, 0, 0).
    static func straight(_ image: RGBAImage) -> RGBAImage {
        var image = image
        image.pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                guard a != 255 else { continue }
                for c in 0..<3 { p[i + c] = a == 0 ? 0 : UInt8(min(255, (UInt32(p[i + c]) * 255 + a / 2) / a)) }
            }
        }
        return image
    }

    /// The size to draw a picture whose own size is `size` at, for a layer mapping output pixels to it by
    /// `outputToSource`: the size it covers in output pixels (the scale along each stored axis × `size`, rounded up). With `levels` (a layer in
    /// motion: keyframed scale or position), the scale is rounded up to a power of two, so a growing logo is drawn
    /// again only when it doubles, always at least as large as shown. In any case no side above `maxSide` and no more
    /// than `maxPixels` pixels (the aspect ratio kept), and at least 1×1.
    static func drawnSize(_ outputToSource: Affine2D, size: PixelSize, maxSide: Int?, maxPixels: Int, levels: Bool) -> PixelSize {
        let forward = outputToSource.then(.scale(Double(size.width), Double(size.height))).inverted
        var sx = (forward.a * forward.a + forward.b * forward.b).squareRoot()
        var sy = (forward.c * forward.c + forward.d * forward.d).squareRoot()
        if !sx.isFinite || !sy.isFinite || sx <= 0 || sy <= 0 { sx = 1; sy = 1 }
        if levels {
            func level(_ s: Double) -> Double { pow(2, (log2(s) - 1e-9).rounded(.up)) }
            sx = level(sx); sy = level(sy)
        }
        var w = Double(size.width) * sx, h = Double(size.height) * sy
        var k = 1.0
        if let maxSide { k = min(k, Double(maxSide) / max(w, h)) }
        k = min(k, (Double(maxPixels) / (w * h)).squareRoot())
        w *= k; h *= k
        return PixelSize(width: max(1, Int((w - 1e-6).rounded(.up))), height: max(1, Int((h - 1e-6).rounded(.up))))
    }
}
