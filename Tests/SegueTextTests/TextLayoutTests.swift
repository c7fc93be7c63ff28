import XCTest
import SegueCore
import SegueEdit
import SegueText

/// The text module on its own: fonts (fontconfig fallback per character, colour emoji, font files, missing
/// families), shaping in one call, wrapping, raster scale, and the pictures it makes (colour, outline, box).
final class TextLayoutTests: XCTestCase {
    let size = PixelSize(width: 320, height: 180)

    func engine() throws -> TextEngine { try TextEngine() }

    func spec(_ text: String, _ edit: (inout TextStyle) -> Void = { _ in }) -> TextSpec {
        var style = TextStyle()
        style.size = 32
        edit(&style)
        return TextSpec(text: text, style: style)
    }

    /// Latin, Arabic and an emoji in one string: three fonts (Noto Sans, Noto Sans Arabic, Noto Color Emoji, found by
    /// fontconfig per character), one call to libraqm, one line.
    func testMixedScriptsUseThreeFontsInOneCall() throws {
        let l = try engine().layoutText(spec("Hi مرحبا 😀"), renderSize: size)
        XCTAssertEqual(l.fonts.map(\.family), ["Noto Sans", "Noto Sans Arabic", "Noto Color Emoji"])
        XCTAssertEqual(l.shapingCalls, 1)
        XCTAssertEqual(l.lineCount, 1)
        XCTAssertTrue(l.fonts[2].path.hasSuffix("NotoColorEmoji.ttf"), l.fonts[2].path)
        // Every glyph has a real glyph (no .notdef, index 0).
        XCTAssertFalse(l.glyphs.contains { $0.glyph == 0 }, "a character without a glyph")
        // The spaces between Arabic words are the Arabic font's: the Arabic run has 5 letters joined + the space.
        XCTAssertEqual(l.glyphs.filter { $0.font == 1 }.count, 6)
    }

    /// Arabic letters joined: the word shaped whole uses other glyphs (initial, medial, final forms) than the letters
    /// shaped one by one (isolated forms); right to left: the word's first letter is its rightmost glyph.
    func testArabicJoinsAndRunsRightToLeft() throws {
        let e = try engine()
        let word = try e.layoutText(spec("مرحبا"), renderSize: size)
        let isolated = try "مرحبا".map { try e.layoutText(spec(String($0)), renderSize: size).glyphs[0].glyph }
        XCTAssertEqual(word.glyphs.count, 5)
        XCTAssertNotEqual(word.glyphs.map(\.glyph).sorted(), isolated.sorted(), "the letters are not joined")
        // In visual order (left to right) the glyphs are the logical letters reversed; the rightmost is the first
        // letter (meem), whose joined initial form differs from its isolated form.
        let rightmost = word.glyphs.max { $0.x < $1.x }!
        XCTAssertEqual(word.glyphs.last!, rightmost)
        XCTAssertNotEqual(rightmost.glyph, isolated[0])
    }

    /// Noto Color Emoji is a CBDT bitmap font (109-pixel strikes): drawn in colour (FT_LOAD_COLOR), scaled to the size.
    func testEmojiAreColourAndScaled() throws {
        let l = try engine().layoutText(spec("😀") { $0.size = 40 }, renderSize: size)
        let p = try TextRasterizer().picture(l)
        let img = p.planes[0].bytes
        var yellow = 0, ink = (x0: Int.max, y0: Int.max, x1: 0, y1: 0)
        for y in 0..<p.height {
            for x in 0..<p.width {
                let i = (y * p.width + x) * 4
                let (r, g, b, a) = (Int(img[i]), Int(img[i + 1]), Int(img[i + 2]), Int(img[i + 3]))
                if a > 128 { ink = (min(ink.x0, x), min(ink.y0, y), max(ink.x1, x), max(ink.y1, y)) }
                if a > 240 && r > 220 && g > 150 && b < 90 { yellow += 1 }   // the face's yellow (premultiplied, opaque)
            }
        }
        XCTAssertGreaterThan(yellow, 300, "the emoji is not drawn in colour")
        // Its height is about the font size (the strike's 136-pixel glyph at 40/109).
        let h = Double(ink.y1 - ink.y0 + 1)
        XCTAssertEqual(h, 40 * 1.17, accuracy: 40 * 0.2, "emoji height \(h) px at size 40")
    }

