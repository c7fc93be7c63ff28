import SegueCore
import SegueEdit
import SegueText

/// The contact sheet's labels, drawn by the text module (`SegueText`: fontconfig's fallback per character, libraqm
/// over FriBidi and HarfBuzz, FreeType), as titles are: a caption in any script reads as written ("cue 3 再见 and
/// goodbye!", Arabic joined and right to left), in Noto Sans and the fonts it falls back to.
final class SheetLabels {
    let engine: TextEngine
    let rasterizer: TextRasterizer
    /// The font size in pixels, and the distance between the baselines of a tile's two labels.
    let size: Double, pitch: Int

    /// Labels for tiles `tileWidth` pixels wide: 1/16 of the width, 9 to 24 pixels.
    /// - Throws: `TextError` when FreeType or fontconfig cannot start.
    init(tileWidth: Int) throws {
        engine = try TextEngine()
        rasterizer = try TextRasterizer()
        size = min(24, max(9, (Double(tileWidth) / 16).rounded()))
        pitch = Int((size * 1.4).rounded(.up))
    }

    /// The height of the band of two labels under a tile.
    var bandHeight: Int { 2 * pitch + 4 }

    /// The layout of `text` on one line, its block's top left edge the anchor.
    func layout(_ text: String, colour: RGBColour) throws -> TextLayout {
        var style = TextStyle()
        style.size = size
        style.colour = TextColour(colour)
        style.align = .left
        return try engine.layoutText(TextSpec(text: text, style: style, role: .caption(anchorTop: true)),
                                     renderSize: PixelSize(width: 4096, height: 64), field: "sheet label")
    }

    /// Draws `text` with its block's top left at (`x`, `y`), cut to `width` pixels (`fitted`), clipped to
    /// `[x, x + width)` across so that it never runs into the next tile; premultiplied "over" the sheet.
    func draw(_ text: String, into sheet: inout RGBAImage, x: Int, y: Int, width: Int, colour: RGBColour) throws {
        guard let l = try fitted(text, width: width, colour: colour) else { return }
        let p = try rasterizer.picture(l)
        let src = p.planes[0].bytes, w = p.width, h = p.height
        let ox = x - Int((l.anchorX * Double(w)).rounded()), oy = y - Int((l.anchorY * Double(h)).rounded())
        let x0 = max(x, ox, 0), x1 = min(x + width, ox + w, sheet.width)
        guard x1 > x0 else { return }
        sheet.pixels.withUnsafeMutableBufferPointer { dst in
            for py in max(oy, 0)..<min(oy + h, sheet.height) {
                for px in x0..<x1 {
                    let s = ((py - oy) * w + (px - ox)) * 4, d = (py * sheet.width + px) * 4
                    let a = Int(src[s + 3])
                    guard a > 0 else { continue }
                    for c in 0..<3 { dst[d + c] = UInt8(Int(src[s + c]) + (Int(dst[d + c]) * (255 - a) + 127) / 255) }
                }
            }
        }
    }

    /// The layout of `text` cut to `width` pixels (nil for empty text): whole when it fits; else its longest start
    /// that fits with ".." after it, a transition's name keeping its end (" p=0.50") and losing letters before it.
    func fitted(_ text: String, width: Int, colour: RGBColour) throws -> TextLayout? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        let whole = try layout(text, colour: colour)
        if whole.pictureSize.width <= width { return whole }
        let p = text.range(of: " p=")
        let head = Array(p.map { String(text[..<$0.lowerBound]) } ?? text), tail = p.map { String(text[$0.lowerBound...]) } ?? ""
        // The longest start of `head` whose line fits (binary search: a longer start is never narrower).
        var lo = 0, hi = head.count - 1
        var best: TextLayout?
        while lo <= hi {
            let k = (lo + hi) / 2
            let l = try layout(String(head.prefix(k)) + ".." + tail, colour: colour)
            if l.pictureSize.width <= width { best = l; lo = k + 1 } else { hi = k - 1 }
        }
        if best == nil, !tail.isEmpty { return try fitted(String(head), width: width, colour: colour) }
        return best
    }
}

extension RGBAImage {
    /// Copies `tile` into this picture with its top-left corner at (`x`, `y`), clipped.
    mutating func paste(_ tile: RGBAImage, x: Int, y: Int) {
        for ty in 0..<tile.height {
            let py = y + ty
            guard py >= 0 && py < height else { continue }
            let x0 = max(0, x), x1 = min(width, x + tile.width)
            guard x1 > x0 else { continue }
            let src = (ty * tile.width + (x0 - x)) * 4, dst = (py * width + x0) * 4
            pixels.replaceSubrange(dst..<(dst + (x1 - x0) * 4), with: tile.pixels[src..<(src + (x1 - x0) * 4)])
        }
    }
}
