import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueMedia
import SegueTestSupport

/// The CPU renderer (`ReferenceRenderer`): one renderer that is both the exact evaluation the GPU is compared with and
/// the fast path that draws frames where the only GPU is a software rasteriser. A layer whose map is axis-aligned is
/// read a row at a time (`LayerRows`), every other read point by point; both give the same values, so the fast path is
/// the exact evaluation, sample for sample, for every built-in transition. Against the GPU: within a code.
final class CPURendererTests: RendererTestCase {
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

    /// A CPU renderer reading every layer point by point (the exact evaluation), on one thread.
    func pointByPoint() -> ReferenceRenderer {
        let r = ReferenceRenderer()
        r.rowReads = false
        r.threads = 1
        return r
    }

    /// Every built-in transition (each of FFmpeg's xfade transitions under its name, and Segue's own) at several
    /// progress values and in each of its directions, between pictures read exactly (whole-pixel crops) and between
    /// scaled ones (a larger picture filling the frame, a smaller one fitted into it: bilinear reads and the background
    /// around it): the frame read row by row on three threads is the exact evaluation's, byte for byte, for the
    /// encoder's planes and for RGBA previews.
    func testEveryBuiltInTransitionRowByRowIsTheExactEvaluation() throws {
        let exactA = PlanarPictures.textured(16, 12, seed: 31), exactB = PlanarPictures.textured(20, 12, seed: 32)
        let big = PlanarPictures.textured(32, 24, seed: 33), small = PlanarPictures.textured(10, 6, seed: 34)
        let fast = ReferenceRenderer(), exact = pointByPoint()
        fast.threads = 3
        var frames = 0
        for kind in TransitionKind.allCases where kind != .glsl {
            let directions: [Transition.Direction?] = kind.traits.directions.isEmpty ? [nil] : kind.traits.directions.map { Optional($0) }
            for d in directions {
                for progress in [0.0, 0.3, 0.5, 0.77, 1.0] {
                    let t = Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: d)
                    let scaledFrom = LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource:
                        LayerGeometry.outputToSource(codedSize: big.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill))
                    let scaledTo = LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource:
                        LayerGeometry.outputToSource(codedSize: small.size, sar: 1, orientation: .identity, renderSize: size, fit: .fit))
                    for (f, pictures, setup) in [
                        (FramePlan(frame: 0, time: .zero, from: layer(0, exactA), to: layer(1, exactB), transition: t, progress: progress, renderSize: size),
                         [exactA, exactB], "exact"),
                        (FramePlan(frame: 0, time: .zero, from: scaledFrom, to: scaledTo, transition: t, progress: progress, renderSize: size),
                         [big, small], "scaled")] {
                        let label = "\(kind) \(d.map(\.rawValue) ?? "") p=\(progress) \(setup)"
                        XCTAssertEqual(try fast.renderYUV420(f, pictures: pictures), try exact.renderYUV420(f, pictures: pictures), label)
                        XCTAssertEqual(try fast.render(f, pictures: pictures), try exact.render(f, pictures: pictures), label + " RGBA")
                        frames += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(frames, 500)
    }

    /// The planes of a transition that only mixes colours are drawn fused (each layer gives the output's Y′ or Cb, Cr
    /// directly): within a code of the R′G′B′ composite converted afterwards, and equal for most samples.
    func testFusedPlanesAreWithinACodeOfTheConvertedComposite() throws {
        let a = PlanarPictures.textured(16, 12, seed: 35), b = PlanarPictures.textured(32, 24, seed: 36)
        let fused = ReferenceRenderer(), unfused = ReferenceRenderer()
        unfused.fuseColour = false
        var differing = 0, total = 0
        for kind in TransitionKind.allCases where kind != .glsl && kind.traits.mixesColoursOnly {
            let f = FramePlan(frame: 0, time: .zero, from: layer(0, a), to: layer(1, b),
                              transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1)), progress: 0.4, renderSize: size)
            let x = try fused.renderYUV420(f, pictures: [a, b]), y = try unfused.renderYUV420(f, pictures: [a, b])
            XCTAssertLessThanOrEqual(worst(x, y), 1, "\(kind)")
            differing += zip(samples(x), samples(y)).filter { $0 != $1 }.count
            total += samples(x).count
        }
        XCTAssertLessThan(differing, total / 10, "\(differing) of \(total) samples differ")
    }

    /// A push reads its layers moved by fractions of a pixel (bilinear, including the picture's pixels outside the crop
    /// and its clamped edges); half-way through a push to the left (8 whole pixels) the frame's halves are the layers'
    /// samples exactly. The circles at their ends are the layers.
    func testPushAndCirclesAtKnownPoints() throws {
        let a = PlanarPictures.textured(16, 16, seed: 41), b = PlanarPictures.textured(24, 12, seed: 42)
        let cpu = ReferenceRenderer()
        let half = try cpu.renderYUV420(plan(.push, .left, progress: 0.5, a, b), pictures: [a, b])
        for j in 0..<12 {
            XCTAssertEqual(Array(half.y[(j * 16 + 8)..<(j * 16 + 16)]), Array(b.planes[0].bytes[(j * 24 + 4)..<(j * 24 + 12)]), "row \(j)")
            XCTAssertEqual(Array(half.y[(j * 16)..<(j * 16 + 8)]), Array(a.planes[0].bytes[((j + 2) * 16 + 8)..<((j + 2) * 16 + 16)]), "row \(j)")
        }
        for kind in [Transition.Kind.circleopen, .circleclose] {
            XCTAssertEqual(try cpu.renderYUV420(plan(kind, progress: 1, a, b), pictures: [a, b]).y,
                           (0..<12).flatMap { j in b.planes[0].bytes[(j * 24 + 4)..<(j * 24 + 20)] }, "\(kind)")
        }
        XCTAssertEqual(try cpu.renderYUV420(plan(.crossfade, progress: 0, a, a), pictures: [a, a]).y,
                       (0..<12).flatMap { j in a.planes[0].bytes[((j + 2) * 16)..<((j + 2) * 16 + 16)] })
    }

    /// A transition's incoming layer turned upright (`DirectFrame.uprighted(layer: 1)`, its picture turned as
    /// `PictureTurner` turns it, as `FrameStrategy.turns` has the frame source do) gives the frame the renderers draw from
    /// the stored picture.
    func testATurnedIncomingLayerIsTheSameFrame() throws {
        let a = PlanarPictures.textured(16, 12, seed: 51)
        let stored = PlanarPictures.textured(12, 16, seed: 52)   // shown through a quarter turn: upright 16×12
        let turn = Orientation(a: 0, b: 1, c: -1, d: 0)
        let renderers = try self.renderers()
        for kind in [Transition.Kind.crossfade, .circleopen] {
            let f = FramePlan(frame: 0, time: .zero, from: layer(0, a), to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource:
                LayerGeometry.outputToSource(codedSize: stored.size, sar: 1, orientation: turn, renderSize: size, fit: .fill)),
                              transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1)), progress: 0.4, renderSize: size)
            let route = try XCTUnwrap(DirectFrame.route(try XCTUnwrap(f.passes[0].to), picture: stored, plan: f))
            XCTAssertTrue(route.turns)
            let upright = try PictureTurner().turned(stored, by: route.turn)
            let g = DirectFrame.uprighted(f, layer: 1, turn: route.turn, picture: stored)
            let drawn = try renderers[0].renderYUV420(g, pictures: [a, upright])
            XCTAssertEqual(drawn, try renderers[0].renderYUV420(f, pictures: [a, stored]), "\(kind)")
            XCTAssertLessThanOrEqual(worst(drawn, try renderers[1].renderYUV420(f, pictures: [a, stored])), 1, "GPU \(kind)")
        }
    }

    /// One layer scaled into the frame (a clip smaller or larger than the render size, letterboxed with `fit`, filling
    /// it with `fill`), and transitions between a scaled layer and another: bilinear reads, the background outside the
    /// layer, within a code of the GPU.
    func testScaledLayersMatchTheReferenceAndTheGPU() throws {
        let renderers = try self.renderers()
        let small = PlanarPictures.textured(10, 6, seed: 61), big = PlanarPictures.textured(32, 24, seed: 62)
        let wide = PlanarPictures.textured(24, 12, seed: 63), tall = PlanarPictures.textured(8, 16, seed: 64)
        let direct = PlanarPictures.textured(16, 12, seed: 65)
        func scaled(_ clip: Int, _ p: VideoPicture, _ fit: FitMode) -> LayerPlan {
            LayerPlan(clipIndex: clip, sourceTime: .zero,
                      outputToSource: LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: .identity, renderSize: size, fit: fit))
        }
        var differing = 0, total = 0
        func check(_ f: FramePlan, _ pictures: [VideoPicture], _ label: String) throws {
            let planes = try renderers[0].renderYUV420(f, pictures: pictures)
            let gpu = try renderers[1].renderYUV420(f, pictures: pictures)
            XCTAssertLessThanOrEqual(worst(planes, gpu), 1, "GPU: " + label)
            let x = samples(planes), y = samples(gpu)
            differing += x.indices.filter { x[$0] != y[$0] }.count
            total += x.count
        }
        for (p, name) in [(small, "10x6"), (big, "32x24"), (wide, "24x12"), (tall, "8x16")] {
            for fit in [FitMode.fit, .fill, .stretch] {
                let one = FramePlan(frame: 0, time: .zero, from: scaled(0, p, fit), to: nil, transition: nil, progress: 0, renderSize: size)
                try check(one, [p], "\(name) \(fit)")
            }
        }
        // Letterboxed: the rows above and below a 24×12 picture fitted into 16×12 are the background (black: Y 16).
        let letterbox = try renderers[0].renderYUV420(FramePlan(frame: 0, time: .zero, from: scaled(0, wide, .fit), to: nil, transition: nil,
                                                                 progress: 0, renderSize: size), pictures: [wide])
        XCTAssertEqual(Array(letterbox.y[0..<32]), [UInt8](repeating: 16, count: 32))
        XCTAssertEqual(Array(letterbox.cb[0..<8]), [UInt8](repeating: 128, count: 8))
        for (kind, d) in [(Transition.Kind.crossfade, nil), (.circleopen, nil), (.wipe, Transition.Direction.left), (.push, .up), (.push, .right)] {
            for progress in [0.3, 0.62] {
                let f = FramePlan(frame: 0, time: .zero, from: layer(0, direct), to: scaled(1, small, .fit),
                                  transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: d), progress: progress, renderSize: size)
                try check(f, [direct, small], "\(kind) \(d.map(\.rawValue) ?? "") p=\(progress) into a fitted 10×6")
                let g = FramePlan(frame: 0, time: .zero, from: scaled(0, big, .fill), to: scaled(1, tall, .fit),
                                  transition: Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: d), progress: progress, renderSize: size)
                try check(g, [big, tall], "\(kind) \(d.map(\.rawValue) ?? "") p=\(progress) 32×24 filled into a fitted 8×16")
            }
        }
        print("scaled layers: \(differing) of \(total) samples differ from the GPU's by a code")
    }

    /// Phone clips (all eight display matrices: quarter turns, half turn, mirrors), fitted, filling and stretched,
    /// alone and in a crossfade and a push: the CPU reads them as stored, a row at a time (a turned map runs an output
    /// row down a stored column), the exact evaluation's values byte for byte, and within a code of the GPU.
    func testTurnedLayersAreReadRowByRow() throws {
        let renderers = try self.renderers()
        let exact = pointByPoint()
        let stored = PlanarPictures.textured(20, 12, seed: 71), other = PlanarPictures.textured(12, 8, seed: 72)
        var pixels: [UInt8] = []
        for i in 0..<24 { pixels += [UInt8(i * 10), UInt8(255 - i * 9), 90, 255] }
        let logo = VideoPicture(RGBAImage(width: 6, height: 4, pixels: pixels))
        let orientations = [Orientation(a: 1, b: 0, c: 0, d: 1), Orientation(a: -1, b: 0, c: 0, d: 1), Orientation(a: 1, b: 0, c: 0, d: -1),
                            Orientation(a: -1, b: 0, c: 0, d: -1), Orientation(a: 0, b: 1, c: 1, d: 0), Orientation(a: 0, b: -1, c: 1, d: 0),
                            Orientation(a: 0, b: 1, c: -1, d: 0), Orientation(a: 0, b: -1, c: -1, d: 0)]
        for o in orientations {
            for fit in [FitMode.fit, .fill, .stretch] {
                func turned(_ clip: Int, _ p: VideoPicture) -> LayerPlan {
                    LayerPlan(clipIndex: clip, sourceTime: .zero, outputToSource:
                        LayerGeometry.outputToSource(codedSize: p.size, sar: 1, orientation: o, renderSize: size, fit: fit))
                }
                let t = { (k: Transition.Kind, d: Transition.Direction?) in Transition(kind: k, duration: MediaTime(value: 1, timescale: 1), direction: d) }
                for (f, pictures, label) in [
                    (FramePlan(frame: 0, time: .zero, from: turned(0, stored), to: nil, transition: nil, progress: 0, renderSize: size), [stored], "alone"),
                    (FramePlan(frame: 0, time: .zero, from: turned(0, stored), to: turned(1, other), transition: t(.crossfade, nil), progress: 0.4,
                               renderSize: size), [stored, other], "crossfade"),
                    (FramePlan(frame: 0, time: .zero, from: turned(0, logo), to: turned(1, stored), transition: t(.push, .up), progress: 0.3,
                               renderSize: size), [logo, stored], "push from RGBA")] {
                    let name = "\(o) \(fit) \(label)"
                    let drawn = try renderers[0].renderYUV420(f, pictures: pictures)
                    XCTAssertEqual(drawn, try exact.renderYUV420(f, pictures: pictures), name)
                    XCTAssertEqual(try renderers[0].render(f, pictures: pictures), try exact.render(f, pictures: pictures), name + " RGBA")
                    XCTAssertLessThanOrEqual(worst(drawn, try renderers[1].renderYUV420(f, pictures: pictures)), 1, "GPU " + name)
                }
            }
        }
    }

    /// A logo over a transition: the frame drawn whole, and the transition drawn alone first and handed to the
    /// renderer as the planes the logo is blended into (`base`, as a frame whose first pass is taken from its picture):
    /// the same frame on the CPU; within a code on the GPU.
    func testALogoOverATransitionDrawnFromItsBasePlanes() throws {
        let a = PlanarPictures.textured(32, 24, seed: 81), b = PlanarPictures.textured(10, 6, seed: 82)
        let logo = PlanarPictures.textured(8, 8, seed: 83, colour: YCbCrColour(matrix: .bt601, range: .full))
        let g = LayerGeometry.place(codedSize: logo.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                    transform: LayerTransform(x: 0.7, y: 0.3, scale: 0.3))!
        var over = LayerPlan(clipIndex: 2, sourceTime: .zero, outputToSource: g.outputToSource)
        over.bounds = g.bounds
        over.opacity = 0.6
        let logoPass = CompositePass(track: 1, from: over, to: nil, transition: nil, progress: 0, rect: g.bounds.evenAligned.intersection(PixelRect(size)))
        for kind in [Transition.Kind.crossfade, .push, .slideleft] {
            let t = plan(kind, kind == .push ? .left : nil, progress: 0.35, a, b)
            let f = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [t.passes[0], logoPass])
            for (n, r) in try renderers().enumerated() {
                let whole = try r.renderYUV420(f, pictures: [a, b, logo])
                let base = try r.renderYUV420(t, pictures: [a, b])
                let split = try r.renderYUV420(f, pictures: [a, b, logo], base: base)
                if n == 0 { XCTAssertEqual(split, whole, "\(r.name) \(kind)") } else { XCTAssertLessThanOrEqual(worst(split, whole), 1, "\(r.name) \(kind)") }
                // The logo is there: its rectangle differs from the transition alone.
                XCTAssertGreaterThan(worst(split, base), 10, "\(r.name) \(kind)")
            }
        }
    }

    /// RGBA layers over a frame whose first pass is planes (a direct clip, a scaled one, a crossfade, a push): a logo
    /// with soft alpha at 0.6 opacity, scaled; a 1×1 colour card at half opacity; blended into the planes inside their
    /// rectangles by the CPU, within a code of the GPU; the samples outside the rectangles are the first pass's
    /// exactly.
    func testLogosBlendedIntoThePlanes() throws {
        let a = PlanarPictures.textured(16, 12, seed: 91), b = PlanarPictures.textured(32, 24, seed: 92)
        // A 10×6 logo: premultiplied R′G′B′ under an alpha ramp (0 at the left to 255 at the right).
        var pixels = [UInt8]()
        for y in 0..<6 { for x in 0..<10 {
            let alpha = x * 255 / 9
            pixels += [UInt8(200 * alpha / 255), UInt8((40 + 20 * y) * alpha / 255), UInt8(90 * alpha / 255), UInt8(alpha)]
        } }
        var logo = VideoPicture(RGBAImage(width: 10, height: 6, pixels: pixels))
        logo.hasAlpha = true
        let card = VideoPicture.colour(RGBColour(r: 30, g: 200, b: 90), alpha: 1)
        func over(_ picture: VideoPicture, x: Double, y: Double, scale: Double, opacity: Double, clip: Int) -> CompositePass {
            let g = LayerGeometry.place(codedSize: picture.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                        transform: LayerTransform(x: x, y: y, scale: scale))!
            var l = LayerPlan(clipIndex: clip, sourceTime: .zero, outputToSource: g.outputToSource)
            l.bounds = g.bounds
            l.opacity = opacity
            return CompositePass(track: clip, from: l, to: nil, transition: nil, progress: 0, rect: g.bounds.evenAligned.intersection(PixelRect(size)))
        }
        let logoPass = over(logo, x: 0.65, y: 0.35, scale: 0.55, opacity: 0.6, clip: 2)
        let cardPass = over(card, x: 0.25, y: 0.75, scale: 0.3, opacity: 0.5, clip: 3)
        let firsts: [(String, CompositePass, [VideoPicture])] = [
            ("direct", plan(.crossfade, progress: 0, a, a).passes[0].withoutTransition, [a]),
            ("scaled", FramePlan(frame: 0, time: .zero, from: layer(0, b), to: nil, transition: nil, progress: 0, renderSize: size).passes[0], [b]),
            ("crossfade", plan(.crossfade, progress: 0.4, a, b).passes[0], [a, b]),
            ("push", plan(.push, .left, progress: 0.3, a, b).passes[0], [a, b]),
        ]
        let renderers = try self.renderers()
        for (name, first, pictures) in firsts {
            let f = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [first, logoPass, cardPass])
            let all = pictures + [logo, card]
            let drawn = try renderers[0].renderYUV420(f, pictures: all)
            XCTAssertLessThanOrEqual(worst(drawn, try renderers[1].renderYUV420(f, pictures: all)), 1, "GPU \(name)")
            // Outside both rectangles: the first pass alone, exactly.
            var alone = f
            alone.passes = [first]
            let below = try renderers[0].renderYUV420(alone, pictures: pictures)
            let rects = [logoPass.rect!, cardPass.rect!]
            var inside = 0
            for j in 0..<12 { for i in 0..<16 {
                if rects.contains(where: { i >= $0.x0 && i < $0.x1 && j >= $0.y0 && j < $0.y1 }) {
                    inside += drawn.y[j * 16 + i] != below.y[j * 16 + i] ? 1 : 0
                } else {
                    XCTAssertEqual(drawn.y[j * 16 + i], below.y[j * 16 + i], "\(name) (\(i), \(j))")
                }
            } }
            XCTAssertGreaterThan(inside, 10, "\(name): the layers show")
        }
    }
}

extension CompositePass {
    /// The same pass showing its first layer alone.
    var withoutTransition: CompositePass { CompositePass(track: track, from: from, to: nil, transition: nil, progress: 0, rect: rect) }
}
