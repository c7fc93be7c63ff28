import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Issue 37 #1: `"duration": "edit"` makes an item last until the edit's end (as the other items make it), and an item
/// of an upper track that alone makes the edit longer is warned about.
final class UntilEditEndTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func source(seconds: Double) -> SourceInfo {
        SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 30, duration: MediaTime(seconds: seconds), hasAudio: true)
    }
    func still() -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: 32, height: 32), nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        s.isStill = true
        return s
    }

    /// A 10 s clip below; a logo (a still), a fill, a text and a 4 s clip above, each until the edit's end; music on an
    /// audio track until the end too.
    func testItemsLastUntilTheEndTheOtherItemsMake() throws {
        let edit = try parse("""
        {"tracks": [
          {"clips": [{"path": "a.mp4"}]},
          {"clips": [{"path": "logo.png", "at": 1, "duration": "edit"}]},
          {"clips": [{"fill": "red", "duration": "edit", "at": 2}]},
          {"clips": [{"text": "Hi", "duration": "edit"}]},
          {"clips": [{"path": "short.mp4", "duration": "edit"}]}
        ],
         "audioTracks": [{"clips": [{"path": "song.m4a", "duration": "edit"}]}]}
        """)
        let items = edit.tracks.dropFirst().map { $0.clips[0] } + [edit.audioTracks[0].clips[0]]
        XCTAssertEqual(items.map(\.lastsUntilEditEnd), [true, true, true, true, true])
        XCTAssertEqual(items.map(\.duration), [nil, nil, nil, nil, nil])
        XCTAssertFalse(edit.tracks[0].clips[0].lastsUntilEditEnd)
        // The old spelling says the same.
        XCTAssertTrue(try parse(#"{"clips": [{"path": "a.mp4", "untilEnd": true}]}"#).clips[0].lastsUntilEditEnd)

        let noText = Edit(tracks: edit.tracks.enumerated().filter { $0.offset != 3 }.map(\.element), audioTracks: edit.audioTracks)
        let t = try Timeline(edit: noText, sources: [source(seconds: 10), still(), source(seconds: 4), source(seconds: 30)])
        XCTAssertEqual(t.duration, MediaTime(seconds: 10))
        XCTAssertEqual(t.frameCount, 300)
        // The logo from 1 s, the fill from 2 s, to 10 s; the short clip for as much as it has.
        XCTAssertEqual(t.placements.map(\.start), [.zero, MediaTime(seconds: 1), MediaTime(seconds: 2), .zero])
        XCTAssertEqual(t.placements.map(\.end), [MediaTime(seconds: 10), MediaTime(seconds: 10), MediaTime(seconds: 10), MediaTime(seconds: 4)])
        // The 30 s song ends with the edit.
        XCTAssertEqual(t.audioPlacements.map(\.end), [MediaTime(seconds: 10)])
        XCTAssertEqual(t.warnings, [])
    }

    /// A logo given 30 s over a 10 s edit (docs/composition.md's example as the issue's user wrote it) makes the edit
    /// 30 s long, with a warning naming it; `"duration": "edit"` ends it with the edit.
    func testAnUpperItemThatLengthensTheEditIsWarnedAbout() throws {
        func timeline(_ logo: String) throws -> Timeline {
            let edit = try parse("""
            {"tracks": [{"clips": [{"path": "a.mp4"}]}, {"clips": [{"path": "logo.png", "at": 0, "duration": \(logo)}]}],
             "audioTracks": [{"clips": [{"path": "voice.m4a", "at": 2}]}]}
            """)
            return try Timeline(edit: edit, sources: [source(seconds: 10), still(), source(seconds: 9)])
        }
        let long = try timeline("30")
        XCTAssertEqual(long.duration, MediaTime(seconds: 30))
        XCTAssertEqual(long.warnings.count, 1, "\(long.warnings)")
        let w = long.warnings.first ?? ""
        // The voice on the audio track ends at 11 s: the rest of the edit.
        XCTAssertTrue(w.hasPrefix("tracks[1].clips[0] (logo.png) on an upper track ends at 30 s, after the bottom track and the audio tracks (11 s)"), w)
        XCTAssertTrue(w.contains("\"duration\": \"edit\""), w)
        XCTAssertEqual(TimelineReport(long).warnings, long.warnings)
        let fitted = try timeline("\"edit\"")
        XCTAssertEqual(fitted.duration, MediaTime(seconds: 11))
        XCTAssertEqual(fitted.placements[1].end, MediaTime(seconds: 11))
        XCTAssertEqual(fitted.warnings, [])
        XCTAssertNil(TimelineReport(fitted).warnings)
        // Ending within the rest (or less than half a frame after it) is no warning.
        XCTAssertEqual(try timeline("11.01").warnings, [])
        XCTAssertEqual(try timeline("11.02").warnings.count, 1)
        // A gap cannot last until the edit's end: the advice for it is its length.
        let gap = try Timeline(edit: try parse(#"{"tracks": [{"clips": [{"path": "a.mp4"}]}, {"clips": [{"gap": 12}]}]}"#), sources: [source(seconds: 10)])
        XCTAssertEqual(gap.warnings.count, 1, "\(gap.warnings)")
        XCTAssertTrue(gap.warnings.first?.hasSuffix("it makes the edit longer; a gap that ends by then, or none, would not") == true, "\(gap.warnings)")
    }

    /// `segue resolve` writes such items back: an audio clip, which has no `untilEnd`, as `"duration": "edit"`.
    func testTheWriterKeepsThem() throws {
        let edit = try parse(#"{"tracks": [{"clips": [{"path": "a.mp4"}]}, {"clips": [{"fill": "red", "duration": "edit"}]}], "audioTracks": [{"clips": [{"path": "song.m4a", "duration": "edit"}]}]}"#)
        let written = try EditFileWriter.data(edit)
        let text = String(decoding: written, as: UTF8.self)
        XCTAssertTrue(text.contains(#""duration" : "edit""#) || text.contains(#""duration": "edit""#), text)
        let back = try EditFile.parse(data: written, baseDirectory: "/e")
        XCTAssertEqual(back.tracks[1].clips[0].lastsUntilEditEnd, true)
        XCTAssertEqual(back.audioTracks[0].clips[0].lastsUntilEditEnd, true)
        XCTAssertNil(back.audioTracks[0].clips[0].duration)
    }

    func testAWrongLengthNamesTheFieldAndSuggests() {
        for (json, field, text) in [
            (#"{"clips": [{"path": "a.mp4", "duration": "edt"}]}"#, "clips[0].duration", "did you mean \"edit\""),
            (#"{"clips": [{"fill": "red", "duration": "end"}]}"#, "clips[0].duration", "or \"edit\" (got \"end\")"),
            (#"{"clips": [{"path": "a.mp4", "duration": 0}]}"#, "clips[0].duration", "> 0"),
            (#"{"clips": [{"path": "a.mp4", "duration": true}]}"#, "clips[0].duration", "must be"),
        ] {
            XCTAssertThrowsError(try parse(json), json) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
                XCTAssertTrue("\(e)".contains(text), "\(e)")
            }
        }
        // An exact fraction is still a length.
        XCTAssertEqual(try? parse(#"{"clips": [{"path": "a.mp4", "duration": "1001/30000"}]}"#).clips[0].duration, MediaTime(value: 1001, timescale: 30000))
    }

    /// The schema `segue schema` prints says it: an item's duration is a number, a fraction or "edit".
    func testTheSchemaDeclaresIt() throws {
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: EditSchema.json) as? [String: Any])
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        for name in ["clip", "fill", "text", "audioClip"] {
            let object = try XCTUnwrap(defs[name] as? [String: Any], name)
            let duration = try XCTUnwrap((object["properties"] as? [String: Any])?["duration"] as? [String: Any], name)
            let kinds = try XCTUnwrap(duration["anyOf"] as? [[String: Any]], name)
            XCTAssertEqual(kinds.map { $0["type"] as? String }, ["number", "string"], name)
            let pattern = try NSRegularExpression(pattern: try XCTUnwrap(kinds.last?["pattern"] as? String, name))
            func matches(_ s: String) -> Bool { pattern.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil }
            XCTAssertEqual(["edit", "1001/30000", "edt", "edit2", "4"].map(matches), [true, true, false, false, false], name)
        }
        // A start is a time, not a length.
        let clip = try XCTUnwrap((defs["clip"] as? [String: Any])?["properties"] as? [String: Any])
        XCTAssertFalse(String(describing: clip["start"] ?? "").contains("edit"))
    }
}
