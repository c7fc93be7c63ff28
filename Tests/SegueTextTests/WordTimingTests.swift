import XCTest
import SegueCore
@testable import SegueEdit
import SegueText
import SegueTestSupport

/// Word timings read from the three inputs into one model, exactly (WebVTT inline timestamps, ASS karaoke tags,
/// Whisper's and a plain JSON transcript); malformed transcripts refused naming the file and the word; the planner's
/// pages and marks for word-by-word captions.
final class WordTimingTests: CaptionFileTestCase {
    /// Each word as "text start–end" in milliseconds (glued words marked `+`).
    func listed(_ words: [TimedWord]) -> [String] {
        words.map { "\($0.glued ? "+" : "")\($0.text) \(Double($0.start.seconds * 1000).rounded())–\(Double($0.end.seconds * 1000).rounded())" }
    }

    func testWebVTTInlineTimestamps() throws {
        let f = try CaptionFiles.read(file("w.vtt", "WEBVTT\n\n00:01.000 --> 00:03.000\n<v Ann>Hello <00:01.250>big <00:00:01.750><c>world</c>\n\n00:04.000 --> 00:05.000\n你好<00:04.500>世界\n\n00:06.000 --> 00:07.000\nNo timing\n"))
        XCTAssertEqual(f.cues.map(\.text), ["Hello big world", "你好世界", "No timing"])
        XCTAssertEqual(listed(f.cues[0].words), ["Hello 1000.0–1250.0", "big 1250.0–1750.0", "world 1750.0–3000.0"])
        XCTAssertEqual(f.cues[0].words[1].start, ms(1250), "exact")
        XCTAssertEqual(listed(f.cues[1].words), ["你好 4000.0–4500.0", "+世界 4500.0–5000.0"])
        XCTAssertEqual(f.cues[2].words, [])
        XCTAssertThrowsError(try CaptionFiles.read(file("bad.vtt", "WEBVTT\n\n00:01.000 --> 00:02.000\nHello <00:02.500>world\n"))) {
            XCTAssertEqual("\($0)", "captions.path: bad.vtt line 4: the inline timestamp <00:02.500> lies outside the cue's time or before the timestamp before it")
        }
    }