    /// `maxWidth` wraps by the Unicode line-breaking rules: at spaces in English, between ideographs in Chinese;
    /// every line fits (its picture is no wider than the limit plus the edge pixels).
    func testWrapsAtMaxWidth() throws {
        let e = try engine()
        for text in ["one two three four five six seven", "你好世界你好世界你好世界"] {
            let l = try e.layoutText(spec(text) { $0.size = 20; $0.maxWidth = 0.3 }, renderSize: size)
            XCTAssertGreaterThan(l.lineCount, 1, text)
            XCTAssertLessThanOrEqual(l.pictureSize.width, Int(0.3 * 320) + 4, text)
            XCTAssertEqual(l.shapingCalls, 1 + l.lineCount, "the paragraph once, then each line")
        }
        XCTAssertEqual(try e.layoutText(spec("one\ntwo\n\nfour"), renderSize: size).lineCount, 4)
    }

    /// A family fontconfig does not have: a warning naming it and the font used instead; a font file; a font file that
    /// is not there (an edit error naming the field).
    func testFontsByFamilyAndFile() throws {
        let e = try engine()
        let missing = try e.layoutText(spec("Hello") { $0.font = .family("No Such Family Anywhere") }, renderSize: size)
        XCTAssertEqual(missing.warnings.count, 1)
        XCTAssertTrue(missing.warnings[0].hasPrefix("font \"No Such Family Anywhere\" not found: using "), missing.warnings[0])
        XCTAssertTrue(missing.warnings[0].contains(missing.fonts[0].family) && missing.warnings[0].contains(missing.fonts[0].path))
        XCTAssertTrue(try e.layoutText(spec("Hello"), renderSize: size).warnings.isEmpty)
        let serif = "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"
        let file = try e.layoutText(spec("Hello") { $0.font = .file(serif) }, renderSize: size)
        XCTAssertEqual(file.fonts[0].path, serif)
        XCTAssertEqual(file.fonts[0].family, "Noto Serif")
        XCTAssertThrowsError(try e.layoutText(spec("Hello") { $0.font = .file("/nonexistent/font.ttf") }, renderSize: size, field: "clips[1]")) {
            XCTAssertEqual(($0 as? EditError)?.field, "clips[1].style.font")
        }
        // Bold is another face of the family.
        let bold = try e.layoutText(spec("Hello") { $0.weight = 700 }, renderSize: size)
        XCTAssertTrue(bold.fonts[0].path.hasSuffix("NotoSans-Bold.ttf"), bold.fonts[0].path)
    }

    /// A text rasterised at twice its size (a scale keyframe of 2) is twice as large, and its anchor the same point.
    func testRasterScale() throws {
        let e = try engine()
        let one = try e.layoutText(spec("Scale"), renderSize: size, scale: 1)
        let two = try e.layoutText(spec("Scale"), renderSize: size, scale: 2)
        XCTAssertEqual(two.rasterScale, 2)
        XCTAssertEqual(Double(two.pictureSize.width), 2 * Double(one.pictureSize.width), accuracy: 4)
        XCTAssertEqual(Double(two.pictureSize.height), 2 * Double(one.pictureSize.height), accuracy: 4)
        XCTAssertEqual(two.anchorX, one.anchorX, accuracy: 0.02)
        XCTAssertEqual(two.anchorY, one.anchorY, accuracy: 0.02)
    }

    /// Odd and hostile text lays out without a missing glyph or a trap: control characters (a tab is a space), a lone
    /// combining mark, a lone joiner, direction marks, Hebrew with digits, Devanagari and Thai clusters; a text too long
    /// for any picture is an edit error naming it; with `maxWidth` the same text wraps into many lines.
    func testOddTextLaysOut() throws {
        let e = try engine()
        for text in ["a\tb\u{0}c\u{7}", "\u{301}", "\u{200D}", "\u{200F}abc\u{200E}", "שלום 123 עולם", "क्षत्रिय", "กรุงเทพฯ", "👩‍👩‍👧‍👦 🇫🇷 1️⃣"] {
            let l = try e.layoutText(spec(text), renderSize: size)
            XCTAssertFalse(l.glyphs.contains { $0.glyph == 0 && l.fonts[$0.font].family != "Noto Color Emoji" }, "a missing glyph in \(text.debugDescription)")
            _ = try TextRasterizer().picture(l)
        }
        let long = String(repeating: "word ", count: 2000)
        XCTAssertThrowsError(try e.layoutText(spec(long), renderSize: size, field: "clips[0]")) {
            XCTAssertEqual(($0 as? EditError)?.field, "clips[0].text", "\($0)")
        }
        let wrapped = try e.layoutText(spec(long) { $0.size = 8; $0.maxWidth = 1 }, renderSize: size)
        XCTAssertGreaterThan(wrapped.lineCount, 100)
        XCTAssertLessThanOrEqual(wrapped.pictureSize.width, 324)
    }

