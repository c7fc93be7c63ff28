import XCTest
import SegueTestSupport
import SegueCore
@testable import SegueGL

/// Reading a gl-transitions shader (uniforms and the defaults their comments give) and fitting it into Segue's
/// programs (`GLTransitionHost`): renamed contract functions, global initialisers moved with their lines,
/// `texture` / `texture2D`, names Segue uses, macros.
final class GLTransitionShaderTests: XCTestCase {
    func shader(_ source: String) throws -> GLTransitionShader {
        try GLTransitionShader(source: source, path: "/t/x.glsl", name: "x.glsl", field: "clips[1].transition.shader")
    }

    /// A shader's images go on the texture units kept for them (8…11): a fifth is refused, naming its line, before any
    /// draw binds it on a unit a pass uses for something else.
    func testAtMostFourImageUniforms() throws {
        let four = (1...4).map { "uniform sampler2D map\($0);" }.joined(separator: "\n")
        XCTAssertEqual(try shader(four + "\nvec4 transition(vec2 uv) { return getFromColor(uv); }").uniforms.count, 4)
        XCTAssertThrowsError(try shader(four + "\nuniform sampler2D map5;\nvec4 transition(vec2 uv) { return getFromColor(uv); }")) {
            XCTAssertTrue("\($0)".contains("x.glsl:5: 5 image uniforms (sampler2D): a gl-transitions shader may take at most 4"), "\($0)")
        }
    }

    func testUniformsAndTheirDefaults() throws {
        let s = try shader("""
        uniform float size; // = 0.3
        uniform float angle; // = 90
        uniform float speed;// = 5.
        uniform float soft; // = .7
        uniform int steps; // =50
        uniform bool reverse; // = false
        uniform bool up; // = 1
        uniform vec2 center; // = vec2(0.5)
        uniform vec4 shadow; // = vec4(0.,0.,0.,.6)
        uniform ivec2 cells; // = ivec2(10,10)
        uniform vec3 color /* = vec3(0.9, 0.4, 0.2) */;
        uniform float threshold; // = 0.4 ; // if 0.0, there is no black phase
        uniform sampler2D luma;
        uniform float plain;
        vec4 transition(vec2 uv) { return getFromColor(uv); }
        """)
        let d = Dictionary(uniqueKeysWithValues: s.uniforms.map { ($0.name, $0.defaultValue) })
        XCTAssertEqual(s.uniforms.map(\.name), ["size", "angle", "speed", "soft", "steps", "reverse", "up", "center", "shadow", "cells", "color", "threshold", "luma", "plain"])
        XCTAssertEqual(d["size"], .number(0.3)); XCTAssertEqual(d["angle"], .number(90)); XCTAssertEqual(d["speed"], .number(5))
        XCTAssertEqual(d["soft"], .number(0.7)); XCTAssertEqual(d["steps"], .number(50)); XCTAssertEqual(d["reverse"], .boolean(false))
        XCTAssertEqual(d["up"], .boolean(true)); XCTAssertEqual(d["center"], .vector([0.5, 0.5]))
        XCTAssertEqual(d["shadow"], .vector([0, 0, 0, 0.6])); XCTAssertEqual(d["cells"], .vector([10, 10]))
        XCTAssertEqual(d["color"], .vector([0.9, 0.4, 0.2])); XCTAssertEqual(d["threshold"], .number(0.4))
        XCTAssertEqual(d["luma"], .image("")); XCTAssertEqual(d["plain"], .number(0))
        XCTAssertEqual(s.uniform("cells")?.type.name, "ivec2"); XCTAssertEqual(s.uniform("luma")?.line, 13)
        XCTAssertNil(try shader("uniform mat2 m; // = mat2(1.0)\nuniform float f[2];").uniforms.first, "matrices and arrays are not parameters")
        for (source, says) in [("uniform vec2 c; // = vec2(1, 2, 3)", "3 components"), ("uniform int n; // = 2.5", "whole number"),
                               ("uniform bool b; // = maybe", "true or false")] {
            XCTAssertThrowsError(try shader(source)) { e in
                XCTAssertEqual((e as? EditError)?.field, "clips[1].transition.shader")
                XCTAssertTrue("\(e)".contains("x.glsl:1") && "\(e)".contains(says), "\(e)")
            }
        }
    }

