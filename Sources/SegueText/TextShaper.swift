import CTextShaping
import Foundation
import SegueCore
import SegueEdit

/// Owns one `raqm_t` (`raqm_create` … `raqm_destroy`): one paragraph or line laid out by libraqm.
final class RaqmHandle {
    let handle: OpaquePointer
    init() throws {
        guard let r = raqm_create() else { throw TextError(function: "raqm_create", message: "out of memory") }
        handle = r
    }
    deinit { raqm_destroy(handle) }
}

/// libunibreak's tables, set up once per process (`init_linebreak`).
private let lineBreaking: Void = { init_linebreak() }()

/// A glyph as libraqm gives it, in visual order, its advance and offsets in pixels (bitmap strikes scaled).
struct ShapedGlyph {
    let face: FontFace
    let glyph: UInt32
    let advance: Double
    let xOffset: Double, yOffset: Double
    /// The UTF-8 byte offset (in the shaped text; after `shapedLines`, in its paragraph) of the first character of the
    /// glyph's cluster.
    var cluster: Int
}

/// A run of bytes of a paragraph set in one font.
struct FontRun {
    var start: Int, end: Int
    let face: FontFace
}

/// Lays text out: fonts for every character (`FontFallback`), the Unicode line-breaking rules for wrapping
/// (libunibreak, UAX #14), and for each paragraph (or each line of a wrapped one) one call to libraqm, which runs the
/// bidirectional algorithm (FriBidi: right-to-left runs in visual order), splits runs by script and font, and shapes
/// them with HarfBuzz (Arabic joining, Indic reordering, kerning, ligatures).
final class TextShaper {
    let config: FontConfiguration
    let faces: FaceCache
    /// The largest picture side made (a texture of that size fits every GPU Segue runs on: OpenGL ES 3.0 asks for
    /// 2048, Mesa and NVIDIA give 16384 and more).
    static let maxPictureSide = 16384
    /// The largest font size rasterised, in picture pixels.
    static let maxPixelSize = 2048.0

    init(config: FontConfiguration, faces: FaceCache) {
        self.config = config; self.faces = faces
        _ = lineBreaking
    }

    /// Lays `spec` out for `renderSize` at `scale` (the raster scale). A text scaled up (keyframed scale above 1)
    /// whose picture would pass `maxPictureSide`, or its font `maxPixelSize`, is rasterised smaller, but never below
    /// its size at layer scale 1 (or `scale`, when that is less).
    /// - Throws: `EditError` naming `field` when even that picture would pass `maxPictureSide`.
    func layout(_ spec: TextSpec, renderSize: PixelSize, scale: Double, field: String) throws -> TextLayout {
        let size = spec.fontSize(renderSize: renderSize)
        let floor = min(scale, 1)
        var s = max(floor, min(scale, TextShaper.maxPixelSize / size))
        while true {
            let l = try layoutOnce(spec, fontSize: size, scale: s, renderSize: renderSize, field: field)
            let side = max(l.pictureSize.width, l.pictureSize.height)
            if side <= TextShaper.maxPictureSide { return l }
            guard s > floor else {
                throw EditError("\(field).text", "is too large to draw: its picture would be \(l.pictureSize) pixels, more than \(TextShaper.maxPictureSide) across (give a smaller size, or a maxWidth to wrap it)")
            }
            s = max(floor, s * Double(TextShaper.maxPictureSide) / Double(side) * 0.97)
        }
    }

