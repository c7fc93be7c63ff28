/// An 8-bit RGBA picture, rows top to bottom, 4 bytes per pixel, no row padding (`width × height × 4` bytes).
/// Channel values are full-range, gamma-encoded (BT.709 transfer) R′G′B′; alpha is 255, except for the frames of an
/// output that keeps alpha (`FramePlan.keepsAlpha`), which the renderers draw premultiplied (`straightened`).
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA buffer must be width × height × 4 bytes")
        self.width = width; self.height = height; self.pixels = pixels
    }
    /// A picture filled with one colour.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8)) {
        var p = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: p.count, by: 4) { p[i] = fill.0; p[i + 1] = fill.1; p[i + 2] = fill.2 }
        self.init(width: width, height: height, pixels: p)
    }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// The pixel at column `x`, row `y` (top-left origin) as (R, G, B, A).
    public func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// A premultiplied picture with its colour divided by its alpha (`round(255·c / a)`, clamped; black where alpha is
    /// 0), as PNG stores it.
    public func straightened() -> RGBAImage {
        var p = pixels
        for i in stride(from: 0, to: p.count, by: 4) {
            let a = Int(p[i + 3])
            guard a < 255 else { continue }
            for c in 0..<3 { p[i + c] = a == 0 ? 0 : UInt8(min(255, (Int(p[i + c]) * 255 + a / 2) / a)) }
        }
        return RGBAImage(width: width, height: height, pixels: p)
    }
}