    func testTheHostRewritesWhatGLSLES300OrSegueNeeds() throws {
        let source = """
        uniform vec2 direction; // = vec2(0.0, 1.0)
        uniform float background; // = 1.0
        #define OFFSET 0.1
        vec2 ratio2 = vec2(1.0, 1.0 / ratio), other;
        float a = progress * 2.0,
              b = 3.0;
        const float K = 2.0;
        vec4 texture(vec2 p) { return texture2D(luma, p) + getToColor(p); }
        vec4 transition(vec2 uv) {
          float local = 1.0;
          return mix(getFromColor(uv), texture(uv), progress * background + OFFSET + exactTexel);
        }
        """
        let h = GLTransitionHost(try shader(source), reserved: ["background", "exactTexel", "progress", "ratio", "segue_direction", "transition"])
        let lines = h.code.components(separatedBy: "\n")
        XCTAssertEqual(lines.count, source.components(separatedBy: "\n").count, "the line structure is kept")
        XCTAssertEqual(lines[0], "uniform vec2 direction; // = vec2(0.0, 1.0)")   // Segue's is segue_direction: no clash
        XCTAssertEqual(lines[1], "uniform float background_user; // = 1.0")
        XCTAssertEqual(h.uniformNames["background"], "background_user")
        XCTAssertEqual(h.uniformNames["direction"], "direction")
        XCTAssertEqual(lines[3].replacingOccurrences(of: " ", with: ""), "vec2ratio2,other;")
        XCTAssertEqual(lines[4].replacingOccurrences(of: " ", with: ""), "floata,")
        XCTAssertEqual(lines[5].replacingOccurrences(of: " ", with: ""), "b;")
        XCTAssertEqual(lines[6], "const float K = 2.0;")   // constant initialisers stay
        XCTAssertEqual(h.initialisers.map(\.line), [4, 5, 6])
        XCTAssertEqual(h.initialisers.map(\.statement), ["ratio2 = vec2(1.0, 1.0 / ratio);", "a = progress * 2.0;", "b = 3.0;"])
        XCTAssertEqual(lines[7], "vec4 texture_user(vec2 p) { return texture(luma, p) + segue_glToColor(p); }")
        XCTAssertEqual(lines[8], "vec4 segue_glTransition(vec2 uv) {")
        XCTAssertEqual(lines[9], "  float local = 1.0;")
        XCTAssertEqual(lines[10], "  return mix(segue_glFromColor(uv), texture_user(uv), progress * background_user + OFFSET + exactTexel_user);")
        XCTAssertEqual(h.macros, ["OFFSET"])
        // Without a texture() of its own, the built-in is left alone.
        let plain = GLTransitionHost(try shader("vec4 transition(vec2 uv) { return texture2D(m, uv); }"), reserved: [])
        XCTAssertEqual(plain.code, "vec4 segue_glTransition(vec2 uv) { return texture(m, uv); }")
    }

    func testTokensJoinBackToTheSource() {
        let s = "a = 1.5e-3 + .5; // c\n#define X(y) (y*2)\n/* block\n comment */ b += x<=y ? 0x1Fu : 2;\\\n"
        XCTAssertEqual(GLSLTokens(s).text, s)
        XCTAssertEqual(GLSLTokens(s).tokens.filter { $0.kind == .number }.map(\.text), ["1.5e-3", ".5", "2", "0x1Fu", "2"])
        XCTAssertEqual(GLSLTokens("uniform float a;\nfloat f(float b) { float c; return b; }\n#define M 1\n").globalNames, ["a", "f", "M"])
    }
}
