import XCTest
import SegueCore
import SegueEdit
import SegueText
import SegueTestSupport

/// Caption files written into a temporary folder for a test.
class CaptionFileTestCase: XCTestCase {
    var dir = ""
    override func setUp() { dir = TestSupport.tempDir("segue-captions") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func file(_ name: String, _ text: String) -> String {
        let p = "\(dir)/\(name)"
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: Data(text.utf8)))
        return p
    }
    func ms(_ v: Int64) -> MediaTime { MediaTime(value: v, timescale: 1000) }
}

/// Caption files read: cue times exact (rational milliseconds), markup removed, WebVTT settings; a file that does
/// not parse is an edit error naming the file and its line.
final class CaptionFileTests: CaptionFileTestCase {

    func testSubRip() throws {
        let f = try CaptionFiles.read(file("a.srt", "\u{FEFF}1\r\n00:00:01,250 --> 00:00:02,000\r\n<i>Hello</i>\r\n\r\n2\r\n00:01:00.5 --> 01:00:00,001 X1:10\r\nTwo <b>lines</b>\r\n{\\an8}and more\r\n"))
        XCTAssertEqual(f.format, .srt)
        XCTAssertEqual(f.cues.count, 2)
        XCTAssertEqual(f.cues[0].start, ms(1250)); XCTAssertEqual(f.cues[0].end, ms(2000))
        XCTAssertEqual(f.cues[0].text, "Hello"); XCTAssertTrue(f.cues[0].italic)
        XCTAssertEqual(f.cues[1].start, ms(60_500)); XCTAssertEqual(f.cues[1].end, ms(3_600_001))
        XCTAssertEqual(f.cues[1].text, "Two lines\nand more"); XCTAssertFalse(f.cues[1].italic); XCTAssertFalse(f.cues[1].bold)
        XCTAssertEqual(f.cues[1].line, 5)
    }

    func testWebVTT() throws {
        let f = try CaptionFiles.read(file("a.vtt", """
        WEBVTT - a title

        NOTE a comment
        that spans lines

        intro
        00:01.000 --> 00:02.500 align:left position:10% line:20%
        <v Anna>Hi &amp; welcome</v>

        01:00:03.000 --> 01:00:04.000
        <c.yellow>Second</c>
        """))
        XCTAssertEqual(f.format, .webvtt)
        XCTAssertEqual(f.cues.count, 2)
        XCTAssertEqual(f.cues[0].start, ms(1000)); XCTAssertEqual(f.cues[0].end, ms(2500))
        XCTAssertEqual(f.cues[0].text, "Hi & welcome")
        XCTAssertEqual(f.cues[0].align, .left); XCTAssertEqual(f.cues[0].x!, 0.1, accuracy: 1e-12); XCTAssertEqual(f.cues[0].y!, 0.2, accuracy: 1e-12)
        XCTAssertEqual(f.cues[1].start, ms(3_603_000))
        XCTAssertEqual(f.cues[1].text, "Second")
    }

    func testASSEvents() throws {
        let f = try CaptionFiles.read(file("a.ass", """
        [Script Info]
        ScriptType: v4.00+

        [V4+ Styles]
        Format: Name, Fontname, Fontsize
        Style: Default,Noto Sans,20

        [Events]
        Format: Layer, Start, End, Style, Text
        Comment: 0,0:00:00.00,0:00:05.00,Default,not shown
        Dialogue: 0,0:00:01.50,0:00:02.25,Default,{\\b1}Hello, world
        """))
        XCTAssertEqual(f.format, .ass)
        XCTAssertEqual(f.cues.count, 1)
        XCTAssertEqual(f.cues[0].start, ms(1500)); XCTAssertEqual(f.cues[0].end, ms(2250))
        XCTAssertEqual(f.cues[0].text, "{\\b1}Hello, world")
        XCTAssertEqual(f.cues[0].line, 11)
    }

