import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

final class TimelineTests: XCTestCase {
    func source(_ w: Int, _ h: Int, seconds: Double, fps: Double? = 30, orientation: Orientation = .identity) -> SourceInfo {
        SourceInfo(codedSize: PixelSize(width: w, height: h), orientation: orientation, nominalFrameRate: fps,
                   duration: MediaTime(seconds: seconds), hasAudio: true)
    }
    func clip(_ name: String, _ t: Transition? = nil, start: Double = 0, duration: Double? = nil) -> ClipSpec {
        ClipSpec(path: "/\(name)", start: MediaTime(seconds: start), duration: duration.map { MediaTime(seconds: $0) }, transition: t)
    }

    /// A clip start that lands after an output frame by no more than the clips' timestamp tolerance (a length from
    /// rounded timestamps) moves back onto that frame, the clip before losing that much; further off, it stays.
    func testClipStartsWithinTheTimestampToleranceMoveOntoTheFrame() throws {
        func rounded(_ seconds: Double) -> SourceInfo {
            var s = source(64, 48, seconds: seconds)
            s.timestampTolerance = MediaTime(value: 1, timescale: 1000)
            return s
        }
        var edit = Edit(clips: [clip("a"), clip("b"), clip("c", Transition(kind: .crossfade, duration: MediaTime(seconds: 0.5))), clip("d")])
        edit.frameRate = FrameRate(30)
        let tl = try Timeline(edit: edit, sources: [rounded(1.0008), rounded(1.002), rounded(1.0004), rounded(1)])
        // b: 1.0008 s is 0.8 ms past frame 30 → 1 s. c: 1 + 1.002 − 0.5 = 1.502 s, 2 ms past frame 45 (1.5 s): kept.
        // d: 1.502 + 1.0004 = 2.5024 s, 2.4 ms past frame 75 (2.5 s): kept; the tolerance is 1 ms.
        XCTAssertEqual(tl.placements.map(\.start), [MediaTime(seconds: 0), MediaTime(seconds: 1), MediaTime(seconds: 1.502), MediaTime(seconds: 2.5024)])
        XCTAssertEqual(tl.placements[0].duration, MediaTime(seconds: 1))
        XCTAssertEqual(tl.placements[1].duration, MediaTime(seconds: 1.002))
        XCTAssertEqual(tl.plan(frame: 30).from.clipIndex, 1)
        XCTAssertEqual(tl.plan(frame: 30).from.sourceTime, .zero)
        XCTAssertEqual(tl.plan(frame: 29).from.clipIndex, 0)
        // Sources without a tolerance (stills; unprobed) keep every start more than a microsecond past a frame.
        let exact = try Timeline(edit: edit, sources: [source(64, 48, seconds: 1.0008), source(64, 48, seconds: 1.002),
                                                       source(64, 48, seconds: 1.0004), source(64, 48, seconds: 1)])
        XCTAssertEqual(exact.placements[1].start, MediaTime(seconds: 1.0008))
    }

    func testClipStartsFollowTheOverlapFormula() throws {
        var edit = Edit(clips: [
            clip("a", start: 0.5, duration: 4),
            clip("b", Transition(kind: .crossfade, duration: MediaTime(seconds: 1))),
            clip("c", Transition(kind: .push, duration: MediaTime(seconds: 0.5))),
            clip("d"),
        ])
        edit.frameRate = FrameRate(30)
        let tl = try Timeline(edit: edit, sources: [source(640, 360, seconds: 6), source(640, 360, seconds: 3),
                                                    source(640, 360, seconds: 2), source(640, 360, seconds: 2)])
        // T0 = 0, T1 = 4 - 1 = 3, T2 = 3 + 3 - 0.5 = 5.5, T3 = 5.5 + 2 - 0 = 7.5, end = 9.5
        XCTAssertEqual(tl.placements.map(\.start), [0, 3, 5.5, 7.5].map { MediaTime(seconds: $0) })
        XCTAssertEqual(tl.duration, MediaTime(seconds: 9.5))
        XCTAssertEqual(tl.frameCount, 285)
        XCTAssertEqual(tl.placements.map(\.roll), [0, 1, 0, 1])
        XCTAssertEqual(tl.placements[0].sourceStart, MediaTime(seconds: 0.5))
        // Transition into clip 1: frames 90..<120; p = 0 on frame 90, frame 120 shows only clip 1.
        XCTAssertEqual(tl.transitionFrames(into: 1), 90..<120)
        let first = tl.plan(frame: 90)
        XCTAssertEqual(first.progress, 0)
        XCTAssertEqual(first.from.clipIndex, 0)
        XCTAssertEqual(first.to?.clipIndex, 1)
        XCTAssertEqual(first.from.sourceTime, MediaTime(seconds: 3.5))  // 0.5 start + 3 s in
        XCTAssertEqual(tl.plan(frame: 105).progress, 0.5, accuracy: 1e-12)
        XCTAssertNil(tl.plan(frame: 120).to)
        XCTAssertEqual(tl.plan(frame: 120).from.clipIndex, 1)
        XCTAssertNil(tl.plan(frame: 89).to)
        XCTAssertEqual(tl.plan(frame: 89).from.clipIndex, 0)
        // A cut (no transition) into clip 3 at 7.5 s = frame 225.
        XCTAssertEqual(tl.plan(frame: 224).from.clipIndex, 2)
        XCTAssertEqual(tl.plan(frame: 225).from.clipIndex, 3)
    }

