import CTextShaping
import Foundation
import SegueCore
import SegueEdit

/// Owns one `FT_Glyph` (`FT_Get_Glyph` … `FT_Done_Glyph`); the FreeType calls that replace it (to a bitmap, to its
/// stroked border) go through `replace`.
final class GlyphImage {
    private(set) var handle: FT_Glyph
    init(slot: FT_GlyphSlot) throws {
        var g: FT_Glyph?
        let rc = FT_Get_Glyph(slot, &g)
        guard rc == 0, let g else { throw TextError(function: "FT_Get_Glyph", message: freeTypeMessage(rc)) }
        handle = g
    }
    deinit { FT_Done_Glyph(handle) }
    /// Runs `body` on the handle, which FreeType replaces (freeing the old one: `destroy` true).
    func replace(_ function: String, _ body: (UnsafeMutablePointer<FT_Glyph?>) -> FT_Error) throws {
        var g: FT_Glyph? = handle
        let rc = body(&g)
        guard rc == 0, let new = g else { throw TextError(function: function, message: freeTypeMessage(rc)) }
        handle = new
    }
}

/// Owns one `FT_Stroker` (`FT_Stroker_New` … `FT_Stroker_Done`): round joins and caps.
final class Stroker {
    let handle: FT_Stroker
    init(library: FreeTypeLibrary, radius: Double) throws {
        var s: FT_Stroker?
        let rc = FT_Stroker_New(library.handle, &s)
        guard rc == 0, let s else { throw TextError(function: "FT_Stroker_New", message: freeTypeMessage(rc)) }
        handle = s
        FT_Stroker_Set(s, FT_Fixed((radius * 64).rounded()), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
    }
    deinit { FT_Stroker_Done(handle) }
}

/// One channel of coverage (0…1) over a picture.
struct Coverage {
    let width: Int, height: Int
    var values: [Float]
    init(width: Int, height: Int) { self.width = width; self.height = height; values = [Float](repeating: 0, count: width * height) }
    /// Adds an 8-bit coverage bitmap (FreeType's `FT_PIXEL_MODE_GRAY`, `pitch` bytes a row) with its top-left at
    /// (x, y): the union of shapes, `max` per pixel.
    mutating func add(gray: UnsafePointer<UInt8>, width w: Int, rows h: Int, pitch: Int, x: Int, y: Int) {
        for r in 0..<h {
            let yy = y + r
            guard yy >= 0 && yy < height else { continue }
            for c in 0..<w {
                let xx = x + c
                guard xx >= 0 && xx < width else { continue }
                let v = Float(gray[r * pitch + c]) / 255
                let i = yy * width + xx
                if v > values[i] { values[i] = v }
            }
        }
    }
}

/// Makes the picture of a `TextLayout`, once per text item: premultiplied R′G′B′A (sRGB-encoded values, like every
/// R′G′B′ picture in Segue), the size of `layout.pictureSize`, with a new identity (the GPU uploads it once).
///
/// Layers, bottom first, each drawn "over" (premultiplied): the box plate (a rounded rectangle, its edges antialiased
/// by their distance to the pixel centre); the shadow (the glyphs' and outline's coverage offset, blurred by a
/// Gaussian of the shadow's `blur`, in the shadow colour); the outline (each glyph's outline stroked by FreeType's
/// stroker, `FT_Glyph_StrokeBorder`, outside border); the glyphs in the text colour (FreeType's antialiased coverage,
/// `FT_RENDER_MODE_NORMAL`, each glyph rendered at its fractional position); colour glyphs (emoji) in their own colours
/// (`FT_LOAD_COLOR` BGRA bitmaps, scaled from their strike by area averaging). Marks (`TextLayout.marks`, word-by-word
/// captions): their plates drawn over the box, their glyphs filled in their colour over the others' fill, a scaled
/// glyph rendered at its own size.
public final class TextRasterizer {
    let library: FreeTypeLibrary
    let faces: FaceCache
    public init() throws {
        library = try FreeTypeLibrary()
        faces = FaceCache(library: library)
    }