    /// Each broken file: the edit error names the file and the line.
    func testFilesThatDoNotParseNameTheLine() throws {
        let cases: [(String, String, String)] = [
            ("bad.srt", "1\n00:00:01,000 --> 00:00:02,000\nfine\n\n2\n00:00:03,000 -> 00:00:04,000\nbroken\n", "bad.srt line 6"),
            ("bad2.srt", "1\n00:00:01,000 --> 00:00:0x,000\ntext\n", "bad2.srt line 2"),
            ("back.srt", "1\n00:00:02,000 --> 00:00:01,000\ntext\n", "back.srt line 2"),
            ("words.srt", "1\n00:00:01,000 --> 00:00:02,000\nok\n\nsome stray words\n", "words.srt line 5"),
            ("nohead.vtt", "00:01.000 --> 00:02.000\nhi\n", "nohead.vtt line 1"),
            ("cue.vtt", "WEBVTT\n\nid\nnot a time\n", "cue.vtt line 4"),
            ("set.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000 align:sideways\nhi\n", "set.vtt line 3"),
            ("noinfo.ass", "[Events]\nFormat: Start, End, Text\n", "noinfo.ass line 1"),
            ("early.ass", "[Script Info]\n\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,hi\n", "early.ass line 4"),
            ("time.ass", "[Script Info]\n[Events]\nFormat: Layer, Start, End, Style, Text\nDialogue: 0,0:00:01.00,zero,Default,hi\n", "time.ass line 4"),
        ]
        for (name, text, want) in cases {
            XCTAssertThrowsError(try CaptionFiles.read(file(name, text)), name) { e in
                guard let err = e as? EditError else { return XCTFail("\(name): \(e)") }
                XCTAssertEqual(err.field, "captions.path")
                XCTAssertTrue(err.message.hasPrefix(want + ":"), "\(name): \(err.message)")
                XCTAssertEqual(err.exitStatus, 2)
            }
        }
        var latin1 = Data("1\n00:00:01,000 --> 00:00:02,000\n".utf8)
        latin1.append(contentsOf: [0x63, 0x61, 0x66, 0xE9, 0x0A])   // "café" in Latin-1
        let p = "\(dir)/latin1.srt"
        XCTAssertTrue(FileManager.default.createFile(atPath: p, contents: latin1))
        XCTAssertThrowsError(try CaptionFiles.read(p)) { XCTAssertTrue(($0 as? EditError)?.message.hasPrefix("latin1.srt line 3: not UTF-8") ?? false, "\($0)") }
    }

    /// libass draws an ASS file: nothing before the event, a picture of the render size while it shows, the same
    /// picture (identity included) while nothing changes.
    func testSubtitleRendererDrawsAndReusesPictures() throws {
        let p = file("draw.ass", """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 160
        PlayResY: 90

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Noto Sans,24,&H0000FFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,5,0,0,0,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hello
        """)
        let r = try SubtitleRenderer(path: p, renderSize: PixelSize(width: 160, height: 90))
        XCTAssertEqual(r.eventCount, 1)
        let before = try r.picture(at: ms(999))
        XCTAssertEqual(before.size, PixelSize(width: 1, height: 1))
        XCTAssertEqual(before.planes[0].bytes[3], 0)
        let shown = try r.picture(at: ms(1000))
        XCTAssertEqual(shown.size, PixelSize(width: 160, height: 90))
        // Yellow (&H0000FFFF is BGR: red and green full) glyph pixels near the centre.
        let px = shown.planes[0].bytes
        var yellow = 0
        for i in stride(from: 0, to: px.count, by: 4) where px[i] > 240 && px[i + 1] > 240 && px[i + 2] < 10 && px[i + 3] > 240 { yellow += 1 }
        XCTAssertGreaterThan(yellow, 25)
        let again = try r.picture(at: ms(1500))
        XCTAssertEqual(again.identity, shown.identity)
        XCTAssertEqual(r.picturesMade, 1)
        XCTAssertEqual(try r.picture(at: ms(2000)).size, PixelSize(width: 1, height: 1))
    }
}