    /// An edit of fills, gaps and text alone has no clip to take the render size from: the error says how to give one,
    /// on the command line (an OTIO timeline whose media are slates has no edit file to add it to) and in an edit file.
    func testAnEditWithoutPicturesAsksForASize() throws {
        let edit = try EditFile.parse(data: Data(#"{"clips": [{"fill": "red", "duration": 1}]}"#.utf8), baseDirectory: "/e")
        XCTAssertThrowsError(try Timeline(edit: edit, sources: [])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("renderSize") && message.contains("--size 1920x1080") && message.contains("\"width\": 1920"), message)
        }
    }

    func testFrameCountsAtStandardRates() throws {
        for (rate, expected) in [(FrameRate(25), Int64(100)), (FrameRate(30), 120), (FrameRate(30000, 1001), 120)] {
            var edit = Edit(clips: [clip("a"), clip("b", Transition(kind: .wipe, duration: MediaTime(seconds: 1)))])
            edit.frameRate = rate
            let tl = try Timeline(edit: edit, sources: [source(64, 64, seconds: 2.5), source(64, 64, seconds: 2.5)])
            // 4 s × 29.97 = 119.88 → 120 frames; 4 × 25 = 100; 4 × 30 = 120.
            XCTAssertEqual(tl.frameCount, expected, "\(rate)")
        }
        var edit = Edit(clips: [clip("a"), clip("b", Transition(kind: .crossfade, duration: MediaTime(seconds: 1)))])
        edit.frameRate = FrameRate(30000, 1001)
        let tl = try Timeline(edit: edit, sources: [source(64, 64, seconds: 2.5), source(64, 64, seconds: 2.5)])
        // T1 = 1.5 s = 44.955 frames → first transition frame 45; end 2.5 s = 74.925 → 75.
        XCTAssertEqual(tl.transitionFrames(into: 1), 45..<75)
        XCTAssertEqual(tl.plan(frame: 44).to, nil)
        XCTAssertNotNil(tl.plan(frame: 45).to)
        XCTAssertEqual(tl.plan(frame: 45).progress, MediaTime.ratio(MediaTime(frame: 45, rate: edit.frameRate!) - MediaTime(seconds: 1.5), MediaTime(seconds: 1)), accuracy: 1e-12)
    }

    func testDefaultsFollowAVVideoComposition() throws {
        let portrait = Orientation(a: 0, b: -1, c: 1, d: 0) // a quarter turn
        let edit = Edit(clips: [clip("a"), clip("b", Transition(kind: .crossfade, duration: MediaTime(seconds: 1)))])
        let tl = try Timeline(edit: edit, sources: [source(1280, 720, seconds: 3, fps: 29.97), source(1920, 1080, seconds: 3, fps: 24, orientation: portrait)])
        // Issue 37 #3: no longer AVFoundation's largest width and largest height (1280×1920, a shape neither clip has):
        // clips of several sizes take the standard size of the prevailing orientation (equal times: the first clip's,
        // landscape), no larger than the largest source (1920 long, 1080 short, rotated).
        XCTAssertEqual(tl.renderSize, PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(tl.frameRate, FrameRate(30000, 1001))
        var sq = edit
        sq.square = true
        // Square: the largest short side (720 and 1080 → 1080), not the short side of the largest box (1280).
        XCTAssertEqual(try Timeline(edit: sq, sources: [source(1280, 720, seconds: 3), source(1920, 1080, seconds: 3, orientation: portrait)]).renderSize,
                       PixelSize(width: 1080, height: 1080))
        // Issue 14's case: a 1920×1080 clip and a 1080×1920 portrait give 1080, not 1920 (3.2× the pixels, every clip upscaled).
        XCTAssertEqual(try Timeline(edit: sq, sources: [source(1920, 1080, seconds: 3), source(1080, 1920, seconds: 3)]).renderSize,
                       PixelSize(width: 1080, height: 1080))
        XCTAssertEqual(try Timeline(edit: sq, sources: [source(640, 360, seconds: 3), source(1920, 1080, seconds: 3, orientation: portrait)]).renderSize,
                       PixelSize(width: 1080, height: 1080))
        let none = try Timeline(edit: Edit(clips: [clip("a")]), sources: [source(161, 121, seconds: 1, fps: nil)])
        XCTAssertEqual(none.frameRate, FrameRate(30))
        XCTAssertEqual(none.renderSize, PixelSize(width: 160, height: 120))    // even for 4:2:0
    }

    /// Issue 37 #3: clips of one size render at it; clips of several sizes at a standard size (1920×1080, 1080×1920,
    /// 1080×1080) of the orientation that fills most of the bottom track's time, scaled down to the largest source.
    func testDefaultRenderSizeIsAStandardSizeOfThePrevailingOrientation() throws {
        let turned = Orientation(a: 0, b: -1, c: 1, d: 0)
        func size(_ clips: [(Int, Int, Double)], fit: FitMode = .fill) throws -> Timeline {
            var edit = Edit(clips: clips.indices.map { clip("c\($0)") })
            edit.fit = fit
            return try Timeline(edit: edit, sources: clips.map { source($0.0, $0.1, seconds: $0.2) })
        }
        // The issue's cases: a 1080×1440 and a 1440×1080 clip gave 1440×1440; equal times, the first (portrait) decides:
        // 1080×1920 scaled to the longest side there is (1440): 810×1440.
        XCTAssertEqual(try size([(1080, 1440, 2), (1440, 1080, 2)]).renderSize, PixelSize(width: 810, height: 1440))
        XCTAssertEqual(try size([(1440, 1080, 2), (1080, 1440, 2)]).renderSize, PixelSize(width: 1440, height: 810))
        // Portrait phone clips and a landscape photo, fitted, gave 1920×1200: 1080×1920.
        let phone = try size([(1080, 1920, 3), (1920, 1200, 4), (1080, 1920, 3)], fit: .fit)
        XCTAssertEqual(phone.renderSize, PixelSize(width: 1080, height: 1920))
        XCTAssertEqual(phone.renderSizeReason, "the clips differ in size; portrait prevails (6 s of 10 s): its standard size 1080x1920")
        // Time decides, not the number of clips: one long landscape clip against two short portrait ones.
        XCTAssertEqual(try size([(720, 1280, 1), (1280, 720, 5), (720, 1280, 1)]).renderSize, PixelSize(width: 1280, height: 720))
        // Never larger than the largest source: small clips, a 4:3 mix, a square mix.
        XCTAssertEqual(try size([(640, 480, 2), (320, 240, 2)]).renderSize, PixelSize(width: 640, height: 360))
        XCTAssertEqual(try size([(96, 64, 2), (64, 48, 2)]).renderSize, PixelSize(width: 96, height: 54))
        XCTAssertEqual(try size([(800, 800, 2), (600, 600, 2)]).renderSize, PixelSize(width: 800, height: 800))
        XCTAssertEqual(try size([(4000, 3000, 2), (3840, 2160, 2)]).renderSize, PixelSize(width: 1920, height: 1080))
        let small = try size([(1440, 1080, 2), (1080, 1440, 1)])
        XCTAssertEqual(small.renderSizeReason, "the clips differ in size; landscape prevails (2 s of 3 s): its standard size 1920x1080, scaled down to the largest source (1440 pixels long, 1080 short)")
        // Clips of one size keep it (an odd size rounded down to even), whatever its shape; after rotation.
        XCTAssertEqual(try size([(96, 64, 1), (96, 64, 2)]).renderSize, PixelSize(width: 96, height: 64))
        XCTAssertEqual(try size([(3840, 2160, 1)]).renderSize, PixelSize(width: 3840, height: 2160))
        let rotated = try Timeline(edit: Edit(clips: [clip("a"), clip("b")]),
                                   sources: [source(1920, 1080, seconds: 1, orientation: turned), source(1080, 1920, seconds: 1)])
        XCTAssertEqual(rotated.renderSize, PixelSize(width: 1080, height: 1920))
        XCTAssertEqual(rotated.renderSizeReason, "the size of the clips (after rotation), which is the same for all")
        // The bottom track decides: an overlay above changes nothing.
        let layered = try Timeline(edit: Edit(tracks: [VideoTrack(clips: [clip("a"), clip("b")]), VideoTrack(clips: [clip("logo")])]),
                                   sources: [source(1280, 720, seconds: 2), source(640, 360, seconds: 2), source(4000, 4000, seconds: 2)])
        XCTAssertEqual(layered.renderSize, PixelSize(width: 1280, height: 720))
        XCTAssertTrue(layered.renderSizeReason.hasPrefix("the clips of the bottom track differ in size; landscape prevails"), layered.renderSizeReason)
        // `plan` says why.
        XCTAssertTrue(TimelineReport(phone).text.contains("\nrender size 1080x1920: the clips differ in size; portrait prevails (6 s of 10 s)"), TimelineReport(phone).text)
        // A size given is kept, and said to be.
        var given = Edit(clips: [clip("a")])
        given.renderSize = PixelSize(width: 320, height: 240)
        XCTAssertEqual(try Timeline(edit: given, sources: [source(1920, 1080, seconds: 1)]).renderSizeReason, "given (renderSize or --size)")
    }

    func testInvalidEditsNameClipsAndDurations() {
        let long = Edit(clips: [clip("a.mp4"), clip("b.mp4", Transition(kind: .crossfade, duration: MediaTime(seconds: 2.5)))])
        XCTAssertThrowsError(try Timeline(edit: long, sources: [source(64, 64, seconds: 2), source(64, 64, seconds: 5)])) { e in
            let msg = "\(e)"
            XCTAssertTrue(msg.contains("clips[1].transition.duration") && msg.contains("2.500") && msg.contains("clip 0 (2 s)"), msg)
        }
        let overlapping = Edit(clips: [clip("a"), clip("b", Transition(kind: .crossfade, duration: MediaTime(seconds: 1.5))),
                                       clip("c", Transition(kind: .wipe, duration: MediaTime(seconds: 1.5)))])
        XCTAssertThrowsError(try Timeline(edit: overlapping, sources: Array(repeating: source(64, 64, seconds: 2), count: 3))) { e in
            XCTAssertTrue("\(e)".contains("overlap"), "\(e)")
        }
        XCTAssertThrowsError(try Timeline(edit: Edit(clips: [clip("a", start: 3)]), sources: [source(64, 64, seconds: 2)])) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[0].start")
        }
        XCTAssertThrowsError(try Timeline(edit: Edit(clips: [clip("a", start: 1, duration: 1.5)]), sources: [source(64, 64, seconds: 2)])) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[0].duration")
        }
    }