    private func layoutOnce(_ spec: TextSpec, fontSize: Double, scale: Double, renderSize: PixelSize, field: String) throws -> TextLayout {
        let px = fontSize * scale
        let style = spec.style
        let fallback = try self.fallback(for: style, field: field)
        let primary = try faces.face(fallback.primary)
        try primary.setSize(px)
        var calls = 0
        var lines: [ShapedLine] = []
        let maxWidth = style.maxWidth.map { $0 * Double(renderSize.width) * scale }
        var offset = 0
        for paragraph in TextShaper.paragraphs(of: spec.text) {
            lines += try shapedLines(paragraph, fallback: fallback, primary: primary, size: px, maxWidth: maxWidth, calls: &calls).map { line in
                (line.glyphs.map { var g = $0; g.cluster += offset; return g }, line.width)
            }
            offset += paragraph.utf8.count + 1
        }
        var set = try setLines(lines, primary: primary, size: px, style: style)
        let marked = try marked(set.placed, marks: spec.marks, ink: &set.ink, size: px, ascent: primary.ascender, descent: -primary.descender,
                                lineHeight: style.lineHeight.map { $0 * px } ?? primary.lineSpacing)
        let frame = PictureFrame(ink: set.ink, block: set.block, style: style, fontSize: fontSize, scale: scale)
        let ox = frame.ox, oy = frame.oy, width = frame.width, height = frame.height

        var fonts: [FontReference] = [primary.reference]
        var glyphs: [PlacedGlyph] = []
        for (g, mark, k) in marked.glyphs {
            if !fonts.contains(g.face.reference) { fonts.append(g.face.reference) }
            glyphs.append(PlacedGlyph(font: fonts.firstIndex(of: g.face.reference)!, glyph: g.glyph, x: g.x - ox, y: g.y - oy, cluster: g.cluster, mark: mark, scale: k))
        }
        let anchorBox = frame.plate ?? set.block
        let anchorX = (anchorBox.x0 + style.align.anchor * (anchorBox.x1 - anchorBox.x0) - ox) / Double(width)
        let anchorY = (anchorBox.y0 + spec.verticalAnchor * (anchorBox.y1 - anchorBox.y0) - oy) / Double(height)
        return TextLayout(pictureSize: PixelSize(width: width, height: height), rasterScale: scale, anchorX: anchorX, anchorY: anchorY,
                          fonts: fonts, glyphs: glyphs, pixelSize: px, lineCount: lines.count, shapingCalls: calls, style: style,
                          outlineWidth: frame.outline, shadowOffset: (frame.shadow?.x ?? 0, frame.shadow?.y ?? 0), shadowBlur: frame.shadow?.blur ?? 0,
                          box: frame.plate.map { ($0.x0 - ox, $0.y0 - oy, $0.x1 - ox, $0.y1 - oy) }, boxRadius: (style.box?.radius ?? 0) * scale,
                          warnings: fallback.warning.map { [$0] } ?? [], marks: spec.marks,
                          markBoxes: marked.boxes.map { ($0.x0 - ox, $0.y0 - oy, $0.x1 - ox, $0.y1 - oy, $0.colour) })
    }

    /// A rectangle in picture pixels (y down).
    typealias Box = (x0: Double, y0: Double, x1: Double, y1: Double)
    /// A line of glyphs as shaped, in visual order, and its width (the sum of their advances), pixels.
    private typealias ShapedLine = (glyphs: [ShapedGlyph], width: Double)

    /// The paragraphs of `text` as drawn: a line ends at "\r\n", "\r", "\n", U+2028 or U+2029; a tab is a space; other
    /// control characters are dropped (no font has glyphs for them).
    private static func paragraphs(of text: String) -> [String] {
        var scalars = String.UnicodeScalarView()
        for c in text.replacingOccurrences(of: "\r\n", with: "\n").unicodeScalars {
            if c == "\r" || c == "\n" { scalars.append("\n") } else if c == "\t" { scalars.append(" ") }
            else if c.properties.generalCategory != .control { scalars.append(c) }
        }
        return String(scalars).split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\u{2028}" || $0 == "\u{2029}" })
            .map(String.init)
    }

