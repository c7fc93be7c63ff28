import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Transition frames drawn on the planes by the CPU (`PlaneTransitions`, issue 25: `auto` on llvmpipe), checked
/// against the CPU reference and the GPU as they are checked against each other: a crossfade within a code (the
/// planes round exact halves to even), a wipe equal to the reference sample for sample.
final class PlaneTransitionTests: RendererTestCase {
    let size = PixelSize(width: 16, height: 12)

    /// A layer showing `p` (stored `w × h`) cropped to the render size at scale 1 (`fill`).
    func layer(_ clip: Int, _ p: VideoPicture) -> LayerPlan {
        LayerPlan(clipIndex: clip, sourceTime: .zero,
                  outputToSource: LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill))
    }

    func plan(_ kind: Transition.Kind, _ direction: Transition.Direction? = nil, progress: Double, _ a: VideoPicture, _ b: VideoPicture) -> FramePlan {
        FramePlan(frame: 0, time: .zero, from: layer(0, a), to: layer(1, b),
                  transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: direction), progress: progress,
                  renderSize: size)
    }

    func samples(_ x: YUV420Image) -> [UInt8] { x.y + x.cb + x.cr }
    func worst(_ x: YUV420Image, _ y: YUV420Image) -> Int {
        let a = samples(x), b = samples(y)
        var m = 0
        for i in a.indices { m = max(m, abs(Int(a[i]) - Int(b[i]))) }
        return m
    }

    func testCrossfadeAndWipeMatchTheReferenceAndTheGPU() throws {
        // A 16×12 picture and a 20×12 one cropped at x = 2 (whole even pixels: direct crops).
        let a = PlanarPictures.textured(16, 12, seed: 31), b = PlanarPictures.textured(20, 12, seed: 32)
        let renderers = try self.renderers()
        var cases: [(Transition.Kind, Transition.Direction?, Double)] = []
        for p in [0.0, 0.3, 0.5, 0.77, 1.0] { cases += [(.crossfade, nil, p), (.fade, nil, p)] }
        for d in Transition.Direction.allCases { for p in [0.25, 0.5, 0.6] { cases.append((.wipe, d, p)) } }
        var differing = 0
        for (kind, d, progress) in cases {
            let f = plan(kind, d, progress: progress, a, b)
            let label = "\(kind) \(d.map(\.rawValue) ?? "") p=\(progress)"
            let planes = try XCTUnwrap(PlaneTransitions.image(f, pictures: [a, b], threads: 3), label)
            let reference = try renderers[0].renderYUV420(f, pictures: [a, b])
            if kind == .wipe {
                XCTAssertEqual(planes, reference, label)
            } else {
                XCTAssertLessThanOrEqual(worst(planes, reference), 1, label)
                let x = samples(planes), y = samples(reference)
                differing += x.indices.filter { x[$0] != y[$0] }.count
            }
            XCTAssertLessThanOrEqual(worst(planes, try renderers[1].renderYUV420(f, pictures: [a, b])), 1, "GPU: " + label)
        }
        // Ties are rare: most crossfade samples are the reference's exactly.
        XCTAssertLessThan(differing, 10 * 16 * 12 * 3 / 2 / 20, "\(differing) samples differ")
        // The two ends are the layers themselves.
        XCTAssertEqual(PlaneTransitions.image(plan(.crossfade, progress: 0, a, b), pictures: [a, b])?.y, a.planes[0].bytes)
    }

    /// What the planes leave to the renderer: moving layers (push), scaled or turned layers, linear light, colour
    /// layers, other kinds.
    func testOnlyDirectLayersAndMixingKindsAreDrawnOnThePlanes() {
        let a = PlanarPictures.textured(16, 12, seed: 33), b = PlanarPictures.textured(16, 12, seed: 34)
        XCTAssertNil(PlaneTransitions.image(plan(.push, .left, progress: 0.5, a, b), pictures: [a, b]))
        XCTAssertNil(PlaneTransitions.image(plan(.circleopen, progress: 0.5, a, b), pictures: [a, b]))
        let big = PlanarPictures.textured(32, 24, seed: 35)   // shown at half size: scaled
        XCTAssertNil(PlaneTransitions.image(plan(.crossfade, progress: 0.5, a, big), pictures: [a, big]))
        var linear = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1))
        linear.blend = .linear
        let l = FramePlan(frame: 0, time: .zero, from: layer(0, a), to: layer(1, b), transition: linear, progress: 0.5, renderSize: size)
        XCTAssertNil(PlaneTransitions.image(l, pictures: [a, b]))
        let sd = PlanarPictures.textured(16, 12, seed: 36, colour: YCbCrColour(matrix: .bt601, range: .limited))
        XCTAssertNil(PlaneTransitions.image(plan(.crossfade, progress: 0.5, a, sd), pictures: [a, sd]))
        let turned = FramePlan(frame: 0, time: .zero, from: layer(0, a), to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource:
            LayerGeometry.outputToSource(codedSize: PixelSize(width: 12, height: 16), sar: 1, orientation: Orientation(a: 0, b: 1, c: -1, d: 0),
                                         renderSize: size, fit: .fill)), transition: Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1)), progress: 0.5,
                               renderSize: size)
        let portrait = PlanarPictures.textured(12, 16, seed: 37)
        XCTAssertNil(PlaneTransitions.image(turned, pictures: [a, portrait]))
        XCTAssertNotNil(PlaneTransitions.image(plan(.crossfade, progress: 0.5, a, b), pictures: [a, b]))
    }
}
