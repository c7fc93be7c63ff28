import XCTest
import SegueCore

/// `BlendMode`'s formulas against the W3C Compositing and Blending Level 1 definitions (§10), at values worked out by
/// hand here, and its source-over step.
final class BlendModeTests: XCTestCase {
    func near(_ a: Float, _ b: Float, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a, b, accuracy: 1e-5, what, file: file, line: line)
    }
    func near(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for k in 0..<3 { XCTAssertEqual(a[k], b[k], accuracy: 1e-5, "\(what) channel \(k): \(a) vs \(b)", file: file, line: line) }
    }

    /// B(Cb, Cs) of every separable mode at chosen (Cb, Cs), each expected value from §10.2's formula by hand.
    func testSeparableModesAtKnownValues() {
        let cases: [(BlendMode, Float, Float, Float)] = [
            (.normal, 0.2, 0.7, 0.7),
            (.multiply, 0.5, 0.5, 0.25), (.multiply, 0.8, 0.25, 0.2),
            (.screen, 0.5, 0.5, 0.75), (.screen, 0.2, 0.6, 0.68),              // 0.2 + 0.6 − 0.12
            // overlay = HardLight(Cs, Cb): Cb 0.25 ≤ 0.5 → Multiply(Cs, 2·Cb) = 0.6·0.5; Cb 0.75 → Screen(Cs, 0.5)
            (.overlay, 0.25, 0.6, 0.3), (.overlay, 0.75, 0.6, 0.8),            // 0.6 + 0.5 − 0.3
            (.darken, 0.3, 0.6, 0.3), (.lighten, 0.3, 0.6, 0.6),
            (.colorDodge, 0, 0.9, 0), (.colorDodge, 0.3, 1, 1), (.colorDodge, 0.3, 0.4, 0.5), (.colorDodge, 0.6, 0.5, 1),
            (.colorBurn, 1, 0.1, 1), (.colorBurn, 0.3, 0, 0), (.colorBurn, 0.6, 0.8, 0.5), (.colorBurn, 0.2, 0.4, 0),
            // hard-light: Cs 0.3 → Multiply(Cb, 0.6); Cs 0.8 → Screen(Cb, 0.6) = 0.5 + 0.6 − 0.3
            (.hardLight, 0.5, 0.3, 0.3), (.hardLight, 0.5, 0.8, 0.8),
            // soft-light, Cs ≤ 0.5: Cb − (1 − 2Cs)·Cb·(1 − Cb) = 0.5 − 0.6·0.25
            (.softLight, 0.5, 0.2, 0.35),
            // Cs > 0.5, Cb ≤ 0.25: D = ((16·0.2 − 12)·0.2 + 4)·0.2 = 0.448; 0.2 + 0.6·0.248
            (.softLight, 0.2, 0.8, 0.3488),
            // Cs > 0.5, Cb > 0.25: D = √0.64 = 0.8; 0.64 + 0.6·0.16
            (.softLight, 0.64, 0.8, 0.736),
            (.difference, 0.2, 0.7, 0.5), (.difference, 0.7, 0.2, 0.5),
            (.exclusion, 0.5, 0.5, 0.5), (.exclusion, 0.2, 0.7, 0.62),          // 0.9 − 0.28
            (.add, 0.2, 0.3, 0.5), (.add, 0.7, 0.6, 1),
        ]
        for (mode, cb, cs, want) in cases {
            near(BlendMode.separable(mode, cb, cs), want, "\(mode.rawValue)(\(cb), \(cs))")
            near(mode.blend(SIMD3(repeating: cb), SIMD3(repeating: cs)), SIMD3(repeating: want), "\(mode.rawValue) per channel")
        }
        // Every separable mode (normal aside) appears above.
        let covered = Set(cases.map(\.0))
        XCTAssertEqual(Set(BlendMode.allCases.filter(\.isSeparable)), covered)
    }

    /// §10.3's non-separable modes on chosen colours, each expected value worked through Lum/SetSat/SetLum/ClipColor by hand.
    func testNonSeparableModesAtKnownValues() {
        let cb = SIMD3<Float>(0.2, 0.4, 0.6), cs = SIMD3<Float>(0.9, 0.5, 0.1)
        // Lum(Cb) = 0.06 + 0.236 + 0.066 = 0.362; Sat(Cb) = 0.4. Lum(Cs) = 0.27 + 0.295 + 0.011 = 0.576; Sat(Cs) = 0.8.
        near(BlendMode.lum(cb), 0.362, "Lum(Cb)"); near(BlendMode.lum(cs), 0.576, "Lum(Cs)")
        near(BlendMode.sat(cb), 0.4, "Sat(Cb)"); near(BlendMode.sat(cs), 0.8, "Sat(Cs)")
        // hue: SetSat(Cs, 0.4) = (0.4, 0.2, 0) (Lum 0.238); + 0.124 → (0.524, 0.324, 0.124), inside 0…1.
        near(BlendMode.hue.blend(cb, cs), SIMD3(0.524, 0.324, 0.124), "hue")
        // saturation: SetSat(Cb, 0.8) = (0, 0.4, 0.8) (Lum 0.324); + 0.038 → (0.038, 0.438, 0.838).
        near(BlendMode.saturation.blend(cb, cs), SIMD3(0.038, 0.438, 0.838), "saturation")
        // color: Cs + (0.362 − 0.576) = (0.686, 0.286, −0.114): min < 0, ClipColor: l + (c − l)·l/(l − n),
        // l = 0.362, n = −0.114: factor 0.362/0.476.
        let f: Float = 0.362 / 0.476
        near(BlendMode.color.blend(cb, cs), SIMD3(0.362 + 0.324 * f, 0.362 - 0.076 * f, 0.362 - 0.476 * f), "color")
        // luminosity: Cb + (0.576 − 0.362) = (0.414, 0.614, 0.814), inside.
        near(BlendMode.luminosity.blend(cb, cs), SIMD3(0.414, 0.614, 0.814), "luminosity")
        // ClipColor above 1: (1.2, 0.6, 0.5): l = 0.769, x = 1.2: l + (c − l)·(1 − l)/(x − l).
        let g: Float = 0.231 / 0.431
        near(BlendMode.clipColor(SIMD3(1.2, 0.6, 0.5)), SIMD3(0.769 + 0.431 * g, 0.769 - 0.169 * g, 0.769 - 0.269 * g), "ClipColor > 1")
        // SetSat of a grey is black; SetLum keeps the luminosity asked for.
        near(BlendMode.setSat(SIMD3(repeating: 0.5), 0.7), SIMD3(repeating: 0), "SetSat(grey)")
        near(BlendMode.lum(BlendMode.setLum(cs, 0.3)), 0.3, "Lum(SetLum(Cs, 0.3))")
    }

    /// The source-over step: Cs′ = (1 − αb)·Cs + αb·B(Cb, Cs), premultiplied by αs; normal and a transparent layer
    /// unchanged; over an opaque backdrop at αs 0.5: αs·B + (1 − αs)·Cb once composited.
    func testPremultipliedSourceOver() {
        let below = SIMD4<Float>(0.5, 0.5, 0.5, 1), s = SIMD4<Float>(0.25, 0.1, 0.4, 0.5)   // Cs = (0.5, 0.2, 0.8)
        XCTAssertEqual(BlendMode.normal.premultipliedSource(s, over: below), s)
        XCTAssertEqual(BlendMode.multiply.premultipliedSource(.zero, over: below), .zero)
        let m = BlendMode.multiply.premultipliedSource(s, over: below)
        near(SIMD3(m.x, m.y, m.z), SIMD3(0.125, 0.05, 0.2), "multiply, αs 0.5")       // 0.5·(0.25, 0.1, 0.4)
        near(m.w, 0.5, "alpha")
        let composite = SIMD3(m.x, m.y, m.z) + (1 - m.w) * SIMD3(below.x, below.y, below.z)
        near(composite, SIMD3(0.375, 0.3, 0.45), "composited")
        // Over a transparent backdrop the layer's own colour stays (αb 0): Cs′ = Cs.
        XCTAssertEqual(BlendMode.screen.premultipliedSource(s, over: .zero), s)
        // Over a half-transparent backdrop (premultiplied 0.25 grey, αb 0.5: Cb 0.5): Cs′ = 0.5·Cs + 0.5·Cb·Cs.
        let h = BlendMode.multiply.premultipliedSource(s, over: SIMD4(0.25, 0.25, 0.25, 0.5))
        near(SIMD3(h.x, h.y, h.z), 0.5 * (0.5 * SIMD3(0.5, 0.2, 0.8) + 0.5 * SIMD3(0.25, 0.1, 0.4)), "αb 0.5")
    }

    /// The names are W3C's (CSS `mix-blend-mode`) plus add; the shader's numbers are the cases' positions, normal 0.
    func testNamesAndShaderNumbers() {
        XCTAssertEqual(BlendMode.allCases.map(\.rawValue), ["normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge",
                                                            "color-burn", "hard-light", "soft-light", "difference", "exclusion", "hue",
                                                            "saturation", "color", "luminosity", "add"])
        XCTAssertEqual(BlendMode.normal.shaderID, 0)
        XCTAssertEqual(BlendMode.softLight.shaderID, 9)
        XCTAssertEqual(BlendMode.add.shaderID, 16)
        XCTAssertEqual(BlendMode.allCases.filter { !$0.isSeparable }, [.hue, .saturation, .color, .luminosity])
    }
}
