import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Issue 22 #10: a transition longer than the clips it joins is an error in an edit file unless it says
/// `"fitTransitions": true`; then (and always for clips joined on the command line) it is shortened to what fits, with
/// a warning naming it, or becomes a cut below one frame.
final class FitTransitionsTests: XCTestCase {
    func source(seconds: Double) -> SourceInfo {
        SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 30, duration: MediaTime(seconds: seconds), hasAudio: false)
    }
    func crossfade(_ s: Double) -> Transition { Transition(kind: .crossfade, duration: MediaTime(seconds: s)) }

    func testTooLongTransitionsAreShortenedOnlyWhenAskedTo() throws {
        // 3 s, 0.3 s, 3 s, 0.02 s: crossfades of 1 s into clips 1, 2 and 3.
        var edit = Edit(clips: [ClipSpec(path: "/a"), ClipSpec(path: "/b", transition: crossfade(1)),
                                ClipSpec(path: "/c", transition: crossfade(1)), ClipSpec(path: "/d", transition: crossfade(1))])
        edit.frameRate = FrameRate(30)
        let sources = [source(seconds: 3), source(seconds: 0.3), source(seconds: 3), source(seconds: 0.02)]
        XCTAssertThrowsError(try Timeline(edit: edit, sources: sources)) {
            XCTAssertEqual(($0 as? EditError)?.field, "clips[1].transition.duration")
            XCTAssertTrue("\($0)".contains("longer than clip 0 (3 s) or clip 1 (0.300 s); shorten the transition"), "\($0)")
        }
        edit.fitTransitions = true
        let tl = try Timeline(edit: edit, sources: sources)
        // Clip 1 has a transition at each end: each may take half of its 0.3 s. Clip 3 (0.02 s, under a frame) gets a cut.
        XCTAssertEqual(tl.placements.map { $0.spec.transition?.duration }, [nil, MediaTime(seconds: 0.15), MediaTime(seconds: 0.15), nil])
        XCTAssertEqual(tl.placements.map(\.start), [MediaTime(seconds: 0), MediaTime(seconds: 2.85), MediaTime(seconds: 3), MediaTime(seconds: 6)])
        XCTAssertEqual(tl.duration, MediaTime(seconds: 6.02))
        XCTAssertEqual(tl.warnings, [
            "clips[1].transition: the crossfade of 1 s is longer than clip 0 (3 s) and clip 1 (0.300 s) allow: shortened to 0.150 s",
            "clips[2].transition: the crossfade of 1 s is longer than clip 1 (0.300 s) and clip 2 (3 s) allow: shortened to 0.150 s",
            "clips[3].transition: the crossfade of 1 s is longer than clip 2 (3 s) and clip 3 (0.020 s) allow: made a cut (it would last less than one frame)",
        ])
        // Transitions that fit are untouched, and say nothing.
        var fine = Edit(clips: [ClipSpec(path: "/a"), ClipSpec(path: "/b", transition: crossfade(0.5))])
        fine.fitTransitions = true
        let ok = try Timeline(edit: fine, sources: [source(seconds: 1), source(seconds: 1)])
        XCTAssertEqual(ok.placements[1].spec.transition?.duration, MediaTime(seconds: 0.5))
        XCTAssertEqual(ok.warnings, [])
    }

    func testTheEditFileField() throws {
        let e = try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4"}], "fitTransitions": true}"#.utf8), baseDirectory: "/x")
        XCTAssertTrue(e.fitTransitions)
        XCTAssertFalse(try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4"}]}"#.utf8), baseDirectory: "/x").fitTransitions)
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4"}], "fitTransitions": 1}"#.utf8), baseDirectory: "/x")) {
            XCTAssertEqual(($0 as? EditError)?.field, "fitTransitions")
        }
    }
}
