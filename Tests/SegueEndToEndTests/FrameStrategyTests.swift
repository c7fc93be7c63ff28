import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SegueTestSupport
@testable import SeguePipeline

/// One decision a frame (issue 32): a frame's `FrameStrategy` is decided in one place, and wherever it is asked — the
/// decode thread that turns pictures (`FrameSource.framePictures`), the renderers' choice for previews
/// (`FrameRenderer.drawer`), the render thread that executes it (`FrameDrawer`) and `--verbose`'s counts — the answer is
/// the same.
final class FrameStrategyTests: EndToEndTestCase {
    func testAFramesStrategyIsTheSameWhereverItIsAsked() throws {
        // Direct frames (a, b alone), a phone clip turned upright (f), a scaled clip (h), transitions between them, and a
        // logo over the second half (frames whose first pass is taken as planes, or drawn below it).
        let a = try bt709Clip("a.mp4", size: "64x48"), b = try bt709Clip("b.mp4", size: "64x48", source: "smptebars")
        let f0 = try bt709Clip("f0.mp4", size: "48x64", source: "rgbtestsrc"), f = path("f.mp4")
        try TestSupport.rotated(f0, degrees: 90, to: f)
        let h = try bt709Clip("h.mp4", size: "32x24", source: "smptebars")
        let logo = path("logo.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=red@0.5:s=16x16,format=rgba", "-frames:v", "1", logo])
        var over = ClipSpec(path: logo, duration: MediaTime(seconds: 1.5))
        over.at = MediaTime(seconds: 1.5)
        over.layer.scale = .constant(0.25)
        var edit = Edit(tracks: [VideoTrack(clips: [clip(a), clip(b, tr(.crossfade, 1.0 / 3)), clip(f, tr(.slideleft, 1.0 / 3)),
                                                    clip(h, tr(.push, 1.0 / 3, .up))]),
                                 VideoTrack(clips: [over])])
        edit.renderSize = PixelSize(width: 64, height: 48)
        edit.frameRate = FrameRate(30)
        edit.output.codec = .ffv1
        let timeline = try RenderJob.resolve(edit)
        for backend in [Backend.cpu, .auto] {
            var o = RenderOptions()
            o.backend = backend
            o.audio = false
            o.verbose = true
            let log = Collected<[String]>([])
            o.log = { line in log.update { $0.append(line) } }
            let renderer = try RenderJob.makeRenderer(o, for: timeline)
            let plain = FrameSource(timeline: timeline), deciding = FrameSource(timeline: timeline)
            deciding.machine = renderer.machine
            var expected = FrameStrategy.Counts()
            for n in 0..<timeline.frameCount {
                let (plan, pictures) = try plain.frame(n)
                let s = FrameStrategy.decide(plan, pictures: pictures, machine: renderer.machine)
                let (_, _, decoded) = try deciding.framePictures(n)
                XCTAssertEqual(decoded, s.turned, "frame \(n): the decode thread's")
                let drawer = s.drawer ?? renderer.machine.composites
                XCTAssertTrue(renderer.drawer(plan) === (drawer == .gpu ? renderer.gpu as CompositeRenderer? : renderer.cpu), "frame \(n): a preview's")
                expected.add(s)
            }
            XCTAssertEqual(expected.total, timeline.frameCount)
            // Every kind of frame is in this edit.
            XCTAssertGreaterThan(expected.direct, 0)
            XCTAssertGreaterThan(expected.basePlanes, 0)
            XCTAssertGreaterThan(expected.turned, 0)
            XCTAssertGreaterThan(expected.cpu - expected.basePlanes, 0)
            // The render thread's, counted by --verbose.
            _ = try RenderJob.render(edit, to: path("out-\(backend).mkv"), options: o)
            func count(_ marker: String) -> Int64? {
                guard let line = log.value.first(where: { $0.contains(marker) }) else { return nil }
                let words = line.split(separator: " ")
                return words.lazy.compactMap { Int64($0) }.first
            }
            XCTAssertEqual(count("needed no compositing"), expected.direct, "\(log.value)")
            XCTAssertEqual(count("more had their first layer taken as planes"), expected.basePlanes, "\(log.value)")
            XCTAssertEqual(count("was turned upright"), expected.turned, "\(log.value)")
            let drawn = log.value.first { $0.contains("frames on the planes") || $0.contains("frames drawn:") } ?? ""
            XCTAssertTrue(drawn.contains("\(expected.cpu) frames on the planes") || drawn.contains("\(expected.cpu) by the CPU renderer"), drawn)
        }
    }
}
