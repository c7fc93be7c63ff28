import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// 4×4 pictures with hand-computed expected values, on both renderers: the maths is exact here
/// (texel centres map to texel centres), so every pixel must match exactly.
final class TinyFrameTests: RendererTestCase {
    let size = PixelSize(width: 4, height: 4)
    let a = RGBAImage(width: 4, height: 4, fill: (200, 40, 0))
    let b = RGBAImage(width: 4, height: 4, fill: (40, 200, 80))

    /// Stripes that make shifts visible: A (`red`) has R = 10 + 60·k, B has G = 20 + 60·k, where k is the
    /// column (or the row, with `alongRows`).
    func stripes(red: Bool, alongRows: Bool = false) -> RGBAImage {
        var p = [UInt8](repeating: 255, count: 64)
        for y in 0..<4 { for x in 0..<4 {
            let i = (y * 4 + x) * 4, k = alongRows ? y : x
            p[i] = red ? UInt8(10 + 60 * k) : 0; p[i + 1] = red ? 0 : UInt8(20 + 60 * k); p[i + 2] = 0
        } }
        return RGBAImage(width: 4, height: 4, pixels: p)
    }

    func assertPixels(_ img: RGBAImage, _ expected: (Int, Int) -> (UInt8, UInt8, UInt8), _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        for y in 0..<img.height { for x in 0..<img.width {
            let p = img.pixel(x, y), e = expected(x, y)
            if p.0 != e.0 || p.1 != e.1 || p.2 != e.2 || p.3 != 255 {
                XCTFail("\(label): pixel (\(x),\(y)) is \(p), expected \(e)", file: file, line: line)
                return
            }
        } }
    }

    func testCrossfadeAtZeroQuarterHalf() throws {
        for r in try renderers() {
            let expected: [(Double, (UInt8, UInt8, UInt8))] = [(0, (200, 40, 0)), (0.25, (160, 80, 20)), (0.5, (120, 120, 40))]
            for (p, e) in expected {
                let img = try r.render(plan(.crossfade, progress: p, size: size), from: a, to: b, renderSize: size)
                assertPixels(img, { _, _ in e }, "\(r.name) crossfade p=\(p)")
            }
        }
    }

    func testPushLeftRightUpDown() throws {
        let ca = stripes(red: true), cb = stripes(red: false)
        let ra = stripes(red: true, alongRows: true), rb = stripes(red: false, alongRows: true)
        func A(_ k: Int) -> (UInt8, UInt8, UInt8) { (UInt8(10 + 60 * k), 0, 0) }
        func B(_ k: Int) -> (UInt8, UInt8, UInt8) { (0, UInt8(20 + 60 * k), 0) }
        for r in try renderers() {
            // left, p = 0.25: A moves 1 px left (columns 1,2,3 at x = 0,1,2), B's column 0 enters at x = 3.
            var img = try r.render(plan(.push, .left, progress: 0.25, size: size), from: ca, to: cb, renderSize: size)
            assertPixels(img, { x, _ in x < 3 ? A(x + 1) : B(0) }, "\(r.name) push left 0.25")
            img = try r.render(plan(.push, .left, progress: 0.5, size: size), from: ca, to: cb, renderSize: size)
            assertPixels(img, { x, _ in x < 2 ? A(x + 2) : B(x - 2) }, "\(r.name) push left 0.5")
            img = try r.render(plan(.push, .left, progress: 0, size: size), from: ca, to: cb, renderSize: size)
            assertPixels(img, { x, _ in A(x) }, "\(r.name) push left 0")
            // right, p = 0.25: B's last column at x = 0, A's columns 0,1,2 at x = 1,2,3.
            img = try r.render(plan(.push, .right, progress: 0.25, size: size), from: ca, to: cb, renderSize: size)
            assertPixels(img, { x, _ in x == 0 ? B(3) : A(x - 1) }, "\(r.name) push right 0.25")
            // up, p = 0.5: rows 2,3 of A on top, rows 0,1 of B below.
            img = try r.render(plan(.push, .up, progress: 0.5, size: size), from: ra, to: rb, renderSize: size)
            assertPixels(img, { _, y in y < 2 ? A(y + 2) : B(y - 2) }, "\(r.name) push up 0.5")
            // down, p = 0.25: B's last row on top.
            img = try r.render(plan(.push, .down, progress: 0.25, size: size), from: ra, to: rb, renderSize: size)
            assertPixels(img, { _, y in y == 0 ? B(3) : A(y - 1) }, "\(r.name) push down 0.25")
        }
    }

