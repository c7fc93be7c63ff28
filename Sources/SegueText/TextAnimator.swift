import CTextShaping
import Foundation
import SegueCore
import SegueEdit

/// Draws an animated text item (`TextSpec.animation`) frame by frame: its units (characters, words or lines,
/// `TextUnits`) are rasterised once each by `TextRasterizer` (glyphs with their outline and shadow; the box plate once,
/// not animated), and each frame puts them together at their keyframed opacity, offset, scale and blur
/// (`TextAnimation.motions`). When every unit is at rest the item's whole picture is drawn instead (nil from
/// `picture(at:)`), so an animated title between its entrance and its exit is the same picture as an unanimated one.
///
/// Pictures are premultiplied R′G′B′A of the layout's picture size; every frame's picture is made on the CPU, so both
/// renderers composite the same picture.
public final class TextAnimator {
    /// One unit's picture: premultiplied RGBA floats (0…1) of its ink's bounding box at (`x`, `y`) in the text picture.
    struct UnitPicture {
        let x: Int, y: Int, width: Int, height: Int
        let pixels: [Float]
        /// The centre of scaling (the box's centre), picture pixels.
        var centre: (x: Double, y: Double) { (Double(x) + Double(width) / 2, Double(y) + Double(height) / 2) }
    }

    let layout: TextLayout
    let motions: [TextAnimation.UnitMotion]
    let units: [UnitPicture]
    let plate: [Float]?
    /// Pictures made so far (tests: one per animated frame).
    public private(set) var framesMade = 0

    /// - Parameters: `layout` the text's layout (laid out with `TextAnimation.margin` around it), `animation` its
    ///   animation, `itemDuration` how long the item lasts on its track.
    /// - Throws: `TextError` when FreeType cannot render a glyph.
    public init(layout: TextLayout, animation: TextAnimation, itemDuration: MediaTime, rasterizer: TextRasterizer) throws {
        self.layout = layout
        let groups = TextUnits.glyphGroups(layout, by: animation.unit)
        motions = animation.motions(units: groups.count, itemDuration: itemDuration)
        units = try groups.map { TextAnimator.unitPicture(try rasterizer.picture(layout.restricted(to: $0, box: false))) }
        plate = layout.box == nil ? nil : TextAnimator.floats(try rasterizer.picture(layout.restricted(to: [], box: true)))
    }

    /// The picture at `t` (seconds from the item's first instant), or nil when every unit is at rest (draw the
    /// item's still picture).
    public func picture(at t: MediaTime) -> VideoPicture? {
        if motions.allSatisfy({ $0.atRest(t) }) { return nil }
        let W = layout.pictureSize.width, H = layout.pictureSize.height
        var out = plate ?? [Float](repeating: 0, count: W * H * 4)
        let em = layout.pixelSize
        for (unit, m) in zip(units, motions) {
            let opacity = Float(min(1, max(0, m.opacity.value(at: t)))), scale = m.scale.value(at: t)
            guard opacity > 0, scale > 1e-3, unit.width > 0 else { continue }
            let sigma = max(0, m.blur.value(at: t) * em)
            draw(sigma > 0.05 ? TextAnimator.blurred(unit, sigma: sigma) : unit, into: &out, width: W, height: H,
                 opacity: opacity, scale: scale, dy: m.offsetY.value(at: t) * em, centre: unit.centre)
        }
        framesMade += 1
        return TextRasterizer.picture(premultiplied: out, width: W, height: H)
    }

    /// Draws `u` "over" (premultiplied) `out`, times `opacity`, scaled by `scale` about `centre` and moved `dy` down:
    /// each output pixel reads the unit bilinearly at its centre mapped back (exact at rest: scale 1, whole offsets).
    private func draw(_ u: UnitPicture, into out: inout [Float], width W: Int, height H: Int, opacity: Float, scale: Double, dy: Double,
                      centre c: (x: Double, y: Double)) {
        let x0 = max(0, Int((c.x + (Double(u.x) - c.x) * scale).rounded(.down)) - 1)
        let x1 = min(W, Int((c.x + (Double(u.x + u.width) - c.x) * scale).rounded(.up)) + 1)
        let y0 = max(0, Int((c.y + dy + (Double(u.y) - c.y) * scale).rounded(.down)) - 1)
        let y1 = min(H, Int((c.y + dy + (Double(u.y + u.height) - c.y) * scale).rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return }
        func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
            guard x >= 0 && x < u.width && y >= 0 && y < u.height else { return .zero }
            let i = (y * u.width + x) * 4
            return SIMD4(u.pixels[i], u.pixels[i + 1], u.pixels[i + 2], u.pixels[i + 3])
        }
        for y in y0..<y1 {
            let sy = (Double(y) + 0.5 - c.y - dy) / scale + c.y - 0.5 - Double(u.y)
            let fy = sy.rounded(.down), iy = Int(fy), ay = Float(sy - fy)
            for x in x0..<x1 {
                let sx = (Double(x) + 0.5 - c.x) / scale + c.x - 0.5 - Double(u.x)
                let fx = sx.rounded(.down), ix = Int(fx), ax = Float(sx - fx)
                let top = texel(ix, iy) * (1 - ax) + texel(ix + 1, iy) * ax
                let bottom = texel(ix, iy + 1) * (1 - ax) + texel(ix + 1, iy + 1) * ax
                let p = (top * (1 - ay) + bottom * ay) * opacity
                guard p[3] > 0 else { continue }
                let i = (y * W + x) * 4, keep = 1 - p[3]
                for k in 0..<4 { out[i + k] = p[k] + keep * out[i + k] }
            }
        }
    }

