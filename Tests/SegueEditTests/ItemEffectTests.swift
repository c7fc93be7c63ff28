import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Items carry effects (`ClipSpec.effects`): the item's own `speed`, `reverse`, `freeze`, `frameBlend` and `pitch`
/// and `"effects": [{"type": …}]` entries are one list; each effect at most once; the timeline and the report read it.
final class ItemEffectTests: XCTestCase {
    func clip(_ item: String, audio: Bool = false) throws -> ClipSpec {
        let json = audio ? #"{"clips": [{"path": "v.mp4"}], "audioTracks": [{"clips": [\#(item)]}]}"# : #"{"clips": [\#(item)]}"#
        let e = try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e")
        return audio ? e.audioTracks[0].clips[0] : e.clips[0]
    }
    func field(_ item: String, audio: Bool = false) -> String {
        do { _ = try clip(item, audio: audio); return "no error" } catch { return (error as? EditError)?.field ?? "\(error)" }
    }

    func testBothFormsAreOneList() throws {
        var built = ClipSpec(path: "/e/a.mp4")
        built.reverse = true
        built.speed = .constant(2)
        XCTAssertEqual(built.effects, [.speed(SpeedEffect(speed: .constant(2))), .reverse], "time effects in their order")
        for item in [#"{"path": "a.mp4", "speed": 2, "reverse": true}"#,
                     #"{"path": "a.mp4", "effects": [{"type": "speed", "speed": 2}, {"type": "reverse"}]}"#,
                     #"{"path": "a.mp4", "effects": [{"type": "reverse"}, {"type": "speed", "speed": 2}]}"#,
                     #"{"path": "a.mp4", "reverse": true, "effects": [{"type": "speed", "speed": 2}]}"#] {
            XCTAssertEqual(try clip(item), built, item)
        }
        var frozen = ClipSpec(path: "/e/a.mp4", duration: MediaTime(seconds: 1))
        frozen.freeze = MediaTime(seconds: 1.5)
        XCTAssertEqual(frozen.effects, [.freeze(at: MediaTime(seconds: 1.5))])
        XCTAssertEqual(try clip(#"{"path": "a.mp4", "freeze": 1.5, "duration": 1}"#), frozen)
        XCTAssertEqual(try clip(#"{"path": "a.mp4", "effects": [{"type": "freeze", "at": 1.5}], "duration": 1}"#), frozen)
        // frameBlend and pitch are the speed effect's, given on the item or in its entry.
        let slow = SpeedEffect(speed: .constant(0.5), frameBlend: true, pitch: .mute)
        for item in [#"{"path": "a.mp4", "speed": 0.5, "frameBlend": true, "pitch": "mute"}"#,
                     #"{"path": "a.mp4", "effects": [{"type": "speed", "speed": 0.5, "frameBlend": true, "pitch": "mute"}]}"#,
                     #"{"path": "a.mp4", "frameBlend": true, "effects": [{"type": "speed", "speed": 0.5, "pitch": "mute"}]}"#] {
            XCTAssertEqual(try clip(item).effects, [.speed(slow)], item)
        }
        // What changes nothing is no entry: speed 1, reverse false, freeze null; pitch alone is a speed entry of speed 1.
        XCTAssertEqual(try clip(#"{"path": "a.mp4", "speed": 1, "reverse": false, "freeze": null}"#), ClipSpec(path: "/e/a.mp4"))
        XCTAssertEqual(try clip(#"{"path": "a.mp4", "pitch": "follow"}"#).effects, [.speed(SpeedEffect(pitch: .follow))])
        XCTAssertFalse(try clip(#"{"path": "a.mp4", "pitch": "follow"}"#).effects.contains(where: \.changesTime))
        // The list's properties write their entries and remove them.
        built.speed = .constant(1)
        XCTAssertEqual(built.effects, [.reverse])
        built.reverse = false
        XCTAssertEqual(built.effects, [])
        // An audio item's effects: speed (with pitch) and reverse.
        XCTAssertEqual(try clip(#"{"path": "v.m4a", "effects": [{"type": "speed", "speed": 1.5, "pitch": "follow"}, {"type": "reverse"}]}"#, audio: true).effects,
                       [.speed(SpeedEffect(speed: .constant(1.5), pitch: .follow)), .reverse])
    }

    func testAnEffectTwiceIsAnErrorNamingTheField() {
        for (item, expected) in [
            (#"{"path": "a", "speed": 2, "effects": [{"type": "speed", "speed": 3}]}"#, "clips[0].effects[0]"),
            (#"{"path": "a", "effects": [{"type": "reverse"}, {"type": "reverse"}]}"#, "clips[0].effects[1]"),
            (#"{"path": "a", "reverse": true, "effects": [{"type": "reverse"}]}"#, "clips[0].effects[0]"),
            (#"{"path": "a", "duration": 1, "freeze": 1, "effects": [{"type": "freeze", "at": 2}]}"#, "clips[0].effects[0]"),
            (#"{"path": "a", "frameBlend": true, "effects": [{"type": "speed", "speed": 0.5, "frameBlend": false}]}"#, "clips[0].effects[0].frameBlend"),
            (#"{"path": "a", "pitch": "keep", "effects": [{"type": "speed", "speed": 0.5, "pitch": "mute"}]}"#, "clips[0].effects[0].pitch"),
            // A freeze has no speed, no reverse, no start, and needs its duration, whichever form gives it.
            (#"{"path": "a", "duration": 1, "reverse": true, "effects": [{"type": "freeze", "at": 1}]}"#, "clips[0].effects[0]"),
            (#"{"path": "a", "duration": 1, "effects": [{"type": "speed", "speed": 2}, {"type": "freeze", "at": 1}]}"#, "clips[0].effects[1]"),
            (#"{"path": "a", "effects": [{"type": "freeze", "at": 1}]}"#, "clips[0].duration"),
            (#"{"path": "a", "start": 1, "duration": 1, "effects": [{"type": "freeze", "at": 1}]}"#, "clips[0].effects[0]"),
            (#"{"path": "a", "effects": [{"type": "freeze"}]}"#, "clips[0].effects[0].at"),
            (#"{"path": "a", "effects": [{"speed": 2}]}"#, "clips[0].effects[0].type"),
            (#"{"path": "a", "effects": {"type": "reverse"}}"#, "clips[0].effects"),
            (#"{"path": "a", "effects": [{"type": "speed", "speed": {"keyframes": [{"time": 1, "value": 2}, {"time": 0, "value": 1}]}}]}"#,
             "clips[0].effects[0].speed.keyframes[1].time"),
        ] {
            XCTAssertEqual(field(item), expected, item)
        }
        XCTAssertEqual(field(#"{"path": "v", "effects": [{"type": "freeze", "at": 1}]}"#, audio: true), "audioTracks[0].clips[0].effects[0].type")
        XCTAssertEqual(field(#"{"path": "v", "effects": [{"type": "speed", "speed": 2, "frameBlend": true}]}"#, audio: true),
                       "audioTracks[0].clips[0].effects[0].frameBlend")
        XCTAssertEqual(field(#"{"fill": "red", "effects": [{"type": "reverse"}]}"#), "clips[0].effects[0].type")
    }

    /// The timeline makes one time map of the list, whichever form gave it, and the plan names the effects.
    func testTheTimelineAndThePlanReadTheList() throws {
        var source = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 30, duration: MediaTime(seconds: 4), hasAudio: true)
        source.streamRate = FrameRate(30)
        func timeline(_ item: String) throws -> Timeline {
            var edit = try EditFile.parse(data: Data(#"{"clips": [\#(item)], "frameRate": 30}"#.utf8), baseDirectory: "/e")
            edit.frameRate = FrameRate(30)
            return try Timeline(edit: edit, sources: [source])
        }
        let fields = try timeline(#"{"path": "a.mp4", "speed": 2, "reverse": true}"#)
        let entries = try timeline(#"{"path": "a.mp4", "effects": [{"type": "reverse"}, {"type": "speed", "speed": 2}]}"#)
        XCTAssertEqual(fields.placements[0].duration, MediaTime(seconds: 2))
        XCTAssertEqual(entries.placements[0].timeMap, TimeMap(speed: 2))
        for frame in [0, 1, 29, 59] as [Int64] {
            XCTAssertEqual(entries.plan(frame: frame).from.sourceTime, fields.plan(frame: frame).from.sourceTime, "frame \(frame)")
            XCTAssertTrue(entries.plan(frame: frame).from.reversed)
        }
        // Frame 0 of a 2× reversed clip of 4 s shows the source's last frame: just before 4 s.
        XCTAssertEqual(entries.plan(frame: 0).from.sourceTime.seconds, 4 - 1.0 / 60, accuracy: 1e-6)
        let report = TimelineReport(entries)
        XCTAssertEqual(report.clips[0].effects, ["speed", "reverse"])
        XCTAssertEqual(report.clips[0].time, "speed 2×, audio pitch kept, reverse")
        XCTAssertTrue(report.text.contains("speed 2×, audio pitch kept, reverse"), report.text)
        let frozen = try timeline(#"{"path": "a.mp4", "effects": [{"type": "freeze", "at": 1.5}], "duration": 1}"#)
        XCTAssertEqual(frozen.placements[0].timeMap, TimeMap.frozen())
        XCTAssertEqual(frozen.plan(frame: 20).from.sourceTime, MediaTime(seconds: 1.5))
        XCTAssertEqual(TimelineReport(frozen).clips[0].effects, ["freeze"])
        XCTAssertNil(TimelineReport(try timeline(#"{"path": "a.mp4"}"#)).clips[0].effects)
    }
}