    func testStandardRateOfVariableFrameRateClips() {
        func info(avg: Double?, base: Double?) -> SourceInfo {
            var s = SourceInfo(codedSize: PixelSize(width: 64, height: 64), nominalFrameRate: avg, duration: MediaTime(seconds: 1), hasAudio: false)
            s.baseFrameRate = base
            return s
        }
        XCTAssertEqual(info(avg: 29.977, base: 29.97).standardFrameRate, FrameRate(30000, 1001))
        XCTAssertEqual(info(avg: 10.645, base: 29.97).standardFrameRate, FrameRate(30000, 1001))  // Live Photo
        XCTAssertEqual(info(avg: 13.325, base: 30).standardFrameRate, FrameRate(30))              // slow-motion remux
        XCTAssertEqual(info(avg: 7.399, base: 600).standardFrameRate, FrameRate(30))              // FLIR: absurd base
        XCTAssertEqual(info(avg: 15, base: 15).standardFrameRate, FrameRate(15))                  // a steady 15 fps camera
        XCTAssertEqual(info(avg: 120, base: 120).standardFrameRate, FrameRate(60))                // capped
        XCTAssertNil(info(avg: nil, base: nil).standardFrameRate)
        // The highest rate, as AVFoundation's minimum frame duration: frames dropped from a 30 fps clock (60 frames
        // over 2.5 s average 24) still ask for 30, or 11 of the 60 frames would never be shown.
        XCTAssertEqual(info(avg: 24, base: 30).standardFrameRate, FrameRate(30))
        XCTAssertTrue(info(avg: 24, base: 30).defaultFrameRate!.reason.contains("spaced for 30"), info(avg: 24, base: 30).defaultFrameRate!.reason)
        XCTAssertEqual(info(avg: 30, base: 24.083).standardFrameRate, FrameRate(30))              // r_frame_rate guessed low (truncated TS)
        XCTAssertEqual(info(avg: 30, base: 120).standardFrameRate, FrameRate(60))                 // a 120 fps clock: capped
        XCTAssertEqual(info(avg: 25, base: 600).standardFrameRate, FrameRate(25))                 // a clock, but a standard average
        XCTAssertEqual(info(avg: 7.5, base: 14).standardFrameRate, FrameRate(14))                 // plausible non-standard clock: its rate
        XCTAssertEqual(info(avg: 59.94, base: 60).standardFrameRate, FrameRate(60))
        // Interlaced 50i whose base rate is the field rate: whole frames by default.
        var interlaced = info(avg: 25, base: 50)
        interlaced.fieldOrder = .topFieldFirst
        XCTAssertEqual(interlaced.standardFrameRate, FrameRate(25))
        XCTAssertEqual(info(avg: 25, base: 50).standardFrameRate, FrameRate(50))   // progressive: its highest rate
    }