    func testWipeDirections() throws {
        let ea: (UInt8, UInt8, UInt8) = (200, 40, 0), eb: (UInt8, UInt8, UInt8) = (40, 200, 80)
        for r in try renderers() {
            let cases: [(Transition.Direction, Double, (Int, Int) -> Bool)] = [
                (.downRight, 0, { _, _ in true }),
                (.downRight, 0.25, { x, y in x >= 1 && y >= 1 }),
                (.downRight, 0.5, { x, y in x >= 2 && y >= 2 }),
                (.right, 0.25, { x, _ in x >= 1 }),
                (.left, 0.25, { x, _ in x < 3 }),
                (.down, 0.5, { _, y in y >= 2 }),
                (.up, 0.25, { _, y in y < 3 }),
            ]
            for (dir, p, inA) in cases {
                let img = try r.render(plan(.wipe, dir, progress: p, size: size), from: a, to: b, renderSize: size)
                assertPixels(img, { x, y in inA(x, y) ? ea : eb }, "\(r.name) wipe \(dir.rawValue) p=\(p)")
            }
        }
    }

    /// fadeblack at p = ½ (xfade's P = ½) and its `phase` parameter, from the definition:
    /// out = P·mix(black, A, s(1 − φ, 1, P)) + (1 − P)·mix(B, black, s(φ, 1, P)), s = smoothstep.
    func testFadeBlackPhaseAgainstItsClosedForm() throws {
        func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double { let t = min(max((x - e0) / (e1 - e0), 0), 1); return t * t * (3 - 2 * t) }
        for r in try renderers() {
            for phase in [0.2, 0.4] {
                let P = 0.5
                let wA = P * smoothstep(1 - phase, 1, P), wB = (1 - P) * (1 - smoothstep(phase, 1, P))
                func e(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((wA * Double(a) + wB * Double(b)).rounded()) }
                var t = Transition(kind: .fadeblack, duration: MediaTime(value: 1, timescale: 1))
                t.params["phase"] = .number(phase)
                let base = plan(.fadeblack, progress: 0.5, size: size)
                let p = FramePlan(frame: 0, time: .zero, from: base.from, to: base.to, transition: t, progress: 0.5)
                let img = try r.render(p, from: a, to: b, renderSize: size)
                // phase 0.2: 0.342·B (A already black); phase 0.4: 0.463·B.
                assertPixels(img, { _, _ in (e(200, 40), e(40, 200), e(0, 80)) }, "\(r.name) fadeblack phase \(phase)")
            }
        }
    }

    func testQuarterTurnIsAnExactPermutation() throws {
        // 4×2 stored picture, every pixel distinct; rotation -90 (turned clockwise) into 2×4.
        var p = [UInt8](repeating: 255, count: 4 * 2 * 4)
        for k in 0..<8 { p[k * 4] = UInt8(20 * k + 10); p[k * 4 + 1] = UInt8(255 - 20 * k); p[k * 4 + 2] = UInt8(k * 7) }
        let src = RGBAImage(width: 4, height: 2, pixels: p)
        let out = PixelSize(width: 2, height: 4)
        let cw = Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30])
        let ccw = Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30])
        for r in try renderers() {
            var img = try r.render(plan(nil, progress: 0, size: out, fromSource: src.size, orientation: cw), from: src, to: nil, renderSize: out)
            // out(x, y) = src(column y, row 1 - x)
            assertPixels(img, { x, y in let s = src.pixel(y, 1 - x); return (s.0, s.1, s.2) }, "\(r.name) rotation -90")
            img = try r.render(plan(nil, progress: 0, size: out, fromSource: src.size, orientation: ccw), from: src, to: nil, renderSize: out)
            // out(x, y) = src(column 3 - y, row x)
            assertPixels(img, { x, y in let s = src.pixel(3 - y, x); return (s.0, s.1, s.2) }, "\(r.name) rotation 90")
            // Centred square crop of a 4×2 picture at scale 1: columns 1 and 2.
            let sq = PixelSize(width: 2, height: 2)
            img = try r.render(plan(nil, progress: 0, size: sq, fromSource: src.size), from: src, to: nil, renderSize: sq)
            assertPixels(img, { x, y in let s = src.pixel(x + 1, y); return (s.0, s.1, s.2) }, "\(r.name) square crop")
        }
    }
}