    /// The lines of one paragraph at `size` pixels: the paragraph shaped whole, or, when it is wider than `maxWidth`,
    /// wrapped (`wrap`) and each line shaped again; an empty paragraph is one empty line. Counts libraqm's calls in `calls`.
    private func shapedLines(_ para: String, fallback: FontFallback, primary: FontFace, size px: Double, maxWidth: Double?,
                             calls: inout Int) throws -> [ShapedLine] {
        let bytes = Array(para.utf8)
        if bytes.isEmpty { return [([], 0)] }
        let runs = try fontRuns(para, fallback: fallback, primary: primary, size: px)
        let whole = try shape(bytes, runs: runs, calls: &calls)
        let width = whole.reduce(0) { $0 + $1.advance }
        guard let limit = maxWidth, width > limit else { return [(whole, width)] }
        var lines: [ShapedLine] = []
        for range in wrap(bytes, glyphs: whole, limit: limit) {
            let part = Array(bytes[range])
            let clipped = runs.compactMap { r -> FontRun? in
                let a = max(r.start, range.lowerBound), b = min(r.end, range.upperBound)
                return a < b ? FontRun(start: a - range.lowerBound, end: b - range.lowerBound, face: r.face) : nil
            }
            let g = try shape(part, runs: clipped, calls: &calls).map { var g = $0; g.cluster += range.lowerBound; return g }
            lines.append((g, g.reduce(0) { $0 + $1.advance }))
        }
        return lines
    }

    /// Sets `lines` one under another: baselines `lineHeight` apart, half the leading above and below the primary
    /// font's ascent and descent (CSS's inline box model); each line aligned inside the block (the widest line's
    /// width). Returns each glyph's origin, the glyphs' ink box (all zero when there is no ink: only spaces) and the
    /// block, pixels from the block's top left.
    private func setLines(_ lines: [ShapedLine], primary: FontFace, size px: Double, style: TextStyle) throws
        -> (placed: [Placed], ink: Box, block: Box) {
        let ascent = primary.ascender, descent = -primary.descender
        let lineHeight = style.lineHeight.map { $0 * px } ?? primary.lineSpacing
        let halfLeading = (lineHeight - (ascent + descent)) / 2
        let blockWidth = lines.map(\.width).max() ?? 0
        let blockHeight = lineHeight * Double(lines.count)
        var placed: [Placed] = []
        var ink = (x0: Double.infinity, y0: Double.infinity, x1: -Double.infinity, y1: -Double.infinity)
        for (i, line) in lines.enumerated() {
            let baseline = Double(i) * lineHeight + halfLeading + ascent
            var pen = style.align == .left ? 0 : style.align == .right ? blockWidth - line.width : (blockWidth - line.width) / 2
            for g in line.glyphs {
                let x = pen + g.xOffset, y = baseline - g.yOffset
                placed.append((g.face, g.glyph, x, y, g.cluster, g.advance))
                if let box = try inkBox(g.face, g.glyph) {
                    ink = (min(ink.x0, x + box.x0), min(ink.y0, y + box.y0), max(ink.x1, x + box.x1), max(ink.y1, y + box.y1))
                }
                pen += g.advance
            }
        }
        if ink.x0 > ink.x1 { ink = (0, 0, 0, 0) }   // only spaces
        return (placed, ink, (x0: 0.0, y0: 0.0, x1: blockWidth, y1: blockHeight))
    }

    /// What is drawn around the glyphs (outline, shadow, box), in picture pixels, and the picture that holds it all.
    private struct PictureFrame {
        let outline: Double
        let shadow: (x: Double, y: Double, blur: Double)?
        /// The box behind the text (the block and its padding), when the style has one.
        let plate: Box?
        /// The picture's top left in block pixels, and its size.
        let ox: Double, oy: Double
        let width: Int, height: Int

