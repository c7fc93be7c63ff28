import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Text items and captions in the edit model and the planner (issue 21), with a stand-in for the text module: the
/// edit file's `text`/`style`/`captions`, a text picture shown at its own pixel size at its anchor, rasterised at
/// its largest scale, caption cues on exactly the frames of `[start, end)`.
final class TextModelTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func field(_ e: Error) -> String { (e as? EditError)?.field ?? "\(e)" }

    /// A text block of a fixed size per character (10 × 20 pixels at scale 1), anchored as a title or a caption.
    struct Block: TextBlock {
        var pictureSize: PixelSize
        var rasterScale: Double
        var anchorX: Double
        var anchorY: Double
        var summary: String { "stub" }
        var warnings: [String] = []
    }
    final class Stub: TextServices {
        var asked: [(String, Double)] = []
        var cues: [CaptionCue] = []
        var format = CaptionFile.Format.srt
        func layout(_ text: TextSpec, renderSize: PixelSize, scale: Double, field: String) throws -> any TextBlock {
            asked.append((text.text, scale))
            return Block(pictureSize: PixelSize(width: Int(10 * scale) * text.text.count, height: Int(20 * scale)), rasterScale: scale,
                         anchorX: text.style.align.anchor, anchorY: text.verticalAnchor,
                         warnings: text.text == "missing" ? ["font \"X\" not found: using Noto Sans (/f.ttf) instead"] : [])
        }
        func captions(_ spec: CaptionSpec) throws -> CaptionFile { CaptionFile(path: spec.path, format: format, cues: cues) }
    }

    func testTextItemsAndCaptionsParse() throws {
        let edit = try parse("""
        {"renderSize": {"width": 640, "height": 360},
         "tracks": [{"clips": [{"fill": "black", "duration": 3}]},
                    {"clips": [{"text": "Summer 2026", "duration": 3, "at": 0.5,
                                "style": {"font": "Noto Serif", "size": 48, "color": "#ffcc00", "weight": "bold", "italic": true, "align": "left",
                                          "maxWidth": 0.5, "lineHeight": 1.2, "outline": {"width": 2, "color": "black"},
                                          "shadow": {"x": 2, "y": 3, "blur": 4, "color": "#00000080"},
                                          "box": {"color": "#000000a0", "padding": 12, "radius": 6}},
                                "layer": {"x": 0.1, "y": 0.8, "opacity": {"keyframes": [{"time": 0, "value": 0}, {"time": 0.5, "value": 1}]}}},
                               {"text": "Second", "style": {"font": "fonts/Title.otf"}}]}],
         "captions": {"path": "subs.srt", "style": {"size": 30, "outline": null, "box": true}}}
        """)
        let t = try XCTUnwrap(edit.tracks[1].clips[0].text)
        XCTAssertEqual(t.text, "Summer 2026")
        XCTAssertEqual(t.style.font, .family("Noto Serif"))
        XCTAssertEqual(t.style.size, 48)
        XCTAssertEqual(t.style.colour, TextColour(RGBColour(r: 255, g: 0xcc, b: 0)))
        XCTAssertEqual(t.style.weight, 700)
        XCTAssertTrue(t.style.italic)
        XCTAssertEqual(t.style.align, .left)
        XCTAssertEqual(t.style.maxWidth, 0.5)
        XCTAssertEqual(t.style.lineHeight, 1.2)
        XCTAssertEqual(t.style.outline, TextOutline(width: 2, colour: .black))
        XCTAssertEqual(t.style.shadow, TextShadow(x: 2, y: 3, blur: 4, colour: TextColour(.black, alpha: 128.0 / 255)))
        XCTAssertEqual(t.style.box, TextBox(colour: TextColour(.black, alpha: 160.0 / 255), padding: 12, radius: 6))
        XCTAssertEqual(edit.tracks[1].clips[0].at, MediaTime(seconds: 0.5))
        XCTAssertEqual(edit.tracks[1].clips[0].layer.x, .constant(0.1))
        XCTAssertEqual(edit.tracks[1].clips[1].text?.style.font, .file("/e/fonts/Title.otf"))
        XCTAssertEqual(edit.tracks[1].clips[1].text?.style.size, nil)
        XCTAssertEqual(edit.captions?.path, "/e/subs.srt")
        XCTAssertEqual(edit.captions?.style.size, 30)
        XCTAssertNil(edit.captions?.style.outline, "null removes the captions' default outline")
        XCTAssertEqual(edit.captions?.style.box, TextBox())
        XCTAssertEqual(TextStyle.caption.outline, TextOutline())
        XCTAssertEqual(edit.inputPaths.map(\.field), ["tracks[1].clips[1].style.font", "captions.path"])
        XCTAssertEqual(try parse(#"{"clips": [{"path": "a.mp4"}], "captions": "x.vtt"}"#).captions?.path, "/e/x.vtt")
    }

    /// The input policy covers the files text reads (Segue's own reads, like shaders): a caption file that is a
    /// device, a font file outside the root.
    func testInputPolicyCoversCaptionAndFontFiles() throws {
        var edit = Edit(clips: [.fill(.black, duration: MediaTime(seconds: 1))])
        edit.captions = CaptionSpec(path: "/dev/zero")
        XCTAssertThrowsError(try InputPolicy().check(edit)) { XCTAssertEqual(field($0), "captions.path", "\($0)") }
        var spec = TextSpec(text: "Hi")
        spec.style.font = .file("/etc/passwd")
        edit = Edit(clips: [ClipSpec(content: .text(spec), duration: MediaTime(seconds: 1))])
        XCTAssertNoThrow(try InputPolicy().check(edit))
        XCTAssertThrowsError(try InputPolicy(root: "/tmp").check(edit)) { XCTAssertEqual(field($0), "clips[0].style.font", "\($0)") }
    }

    func testBadTextNamesItsField() {
        let cases: [(String, String)] = [
            (#"{"clips": [{"text": "", "duration": 1}]}"#, "clips[0].text"),
            (#"{"clips": [{"text": 3}]}"#, "clips[0].text"),
            (#"{"clips": [{"text": "a", "path": "b"}]}"#, "clips[0]"),
            (#"{"clips": [{"text": "a", "start": 1}]}"#, "clips[0].start"),
            (#"{"clips": [{"text": "a", "motion": "zoom-in"}]}"#, "clips[0].motion"),
            (#"{"clips": [{"text": "a", "style": {"colour": "red"}}]}"#, "clips[0].style.colour"),
            (#"{"clips": [{"text": "a", "style": {"color": "reddish"}}]}"#, "clips[0].style.color"),
            (#"{"clips": [{"text": "a", "style": {"size": 0}}]}"#, "clips[0].style.size"),
            (#"{"clips": [{"text": "a", "style": {"weight": "heavyish"}}]}"#, "clips[0].style.weight"),
            (#"{"clips": [{"text": "a", "style": {"align": "justify"}}]}"#, "clips[0].style.align"),
            (#"{"clips": [{"text": "a", "style": {"maxWidth": 1.5}}]}"#, "clips[0].style.maxWidth"),
            (#"{"clips": [{"text": "a", "style": {"outline": {"width": -1}}}]}"#, "clips[0].style.outline.width"),
            (#"{"clips": [{"text": "a", "style": {"shadow": {"blurr": 1}}}]}"#, "clips[0].style.shadow.blurr"),
            (#"{"clips": [{"text": "a", "style": {"box": {"padding": "big"}}}]}"#, "clips[0].style.box.padding"),
            (#"{"clips": [{"path": "a"}], "audioTracks": [{"clips": [{"text": "a"}]}]}"#, "audioTracks[0].clips[0].text"),
            (#"{"clips": [{"path": "a"}], "captions": {"style": {}}}"#, "captions.path"),
            (#"{"clips": [{"path": "a"}], "captions": {"path": "a.srt", "font": "x"}}"#, "captions.font"),
        ]
        for (json, want) in cases {
            XCTAssertThrowsError(try parse(json), json) { XCTAssertEqual(field($0), want, "\(json): \($0)") }
        }
    }

    /// A text picture is shown at its own pixel size (one picture pixel per output pixel) with its anchor at the
    /// layer's x, y: a centred 110×20 title in a 640×360 frame covers exactly x 265…375, y 170…190, each output pixel
    /// centre reading a picture pixel centre; its default duration is a still's.
    func testTextIsShownAtItsOwnSizeAtItsAnchor() throws {
        let stub = Stub()
        var edit = Edit(tracks: [VideoTrack(clips: [.fill(.black, duration: MediaTime(seconds: 6))]),
                                 VideoTrack(clips: [ClipSpec(content: .text(TextSpec(text: "Summer 2026")))])])
        edit.renderSize = PixelSize(width: 640, height: 360)
        let t = try Timeline(edit: edit, sources: [], text: stub)
        let p = t.placements[1]
        XCTAssertEqual(p.duration, SourceInfo.defaultStillDuration)
        XCTAssertEqual(p.source.codedSize, PixelSize(width: 110, height: 20))
        XCTAssertEqual(p.fit, .native)
        let layer = try XCTUnwrap(t.plan(frame: 0).passes.last?.from)
        XCTAssertEqual(layer.content, .text)
        let m = layer.outputToSource
        let (u, v) = m.apply(265.5, 170.5)
        XCTAssertEqual(u * 110, 0.5, accuracy: 1e-9)
        XCTAssertEqual(v * 20, 0.5, accuracy: 1e-9)
        XCTAssertTrue(LayerGeometry.isPixelExact(m, codedSize: p.source.codedSize))
        XCTAssertEqual(layer.bounds, PixelRect(x0: 264, y0: 169, x1: 376, y1: 191))
        XCTAssertEqual(stub.asked.map(\.1), [1])
        // Without the text module, an edit with text is refused naming the item.
        XCTAssertThrowsError(try Timeline(edit: edit, sources: [])) { XCTAssertEqual(field($0), "tracks[1].clips[0].text") }
    }

    /// A left-aligned lower third: the picture's left edge at x; an odd-sized centred picture moves to whole pixels
    /// (by half a pixel) so it stays pixel-exact; keyframed scale 0.5 → 2 rasterises at 2 and shows it at 0.25 of
    /// that at the start; a rotated title is not moved.
    func testAnchorsWholePixelsAndRasterScale() throws {
        let stub = Stub()
        var left = TextSpec(text: "Lower")
        left.style.align = .left
        var lower = ClipSpec(content: .text(left), duration: MediaTime(seconds: 2))
        lower.layer.x = .constant(0.05); lower.layer.y = .constant(0.8)
        var odd = ClipSpec(content: .text(TextSpec(text: "Odd")), duration: MediaTime(seconds: 2))   // 30 × 20
        odd.layer.x = .constant(0.5 + 0.3 / 640)
        var grow = ClipSpec(content: .text(TextSpec(text: "Grow")), duration: MediaTime(seconds: 2))
        grow.layer.scale = .keyframes([Keyframe(time: .zero, value: 0.5), Keyframe(time: MediaTime(seconds: 1), value: 2)])
        var turned = ClipSpec(content: .text(TextSpec(text: "Turn")), duration: MediaTime(seconds: 2))
        turned.layer.rotation = .constant(30); turned.layer.x = .constant(0.5 + 0.3 / 640)
        var edit = Edit(tracks: [VideoTrack(clips: [lower]), VideoTrack(clips: [odd]), VideoTrack(clips: [grow]), VideoTrack(clips: [turned])])
        edit.renderSize = PixelSize(width: 640, height: 360)
        let t = try Timeline(edit: edit, sources: [], text: stub)
        XCTAssertEqual(stub.asked.map(\.1), [1, 1, 2, 1])
        let layers = t.plan(frame: 0).layers
        // Lower third: left edge at 0.05 × 640 = 32, vertical centre at 288 (picture 50 × 20).
        XCTAssertEqual(layers[0].outputToSource.apply(32.5, 278.5).0 * 50, 0.5, accuracy: 1e-9)
        XCTAssertEqual(layers[0].outputToSource.apply(32.5, 278.5).1 * 20, 0.5, accuracy: 1e-9)
        // Odd: centre asked at 320.3, so left edge 305.3 → 305.
        XCTAssertTrue(LayerGeometry.isPixelExact(layers[1].outputToSource, codedSize: PixelSize(width: 30, height: 20)))
        XCTAssertEqual(layers[1].outputToSource.apply(305.5, 170.5).0 * 30, 0.5, accuracy: 1e-9)
        // Grow: a 80×40 picture (rasterised at 2) shown at 0.5 → 20×10 output pixels.
        let g = layers[2].outputToSource
        XCTAssertEqual((g.apply(330, 180).0 - g.apply(310, 180).0) * 80, 80, accuracy: 1e-9)
        XCTAssertTrue(layers[2].moving)
        // Turned: not snapped (the centre stays where asked).
        let c = layers[3].outputToSource.inverted.apply(0.5, 0.5)
        XCTAssertEqual(c.0, 320.3, accuracy: 1e-9)
    }

    /// Caption cues: a track above every track, each cue on exactly the frames whose time lies in `[start, end)` (at
    /// 10 fps: 0.25–0.75 s → frames 3…7; 1.0–1.5 s → 10…14), placed bottom centre (the block's bottom edge at 95 %);
    /// overlapping cues on a second track; a cue past the edit's end left out with a warning, one running past it cut.
    func testCaptionCuesShowOnTheFramesOfTheirInterval() throws {
        let stub = Stub()
        func cue(_ i: Int, _ a: Int64, _ b: Int64, _ text: String = "cue") -> CaptionCue {
            CaptionCue(index: i, start: MediaTime(value: a, timescale: 1000), end: MediaTime(value: b, timescale: 1000), text: text, line: i * 4 - 3)
        }
        stub.cues = [cue(1, 250, 750), cue(2, 1000, 1500), cue(3, 1200, 1300, "overlap"), cue(4, 1900, 2500), cue(5, 2000, 3000)]
        var edit = Edit(clips: [.fill(.black, duration: MediaTime(seconds: 2))])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.frameRate = FrameRate(10)
        edit.captions = CaptionSpec(path: "/e/s.srt")
        let t = try Timeline(edit: edit, sources: [], text: stub)
        XCTAssertEqual(t.duration, MediaTime(seconds: 2), "captions never lengthen the edit")
        XCTAssertEqual(t.captionTracks, 1..<3)
        XCTAssertEqual(t.warnings, ["captions: 1 cue of s.srt starts at or after the edit's end (2 s) and is not shown"])
        var shown: [Int: [Int64]] = [:]
        for n in 0..<t.frameCount {
            for pass in t.plan(frame: n).passes where t.captionTracks.contains(pass.track) {
                shown[t.placements[pass.from.clipIndex].cue!.index, default: []].append(n)
            }
        }
        XCTAssertEqual(shown[1], Array(3...7))
        XCTAssertEqual(shown[2], Array(10...14))
        XCTAssertEqual(shown[3], [12])
        XCTAssertEqual(shown[4], [19])
        XCTAssertNil(shown[5])
        XCTAssertEqual(t.placements.first { $0.cue?.index == 3 }?.track, 2, "the overlapping cue goes on a second caption track")
        // Bottom centre: a 30×20 picture ("cue") whose bottom edge is at 0.95 × 180 = 171.
        let layer = t.plan(frame: 3).passes.last!.from
        XCTAssertEqual(layer.outputToSource.apply(145.5, 151.5).1 * 20, 0.5, accuracy: 1e-9)
        XCTAssertEqual(layer.outputToSource.apply(145.5, 151.5).0 * 30, 0.5, accuracy: 1e-9)
        // Cue 3 starts while cue 2 is shown at the default place: stacked above it (its bottom edge at 171 − 20 = 151),
        // for its whole interval; cue 2 stays where it was.
        let stacked = t.plan(frame: 12).passes.map(\.from).filter { $0.content == .text }
        XCTAssertEqual(stacked.count, 2)
        XCTAssertEqual(stacked[0].outputToSource.apply(145.5, 151.5).1 * 20, 0.5, accuracy: 1e-9, "cue 2 at the bottom: its top row 151")
        XCTAssertEqual(stacked[1].outputToSource.apply(145.5, 131.5).1 * 20, 0.5, accuracy: 1e-9, "cue 3 above it: its top row 131")
        let report = TimelineReport(t)
        XCTAssertEqual(report.captionFormat, "srt")
        XCTAssertEqual(report.captions.map(\.firstFrame), [3, 10, 12, 19, 20])
        XCTAssertEqual(report.captions.map(\.endFrame), [8, 15, 13, 20, 20])
        XCTAssertEqual(report.clips.count, 1, "cues are listed as captions, not as the edit's items")
        XCTAssertTrue(report.text.contains("cue 1 (line 1) 0.250–0.750 s, frames 3–7: cue"), report.text)
        XCTAssertTrue(report.text.contains("cue 5 (line 17) 2.000–3.000 s, no frames"), "a cue after the edit keeps its own times: \(report.text)")
    }

    /// An ASS file is one placement over the whole edit, its pictures made frame by frame (the layer's source time is
    /// the timeline's); a font warning from the text module reaches the timeline's warnings once.
    func testASSCaptionsAndWarnings() throws {
        let stub = Stub()
        stub.format = .ass
        stub.cues = [CaptionCue(index: 1, start: .zero, end: MediaTime(seconds: 1), text: "{\\b1}hi", line: 12)]
        var edit = Edit(tracks: [VideoTrack(clips: [.fill(.black, duration: MediaTime(seconds: 2))]),
                                 VideoTrack(clips: [ClipSpec(content: .text(TextSpec(text: "missing")), duration: MediaTime(seconds: 1)),
                                                    ClipSpec(content: .text(TextSpec(text: "missing")), duration: MediaTime(seconds: 1))])])
        edit.renderSize = PixelSize(width: 320, height: 180)
        edit.captions = CaptionSpec(path: "/e/s.ass")
        let t = try Timeline(edit: edit, sources: [], text: stub)
        XCTAssertEqual(t.warnings, ["font \"X\" not found: using Noto Sans (/f.ttf) instead"])
        let p = t.placements.last!
        XCTAssertEqual(p.spec.content, .subtitles("/e/s.ass"))
        XCTAssertEqual(p.end, MediaTime(seconds: 2))
        let layer = t.plan(frame: 45).passes.last!.from
        XCTAssertEqual(layer.content, .subtitles)
        XCTAssertEqual(layer.sourceTime, MediaTime(seconds: 1.5))
        XCTAssertEqual(TimelineReport(t).clips.map(\.kind), ["fill", "text", "text"])
    }
}
