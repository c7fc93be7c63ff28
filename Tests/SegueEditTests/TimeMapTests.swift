import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Time (issue 20): speeds, ramps, reverse, freeze and capture speed as the edit file reads them and the timeline
/// lays them out; the ramp's integral against its closed form and against an independent numerical integration.
final class TimeMapTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func source(seconds: Double, fps: Double = 30) -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: fps, duration: MediaTime(seconds: seconds), hasAudio: true)
        s.streamRate = FrameRate.fromDecimal(fps)
        return s
    }
    func field(_ e: Error) -> String { (e as? EditError)?.field ?? "\(e)" }

    func testConstantSpeedsAreExactRationals() {
        let twice = TimeMap(speed: 2)
        XCTAssertEqual(twice.timelineDuration(source: MediaTime(seconds: 4)), MediaTime(seconds: 2))
        XCTAssertEqual(twice.sourceOffset(at: MediaTime(value: 1, timescale: 30)), MediaTime(value: 1, timescale: 15))
        let third = TimeMap(rational: 1, 3)
        XCTAssertEqual(third.timelineDuration(source: MediaTime(seconds: 1)), MediaTime(value: 3, timescale: 1))
        XCTAssertEqual(third.sourceOffset(at: MediaTime(value: 1, timescale: 30)), MediaTime(value: 1, timescale: 90))
        // Written speeds are read to the microsecond, like every time in an edit file: 0.333333 is 333333/1000000.
        XCTAssertEqual(TimeMap(speed: 0.333333).sourceOffset(at: MediaTime(value: 3, timescale: 1)), MediaTime(value: 999_999, timescale: 1_000_000))
    }

    /// A ramp 1× → 4× over 1 s (linear), then 4×: ∫ = τ + 1.5τ² inside, 2.5 at 1 s, then 4 per second.
    func testRampIntegralInClosedForm() {
        let map = TimeMap(ramp: [Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 1), value: 4)])
        XCTAssertEqual(map.sourceOffset(at: MediaTime(seconds: 0.5)).seconds, 0.875, accuracy: 1e-6)
        XCTAssertEqual(map.sourceOffset(at: MediaTime(seconds: 1)).seconds, 2.5, accuracy: 1e-6)
        XCTAssertEqual(map.sourceOffset(at: MediaTime(seconds: 1.5)).seconds, 4.5, accuracy: 1e-6)
        XCTAssertEqual(map.timelineDuration(source: MediaTime(seconds: 4.5)).seconds, 1.5, accuracy: 1e-6)
        XCTAssertEqual(map.timelineDuration(source: MediaTime(seconds: 0.875)).seconds, 0.5, accuracy: 1e-6)
        XCTAssertEqual(map.speed(at: MediaTime(seconds: 0.5)), 2.5, accuracy: 1e-12)
    }

    /// Eased segments (cubic Béziers, steps) integrate in closed form: checked against Simpson's rule on the speed
    /// curve itself (2000 intervals), and the inverse against the integral.
    func testEasedRampsAgainstNumericalIntegration() {
        for easing in [Easing.easeInOut, .ease, .easeIn, .cubicBezier(0.1, 0.9, 0.3, 1.4), .steps(4, .jumpEnd), .steps(3, .jumpStart)] {
            let keys = [Keyframe(time: MediaTime(seconds: 0.25), value: 0.5, easing: easing), Keyframe(time: MediaTime(seconds: 1.25), value: 3),
                        Keyframe(time: MediaTime(seconds: 2), value: 1)]
            let speed = Animated.keyframes(keys)
            for tau in [0.1, 0.6, 1.0, 1.7, 2.5] {
                let n = 2000, h = tau / Double(n)
                var sum = 0.0
                for i in 0...n {
                    let w = i == 0 || i == n ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0)
                    sum += w * speed.value(at: MediaTime(seconds: Double(i) * h))
                }
                let simpson = sum * h / 3
                let tolerance = easing == .steps(4, .jumpEnd) || easing == .steps(3, .jumpStart) ? 2e-3 : 1e-6   // steps: Simpson across a jump
                XCTAssertEqual(TimeMap.integral(keys, tau), simpson, accuracy: tolerance, "\(easing) at \(tau)")
                XCTAssertEqual(TimeMap.inverse(keys, TimeMap.integral(keys, tau)), tau, accuracy: 1e-9, "\(easing) inverse at \(tau)")
            }
        }
    }

    func testEditFileTimeFieldsAndTheirErrors() throws {
        let e = try parse(#"""
        {"clips": [{"path": "a.mp4", "speed": 2, "pitch": "follow"},
                   {"path": "b.mp4", "speed": "capture"},
                   {"path": "c.mp4", "reverse": true, "speed": 0.5, "frameBlend": true},
                   {"path": "d.mp4", "freeze": 1.5, "duration": 2},
                   {"path": "e.mp4", "speed": {"keyframes": [{"time": 0, "value": 1}, {"time": 0.5, "value": 4, "easing": "ease-in"}]}}]}
        """#)
        XCTAssertEqual(e.clips[0].speed, .constant(2)); XCTAssertEqual(e.clips[0].pitch, .follow)
        XCTAssertEqual(e.clips[1].speed, .capture)
        XCTAssertTrue(e.clips[2].reverse && e.clips[2].frameBlend)
        XCTAssertEqual(e.clips[3].freeze, MediaTime(seconds: 1.5))
        guard case .ramp(let keys) = e.clips[4].speed else { return XCTFail("a ramp") }
        XCTAssertEqual(keys.map(\.value), [1, 4])
        let cases: [(String, String)] = [
            (#"{"clips": [{"path": "a", "speed": 40}]}"#, "clips[0].speed"),
            (#"{"clips": [{"path": "a", "speed": 0.01}]}"#, "clips[0].speed"),
            (#"{"clips": [{"path": "a", "speed": "fast"}]}"#, "clips[0].speed"),
            (#"{"clips": [{"path": "a", "speed": {"keyframes": [{"time": 1, "value": 1}, {"time": 0.5, "value": 2}]}}]}"#, "clips[0].speed.keyframes[1].time"),
            (#"{"clips": [{"path": "a", "speed": {"keyframes": [{"time": 0, "value": 64}]}}]}"#, "clips[0].speed.keyframes[0].value"),
            (#"{"clips": [{"path": "a", "reverse": true, "freeze": 1, "duration": 1}]}"#, "clips[0].freeze"),
            (#"{"clips": [{"path": "a", "freeze": 1}]}"#, "clips[0].duration"),
            (#"{"clips": [{"path": "a", "freeze": 1, "start": 1, "duration": 1}]}"#, "clips[0].freeze"),
            (#"{"clips": [{"path": "a", "pitch": "high"}]}"#, "clips[0].pitch"),
            (#"{"clips": [{"path": "a", "reverse": "yes"}]}"#, "clips[0].reverse"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try parse(json), json) { e in XCTAssertEqual(field(e), expected, "\(json): \(e)") }
        }
    }

    /// The timeline: a 4 s clip at 2× lasts 2 s; a ramp lasts where its integral reaches the source range; a freeze its
    /// duration; capture speed is the edit's rate over the clip's; a still cannot be retimed; a transition still
    /// joins a retimed clip; the source time of each frame follows the map (reversed: the frame before D − offset).
    func testTimelineLaysOutRetimedClips() throws {
        var fast = ClipSpec(path: "/a.mp4"); fast.speed = .constant(2)
        var ramp = ClipSpec(path: "/b.mp4", transition: Transition(kind: .crossfade, duration: MediaTime(seconds: 0.5)))
        ramp.speed = .ramp([Keyframe(time: .zero, value: 1), Keyframe(time: MediaTime(seconds: 1), value: 4)])
        var frozen = ClipSpec(path: "/c.mp4", duration: MediaTime(seconds: 1.5)); frozen.freeze = MediaTime(seconds: 1)
        var back = ClipSpec(path: "/d.mp4", duration: MediaTime(seconds: 2)); back.reverse = true
        var hfr = ClipSpec(path: "/e.mp4"); hfr.speed = .capture
        var edit = Edit(clips: [fast, ramp, frozen, back, hfr])
        edit.frameRate = FrameRate(30)
        let t = try Timeline(edit: edit, sources: [source(seconds: 4), source(seconds: 4.5), source(seconds: 3), source(seconds: 3), source(seconds: 0.4, fps: 240)])
        XCTAssertEqual(t.placements[0].duration, MediaTime(seconds: 2))
        XCTAssertEqual(t.placements[1].duration.seconds, 1.5, accuracy: 1e-6)    // ∫ reaches 4.5 s at 1.5 s
        XCTAssertEqual(t.placements[2].duration, MediaTime(seconds: 1.5))
        XCTAssertEqual(t.placements[3].duration, MediaTime(seconds: 2))
        XCTAssertEqual(t.placements[4].duration, MediaTime(seconds: 3.2))         // 96 frames of 240 fps at 30 fps
        XCTAssertEqual(t.placements[1].start, MediaTime(seconds: 1.5))            // 2 − 0.5 (the crossfade)
        // Frame 3 (0.1 s) of the 2× clip shows 0.2 s; the freeze always 1 s; the reversed clip's first frame the last.
        XCTAssertEqual(t.plan(frame: 3).from.sourceTime, MediaTime(seconds: 0.2))
        let f = t.firstFrame(atOrAfter: t.placements[2].start)
        XCTAssertEqual(t.plan(frame: f + 10).from.sourceTime, MediaTime(seconds: 1))
        let r = t.plan(frame: t.firstFrame(atOrAfter: t.placements[3].start))
        XCTAssertEqual(r.from.sourceTime.seconds, 2 - 1.0 / 60, accuracy: 1e-6)
        XCTAssertTrue(r.from.reversed)
        XCTAssertTrue(TimelineReport(t).text.contains("speed 2×"), TimelineReport(t).text)
        // A still has no time to play faster.
        var still = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        still.isStill = true
        XCTAssertThrowsError(try Timeline(edit: Edit(clips: [fast]), sources: [still])) { e in XCTAssertEqual(field(e), "clips[0].speed") }
        // Capture speed outside 1/32…32 (a 1000 fps clip in a 24 fps edit would be 0.024).
        var quick = Edit(clips: [hfr]); quick.frameRate = FrameRate(24)
        XCTAssertThrowsError(try Timeline(edit: quick, sources: [source(seconds: 1, fps: 1000)])) { e in XCTAssertEqual(field(e), "clips[0].speed") }
    }
}