        /// The frame of text whose glyphs' ink is `ink` in a `block` (`setLines`), in `style` at `fontSize` (layer
        /// pixels) rasterised at `scale`: the picture covers the block, the ink with its outline and shadow, and the
        /// box, in whole pixels with one more on each side for the antialiased edges.
        init(ink: Box, block: Box, style: TextStyle, fontSize: Double, scale: Double) {
            outline = style.outline.map { ($0.width ?? 0.06 * fontSize) * scale } ?? 0
            shadow = style.shadow.map { (x: ($0.x ?? 0.05 * fontSize) * scale, y: ($0.y ?? 0.05 * fontSize) * scale, blur: $0.blur * scale) }
            let padding = style.box.map { ($0.padding ?? 0.25 * fontSize) * scale } ?? 0
            plate = style.box.map { _ in (x0: block.x0 - padding, y0: block.y0 - padding, x1: block.x1 + padding, y1: block.y1 + padding) }
            var extent = (x0: min(block.x0, ink.x0 - outline), y0: min(block.y0, ink.y0 - outline),
                          x1: max(block.x1, ink.x1 + outline), y1: max(block.y1, ink.y1 + outline))
            if let sh = shadow {
                let r = 3 * sh.blur
                extent = (min(extent.x0, ink.x0 - outline + sh.x - r), min(extent.y0, ink.y0 - outline + sh.y - r),
                          max(extent.x1, ink.x1 + outline + sh.x + r), max(extent.y1, ink.y1 + outline + sh.y + r))
            }
            if let p = plate { extent = (min(extent.x0, p.x0), min(extent.y0, p.y0), max(extent.x1, p.x1), max(extent.y1, p.y1)) }
            // Whole pixels, one more on each side for the antialiased edges.
            ox = (extent.x0).rounded(.down) - 1; oy = (extent.y0).rounded(.down) - 1
            width = Int((extent.x1 - ox).rounded(.up)) + 1; height = Int((extent.y1 - oy).rounded(.up)) + 1
        }
    }

    /// The fonts of each style (font, weight, slant) met so far: fontconfig's sorted list is made once per style,
    /// not once per text (a caption file's cues share one).
    private var fallbacks: [String: FontFallback] = [:]
    func fallback(for style: TextStyle, field: String) throws -> FontFallback {
        let key = "\(style.font == .standard ? "" : String(reflecting: style.font))|\(style.weight)|\(style.italic)"
        if let known = fallbacks[key] { return known }
        let f = try FontFallback(config: config, faces: faces, style: style, field: field)
        fallbacks[key] = f
        return f
    }

