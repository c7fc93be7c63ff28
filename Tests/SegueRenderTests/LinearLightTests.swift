import XCTest
import Foundation
import SegueCore
import SegueEdit
import SegueReference
import SegueGL
import SegueTestSupport

/// Mixing in linear light (`"blend": "linear"`): the layers' colours through the BT.1886 EOTF (L = V^2.4), mixed,
/// and back; the default mixes the gamma-encoded values.
final class LinearLightTests: RendererTestCase {
    let size = PixelSize(width: 8, height: 8)

    func plan(_ kind: TransitionKind, _ blend: Blending, _ p: Double, _ direction: Transition.Direction? = nil) -> FramePlan {
        var t = Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1), direction: direction)
        t.blend = blend
        let base = plan(kind, direction, progress: p, size: size)
        return FramePlan(frame: 0, time: .zero, from: base.from, to: base.to, transition: t, progress: p)
    }

    /// Black → white at p = ½: linear light has half of white's luminance, L = 0.5, so V = 0.5^(1/2.4) and
    /// Y′ = 16 + 219·V = 180.1; gamma-space mixing gives V = 0.5, Y′ = 16 + 219·0.5 = 125.5.
    func testBlackToWhiteCrossfadeHasHalfTheLuminanceOfWhite() throws {
        let black = RGBAImage(width: 8, height: 8, fill: (0, 0, 0)), white = RGBAImage(width: 8, height: 8, fill: (255, 255, 255))
        for r in try renderers() {
            for (blend, expected) in [(Blending.linear, 16 + 219 * pow(0.5, 1 / 2.4)), (.gamma, 16 + 219 * 0.5)] {
                for kind in [TransitionKind.crossfade, .fade] {
                    let img = try r.renderYUV420(plan(kind, blend, 0.5), from: VideoPicture(black), to: VideoPicture(white), renderSize: size)
                    for v in img.y { XCTAssertEqual(Double(v), expected, accuracy: 0.6, "\(r.name) \(kind.rawValue) \(blend)") }
                    for v in img.cb + img.cr { XCTAssertEqual(Int(v), 128, "\(r.name) \(kind.rawValue) \(blend) chroma") }
                }
            }
        }
    }

    /// A gl-transitions shader mixes in linear light as the built-ins do (its lookups are wrapped the same way).
    func testAGLTransitionsShaderInLinearLight() throws {
        let black = VideoPicture(RGBAImage(width: 8, height: 8, fill: (0, 0, 0))), white = VideoPicture(RGBAImage(width: 8, height: 8, fill: (255, 255, 255)))
        var t = Transition(kind: .glsl, duration: MediaTime(value: 1, timescale: 1))
        t.shader = try GLTransitionShader(source: "vec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), progress); }",
                                          path: "/fade.glsl", name: "fade.glsl", field: "transition.shader")
        let gpu = try gpuRenderer()
        for (blend, expected) in [(Blending.linear, 16 + 219 * pow(0.5, 1 / 2.4)), (.gamma, 16 + 219 * 0.5)] {
            t.blend = blend
            let base = plan(.crossfade, blend, 0.5)
            let img = try gpu.renderYUV420(FramePlan(frame: 0, time: .zero, from: base.from, to: base.to, transition: t, progress: 0.5),
                                           from: black, to: white, renderSize: size)
            for v in img.y { XCTAssertEqual(Double(v), expected, accuracy: 0.6, "glsl \(blend)") }
        }
    }

    /// Relative luminance of an R′G′B′ pixel (BT.709 primaries, BT.1886 EOTF).
    func luminance(_ p: (UInt8, UInt8, UInt8, UInt8)) -> Double {
        func l(_ v: UInt8) -> Double { pow(Double(v) / 255, 2.4) }
        return 0.2126 * l(p.0) + 0.7152 * l(p.1) + 0.0722 * l(p.2)
    }

    /// Red → green: mixed in gamma space the middle is darker than both ends (luminance 0.175 at p = ½, red's is
    /// 0.2126); in linear light it never drops below the darker end.
    func testRedToGreenNoLongerDipsInLinearLight() throws {
        let red = RGBAImage(width: 8, height: 8, fill: (255, 0, 0)), green = RGBAImage(width: 8, height: 8, fill: (0, 255, 0))
        let ends = min(luminance((255, 0, 0, 255)), luminance((0, 255, 0, 255)))
        for r in try renderers() {
            var lowest: [Blending: Double] = [:]
            for blend in Blending.allCases {
                for k in 0...10 {
                    let img = try r.render(plan(.crossfade, blend, Double(k) / 10), from: red, to: green, renderSize: size)
                    lowest[blend] = min(lowest[blend] ?? 1, luminance(img.pixel(3, 3)))
                }
            }
            XCTAssertGreaterThanOrEqual(lowest[.linear]!, ends - 0.002, "\(r.name): linear light")
            XCTAssertLessThan(lowest[.gamma]!, ends - 0.03, "\(r.name): gamma-space mixing dips (0.175 at p = ½)")
        }
    }

    /// In linear light every built-in still starts with A and ends with B on the CPU reference (the transfer undone
    /// and redone within a code); for the table's sample of transitions, on the GPU too, and the GPU draws what
    /// the CPU draws (≥ 45 dB). (Linear light wraps the lookups and the composite, whatever the transition.)
    func testBuiltInsInLinearLight() throws {
        let a = PlanarPictures.textured(32, 24, seed: 31), b = PlanarPictures.textured(32, 24, seed: 32)
        let size = PixelSize(width: 32, height: 24)
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        let sample = Set(TransitionTable.sample.map(\.kind))
        for row in TransitionTable.rows {
            let dir = row.kind.traits.directions.first
            func pl(_ p: Double) -> FramePlan {
                var t = Transition(kind: row.kind, duration: MediaTime(value: 1, timescale: 1), direction: dir)
                t.blend = .linear
                let base = plan(row.kind, dir, progress: p, size: size, fromSource: a.size, toSource: b.size)
                return FramePlan(frame: 0, time: .zero, from: base.from, to: base.to, transition: t, progress: p)
            }
            if sample.contains(row.kind) {
                let g = try gpu.renderYUV420(pl(0.4), from: a, to: b, renderSize: size)
                let c = try cpu.renderYUV420(pl(0.4), from: a, to: b, renderSize: size)
                for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                    let (ok, d) = TransitionTable.agree(row.kind, x, y)
                    XCTAssertTrue(ok, "\(row.kind.rawValue) linear \(name): \(d)")
                }
            }
            for r in (sample.contains(row.kind) ? [cpu, gpu] : [cpu]) as [CompositeRenderer] {
                let none = plan(nil, progress: 0, size: size, fromSource: a.size)
                for (p, picture, exception) in [(0.0, a, row.startException), (1.0, b, row.endException)] where exception == nil {
                    let expected = try r.renderYUV420(none, from: picture, to: nil, renderSize: size)
                    let img = try r.renderYUV420(pl(p), from: a, to: b, renderSize: size)
                    XCTAssertLessThanOrEqual(PlaneDifference(img.y, expected.y).maxAbsDifference, 1, "\(r.name) \(row.kind.rawValue) linear p=\(p)")
                }
            }
        }
    }

    func testTheEditChoosesAndATransitionOverrides() throws {
        let json = #"{"blending": "linear", "clips": [{"path": "a"}, {"path": "b", "transition": {}}, {"path": "c", "transition": {"blend": "gamma"}}]}"#
        let edit = try EditFile.parse(data: Data(json.utf8), baseDirectory: "/")
        XCTAssertEqual(edit.blending, .linear)
        XCTAssertNil(edit.clips[1].transition?.blend)
        XCTAssertEqual(edit.clips[2].transition?.blend, .gamma)
        let src = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 30, duration: MediaTime(value: 3, timescale: 1), hasAudio: false)
        let timeline = try Timeline(edit: edit, sources: [src, src, src])
        XCTAssertEqual(timeline.placements[1].spec.transition?.blend, .linear)
        XCTAssertEqual(timeline.placements[2].spec.transition?.blend, .gamma)
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"blending": "log", "clips": [{"path": "a"}]}"#.utf8), baseDirectory: "/")) { e in
            XCTAssertEqual((e as? EditError)?.field, "blending")
        }
    }
}
