import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// The composition model (issue 19): tracks of items, gaps, fills, `at`, layers and their keyframes, audio tracks; as
/// the edit file reads them, as the timeline lays them out, and as the planner turns them into passes.
final class LayerModelTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func source(_ w: Int, _ h: Int, seconds: Double, fps: Double? = 30, audio: Bool = true) -> SourceInfo {
        SourceInfo(codedSize: PixelSize(width: w, height: h), nominalFrameRate: fps, duration: MediaTime(seconds: seconds), hasAudio: audio)
    }
    func still(_ w: Int, _ h: Int) -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: w, height: h), nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        s.isStill = true
        return s
    }
    func field(_ e: Error) -> String { (e as? EditError)?.field ?? "\(e)" }

    /// The issue's example edit file reads as written.
    func testTheIssuesEditFileParses() throws {
        let edit = try parse("""
        {
          "renderSize": {"width": 1920, "height": 1080}, "frameRate": 30, "background": "black",
          "tracks": [
            {"clips": [{"path": "a.mov"}, {"path": "b.mp4", "transition": {"type": "crossfade", "duration": 1}}]},
            {"clips": [{"gap": 2.0},
                       {"path": "pip.mp4", "duration": 4, "layer": {"scale": 0.25, "x": 0.8, "y": 0.2}},
                       {"fill": "#202020", "duration": 1.5, "layer": {"opacity": 0.6}}]},
            {"clips": [{"path": "logo.png", "at": 0, "duration": 30, "layer": {"scale": 0.1, "x": 0.92, "y": 0.9, "opacity": 0.8}}]}
          ],
          "audioTracks": [{"clips": [{"path": "voice.m4a", "at": 12.5, "volume": 1.2}]}],
          "music": {"path": "song.m4a", "duck": true}
        }
        """)
        XCTAssertEqual(edit.tracks.count, 3)
        XCTAssertEqual(edit.tracks[0].clips.map(\.path), ["/e/a.mov", "/e/b.mp4"])
        XCTAssertEqual(edit.tracks[1].clips[0].content, .gap)
        XCTAssertEqual(edit.tracks[1].clips[0].duration, MediaTime(seconds: 2))
        XCTAssertEqual(edit.tracks[1].clips[1].layer.scale, .constant(0.25))
        XCTAssertEqual(edit.tracks[1].clips[1].layer.x, .constant(0.8))
        XCTAssertEqual(edit.tracks[1].clips[2].content, .fill(RGBColour(r: 0x20, g: 0x20, b: 0x20)))
        XCTAssertEqual(edit.tracks[1].clips[2].layer.opacity, .constant(0.6))
        XCTAssertEqual(edit.tracks[2].clips[0].at, .zero)
        XCTAssertEqual(edit.audioTracks.count, 1)
        XCTAssertEqual(edit.audioTracks[0].clips[0].at, MediaTime(seconds: 12.5))
        XCTAssertEqual(edit.audioTracks[0].clips[0].volume, 1.2)
        XCTAssertNotNil(edit.music?.duck)
        XCTAssertEqual(edit.inputPaths.map(\.field), ["tracks[0].clips[0].path", "tracks[0].clips[1].path", "tracks[1].clips[1].path",
                                                     "tracks[2].clips[0].path", "audioTracks[0].clips[0].path", "music.path"])
        // The top-level clips still mean one track.
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a.mp4"}]}"#).tracks.count, 1)
    }

    func testBadLayersAndItemsNameTheirField() {
        let cases: [(String, String)] = [
            (#"{"clips": [{"path": "a"}], "tracks": [{"clips": [{"path": "b"}]}]}"#, "tracks"),
            (#"{"tracks": []}"#, "tracks"),
            (#"{"tracks": [{"clips": [{"path": "a"}, {"gap": 0}]}]}"#, "tracks[0].clips[1].gap"),
            (#"{"tracks": [{"clips": [{"path": "a", "gap": 1}]}]}"#, "tracks[0].clips[0]"),
            (##"{"tracks": [{"clips": [{"fill": "#zz0000", "duration": 1}]}]}"##, "tracks[0].clips[0].fill"),
            (#"{"tracks": [{"clips": [{"fill": "red", "start": 1}]}]}"#, "tracks[0].clips[0].start"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"opacity": 1.5}}]}]}"#, "tracks[0].clips[0].layer.opacity"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"scale": -1}}]}]}"#, "tracks[0].clips[0].layer.scale"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"sclae": 1}}]}]}"#, "tracks[0].clips[0].layer.sclae"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"crop": {"left": 0.6, "right": 0.5}}}]}]}"#, "tracks[0].clips[0].layer.crop"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"x": {"keyframes": [{"time": 1, "value": 0}, {"time": 0.5, "value": 1}]}}}]}]}"#,
             "tracks[0].clips[0].layer.x.keyframes[1].time"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"x": {"keyframes": []}}}]}]}"#, "tracks[0].clips[0].layer.x.keyframes"),
            (#"{"tracks": [{"clips": [{"path": "a", "layer": {"x": {"keyframes": [{"time": 0, "value": 0, "easing": "bouncy"}]}}}]}]}"#,
             "tracks[0].clips[0].layer.x.keyframes[0].easing"),
            (#"{"tracks": [{"clips": [{"gap": 1, "transition": {"type": "crossfade"}}]}]}"#, "tracks[0].clips[0].transition"),
            (#"{"tracks": [{"clips": [{"path": "a"}]}], "audioTracks": [{"clips": [{"path": "v", "layer": {}}]}]}"#, "audioTracks[0].clips[0].layer"),
            (#"{"tracks": [{"clips": [{"path": "a"}]}], "audioTracks": [{"clips": [{"fill": "red"}]}]}"#, "audioTracks[0].clips[0].fill"),
            (#"{"tracks": [{"clips": [{"path": "a"}]}], "audioTracks": [{"clips": [{"path": "v"}, {"path": "w", "transition": {"type": "push"}}]}]}"#,
             "audioTracks[0].clips[1].transition.type"),
            (#"{"tracks": [{"clips": [{"path": "a", "at": -1}]}]}"#, "tracks[0].clips[0].at"),
        ]
        for (json, expected) in cases {
            XCTAssertThrowsError(try parse(json), json) { e in XCTAssertEqual(field(e), expected, "\(json): \(e)") }
        }
    }

    /// Keyframes: held before the first and after the last, eased between by the earlier keyframe's easing (CSS),
    /// from exact rational times.
    func testKeyframesHoldAndEase() throws {
        let edit = try parse(#"""
        {"tracks": [{"clips": [{"path": "a", "layer": {"opacity": {"keyframes": [
            {"time": 1, "value": 0, "easing": "ease-in"}, {"time": 3, "value": 1}, {"time": 4, "value": 0.5}]}}}]}]}
        """#)
        let o = edit.tracks[0].clips[0].layer.opacity
        XCTAssertEqual(o.value(at: .zero), 0)
        XCTAssertEqual(o.value(at: MediaTime(seconds: 1)), 0)
        // ease-in at u = 0.5 is cubic-bezier(0.42, 0, 1, 1)(0.5) = 0.3153…
        XCTAssertEqual(o.value(at: MediaTime(seconds: 2)), Easing.easeIn(0.5), accuracy: 1e-12)
        XCTAssertEqual(Easing.easeIn(0.5), 0.3153, accuracy: 0.001)
        XCTAssertEqual(o.value(at: MediaTime(seconds: 3)), 1)
        XCTAssertEqual(o.value(at: MediaTime(seconds: 3.5)), 0.75, accuracy: 1e-12)   // linear from 3 to 4
        XCTAssertEqual(o.value(at: MediaTime(seconds: 10)), 0.5)
        XCTAssertFalse(o.isConstant)
        XCTAssertTrue(Animated.keyframes([Keyframe(time: .zero, value: 2), Keyframe(time: MediaTime(seconds: 1), value: 2)]).isConstant)
    }

    /// Gaps and `at` place items; a track is transparent before and between them; the edit lasts as long as its longest
    /// track (video or audio); an `at` before the previous item's end names both.
    func testLayoutWithGapsAtAndAudioTracks() throws {
        var base = ClipSpec(path: "/a.mp4")
        base.duration = MediaTime(seconds: 3)
        var pip = ClipSpec(path: "/pip.mp4", duration: MediaTime(seconds: 2))
        pip.layer.scale = .constant(0.25)
        var logo = ClipSpec(path: "/logo.png", duration: MediaTime(seconds: 5))
        logo.at = MediaTime(seconds: 0.5)
        var voice = ClipSpec(path: "/voice.m4a")
        voice.at = MediaTime(seconds: 2.5)
        var edit = Edit(tracks: [VideoTrack(clips: [base]),
                                 VideoTrack(clips: [.gap(MediaTime(seconds: 1)), pip, .fill(RGBColour(r: 32, g: 32, b: 32), duration: MediaTime(seconds: 1.5))]),
                                 VideoTrack(clips: [logo])],
                        audioTracks: [AudioTrack(clips: [voice])])
        edit.frameRate = FrameRate(30)
        let sources = [source(320, 240, seconds: 5), source(640, 480, seconds: 3), still(2000, 2000), source(0, 0, seconds: 4, fps: nil)]
        let t = try Timeline(edit: edit, sources: sources)
        // The bottom track decides the render size: the 2000-pixel logo and the 640×480 picture-in-picture do not.
        XCTAssertEqual(t.renderSize, PixelSize(width: 320, height: 240))
        XCTAssertEqual(t.tracks.map { $0.map { t.placements[$0].start.seconds } }, [[0], [0, 1, 3], [0.5]])
        XCTAssertEqual(t.placements[t.tracks[1][2]].end, MediaTime(seconds: 4.5))
        XCTAssertEqual(t.placements[t.tracks[2][0]].end, MediaTime(seconds: 5.5))
        XCTAssertEqual(t.audioPlacements.map(\.start), [MediaTime(seconds: 2.5)])
        // The voice-over ends last: 2.5 + 4 = 6.5 s = 195 frames.
        XCTAssertEqual(t.duration, MediaTime(seconds: 6.5))
        XCTAssertEqual(t.frameCount, 195)
        XCTAssertEqual(t.placements.map(\.roll), [0, 0, 1, 0, 0])

        var bad = edit
        var late = ClipSpec(path: "/pip.mp4", duration: MediaTime(seconds: 1))
        late.at = MediaTime(seconds: 2.9)
        bad.tracks[1].clips.insert(late, at: 3)
        XCTAssertThrowsError(try Timeline(edit: bad, sources: [sources[0], sources[1], sources[1], sources[2], sources[3]])) { e in
            XCTAssertEqual(field(e), "tracks[1].clips[3].at")
            XCTAssertTrue("\(e)".contains("tracks[1].clips[2]") && "\(e)".contains("4.500 s"), "\(e)")
        }
        // Only fills and gaps: the render size must be given.
        XCTAssertThrowsError(try Timeline(edit: Edit(clips: [.fill(.white, duration: MediaTime(seconds: 1))]), sources: [])) { e in
            XCTAssertEqual(field(e), "renderSize")
        }
        var card = Edit(clips: [.fill(.white, duration: MediaTime(seconds: 1))])
        card.renderSize = PixelSize(width: 64, height: 48)
        XCTAssertEqual(try Timeline(edit: card, sources: []).frameCount, 30)
    }

    /// Each frame is one pass per track with something visible, bottom first; the first covers the frame, later ones
    /// only the even-aligned box of their picture; the picture-in-picture's box is where the geometry says.
    func testPlannerPassesAndRectangles() throws {
        var pip = ClipSpec(path: "/pip.mp4", duration: MediaTime(seconds: 2))
        pip.layer.scale = .constant(0.25); pip.layer.x = .constant(0.8); pip.layer.y = .constant(0.2)
        var edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: "/a.mp4", duration: MediaTime(seconds: 3))]),
                                 VideoTrack(clips: [.gap(MediaTime(seconds: 1)), pip])])
        edit.frameRate = FrameRate(10)
        let t = try Timeline(edit: edit, sources: [source(320, 240, seconds: 3), source(320, 240, seconds: 3)])
        XCTAssertEqual(t.plan(frame: 5).passes.count, 1)   // the gap: nothing drawn on track 1
        let p = t.plan(frame: 15)
        XCTAssertEqual(p.passes.count, 2)
        XCTAssertNil(p.passes[0].rect)
        // 80×60 centred at (256, 48): x 216…296, y 18…78, widened by a pixel and even-aligned.
        XCTAssertEqual(p.passes[1].rect, PixelRect(x0: 214, y0: 16, x1: 298, y1: 80))
        XCTAssertEqual(p.passes[1].track, 1)
        let m = p.passes[1].from.outputToSource
        let (u, v) = m.apply(216, 18), (u2, v2) = m.apply(296, 78)
        XCTAssertEqual(u, 0, accuracy: 1e-9); XCTAssertEqual(v, 0, accuracy: 1e-9)
        XCTAssertEqual(u2, 1, accuracy: 1e-9); XCTAssertEqual(v2, 1, accuracy: 1e-9)
        // A layer scaled to nothing, or fully transparent, draws nothing.
        var gone = edit
        gone.tracks[1].clips[1].layer.opacity = .constant(0)
        XCTAssertEqual(try Timeline(edit: gone, sources: [source(320, 240, seconds: 3), source(320, 240, seconds: 3)]).plan(frame: 15).passes.count, 1)
        // Nothing at all: one transparent layer, i.e. the background.
        var empty = Edit(tracks: [VideoTrack(clips: [.gap(MediaTime(seconds: 1)), ClipSpec(path: "/a.mp4", duration: MediaTime(seconds: 1))])])
        empty.frameRate = FrameRate(10)
        let e = try Timeline(edit: empty, sources: [source(64, 48, seconds: 1)]).plan(frame: 0)
        XCTAssertEqual(e.passes.count, 1)
        XCTAssertEqual(e.passes[0].from.content, .colour(.black, alpha: 0))
    }

    /// Rotation is clockwise on screen about the layer's centre; crop removes fractions of the upright picture before
    /// the fit; with the identity transform the map is the fit's exactly.
    func testLayerGeometry() throws {
        let size = PixelSize(width: 200, height: 100)
        let fit = LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill)
        let same = LayerGeometry.place(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill, transform: .identity)!
        XCTAssertEqual(same.outputToSource, fit)
        XCTAssertEqual(same.crop, .unit)
        // 90° clockwise at scale 0.5: the picture's top-left corner (u, v) = (0, 0) lands top-right of the layer.
        let turned = LayerGeometry.place(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                         transform: LayerTransform(scale: 0.5, rotation: 90))!
        let (u, v) = turned.outputToSource.apply(125, 0)   // layer 50 wide (height 100·0.5) by 100 tall, centred at (100, 50)
        XCTAssertEqual(u, 0, accuracy: 1e-9); XCTAssertEqual(v, 0, accuracy: 1e-9)
        XCTAssertEqual(turned.bounds, PixelRect(x0: 74, y0: 0, x1: 126, y1: 100))
        // Crop the left half: the right half, 100×100, fitted (fill) into 200×100, scaled 2.
        let cropped = LayerGeometry.place(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                          transform: LayerTransform(crop: CropInsets(left: 0.5)))!
        XCTAssertEqual(cropped.crop, NormalizedRect(u0: 0.5, v0: 0, u1: 1, v1: 1))
        let (cu, cv) = cropped.outputToSource.apply(100, 50)
        XCTAssertEqual(cu, 0.75, accuracy: 1e-9); XCTAssertEqual(cv, 0.5, accuracy: 1e-9)
        XCTAssertNil(LayerGeometry.place(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                         transform: LayerTransform(scale: 0)))
        // On a portrait phone clip (stored 100×200, turned 90°), a crop of the upright top maps to the stored picture's side.
        let portrait = Orientation(a: 0, b: 1, c: -1, d: 0)
        let top = LayerGeometry.place(codedSize: PixelSize(width: 200, height: 100), sar: 1, orientation: portrait, renderSize: PixelSize(width: 100, height: 200),
                                      fit: .fill, transform: LayerTransform(crop: CropInsets(top: 0.5)))!
        XCTAssertEqual(top.crop.v1 - top.crop.v0 == 1 ? top.crop.u1 - top.crop.u0 : top.crop.v1 - top.crop.v0, 0.5, accuracy: 1e-12)
    }

    /// `--overlay`-style items last until the edit's end; stills for all of it, videos for as much as they have.
    func testItemsThatLastUntilTheEditsEnd() throws {
        var logo = ClipSpec(path: "/logo.png")
        logo.lastsUntilEditEnd = true
        var clipOverlay = ClipSpec(path: "/short.mp4")
        clipOverlay.lastsUntilEditEnd = true
        let edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: "/a.mp4")]), VideoTrack(clips: [logo]), VideoTrack(clips: [clipOverlay])])
        let t = try Timeline(edit: edit, sources: [source(64, 48, seconds: 7), still(32, 32), source(64, 48, seconds: 2)])
        XCTAssertEqual(t.duration, MediaTime(seconds: 7))
        XCTAssertEqual(t.placements.map(\.duration), [MediaTime(seconds: 7), MediaTime(seconds: 7), MediaTime(seconds: 2)])
    }

    /// A transition from a gap fades the item in over what is below (the gap side is transparent); in an upper track
    /// its pass covers the item's box.
    func testTransitionFromAGapIsTransparent() throws {
        var pip = ClipSpec(path: "/pip.mp4", duration: MediaTime(seconds: 2), transition: Transition(kind: .crossfade, duration: MediaTime(seconds: 1)))
        pip.layer.scale = .constant(0.5)
        var edit = Edit(tracks: [VideoTrack(clips: [ClipSpec(path: "/a.mp4")]), VideoTrack(clips: [.gap(MediaTime(seconds: 2)), pip])])
        edit.frameRate = FrameRate(10)
        let t = try Timeline(edit: edit, sources: [source(64, 48, seconds: 4), source(64, 48, seconds: 4)])
        XCTAssertEqual(t.placements[2].start, MediaTime(seconds: 1))
        let p = t.plan(frame: 15)
        XCTAssertEqual(p.passes.count, 2)
        XCTAssertEqual(p.passes[1].from.content, .colour(.black, alpha: 0))
        XCTAssertEqual(p.passes[1].progress, 0.5, accuracy: 1e-12)
        XCTAssertEqual(p.passes[1].rect, PixelRect(x0: 14, y0: 10, x1: 50, y1: 38))
    }
}