    /// `u` blurred by a Gaussian of `sigma` pixels (`TextRasterizer.gaussianBlur` on each premultiplied channel), its
    /// box grown by 3σ on each side.
    static func blurred(_ u: UnitPicture, sigma: Double) -> UnitPicture {
        let r = Int((3 * sigma).rounded(.up))
        let w = u.width + 2 * r, h = u.height + 2 * r
        var out = [Float](repeating: 0, count: w * h * 4)
        for k in 0..<4 {
            var plane = [Float](repeating: 0, count: w * h)
            for y in 0..<u.height { for x in 0..<u.width { plane[(y + r) * w + x + r] = u.pixels[(y * u.width + x) * 4 + k] } }
            let b = TextRasterizer.gaussianBlur(plane, width: w, height: h, sigma: sigma)
            for i in 0..<(w * h) { out[i * 4 + k] = b[i] }
        }
        return UnitPicture(x: u.x - r, y: u.y - r, width: w, height: h, pixels: out)
    }

    /// The picture's pixels as floats (0…1).
    static func floats(_ p: VideoPicture) -> [Float] {
        precondition(p.layout == .rgba, "a text picture is RGBA")
        return p.planes[0].bytes.map { Float($0) / 255 }
    }

    /// The part of a unit's picture that has ink (alpha > 0), as floats.
    static func unitPicture(_ p: VideoPicture) -> UnitPicture {
        precondition(p.layout == .rgba, "a text picture is RGBA")
        let W = p.width, H = p.height, bytes = p.planes[0].bytes
        var x0 = W, y0 = H, x1 = 0, y1 = 0
        for y in 0..<H {
            for x in 0..<W where bytes[(y * W + x) * 4 + 3] > 0 {
                x0 = min(x0, x); x1 = max(x1, x + 1); y0 = min(y0, y); y1 = max(y1, y + 1)
            }
        }
        guard x0 < x1 else { return UnitPicture(x: 0, y: 0, width: 0, height: 0, pixels: []) }
        var pixels = [Float](repeating: 0, count: (x1 - x0) * (y1 - y0) * 4)
        for y in y0..<y1 {
            for x in x0..<x1 {
                for k in 0..<4 { pixels[((y - y0) * (x1 - x0) + x - x0) * 4 + k] = Float(bytes[(y * W + x) * 4 + k]) / 255 }
            }
        }
        return UnitPicture(x: x0, y: y0, width: x1 - x0, height: y1 - y0, pixels: pixels)
    }
}

/// How a laid-out text splits into the units an animation moves (`TextAnimation.Unit`).
enum TextUnits {
    /// The glyph indices of each unit, in reading order (the text's logical order: right-to-left text animates from its
    /// right). Characters are grapheme clusters; words the stretches between the Unicode line-breaking rules'
    /// opportunities (UAX #14, libunibreak: after spaces, between ideographs, punctuation kept with its word); lines
    /// the laid-out lines. Units of spaces only (no glyph with ink) are left out.
    static func glyphGroups(_ layout: TextLayout, by unit: TextAnimation.Unit) -> [[Int]] {
        let bytes = Array(layout.text.utf8)
        // The unit each byte belongs to.
        var unitOfByte = [Int](repeating: 0, count: bytes.count + 1)
        switch unit {
        case .line:
            break
        case .character:
            var o = 0, k = 0
            for ch in layout.text { let n = String(ch).utf8.count; for b in o..<(o + n) { unitOfByte[b] = k }; o += n; k += 1 }
        case .word:
            var breaks = [CChar](repeating: 0, count: bytes.count)
            bytes.withUnsafeBufferPointer { b in breaks.withUnsafeMutableBufferPointer { set_linebreaks_utf8(b.baseAddress, bytes.count, nil, $0.baseAddress) } }
            var k = 0
            for b in 0..<bytes.count {
                unitOfByte[b] = k
                let v = Int32(breaks[b])
                if v == LINEBREAK_ALLOWBREAK || v == LINEBREAK_MUSTBREAK { k += 1 }
            }
        }
        var groups: [Int: [Int]] = [:]
        for (i, g) in layout.glyphs.enumerated() {
            let key = unit == .line ? g.line : unitOfByte[min(g.cluster, bytes.count)]
            if isSpace(bytes, at: g.cluster) { continue }
            groups[key, default: []].append(i)
        }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// Whether the character at byte `offset` is white space (its glyph has no ink to animate).
    static func isSpace(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset < bytes.count else { return true }
        var end = offset + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }
}

extension TextLayout {
    /// The same layout drawing only the glyphs `indices` (and its box plate when `box`).
    func restricted(to indices: [Int], box keepBox: Bool) -> TextLayout {
        TextLayout(pictureSize: pictureSize, rasterScale: rasterScale, anchorX: anchorX, anchorY: anchorY, fonts: fonts,
                   glyphs: indices.map { glyphs[$0] }, pixelSize: pixelSize, lineCount: lineCount, shapingCalls: shapingCalls, style: style,
                   outlineWidth: outlineWidth, shadowOffset: shadowOffset, shadowBlur: shadowBlur, box: keepBox ? box : nil, boxRadius: boxRadius,
                   warnings: warnings, marks: marks, markBoxes: keepBox ? markBoxes : [], text: text)
    }
}
