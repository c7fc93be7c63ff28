import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueMedia
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

    /// A push reads its layers moved by fractions of a pixel: bilinear, as both renderers read them then, including the
    /// picture's pixels outside the crop and its clamped edges. The circles weight each sample by its distance from the
    /// centre. Each within a code of the reference and of the GPU, most samples equal.
    func testPushAndCirclesMatchTheReferenceAndTheGPU() throws {
        // Pictures larger than the 16×12 frame, cropped at whole even pixels: a 16×16 at (0, 2) and a 24×12 at (4, 0).
        let a = PlanarPictures.textured(16, 16, seed: 41), b = PlanarPictures.textured(24, 12, seed: 42)
        let renderers = try self.renderers()
        var cases: [(Transition.Kind, Transition.Direction?, Double)] = []
        for d in Transition.Direction.allCases { for p in [0.13, 0.5, 0.77] { cases.append((.push, d, p)) } }
        for p in [0.0, 0.2, 0.45, 0.5, 0.81, 1.0] { cases += [(.circleopen, nil, p), (.circleclose, nil, p)] }
        var differing = 0, total = 0
        for (kind, d, progress) in cases {
            let f = plan(kind, d, progress: progress, a, b)
            let label = "\(kind) \(d.map(\.rawValue) ?? "") p=\(progress)"
            let planes = try XCTUnwrap(PlaneTransitions.image(f, pictures: [a, b], threads: 3), label)
            let reference = try renderers[0].renderYUV420(f, pictures: [a, b])
            XCTAssertLessThanOrEqual(worst(planes, reference), 1, label)
            let x = samples(planes), y = samples(reference)
            differing += x.indices.filter { x[$0] != y[$0] }.count
            total += x.count
            XCTAssertLessThanOrEqual(worst(planes, try renderers[1].renderYUV420(f, pictures: [a, b])), 1, "GPU: " + label)
        }
        XCTAssertLessThan(differing, total / 20, "\(differing) of \(total) samples differ")
        // Half-way through a push to the left (8 whole pixels: no filtering), the frame's left half is the right half of
        // A's crop (columns 8–15 of rows 2–13), its right half the left half of B's (columns 4–11).
        let half = try XCTUnwrap(PlaneTransitions.image(plan(.push, .left, progress: 0.5, a, b), pictures: [a, b]))
        for j in 0..<12 {
            XCTAssertEqual(Array(half.y[(j * 16 + 8)..<(j * 16 + 16)]), Array(b.planes[0].bytes[(j * 24 + 4)..<(j * 24 + 12)]), "row \(j)")
            XCTAssertEqual(Array(half.y[(j * 16)..<(j * 16 + 8)]), Array(a.planes[0].bytes[((j + 2) * 16 + 8)..<((j + 2) * 16 + 16)]), "row \(j)")
        }
        // circleopen at its start is A, at its end B; circleclose the same.
        for kind in [Transition.Kind.circleopen, .circleclose] {
            XCTAssertEqual(PlaneTransitions.image(plan(kind, progress: 1, a, b), pictures: [a, b])?.y,
                           (0..<12).flatMap { j in b.planes[0].bytes[(j * 24 + 4)..<(j * 24 + 20)] }, "\(kind)")
        }
    }

    /// What the planes leave to the renderer: layers not yet turned upright, translucent layers, linear light, other
    /// colours, other kinds.
    func testOnlyDirectLayersAndMixingKindsAreDrawnOnThePlanes() {
        let a = PlanarPictures.textured(16, 12, seed: 33), b = PlanarPictures.textured(16, 12, seed: 34)
        XCTAssertNil(PlaneTransitions.image(plan(.slideleft, progress: 0.5, a, b), pictures: [a, b]))
        XCTAssertNil(PlaneTransitions.image(plan(.dissolve, progress: 0.5, a, b), pictures: [a, b]))
        XCTAssertNotNil(PlaneTransitions.image(plan(.push, .left, progress: 0.5, a, b), pictures: [a, b]))
        XCTAssertNotNil(PlaneTransitions.image(plan(.circleopen, progress: 0.5, a, b), pictures: [a, b]))
        var faded = plan(.crossfade, progress: 0.5, a, b)
        faded.passes[0] = CompositePass(track: 0, from: faded.passes[0].from, to: { var l = layer(1, b); l.opacity = 0.5; return l }(),
                                        transition: faded.passes[0].transition, progress: 0.5, rect: nil)
        XCTAssertNil(PlaneTransitions.image(faded, pictures: [a, b]))
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
        // A turned layer is drawn here once it is turned (`DirectFrame.uprighted`, done by the frame source).
        XCTAssertNil(PlaneTransitions.image(turned, pictures: [a, portrait]))
        XCTAssertNotNil(PlaneTransitions.image(plan(.crossfade, progress: 0.5, a, b), pictures: [a, b]))
    }

    /// A transition's incoming layer turned upright (`DirectFrame.uprighted(layer: 1)`, its picture turned as
    /// `PictureTurner` turns it) gives the frame the renderers draw from the stored picture, and the planes draw it.
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
            let drawn = try XCTUnwrap(PlaneTransitions.image(g, pictures: [a, upright]), "\(kind)")
            XCTAssertEqual(try renderers[0].renderYUV420(g, pictures: [a, upright]), try renderers[0].renderYUV420(f, pictures: [a, stored]), "\(kind)")
            XCTAssertLessThanOrEqual(worst(drawn, try renderers[0].renderYUV420(f, pictures: [a, stored])), 1, "\(kind)")
            XCTAssertLessThanOrEqual(worst(drawn, try renderers[1].renderYUV420(f, pictures: [a, stored])), 1, "GPU \(kind)")
        }
    }

    /// One layer scaled into the frame (a clip smaller or larger than the render size, letterboxed with `fit`, filling
    /// it with `fill`), and transitions between a scaled layer and another: bilinear reads, the background outside the
    /// layer, each within a code of the reference and the GPU.
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
            let planes = try XCTUnwrap(PlaneTransitions.image(f, pictures: pictures, threads: 2), label)
            let reference = try renderers[0].renderYUV420(f, pictures: pictures)
            XCTAssertLessThanOrEqual(worst(planes, reference), 1, label)
            XCTAssertLessThanOrEqual(worst(planes, try renderers[1].renderYUV420(f, pictures: pictures)), 1, "GPU: " + label)
            let x = samples(planes), y = samples(reference)
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
        let letterbox = try XCTUnwrap(PlaneTransitions.image(FramePlan(frame: 0, time: .zero, from: scaled(0, wide, .fit), to: nil, transition: nil,
                                                                       progress: 0, renderSize: size), pictures: [wide]))
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
        XCTAssertLessThan(differing, total / 10, "\(differing) of \(total) samples differ")
    }

    /// A phone clip scaled into the frame (all eight display matrices, fitted and filling): turned upright by
    /// libavfilter, its chroma siting turned with it (`PlaneTransitions.siting`), then drawn on the planes, within a
    /// code of what the reference and the GPU draw from the stored picture through the turn.
    func testTurnedScaledLayersMatchTheReferenceAndTheGPU() throws {
        let renderers = try self.renderers()
        let stored = PlanarPictures.textured(20, 12, seed: 71)
        let turner = PictureTurner()
        let orientations = [Orientation(a: 1, b: 0, c: 0, d: 1), Orientation(a: -1, b: 0, c: 0, d: 1), Orientation(a: 1, b: 0, c: 0, d: -1),
                            Orientation(a: -1, b: 0, c: 0, d: -1), Orientation(a: 0, b: 1, c: 1, d: 0), Orientation(a: 0, b: -1, c: 1, d: 0),
                            Orientation(a: 0, b: 1, c: -1, d: 0), Orientation(a: 0, b: -1, c: -1, d: 0)]
        for o in orientations {
            for fit in [FitMode.fit, .fill] {
                let label = "\(o) \(fit)"
                let f = FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource:
                    LayerGeometry.outputToSource(codedSize: stored.size, sar: 1, orientation: o, renderSize: size, fit: fit)),
                                  to: nil, transition: nil, progress: 0, renderSize: size)
                let turn = try XCTUnwrap(PlaneTransitions.turn(f.passes[0].from, picture: stored, plan: f), label)
                XCTAssertEqual(turn == .identity, o == .identity, label)
                let t = try turner.turned(stored, by: turn)
                let g = DirectFrame.uprighted(f, turn: turn, picture: stored)
                // Filtered reads (scaled) take the turned siting; exact ones (scale 1: the mirrors and the half turn
                // filling the frame) read the turned planes as a permutation, with the stored siting (FrameSource).
                let exact = TransitionParameters.isExact(g.passes[0], g.passes[0].from, picture: t)
                XCTAssertEqual(exact, !o.swapsAxes && fit == .fill, label)
                var colour = t.colour
                if !exact { colour.siting = PlaneTransitions.siting(stored.colour.siting, turnedBy: turn) }
                let upright = VideoPicture(width: t.width, height: t.height, layout: t.layout, chromaShiftX: 1, chromaShiftY: 1, bitDepth: 8,
                                           planes: t.planes, colour: colour)
                XCTAssertEqual(PlaneTransitions.turn(g.passes[0].from, picture: upright, plan: g), .identity, label)
                let planes = try XCTUnwrap(PlaneTransitions.image(g, pictures: [upright]), label)
                XCTAssertLessThanOrEqual(worst(planes, try renderers[0].renderYUV420(f, pictures: [stored])), 1, label)
                XCTAssertLessThanOrEqual(worst(planes, try renderers[1].renderYUV420(f, pictures: [stored])), 1, "GPU " + label)
                // Without turning the siting, the chroma of a quarter turn is read half a sample off.
                if o.swapsAxes {
                    let unsited = try XCTUnwrap(PlaneTransitions.image(g, pictures: [t]), label)
                    XCTAssertGreaterThan(worst(unsited, try renderers[0].renderYUV420(f, pictures: [stored])), 1, label + ": the siting must turn")
                }
            }
        }
    }

    /// A logo over a transition between scaled layers: the transition drawn on the planes as the frame's starting
    /// point (`withBasePlanes`), the logo by the renderer inside its rectangle, within a code of the renderer drawing
    /// every pass; a frame of one pass, or whose first pass the planes do not draw, is left as it is.
    func testALogoOverAPlaneDrawnTransition() throws {
        let a = PlanarPictures.textured(32, 24, seed: 81), b = PlanarPictures.textured(10, 6, seed: 82)
        let logo = PlanarPictures.textured(8, 8, seed: 83, colour: YCbCrColour(matrix: .bt601, range: .full))
        let g = LayerGeometry.place(codedSize: logo.size, sar: 1, orientation: .identity, renderSize: size, fit: .fill,
                                    transform: LayerTransform(x: 0.7, y: 0.3, scale: 0.3))!
        var over = LayerPlan(clipIndex: 2, sourceTime: .zero, outputToSource: g.outputToSource)
        over.bounds = g.bounds
        over.opacity = 0.6
        let logoPass = CompositePass(track: 1, from: over, to: nil, transition: nil, progress: 0, rect: g.bounds.evenAligned.intersection(PixelRect(size)))
        for kind in [Transition.Kind.crossfade, .push] {
            let t = plan(kind, kind == .push ? .left : nil, progress: 0.35, a, b)
            let f = FramePlan(frame: 0, time: .zero, renderSize: size, passes: [t.passes[0], logoPass])
            let based = try XCTUnwrap(PlaneTransitions.withBasePlanes(f, pictures: [a, b, logo]), "\(kind)")
            XCTAssertEqual(based.pictures.count, 2)
            XCTAssertNotNil(DirectFrame.basePlanes(based.plan, picture: based.pictures[0]), "the drawn pass is taken as planes")
            for r in try renderers() {
                let whole = try r.renderYUV420(f, pictures: [a, b, logo]), split = try r.renderYUV420(based.plan, pictures: based.pictures)
                XCTAssertLessThanOrEqual(worst(split, whole), 1, "\(r.name) \(kind)")
                // The logo is there: its rectangle differs from the transition alone.
                let bare = try XCTUnwrap(PlaneTransitions.image(t, pictures: [a, b]))
                XCTAssertGreaterThan(worst(split, bare), 10, "\(r.name) \(kind)")
            }
        }
        XCTAssertNil(PlaneTransitions.withBasePlanes(plan(.crossfade, progress: 0.5, a, b), pictures: [a, b]), "one pass: `image`")
        let slide = plan(.slideleft, progress: 0.5, a, b)
        XCTAssertNil(PlaneTransitions.withBasePlanes(FramePlan(frame: 0, time: .zero, renderSize: size, passes: [slide.passes[0], logoPass]),
                                                     pictures: [a, b, logo]))
    }

    /// RGBA layers over a frame whose first pass is planes (a direct clip, a scaled one, a crossfade, a push): a logo
    /// with soft alpha at 0.6 opacity, scaled; a 1×1 colour card at half opacity; blended on the planes inside their
    /// rectangles (`PlaneOverlays`), within a code of the renderers drawing every pass; the samples outside the
    /// rectangles are the first pass's exactly.
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
            XCTAssertTrue(PlaneOverlays.blends(logoPass, picture: logo, plan: f))
            let drawn = try XCTUnwrap(PlaneOverlays.image(f, pictures: all), name)
            for r in renderers {
                XCTAssertLessThanOrEqual(worst(drawn, try r.renderYUV420(f, pictures: all)), 1, "\(r.name) \(name)")
            }
            // Outside both rectangles: the first pass alone, exactly.
            var alone = f
            alone.passes = [first]
            let below = try XCTUnwrap(PlaneTransitions.image(alone, pictures: pictures))
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
        // A rotated logo, a cropped one, or one with a transition is left to the renderer.
        var turned = logoPass
        turned = CompositePass(track: 2, from: LayerPlan(clipIndex: 2, sourceTime: .zero, outputToSource: Affine2D(a: 0, b: 0.1, c: 0.1, d: 0, tx: 0, ty: 0)),
                               to: nil, transition: nil, progress: 0, rect: logoPass.rect)
        XCTAssertFalse(PlaneOverlays.blends(turned, picture: logo, plan: FramePlan(frame: 0, time: .zero, renderSize: size, passes: [firsts[0].1, turned])))
    }
}

extension CompositePass {
    /// The same pass showing its first layer alone.
    var withoutTransition: CompositePass { CompositePass(track: track, from: from, to: nil, transition: nil, progress: 0, rect: rect) }
}
