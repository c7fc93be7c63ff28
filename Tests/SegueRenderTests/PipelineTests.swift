import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// `makeYUV420Pipeline`: the same bytes as `renderYUV420`, frame for frame and in order, on both renderers;
/// the GPU's comes back one frame late (asynchronous readback through pixel buffer objects).
final class PipelineTests: RendererTestCase {
    /// A sequence of frames: transitions at several progress values, resampled and exact layers, 4:2:0 and
    /// 4:2:2 pictures, widths that are and are not multiples of 4 (padded readback rows), and a change of
    /// render size in the middle.
    func frames() -> [(plan: FramePlan, from: VideoPicture, to: VideoPicture?, size: PixelSize)] {
        let a = PlanarPictures.textured(24, 16, seed: 3), b = PlanarPictures.textured(20, 12, shiftY: 0, seed: 4)
        var out: [(FramePlan, VideoPicture, VideoPicture?, PixelSize)] = []
        let kinds: [(Transition.Kind?, Transition.Direction?)] = [(nil, nil)] + TransitionTable.sample.map { ($0.kind, $0.direction) }
        for (i, size) in [PixelSize(width: 24, height: 16), PixelSize(width: 18, height: 10)].enumerated() {
            for (k, (kind, dir)) in kinds.enumerated() {
                let p = plan(kind, dir, progress: Double(k + i) / 5, size: size, fromSource: a.size, toSource: b.size)
                out.append((p, a, kind == nil ? nil : b, size))
            }
        }
        return out
    }

    func testPipelinedFramesEqualSynchronousOnes() throws {
        for r in try renderers() {
            let fs = frames()
            let expected = try fs.map { try r.renderYUV420($0.plan, from: $0.from, to: $0.to, renderSize: $0.size) }
            let pipeline = r.makeYUV420Pipeline()
            var got: [YUV420Image] = []
            var returned: [Int] = []
            for f in fs {
                let done = try pipeline.submit(f.plan, from: f.from, to: f.to, renderSize: f.size)
                returned.append(done.count)
                got += done
                // A preview render between submits (what `onFrame` does) neither disturbs nor is disturbed.
                let rgba = try r.render(f.plan, from: f.from, to: f.to, renderSize: f.size)
                XCTAssertEqual(rgba, try r.render(f.plan, from: f.from, to: f.to, renderSize: f.size), r.name)
            }
            got += try pipeline.finish()
            XCTAssertEqual(try pipeline.finish().count, 0, "nothing left after finish")
            XCTAssertEqual(got.count, fs.count, r.name)
            for (i, (g, e)) in zip(got, expected).enumerated() {
                XCTAssertEqual(g.size, e.size, "\(r.name) frame \(i)")
                XCTAssertTrue(g == e, "\(r.name) frame \(i): pipelined bytes differ from renderYUV420's")
            }
            if r is GPURenderer {
                XCTAssertEqual(returned, [0] + Array(repeating: 1, count: fs.count - 1), "each frame comes back at the next submit")
            } else {
                XCTAssertEqual(returned, Array(repeating: 1, count: fs.count))
            }
        }
    }

    /// Dropping a pipeline with a frame in flight leaves the renderer usable (no buffer left bound).
    func testDroppingAPipelineMidwayLeavesTheRendererUsable() throws {
        let gpu = try gpuRenderer()
        let f = frames()[1]
        let expected = try gpu.renderYUV420(f.plan, from: f.from, to: f.to, renderSize: f.size)
        do {
            let pipeline = gpu.makeYUV420Pipeline()
            XCTAssertEqual(try pipeline.submit(f.plan, from: f.from, to: f.to, renderSize: f.size).count, 0)
        }
        XCTAssertTrue(try gpu.renderYUV420(f.plan, from: f.from, to: f.to, renderSize: f.size) == expected)
        let p2 = gpu.makeYUV420Pipeline()
        XCTAssertEqual(try p2.submit(f.plan, from: f.from, to: f.to, renderSize: f.size).count, 0)
        let rest = try p2.finish()
        XCTAssertEqual(rest.count, 1)
        XCTAssertTrue(rest.first == expected)
    }
}