    /// The fonts of a paragraph by runs of UTF-8 bytes, chosen by the script of the run each cluster sits in.
    ///
    /// A cluster's script is HarfBuzz's (`FontFallback.script`, UAX #24); one of no script of its own (a space,
    /// punctuation, a symbol, European digits) takes that of the run it sits in, as HarfBuzz itemises runs: the
    /// nearest cluster with a script before it, else after it. Letters and emoji take their font
    /// (`FontFallback.font`). Every other cluster (digits — Arabic-Indic ones are of the Arabic script —, spaces,
    /// punctuation) is set in the font of the nearest letter of its run's script when that font has it (not a colour
    /// font: its spaces are as wide as its pictures), else in a font that has both (`FontFallback.font(for:alongside:)`),
    /// so that the digits and spaces of Arabic text are an Arabic font's, not those of the first font fontconfig offers
    /// with them (Noto Sans Hanifi Rohingya has the Arabic-Indic digits).
    func fontRuns(_ para: String, fallback: FontFallback, primary: FontFace, size: Double) throws -> [FontRun] {
        let chars = Array(para)
        let own = chars.map(FontFallback.script)
        var run = own
        for i in chars.indices where own[i] == nil {
            run[i] = own[..<i].last(where: { $0 != nil }) ?? own[(i + 1)...].first(where: { $0 != nil }) ?? nil
        }
        let letters: Set<Unicode.GeneralCategory> = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let letter = chars.map { c in c.unicodeScalars.first.map { letters.contains($0.properties.generalCategory) } ?? false }
        let emoji = chars.map { c in c.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F } }
        var chosen = [FontFace?](repeating: nil, count: chars.count)
        func face(_ ref: FontReference) throws -> FontFace {
            let f = try faces.face(ref)
            try f.setSize(size)
            return f
        }
        for i in chars.indices where (letter[i] && own[i] != nil) || emoji[i] {
            chosen[i] = try face(fallback.font(for: chars[i], primaryCovers: primary.covers))
        }
        for i in chars.indices where chosen[i] == nil {
            // The nearest letter of the run's script, before it, else after it.
            let isSample = { (j: Int) in chosen[j] != nil && letter[j] && own[j] != nil && own[j] == run[i] }
            guard let j = chars.indices[..<i].last(where: isSample) ?? chars.indices[(i + 1)...].first(where: isSample), let f = chosen[j] else {
                chosen[i] = try face(fallback.font(for: chars[i], primaryCovers: primary.covers))
                continue
            }
            if !f.isColour, chars[i].unicodeScalars.allSatisfy({ FontFallback.isDefaultIgnorable($0) || f.covers($0) }) {
                chosen[i] = f
            } else {
                chosen[i] = try face(fallback.font(for: chars[i], alongside: chars[j], primaryCovers: primary.covers))
            }
        }
        var clusters: [(start: Int, end: Int, face: FontFace)] = []
        var offset = 0
        for (ch, f) in zip(chars, chosen) {
            let n = String(ch).utf8.count
            clusters.append((offset, offset + n, f!))
            offset += n
        }
        var runs: [FontRun] = []
        for c in clusters {
            if let last = runs.last, last.face === c.face, last.end == c.start { runs[runs.count - 1].end = c.end } else {
                runs.append(FontRun(start: c.start, end: c.end, face: c.face))
            }
        }
        return runs
    }

    /// One call to libraqm: `bytes` (UTF-8) in the fonts of `runs`, the paragraph direction found from the text
    /// (its first strong character, Unicode's rule P2/P3).
    func shape(_ bytes: [UInt8], runs: [FontRun], calls: inout Int) throws -> [ShapedGlyph] {
        guard !bytes.isEmpty, let first = runs.first else { return [] }
        let rq = try RaqmHandle()
        let ok = bytes.withUnsafeBufferPointer { b -> Bool in
            b.withMemoryRebound(to: CChar.self) { c in raqm_set_text_utf8(rq.handle, c.baseAddress, bytes.count) }
        }
        guard ok else { throw TextError(function: "raqm_set_text_utf8", message: "the text is not valid UTF-8 or too long") }
        guard raqm_set_par_direction(rq.handle, RAQM_DIRECTION_DEFAULT),
              raqm_set_freetype_load_flags(rq.handle, Int32(segue_ft_load_no_hinting)),
              raqm_set_freetype_face(rq.handle, first.face.face) else {
            throw TextError(function: "raqm_set_freetype_face", message: "libraqm refused the font \(first.face.reference)")
        }
        for r in runs where !(r.start == 0 && r.end == bytes.count) {
            guard raqm_set_freetype_face_range(rq.handle, r.face.face, r.start, r.end - r.start) else {
                throw TextError(function: "raqm_set_freetype_face_range", message: "libraqm refused \(r.face.reference) for bytes \(r.start)..<\(r.end)")
            }
        }
        calls += 1
        guard raqm_layout(rq.handle) else { throw TextError(function: "raqm_layout", message: "libraqm could not lay the text out") }
        var count = 0
        guard let raw = raqm_get_glyphs(rq.handle, &count) else { throw TextError(function: "raqm_get_glyphs", message: "no glyphs") }
        var byFace: [FT_Face: FontFace] = [:]
        for r in runs { byFace[r.face.face] = r.face }
        return (0..<count).map { i in
            let g = raw[i]
            let face = g.ftface.flatMap { byFace[$0] } ?? first.face
            let k = face.bitmapScale / 64
            return ShapedGlyph(face: face, glyph: g.index, advance: Double(g.x_advance) * k, xOffset: Double(g.x_offset) * k,
                               yOffset: Double(g.y_offset) * k, cluster: Int(g.cluster))
        }
    }

    /// Where a paragraph wraps to fit `limit` pixels: greedy, at the break opportunities of the Unicode line-breaking
    /// algorithm (libunibreak); a line's width is the advances of its clusters (measured on the paragraph as shaped
    /// whole) without its trailing spaces. A word longer than the limit gets a line of its own. Returns byte ranges,
    /// trailing white space removed.
    func wrap(_ bytes: [UInt8], glyphs: [ShapedGlyph], limit: Double) -> [Range<Int>] {
        var breaks = [CChar](repeating: 0, count: bytes.count)
        bytes.withUnsafeBufferPointer { b in breaks.withUnsafeMutableBufferPointer { set_linebreaks_utf8(b.baseAddress, bytes.count, nil, $0.baseAddress) } }
        var advance = [Double](repeating: 0, count: bytes.count + 1)
        for g in glyphs where g.cluster < bytes.count { advance[g.cluster] += g.advance }
        let text = String(decoding: bytes, as: UTF8.self)
        var space = [Bool](repeating: false, count: bytes.count)
        var o = 0
        for ch in text { let n = String(ch).utf8.count; if ch.isWhitespace { for k in o..<(o + n) { space[k] = true } }; o += n }
        func trimmed(_ a: Int, _ b: Int) -> Int { var e = b; while e > a, space[e - 1] { e -= 1 }; return e }
        func width(_ a: Int, _ b: Int) -> Double { advance[a..<trimmed(a, b)].reduce(0, +) }
        // Opportunities: after byte i when breaks[i] is ALLOWBREAK (or the end).
        var stops = (0..<bytes.count).filter { Int32(breaks[$0]) == LINEBREAK_ALLOWBREAK }.map { $0 + 1 }
        stops.append(bytes.count)
        var out: [Range<Int>] = []
        var start = 0, fits: Int?
        var k = 0
        while k < stops.count {
            let b = stops[k]
            if width(start, b) <= limit { fits = b; k += 1; continue }
            if let f = fits, f > start {
                out.append(start..<trimmed(start, f)); start = f; fits = nil
            } else {
                out.append(start..<trimmed(start, b)); start = b; fits = nil; k += 1
            }
        }
        if start < bytes.count { out.append(start..<trimmed(start, bytes.count)) }
        return out.filter { !$0.isEmpty }
    }

    private var inkCache: [FontReference: [UInt32: (x0: Double, y0: Double, x1: Double, y1: Double)?]] = [:]

    /// A glyph's ink box relative to its origin (y down), from FreeType's metrics at the face's current size; nil
    /// for a glyph with no ink (a space).
    func inkBox(_ face: FontFace, _ glyph: UInt32) throws -> (x0: Double, y0: Double, x1: Double, y1: Double)? {
        if let known = inkCache[face.reference]?[glyph], face.pixelSize == inkSize[face.reference] { return known }
        if inkSize[face.reference] != face.pixelSize { inkCache[face.reference] = [:]; inkSize[face.reference] = face.pixelSize }
        let slot = try face.load(glyph: glyph)
        let m = slot.pointee.metrics
        let k = face.bitmapScale / 64
        let box: (x0: Double, y0: Double, x1: Double, y1: Double)? = m.width == 0 || m.height == 0 ? nil
            : (Double(m.horiBearingX) * k, -Double(m.horiBearingY) * k, Double(m.horiBearingX + m.width) * k, Double(m.height - m.horiBearingY) * k)
        inkCache[face.reference, default: [:]][glyph] = box
        return box
    }
    private var inkSize: [FontReference: Double] = [:]
}