    /// The picture: white glyphs (premultiplied, opaque where fully covered), a box plate of its colour around them at
    /// its padding, an outline in its colour at the glyphs' edges, transparent outside.
    func testBoxAndOutlinePicture() throws {
        let l = try engine().layoutText(spec("Il") { s in
            s.size = 40
            s.outline = TextOutline(width: 3, colour: TextColour(RGBColour(r: 255, g: 0, b: 0)))
            s.box = TextBox(colour: TextColour(RGBColour(r: 0, g: 0, b: 255)), padding: 10, radius: 0)
        }, renderSize: size)
        let p = try TextRasterizer().picture(l)
        XCTAssertTrue(p.hasAlpha)
        XCTAssertNotEqual(p.identity, 0)
        let px = p.planes[0].bytes
        func at(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * p.width + x) * 4; return Array(px[i..<(i + 4)]) }
        let box = l.box!
        // Inside the plate, away from the glyphs: the box colour, opaque.
        XCTAssertEqual(at(Int(box.x0) + 2, Int(box.y0) + 2), [0, 0, 255, 255])
        // Outside the plate: transparent.
        XCTAssertEqual(at(0, 0)[3], 0)
        // The middle of the "I" stem: white; just outside its left edge: the outline's red.
        let stem = l.glyphs[0]
        var row = [[UInt8]]()
        let y = Int(stem.y - 10)
        for x in 0..<p.width { row.append(at(x, y)) }
        XCTAssertTrue(row.contains { $0 == [255, 255, 255, 255] }, "no white glyph pixels on row \(y)")
        XCTAssertTrue(row.contains { $0 == [255, 0, 0, 255] }, "no outline pixels on row \(y)")
    }

    /// Digits and punctuation take the script of the run they sit in (UAX #24, as HarfBuzz itemises): Arabic-Indic
    /// digits (٠١٢٣, which Noto Sans lacks and Noto Sans Hanifi Rohingya, Thaana and Syriac have too) in Arabic text
    /// are set in the Arabic letters' font, as are Persian digits (۱۲۳) and the Latin digits of an Arabic sentence;
    /// after Latin text, Latin digits stay in Noto Sans.
    func testDigitsTakeTheFontOfTheirRunsScript() throws {
        let e = try engine()
        for text in ["العدد ٠١٢٣ و ٤٥٦٧٨٩", "شماره ۱۲۳۴", "٢٠٢٦ سنة", "عام 2026"] {
            let l = try e.layoutText(spec(text), renderSize: size)
            let used = Set(l.glyphs.map { l.fonts[$0.font].family })
            XCTAssertEqual(used, ["Noto Sans Arabic"], "\(text): every glyph from the Arabic font (fonts: \(l.fonts))")
            XCTAssertFalse(l.glyphs.contains { $0.glyph == 0 }, "\(text): a character without a glyph")
        }
        let latin = try e.layoutText(spec("Room 2026, ok"), renderSize: size)
        XCTAssertEqual(latin.fonts.map(\.family), ["Noto Sans"])
        // Mixed: the Arabic run's digits are the Arabic font's, the Latin run's Noto Sans's.
        let mixed = try e.layoutText(spec("Room 12 غرفة ٣٤"), renderSize: size)
        XCTAssertEqual(mixed.fonts.map(\.family), ["Noto Sans", "Noto Sans Arabic"])
        XCTAssertEqual(mixed.glyphs.filter { $0.font == 0 }.count, "Room 12 ".count, "Latin letters, digits and spaces in Noto Sans")
    }
}
