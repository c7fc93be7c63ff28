import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueText
@testable import SeguePipeline
import SegueTestSupport

/// Word-by-word captions in rendered frames (issue 36): from each of the word-timing inputs (WebVTT inline timestamps,
/// ASS `\k`, Whisper's JSON, a plain JSON list) the spoken word turns `activeColour` on exactly the frame of its start
/// and tesseract reads the line; Arabic and Chinese words marked in their place; `pop` and `reveal` frame-exact in the
/// 9:16 safe area; GPU against CPU.
final class WordCaptionTests: EndToEndTestCase {
    /// "Hello" 0.2–0.52 s, "world" 0.52–0.9 s, "again" 0.9–1.4 s (at 25 fps: frames 5…12, 13…22, 23…34) in each input.
    func inputs() throws -> [String] {
        let files = [
            ("words.vtt", "WEBVTT\n\n00:00.200 --> 00:01.400\nHello <00:00.520>world <00:00.900>again\n"),
            ("words.ass", "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:00.20,0:00:01.40,Default,,0,0,0,,{\\k32}Hello {\\k38}world {\\kf50}again\n"),
            ("whisper.json", "{\"segments\": [{\"start\": 0.2, \"end\": 1.4, \"text\": \" Hello world again\", \"words\": [{\"word\": \" Hello\", \"start\": 0.2, \"end\": 0.52}, "
                + "{\"word\": \" world\", \"start\": 0.52, \"end\": 0.9}, {\"word\": \" again\", \"start\": 0.9, \"end\": 1.4}]}]}"),
            ("list.json", "[{\"word\": \"Hello\", \"start\": 0.2, \"end\": 0.52}, {\"word\": \"world\", \"start\": 0.52, \"end\": 0.9}, {\"word\": \"again\", \"start\": 0.9, \"end\": 1.4}]"),
        ]
        return try files.map { name, text in try text.write(toFile: path(name), atomically: true, encoding: .utf8); return path(name) }
    }

    /// An edit of black with `file`'s captions as word-by-word captions in `mode`, `size` px.
    func edit(_ file: String, mode: WordCaptionStyle.Mode = .highlight, render: PixelSize = PixelSize(width: 320, height: 180), size: Double = 28) -> Edit {
        var e = Edit(clips: [.fill(.black, duration: MediaTime(seconds: 1.6))])
        e.renderSize = render
        e.frameRate = FrameRate(25)
        var c = CaptionSpec(path: file)
        c.style.size = size
        var w = WordCaptionStyle()
        w.mode = mode
        c.words = w
        e.captions = c
        return e
    }

    /// Frames `ns` of `edit` drawn by the CPU renderer, R′G′B′A.
    func cpuFrames(_ edit: Edit, _ ns: [Int64]) throws -> [Int64: RGBAImage] {
        var o = RenderOptions()
        o.backend = .cpu
        let t = try RenderJob.resolve(edit)
        let images = try RenderJob.renderFrames(t, frames: ns, renderer: RenderJob.makeRenderer(o, for: t)).images
        return Dictionary(uniqueKeysWithValues: zip(ns, images))
    }