    /// Music ramps that cannot act inside the edit are allowed (they set a gain) but warned about.
    func testMusicRampsOutsideTheEditAreWarnedAbout() throws {
        var edit = Edit(clips: [clip("a")])
        var music = MusicSpec(path: "/m.mp3")
        func ramp(_ start: Double, _ d: Double) -> VolumeRamp { VolumeRamp(from: 1, to: 0, start: MediaTime(seconds: start), duration: MediaTime(seconds: d)) }
        music.ramps = [ramp(0, 1), ramp(-3, 3), ramp(10, 1), ramp(-20, 2), ramp(9.5, 1)]   // a 10 s edit
        edit.music = music
        let t = try Timeline(edit: edit, sources: [source(64, 64, seconds: 10)])
        XCTAssertEqual(t.warnings.count, 2, "\(t.warnings)")
        XCTAssertTrue(t.warnings[0].hasPrefix("music.ramps[2] (10–11 s"), t.warnings[0])
        XCTAssertTrue(t.warnings[1].hasPrefix("music.ramps[3] (-10–-8 s"), t.warnings[1])
        XCTAssertTrue(try Timeline(edit: Edit(clips: [clip("a")]), sources: [source(64, 64, seconds: 10)]).warnings.isEmpty)
    }

    func testTransitionShorterThanAFrameIsAnError() {
        var edit = Edit(clips: [clip("a"), clip("b", Transition(kind: .wipe, duration: MediaTime(seconds: 0.001)))])
        edit.frameRate = FrameRate(30)
        XCTAssertThrowsError(try Timeline(edit: edit, sources: [source(64, 64, seconds: 2), source(64, 64, seconds: 2)])) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[1].transition.duration")
            XCTAssertTrue("\(e)".contains("shorter than one frame"), "\(e)")
        }
        // One frame written in seconds (1/30 s as 0.0333…, read as 33 333 µs) is one frame; 0.033 s is not.
        edit.clips[1].transition = Transition(kind: .wipe, duration: MediaTime(seconds: 1.0 / 30))
        let t = try? Timeline(edit: edit, sources: [source(64, 64, seconds: 2), source(64, 64, seconds: 2)])
        XCTAssertEqual(t?.transitionFrames(into: 1), 59..<60)
        edit.clips[1].transition = Transition(kind: .wipe, duration: MediaTime(seconds: 0.033))
        XCTAssertThrowsError(try Timeline(edit: edit, sources: [source(64, 64, seconds: 2), source(64, 64, seconds: 2)]))
    }
}