    /// The picture of `layout`. - Throws: `TextError` when FreeType cannot load or render a glyph.
    public func picture(_ layout: TextLayout) throws -> VideoPicture {
        let W = layout.pictureSize.width, H = layout.pictureSize.height
        var fill = Coverage(width: W, height: H), outline = Coverage(width: W, height: H)
        var markFills = [Coverage](repeating: Coverage(width: 0, height: 0), count: layout.marks.count)   // each mark's glyphs
        var colour = [Float](repeating: 0, count: W * H * 4)   // premultiplied RGBA of colour glyphs
        let stroker = layout.outlineWidth > 0 ? try Stroker(library: library, radius: layout.outlineWidth) : nil
        let faceList = try layout.fonts.map { try faces.face($0) }
        for f in faceList { try f.setSize(layout.pixelSize) }
        for g in layout.glyphs {
            let face = faceList[g.font]
            if g.scale != 1 { try face.setSize(layout.pixelSize * g.scale) }
            defer { if g.scale != 1 { try? face.setSize(layout.pixelSize) } }
            let slot = try face.load(glyph: g.glyph)
            if slot.pointee.format == FT_GLYPH_FORMAT_BITMAP {
                if face.isColour, slot.pointee.bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) {
                    try drawColourBitmap(slot, scale: face.bitmapScale, x: g.x, y: g.y, into: &colour, width: W, height: H)
                }
                continue
            }
            guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { continue }
            // The fractional part of the origin moves the outline; the whole part places the bitmap.
            let ix = g.x.rounded(.down), iy = g.y.rounded(.down)
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(((g.x - ix) * 64).rounded()), FT_Pos((-(g.y - iy) * 64).rounded()))
            if let stroker {
                let border = try GlyphImage(slot: slot)
                try border.replace("FT_Glyph_StrokeBorder") { FT_Glyph_StrokeBorder($0, stroker.handle, 0, 1) }
                try blit(border, into: &outline, x: Int(ix), y: Int(iy))
            }
            let glyph = try GlyphImage(slot: slot)
            if let m = g.mark, layout.marks[m].colour != nil {
                if markFills[m].width == 0 { markFills[m] = Coverage(width: W, height: H) }
                try blit(glyph, into: &markFills[m], x: Int(ix), y: Int(iy))
            } else {
                try blit(glyph, into: &fill, x: Int(ix), y: Int(iy))
            }
        }
        // Outline under the fill: the border covers the glyph too, the fill is drawn over it.
        var out = [Float](repeating: 0, count: W * H * 4)
        if let box = layout.box, let c = layout.style.box?.colour {
            let r = min(layout.boxRadius, (box.x1 - box.x0) / 2, (box.y1 - box.y0) / 2)
            for y in 0..<H {
                for x in 0..<W {
                    let a = TextRasterizer.roundedRectCoverage(Double(x) + 0.5, Double(y) + 0.5, box, radius: r)
                    if a > 0 { over(&out, (y * W + x) * 4, c, Float(a)) }
                }
            }
        }
        for b in layout.markBoxes {
            for y in max(0, Int(b.y0))..<min(H, Int(b.y1.rounded(.up)) + 1) {
                for x in max(0, Int(b.x0))..<min(W, Int(b.x1.rounded(.up)) + 1) {
                    let a = TextRasterizer.roundedRectCoverage(Double(x) + 0.5, Double(y) + 0.5, (b.x0, b.y0, b.x1, b.y1), radius: 0.15 * layout.pixelSize)
                    if a > 0 { over(&out, (y * W + x) * 4, b.colour, Float(a)) }
                }
            }
        }
        if let shadow = layout.style.shadow {
            var shape = [Float](repeating: 0, count: W * H)
            for i in 0..<(W * H) { shape[i] = max(fill.values[i], outline.values[i], colour[i * 4 + 3]) }
            for m in markFills where m.width > 0 { for i in 0..<(W * H) { shape[i] = max(shape[i], m.values[i]) } }
            let moved = TextRasterizer.shifted(shape, width: W, height: H, dx: layout.shadowOffset.x, dy: layout.shadowOffset.y)
            let blurred = layout.shadowBlur > 0 ? TextRasterizer.gaussianBlur(moved, width: W, height: H, sigma: layout.shadowBlur) : moved
            for i in 0..<(W * H) where blurred[i] > 0 { over(&out, i * 4, shadow.colour, blurred[i]) }
        }
        if let o = layout.style.outline {
            for i in 0..<(W * H) where outline.values[i] > 0 { over(&out, i * 4, o.colour, outline.values[i]) }
        }
        for i in 0..<(W * H) where fill.values[i] > 0 { over(&out, i * 4, layout.style.colour, fill.values[i]) }
        for (m, f) in markFills.enumerated() where f.width > 0 {
            let c = layout.marks[m].colour ?? layout.style.colour
            for i in 0..<(W * H) where f.values[i] > 0 { over(&out, i * 4, c, f.values[i]) }
        }
        for i in 0..<(W * H) where colour[i * 4 + 3] > 0 {
            let k = 1 - colour[i * 4 + 3]
            for c in 0..<4 { out[i * 4 + c] = colour[i * 4 + c] + k * out[i * 4 + c] }
        }
        var bytes = [UInt8](repeating: 0, count: W * H * 4)
        for i in 0..<(W * H * 4) { bytes[i] = UInt8(max(0, min(255, (out[i] * 255).rounded()))) }
        // Premultiplied already: each R′G′B′ ≤ its alpha (as `VideoPicture.premultiplied` makes them).
        var picture = VideoPicture(RGBAImage(width: W, height: H, pixels: bytes))
        picture.hasAlpha = true
        picture.identity = VideoPicture.newIdentity()
        return picture
    }

    /// Premultiplied "over" of `colour` at `coverage` onto pixel `i` of `buffer`.
    private func over(_ buffer: inout [Float], _ i: Int, _ colour: TextColour, _ coverage: Float) {
        let a = Float(colour.alpha) * coverage
        let k = 1 - a
        let c = colour.rgb.normalized
        buffer[i] = c[0] * a + k * buffer[i]
        buffer[i + 1] = c[1] * a + k * buffer[i + 1]
        buffer[i + 2] = c[2] * a + k * buffer[i + 2]
        buffer[i + 3] = a + k * buffer[i + 3]
    }

    /// Renders `glyph` (`FT_Glyph_To_Bitmap`, antialiased) and adds it to `coverage` with its origin at (x, y).
    private func blit(_ glyph: GlyphImage, into coverage: inout Coverage, x: Int, y: Int) throws {
        try glyph.replace("FT_Glyph_To_Bitmap") { FT_Glyph_To_Bitmap($0, FT_RENDER_MODE_NORMAL, nil, 1) }
        let bg = UnsafeMutableRawPointer(glyph.handle).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        let bm = bg.pointee.bitmap
        guard bm.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), bm.width > 0, bm.rows > 0, let buffer = bm.buffer else { return }
        coverage.add(gray: buffer, width: Int(bm.width), rows: Int(bm.rows), pitch: Int(bm.pitch),
                     x: x + Int(bg.pointee.left), y: y - Int(bg.pointee.top))
    }

    /// Draws a colour glyph (premultiplied BGRA at its strike's size) scaled by `scale` with its origin at (x, y):
    /// each picture pixel is the average of the strike pixels its footprint covers (area weights), so a 136-pixel
    /// emoji drawn at 40 pixels is smooth.
    private func drawColourBitmap(_ slot: FT_GlyphSlot, scale: Double, x: Double, y: Double, into out: inout [Float], width W: Int, height H: Int) throws {
        let bm = slot.pointee.bitmap
        guard let src = bm.buffer, bm.width > 0, bm.rows > 0 else { return }
        let sw = Int(bm.width), sh = Int(bm.rows), pitch = Int(bm.pitch)
        let left = x + Double(slot.pointee.bitmap_left) * scale, top = y - Double(slot.pointee.bitmap_top) * scale
        let dx0 = max(0, Int(left.rounded(.down))), dx1 = min(W, Int((left + Double(sw) * scale).rounded(.up)))
        let dy0 = max(0, Int(top.rounded(.down))), dy1 = min(H, Int((top + Double(sh) * scale).rounded(.up)))
        guard dx0 < dx1, dy0 < dy1 else { return }
        // Per output row/column: the strike's spans and their weights.
        func spans(_ d0: Int, _ d1: Int, _ origin: Double, _ n: Int) -> [[(Int, Double)]] {
            (d0..<d1).map { d in
                let a = (Double(d) - origin) / scale, b = (Double(d + 1) - origin) / scale
                var list: [(Int, Double)] = []
                var s = max(0, Int(a.rounded(.down)))
                while s < n && Double(s) < b {
                    let w = min(b, Double(s + 1)) - max(a, Double(s))
                    if w > 0 { list.append((s, w)) }
                    s += 1
                }
                return list
            }
        }
        let cols = spans(dx0, dx1, left, sw), rows = spans(dy0, dy1, top, sh)
        let area = 1 / (1 / scale * 1 / scale)
        for (ry, dy) in (dy0..<dy1).enumerated() {
            for (rx, dx) in (dx0..<dx1).enumerated() {
                var acc: (Double, Double, Double, Double) = (0, 0, 0, 0)
                for (sy, wy) in rows[ry] {
                    for (sx, wx) in cols[rx] {
                        let p = sy * pitch + sx * 4, w = wx * wy
                        acc.0 += Double(src[p + 2]) * w; acc.1 += Double(src[p + 1]) * w; acc.2 += Double(src[p]) * w; acc.3 += Double(src[p + 3]) * w
                    }
                }
                let i = (dy * W + dx) * 4
                let k = Float(area / 255)
                out[i] = min(1, Float(acc.0) * k); out[i + 1] = min(1, Float(acc.1) * k)
                out[i + 2] = min(1, Float(acc.2) * k); out[i + 3] = min(1, Float(acc.3) * k)
            }
        }
    }

    /// Coverage of a pixel centred at (x, y) by a rectangle with corners rounded by `radius`: 0.5 − the signed distance
    /// to its edge, clamped to 0…1 (a one-pixel antialiased edge).
    static func roundedRectCoverage(_ x: Double, _ y: Double, _ r: (x0: Double, y0: Double, x1: Double, y1: Double), radius: Double) -> Double {
        let cx = (r.x0 + r.x1) / 2, cy = (r.y0 + r.y1) / 2
        let hx = (r.x1 - r.x0) / 2 - radius, hy = (r.y1 - r.y0) / 2 - radius
        let qx = abs(x - cx) - hx, qy = abs(y - cy) - hy
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        let d = outside + min(max(qx, qy), 0) - radius
        return max(0, min(1, 0.5 - d))
    }

    /// `values` moved by (dx, dy) pixels (bilinear for fractions), zero where nothing moves in.
    static func shifted(_ v: [Float], width W: Int, height H: Int, dx: Double, dy: Double) -> [Float] {
        var out = [Float](repeating: 0, count: W * H)
        let fx = dx.rounded(.down), fy = dy.rounded(.down)
        let ax = Float(dx - fx), ay = Float(dy - fy)
        let ix = Int(fx), iy = Int(fy)
        func at(_ x: Int, _ y: Int) -> Float { x >= 0 && x < W && y >= 0 && y < H ? v[y * W + x] : 0 }
        for y in 0..<H {
            for x in 0..<W {
                let sx = x - ix, sy = y - iy
                let top = at(sx, sy) * (1 - ax) + at(sx - 1, sy) * ax
                let bottom = at(sx, sy - 1) * (1 - ax) + at(sx - 1, sy - 1) * ax
                out[y * W + x] = top * (1 - ay) + bottom * ay
            }
        }
        return out
    }

    /// A separable Gaussian blur of standard deviation `sigma` pixels (kernel to ±3σ, normalised), zero outside.
    static func gaussianBlur(_ v: [Float], width W: Int, height H: Int, sigma: Double) -> [Float] {
        let r = max(1, Int((3 * sigma).rounded(.up)))
        var k = (-r...r).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let sum = k.reduce(0, +)
        k = k.map { $0 / sum }
        var tmp = [Float](repeating: 0, count: W * H), out = tmp
        for y in 0..<H {
            for x in 0..<W {
                var a: Float = 0
                for j in -r...r { let xx = x + j; if xx >= 0 && xx < W { a += v[y * W + xx] * k[j + r] } }
                tmp[y * W + x] = a
            }
        }
        for y in 0..<H {
            for x in 0..<W {
                var a: Float = 0
                for j in -r...r { let yy = y + j; if yy >= 0 && yy < H { a += tmp[yy * W + x] * k[j + r] } }
                out[y * W + x] = a
            }
        }
        return out
    }
}
