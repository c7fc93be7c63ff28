import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

final class EditFileTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/media/edits") }

    func testFullExampleParses() throws {
        let e = try parse("""
        {
          "renderSize": {"width": 1080, "height": 1080}, "square": false, "fit": "fill", "frameRate": "30000/1001",
          "clips": [
            {"path": "a.mov", "start": 0.5, "duration": 4.0},
            {"path": "b.mp4", "transition": {"type": "crossfade", "duration": 1.0}},
            {"path": "../c.mp4", "transition": {"type": "push", "duration": 0.5, "direction": "left"}},
            {"path": "/abs/d.mp4", "transition": {"type": "wipe", "duration": 1.0, "direction": "down-right"}}
          ],
          "output": {"codec": "h264", "crf": 18, "preset": "medium"}
        }
        """)
        XCTAssertEqual(e.renderSize, PixelSize(width: 1080, height: 1080))
        XCTAssertEqual(e.frameRate, FrameRate(30000, 1001))
        XCTAssertEqual(e.clips.map(\.path), ["/media/edits/a.mov", "/media/edits/b.mp4", "/media/c.mp4", "/abs/d.mp4"])
        XCTAssertEqual(e.clips[0].start, MediaTime(value: 1, timescale: 2))
        XCTAssertEqual(e.clips[0].duration, MediaTime(value: 4, timescale: 1))
        XCTAssertEqual(e.clips[2].transition, Transition(kind: .push, duration: MediaTime(value: 1, timescale: 2), direction: .left))
        XCTAssertEqual(e.clips[3].transition?.direction, .downRight)
        XCTAssertEqual(e.output.crf, 18)
    }

    /// Foundation's parser keeps the last of two equal keys and accepts trailing commas; an edit file may do neither.
    func testDuplicateKeysAndTrailingCommasAreErrors() {
        for (json, field, words) in [
            ("{\"clips\": [{\"path\": \"a.mp4\", \"start\": 0.1, \"start\": 0.2}]}", "clips[0].start", "appears twice"),
            ("{\"clips\": [{\"path\": \"a.mp4\"}],\n \"square\": true, \"square\": false}", "square", "line 2"),
            ("{\"clips\": [{\"path\": \"a.mp4\"},]}", "clips", "trailing comma before ]"),
            ("{\"clips\": [{\"path\": \"a.mp4\"}], \"frameRate\": 30,}", "", "trailing comma before }"),
            ("{\"clips\": [{\"path\": \"a.mp4\"}, {\"path\": \"b.mp4\", \"transition\": {\"type\": \"wipe\", \"type\": \"push\"}}]}",
             "clips[1].transition.type", "appears twice"),
        ] {
            XCTAssertThrowsError(try parse(json), json) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
                XCTAssertTrue("\(e)".contains(words), "\(e)")
            }
        }
        // Escapes, nesting and keys repeated in different objects are fine.
        XCTAssertEqual(try parse("{\"clips\": [{\"path\": \"a\\\"b,}.mp4\"}, {\"path\": \"c.mp4\"}]}").clips.count, 2)
    }

    func testDefaults() throws {
        let e = try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "wipe"}}]}"#)
        XCTAssertNil(e.renderSize)
        XCTAssertNil(e.frameRate)
        XCTAssertEqual(e.fit, .fill)
        XCTAssertEqual(e.clips[1].transition?.duration, MediaTime(value: 1, timescale: 1))
        XCTAssertEqual(e.clips[1].transition?.direction, .downRight)
        XCTAssertEqual(e.output.codec, .h264)
    }

    func testEveryBuiltInByNameWithItsParameters() throws {
        for kind in TransitionKind.builtIns {
            let e = try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "\#(kind.rawValue)"}}]}"#)
            XCTAssertEqual(e.clips[1].transition?.kind, kind)
            XCTAssertEqual(e.clips[1].transition?.parameterValues, kind.traits.parameters.map(\.defaultValue))
        }
        let e = try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "fadegrays", "params": {"phase": 0.35}}}]}"#)
        XCTAssertEqual(e.clips[1].transition?.params["phase"], .number(0.35))
        XCTAssertEqual(e.clips[1].transition?.parameterValues, [0.35])
    }

    func assertError(_ json: String, field: String, contains text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), file: file, line: line) { e in
            guard let err = e as? EditError else { return XCTFail("not an EditError: \(e)", file: file, line: line) }
            XCTAssertEqual(err.field, field, "\(err)", file: file, line: line)
            XCTAssertTrue(err.description.contains(text), "\(err)", file: file, line: line)
        }
    }

    func testErrorsNameTheField() {
        assertError(#"{"clips": [{"path": "a.mp4", "strat": 1}]}"#, field: "clips[0].strat", contains: "did you mean \"start\"")
        // A length is a number, an exact fraction, or "edit" (issue 37 #1): a string of digits is none of them.
        assertError(#"{"clips": [{"path": "a.mp4", "duration": "4"}]}"#, field: "clips[0].duration", contains: "must be a number of seconds, an exact fraction of seconds such as \"1001/30000\", or \"edit\" (got \"4\")")
        assertError(#"{"clips": [{"path": "a.mp4", "start": "4"}]}"#, field: "clips[0].start", contains: "must be a number, got a string")
        assertError(#"{"clips": [{"path": 3}]}"#, field: "clips[0].path", contains: "must be a string")
        assertError(#"{"clips": []}"#, field: "clips", contains: "at least one")
        assertError(#"{"clip": []}"#, field: "clip", contains: "did you mean \"clips\"")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "disolve"}}]}"#, field: "clips[1].transition.type", contains: "did you mean \"dissolve\"")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "spin"}}]}"#, field: "clips[1].transition.type", contains: "crossfade, push, wipe, fade")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "fadeblack", "params": {"phase": 2}}}]}"#, field: "clips[1].transition.params.phase", contains: "0.01…0.99")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "fadeblack", "params": {"phaze": 0.3}}}]}"#, field: "clips[1].transition.params.phaze", contains: "did you mean \"phase\"")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "dissolve", "params": {"phase": 0.3}}}]}"#, field: "clips[1].transition.params.phase", contains: "no parameters")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "push", "direction": "down-right"}}]}"#, field: "clips[1].transition.direction", contains: "one axis")
        assertError(#"{"clips": [{"path": "a", "duration": -1}]}"#, field: "clips[0].duration", contains: "> 0")
        assertError(#"{"clips": [{"path": "a"}], "square": 1}"#, field: "square", contains: "true or false")
        assertError(#"{"clips": [{"path": "a"}], "fit": "crop"}"#, field: "fit", contains: "fill, fit or stretch")
        assertError(#"{"clips": [{"path": "a", "transition": {"type": "crossfade"}}]}"#, field: "clips[0].transition", contains: "first clip")
        assertError(#"{"clips": [{"path": "a"}], "output": {"codec": "dnxhd"}}"#, field: "output.codec", contains: "h264, ffv1, vp9, av1, prores, gif, png, tiff or exr")
        assertError("{\"clips\": [\n {\"path\": \"a\" ]\n}", field: "", contains: "not valid JSON")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "crossfade", "direction": "up"}}]}"#, field: "clips[1].transition.direction", contains: "no direction")
        assertError(#"{"clips": [{"path": "a"}], "audio": {"sampleRate": 12345}}"#, field: "audio.sampleRate", contains: "AAC")
        assertError(#"{"clips": [{"path": "a"}], "output": {"preset": "fastest"}}"#, field: "output.preset", contains: "ultrafast")
    }

    /// `"type": "cut"` is no transition, as `--transition cut` on the command line.
    func testCutIsNoTransition() throws {
        let e = try parse(#"{"clips": [{"path": "a.mp4", "transition": {"type": "cut"}}, {"path": "b.mp4", "transition": {"type": "cut"}}, {"path": "c.mp4", "transition": {"type": "wipe", "duration": 0.5}}]}"#)
        XCTAssertNil(e.clips[0].transition)
        XCTAssertNil(e.clips[1].transition)
        XCTAssertEqual(e.clips[2].transition?.kind, .wipe)
        XCTAssertEqual(e, try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4"}, {"path": "c.mp4", "transition": {"type": "wipe", "duration": 0.5}}]}"#))
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "cut", "duration": 1}}]}"#, field: "clips[1].transition.duration", contains: "a cut has no duration")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "cut", "audioCurve": "linear"}}]}"#, field: "clips[1].transition.audioCurve", contains: "a cut has no")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "cuts"}}]}"#, field: "clips[1].transition.type", contains: "or cut")
    }

    func testAudioTrack() throws {
        let e = try parse(#"{"clips": [{"path": "a.mkv", "audioTrack": 1}, {"path": "b.mkv"}]}"#)
        XCTAssertEqual(e.clips[0].audioTrack, 1)
        XCTAssertNil(e.clips[1].audioTrack)
        assertError(#"{"clips": [{"path": "a", "audioTrack": -1}]}"#, field: "clips[0].audioTrack", contains: "from 0")
        assertError(#"{"clips": [{"path": "a", "audioTrack": 1.5}]}"#, field: "clips[0].audioTrack", contains: "whole number")
        assertError(#"{"clips": [{"path": "a", "audioTrack": "1"}]}"#, field: "clips[0].audioTrack", contains: "must be a number")
        assertError(#"{"clips": [{"path": "a", "audiotrack": 1}]}"#, field: "clips[0].audiotrack", contains: "did you mean \"audioTrack\"")
    }

    func testToneMapCurve() throws {
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}]}"#).output.toneMap, .bt2390, "default")
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}], "output": {"toneMap": "hable"}}"#).output.toneMap, .hable)
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}], "output": {"toneMap": "BT.2390"}}"#).output.toneMap, .bt2390)
        assertError(#"{"clips": [{"path": "a"}], "output": {"toneMap": "aces"}}"#, field: "output.toneMap", contains: "bt2390, hable, mobius, reinhard or clip")
        assertError(#"{"clips": [{"path": "a"}], "output": {"toneMap": 2}}"#, field: "output.toneMap", contains: "must be a string")
        assertError(#"{"clips": [{"path": "a"}], "output": {"tonemap": "hable"}}"#, field: "output.tonemap", contains: "did you mean \"toneMap\"")
    }

    func testDynamicRange() throws {
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}]}"#).output.dynamicRange, .sdr, "default")
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}], "output": {"dynamicRange": "hlg"}}"#).output.dynamicRange, .hlg)
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a"}], "output": {"dynamicRange": "PQ"}}"#).output.dynamicRange, .pq)
        assertError(#"{"clips": [{"path": "a"}], "output": {"dynamicRange": "hdr10"}}"#, field: "output.dynamicRange", contains: "sdr, hlg or pq")
        assertError(#"{"clips": [{"path": "a"}], "output": {"dynamicRange": true}}"#, field: "output.dynamicRange", contains: "must be a string")
    }
}
