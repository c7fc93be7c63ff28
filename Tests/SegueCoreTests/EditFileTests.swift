import XCTest
@testable import SegueCore

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
        assertError(#"{"clips": [{"path": "a.mp4", "duration": "4"}]}"#, field: "clips[0].duration", contains: "must be a number, got a string")
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
        assertError(#"{"clips": [{"path": "a"}], "fit": "crop"}"#, field: "fit", contains: "fill, fit, stretch")
        assertError(#"{"clips": [{"path": "a", "transition": {"type": "crossfade"}}]}"#, field: "clips[0].transition", contains: "first clip")
        assertError(#"{"clips": [{"path": "a"}], "output": {"codec": "prores"}}"#, field: "output.codec", contains: "h264 or ffv1")
        assertError("{\"clips\": [\n {\"path\": \"a\" ]\n}", field: "", contains: "not valid JSON")
        assertError(#"{"clips": [{"path": "a"}, {"path": "b", "transition": {"type": "crossfade", "direction": "up"}}]}"#, field: "clips[1].transition.direction", contains: "no direction")
        assertError(#"{"clips": [{"path": "a"}], "audio": {"sampleRate": 12345}}"#, field: "audio.sampleRate", contains: "AAC")
        assertError(#"{"clips": [{"path": "a"}], "output": {"preset": "fastest"}}"#, field: "output.preset", contains: "ultrafast")
    }
}