    /// The pixels of `image` in the active colour (#ffd400 and its antialiased edges: red and green high, blue low),
    /// and those of any ink (a channel above 60).
    func pixels(_ image: RGBAImage, active: Bool) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for y in 0..<image.height {
            for x in 0..<image.width {
                let i = (y * image.width + x) * 4
                let (r, g, b) = (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]))
                if active ? (r > 150 && g > 110 && b < 80) : max(r, g, b) > 60 { out.append((x, y)) }
            }
        }
        return out
    }
    func columns(_ p: [(x: Int, y: Int)]) -> ClosedRange<Int>? { p.map(\.x).min().map { $0...p.map(\.x).max()! } }
    func rows(_ p: [(x: Int, y: Int)]) -> ClosedRange<Int>? { p.map(\.y).min().map { $0...p.map(\.y).max()! } }

    /// Tesseract's reading of `image` as one line in `lang`.
    func ocr(_ image: RGBAImage, _ lang: String, _ name: String) throws -> String {
        let png = path("\(name).png")
        try StillImage.writePNG(image, to: png)
        let r = try TestSupport.run("tesseract", [png, "-", "-l", lang, "--psm", "7"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Each input: nothing on frame 4 (0.16 s); "Hello" marked from frame 5 (0.2 s) through 12 (0.48 s); "world" from
    /// frame 13 (its start, 0.52 s, is frame 13's time: start ≤ t), to the right of "Hello"'s columns; "again"
    /// from frame 23; tesseract reads "Hello world again" on frame 13.
    func testEachInputMarksTheWordOnItsStartFrame() throws {
        for file in try inputs() {
            let name = (file as NSString).lastPathComponent
            let f = try cpuFrames(edit(file), [4, 5, 12, 13, 22, 23])
            XCTAssertTrue(pixels(f[4]!, active: false).isEmpty, "\(name): nothing before the first word")
            let hello = try XCTUnwrap(columns(pixels(f[5]!, active: true)), "\(name): Hello marked on frame 5")
            XCTAssertEqual(columns(pixels(f[12]!, active: true)), hello, "\(name): Hello still marked on frame 12")
            let world = try XCTUnwrap(columns(pixels(f[13]!, active: true)), "\(name): world marked on frame 13")
            XCTAssertLessThan(hello.upperBound, world.lowerBound, "\(name): world's colour to the right of Hello's")
            XCTAssertEqual(columns(pixels(f[22]!, active: true)), world, "\(name): world still marked on frame 22")
            let again = try XCTUnwrap(columns(pixels(f[23]!, active: true)), "\(name): again marked on frame 23")
            XCTAssertLessThan(world.upperBound, again.lowerBound, name)
            XCTAssertEqual(try ocr(f[13]!, "eng", name), "Hello world again", name)
        }
    }

    /// Arabic (right to left: the second word marked left of the first) and Chinese (no spaces: the second word marked
    /// right of the first) from plain JSON lists; tesseract reads each line.
    func testArabicAndChineseWordsMarkedInPlace() throws {
        let cases = [("ar.json", ["مرحبا", "بالعالم"], "ara", true), ("zh.json", ["你好", "世界"], "chi_sim", false)]
        for (name, words, lang, rtl) in cases {
            let json = "[{\"word\": \"\(words[0])\", \"start\": 0.2, \"end\": 0.5}, {\"word\": \"\(words[1])\", \"start\": 0.5, \"end\": 1.4}]"
            try json.write(toFile: path(name), atomically: true, encoding: .utf8)
            let f = try cpuFrames(edit(path(name), render: PixelSize(width: 640, height: 360), size: 48), [5, 12, 13])
            let first = try XCTUnwrap(columns(pixels(f[12]!, active: true)), name)
            let second = try XCTUnwrap(columns(pixels(f[13]!, active: true)), "\(name): the second word marked on its start frame")
            if rtl { XCTAssertLessThan(second.upperBound, first.lowerBound, name) } else { XCTAssertLessThan(first.upperBound, second.lowerBound, name) }
            let ink = try XCTUnwrap(columns(pixels(f[13]!, active: false)))
            XCTAssertTrue(ink.contains(first.lowerBound) && ink.contains(second.upperBound), name)
            let read = try ocr(f[13]!, lang, name)
            XCTAssertEqual(lang == "chi_sim" ? read.replacingOccurrences(of: " ", with: "") : read, words.joined(separator: rtl ? " " : ""), name)
        }
    }

    /// In a 9:16 render (360×640): `reveal`: "world" absent on frame 12, present (marked) on frame 13; `pop`: "world"
    /// drawn larger from frame 13 through 17 (0.2 s), its normal size from frame 18; the captions inside the safe area
    /// (bottom edge at 65 % of the height, 6 % in from each side).
    func testPopAndRevealFrameExactInThePortraitSafeArea() throws {
        let file = try inputs()[3]
        let portrait = PixelSize(width: 360, height: 640)
        let reveal = try cpuFrames(edit(file, mode: .reveal, render: portrait), [12, 13])
        let world = try XCTUnwrap(columns(pixels(reveal[13]!, active: true)), "reveal: world on frame 13")
        let hello = try XCTUnwrap(columns(pixels(reveal[12]!, active: true)))
        XCTAssertFalse(pixels(reveal[12]!, active: false).contains { world.contains($0.x) && !hello.contains($0.x) }, "reveal: world absent on frame 12")
        let ink = pixels(reveal[13]!, active: false)
        XCTAssertLessThanOrEqual(try XCTUnwrap(rows(ink)).upperBound, 418, "bottom edge at 65 % of 640 (and the outline)")
        XCTAssertGreaterThan(try XCTUnwrap(rows(ink)).upperBound, 380)
        let pop = try cpuFrames(edit(file, mode: .pop, render: portrait), [12, 13, 17, 18])
        let heights = try [13, 17, 18].map { n in try XCTUnwrap(rows(pixels(pop[Int64(n)]!, active: true)), "pop frame \(n)").count }
        XCTAssertEqual(heights[0], heights[1], "pop: enlarged through frame 17")
        XCTAssertGreaterThan(Double(heights[0]), 1.15 * Double(heights[2]), "pop: enlarged on its start frame, normal from frame 18")
        XCTAssertLessThan(try XCTUnwrap(columns(pixels(pop[12]!, active: true))).upperBound, try XCTUnwrap(columns(pixels(pop[13]!, active: true))).lowerBound,
                          "pop: frame 12 marks Hello, not world")
        let all = try XCTUnwrap(columns(pixels(pop[18]!, active: false)))
        XCTAssertGreaterThanOrEqual(all.lowerBound, 20)
        XCTAssertLessThanOrEqual(all.upperBound, 340)
    }

    /// `karaoke`: on frame 13 "Hello" and "world" in the active colour, "again" not; on frame 23 all three.
    func testKaraokeColoursEverySpokenWord() throws {
        let f = try cpuFrames(edit(try inputs()[1], mode: .karaoke), [12, 13, 23])
        let one = try XCTUnwrap(columns(pixels(f[12]!, active: true))), two = try XCTUnwrap(columns(pixels(f[13]!, active: true)))
        let three = try XCTUnwrap(columns(pixels(f[23]!, active: true))), ink = try XCTUnwrap(columns(pixels(f[23]!, active: false)))
        XCTAssertEqual(two.lowerBound, one.lowerBound, "Hello stays coloured")
        XCTAssertGreaterThan(two.upperBound, one.upperBound + 20, "world coloured from frame 13")
        XCTAssertGreaterThan(three.upperBound, two.upperBound + 20, "again coloured from frame 23")
        XCTAssertEqual(Double(three.count), Double(ink.count), accuracy: 3, "every word coloured on frame 23")
    }

    /// A highlighted caption with an active box: GPU against CPU ≥ 45 dB on every frame.
    func testGPUMatchesCPU() throws {
        var e = edit(try inputs()[2])
        e.captions!.words!.activeBox = TextColour(RGBColour(r: 0, g: 64, b: 160))
        e.output.codec = .ffv1
        var frames: [Backend: [[UInt8]]] = [:]
        for backend in [Backend.gpu, .cpu] {
            try render(e, to: path("words-\(backend).mkv"), backend: backend, audio: false)
            frames[backend] = try TestSupport.decodeFrames(path("words-\(backend).mkv"), width: 320, height: 180)
        }
        TestSupport.assertYUVSequencesMatch(frames[.gpu]!, frames[.cpu]!, width: 320, height: 180, minPSNR: 45, label: "word captions: GPU vs CPU")
        let box = try cpuFrames(e, [13])[13]!
        XCTAssertTrue(box.pixels.indices.contains { $0 % 4 == 0 && box.pixels[$0] == 0 && box.pixels[$0 + 1] == 64 && box.pixels[$0 + 2] == 160 }, "the active box")
    }
}