    func testASSKaraokeTags() throws {
        let ass = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\an2\\k25}Hello {\\kf50}big {\\ko30}wor{\\K20}ld\n"
            + "Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\\i1}plain\n"
        let f = try CaptionFiles.read(file("k.ass", ass))
        XCTAssertEqual(listed(f.cues[0].words), ["Hello 1000.0–1250.0", "big 1250.0–1750.0", "wor 1750.0–2050.0", "+ld 2050.0–2250.0"])
        XCTAssertEqual(f.cues[1].words, [])
        XCTAssertEqual(Timeline.joined(f.cues[0].words).0, "Hello big world", "syllables written together stay together")
    }

    func testJSONTranscripts() throws {
        let whisper = """
        {"text": "x", "segments": [
          {"id": 0, "start": 0.0, "end": 1.5, "text": " Hello world", "words": [
            {"word": " Hello", "start": 0.12, "end": 0.5, "probability": 0.9}, {"word": " world", "start": 0.5, "end": 1.25}]},
          {"id": 1, "start": 2.0, "end": 3.0, "text": " No words here"}]}
        """
        let w = try CaptionFiles.read(file("whisper.json", whisper))
        XCTAssertEqual(w.format, .json)
        XCTAssertEqual(w.cues.map(\.text), ["Hello world", "No words here"])
        XCTAssertEqual(listed(w.cues[0].words), ["Hello 120.0–500.0", "world 500.0–1250.0"])
        XCTAssertEqual(w.cues[0].words[0].start, ms(120), "exact")
        XCTAssertEqual([w.cues[1].start, w.cues[1].end], [ms(2000), ms(3000)])
        let plain = try CaptionFiles.read(file("plain.json", "[{\"word\": \"你好\", \"start\": 0.2, \"end\": 0.6}, {\"word\": \"世界\", \"start\": 0.6, \"end\": 1}]"))
        XCTAssertEqual(plain.cues.count, 1)
        XCTAssertEqual(listed(plain.cues[0].words), ["你好 200.0–600.0", "世界 600.0–1000.0"])
        XCTAssertEqual(Timeline.joined(plain.cues[0].words).0, "你好世界", "no space between CJK words")
        XCTAssertEqual(Timeline.joined(w.cues[0].words).1, [0..<5, 6..<11])
        for (name, text, message) in [
            ("missing.json", "[{\"word\": \"a\", \"start\": 0.1}]", "missing.json [0]: needs \"end\", a time in seconds"),
            ("backwards.json", "{\"segments\": [{\"words\": [{\"word\": \"a\", \"start\": 0, \"end\": 1}, {\"word\": \"b\", \"start\": 2, \"end\": 1.5}]}]}",
             "backwards.json segments[0].words[1]: ends (1.5 s) before it starts (2.0 s)"),
            ("unsorted.json", "[{\"word\": \"a\", \"start\": 1, \"end\": 2}, {\"word\": \"b\", \"start\": 0.5, \"end\": 0.8}]",
             "unsorted.json [1]: starts (0.5 s) before the word before it (1.0 s): words must be in time order"),
            ("notjson.json", "[{", "notjson.json: not JSON (a transcript is a JSON list of words or Whisper's {\"segments\": [...]})"),
        ] {
            XCTAssertThrowsError(try CaptionFiles.read(file(name, text)), name) { XCTAssertEqual("\($0)", "captions.path: \(message)") }
        }
    }

    /// Pages of `maxWords`, halved when they wrap past `maxLines`; each page cut at every word's start and end into
    /// pictures marked as at that time, per mode.
    func testPagesAndMarks() throws {
        let words = ["one", "two", "three", "four", "five"].enumerated().map { k, w in
            TimedWord(w, start: MediaTime(value: Int64(k + 1), timescale: 2), end: MediaTime(value: Int64(k + 2), timescale: 2))
        }
        var cue = CaptionCue(index: 1, start: words[0].start, end: words[4].end, text: "", line: 1)
        cue.words = words
        let file = CaptionFile(path: "/x.json", format: .json, cues: [cue])
        let engine = try TextEngine()
        var style = WordCaptionStyle()
        style.maxWords = 3
        let render = PixelSize(width: 320, height: 180)
        func pieces(_ s: WordCaptionStyle, _ text: TextStyle = .caption) throws -> [Timeline.CaptionPiece] {
            try Timeline.wordPieces(file, s, style: text, services: engine, renderSize: render, field: { _ in "captions" })
        }
        let p = try pieces(style)
        XCTAssertEqual(p.map(\.text.text), ["one two three", "one two three", "one two three", "four five", "four five"])
        XCTAssertEqual(p.map(\.start), [1, 2, 3, 4, 5].map { MediaTime(value: $0, timescale: 2) })
        XCTAssertEqual(p[1].text.marks, [TextMark(range: 4..<7, colour: style.activeColour)])
        // Two lines at most: a narrow page of five wraps and is halved.
        var narrow = TextStyle.caption
        narrow.maxWidth = 0.01
        style.maxWords = 5
        style.maxLines = 1
        XCTAssertEqual(Set(try pieces(style, narrow).map(\.text.text)), ["one", "two", "three", "four", "five"])
        style.maxLines = 2
        style.maxWords = 3
        style.mode = .karaoke
        XCTAssertEqual(try pieces(style)[2].text.marks, [TextMark(range: 0..<3, colour: style.activeColour), TextMark(range: 4..<7, colour: style.activeColour),
                                                         TextMark(range: 8..<13, colour: style.activeColour)])
        style.mode = .reveal
        XCTAssertEqual(try pieces(style)[0].text.marks, [TextMark(range: 0..<3, colour: style.activeColour), TextMark(range: 4..<7, hidden: true),
                                                         TextMark(range: 8..<13, hidden: true)])
        style.mode = .pop
        let pop = try pieces(style)
        XCTAssertEqual(pop.prefix(2).map(\.start), [MediaTime(value: 1, timescale: 2), MediaTime(value: 7, timescale: 10)], "0.2 s of pop")
        XCTAssertEqual(pop[0].text.marks.first?.scale, 1.25)
        XCTAssertEqual(pop[1].text.marks.first?.scale, 1)
    }

    /// `captionStyle` beside `captions` and inside its object (which wins); without captions it is an edit error.
    func testEditFileFields() throws {
        func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
        let beside = try parse(##"{"clips": [{"path": "a.mp4"}], "captions": "t.json", "captionStyle": {"words": "karaoke", "maxWords": 3, "activeBox": "#000000"}}"##)
        let w = try XCTUnwrap(beside.captions?.words)
        XCTAssertEqual([w.mode.rawValue, "\(w.maxWords)", "\(w.maxLines)", w.activeBox?.description ?? "none"], ["karaoke", "3", "2", "#000000"])
        XCTAssertEqual(beside.captions?.path, "/e/t.json")
        let inside = try parse(#"{"clips": [{"path": "a.mp4"}], "captions": {"path": "t.vtt", "captionStyle": {"words": "pop"}}, "captionStyle": {"words": "reveal"}}"#)
        XCTAssertEqual(inside.captions?.words?.mode, .pop)
        XCTAssertNil(try parse(#"{"clips": [{"path": "a.mp4"}], "captions": "t.srt"}"#).captions?.words)
        XCTAssertThrowsError(try parse(#"{"clips": [{"path": "a.mp4"}], "captionStyle": {"words": "pop"}}"#)) {
            XCTAssertEqual(($0 as? EditError)?.field, "captionStyle")
        }
    }
}
