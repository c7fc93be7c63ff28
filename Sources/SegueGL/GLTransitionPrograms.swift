import CEGL
import Foundation
import SegueCore
import SegueShaders

/// gl-transitions shaders in the GPU renderer: each shader's code rewritten once (`GLTransitionHost`) and its
/// program key, its uniforms set from the transition's `params` (or the defaults its comments give), and the
/// textures of its image parameters.
final class GLTransitionPrograms {
    /// Every name Segue's own code declares at file scope around a transition (prelude, layers, main, the
    /// gl-transitions host code, the variant macros): a user's shader must not declare them again.
    static let reserved: Set<String> = {
        let v = ShaderLibrary.LayerVariant(kind: .planar8, exact: false)
        let program = ShaderLibrary.fragmentSource(transitionCode: ShaderLibrary.glTransitionCode(code: "", initialisers: [], macros: []),
                                                   from: v, to: v, output: .rgba)
        return GLSLTokens(program).globalNames
    }()

    private var hosted: [GLTransitionShader: (key: String, host: GLTransitionHost)] = [:]
    private var codes: [String: String] = [:]
    private var images: [String: GLTexture] = [:]
    /// What an image parameter without an image reads: black (as an unbound texture does in GL).
    private lazy var black: GLTexture = {
        let t = GLTexture()
        try? t.upload([0, 0, 0, 255], width: 1, height: 1, format: .rgba8)
        return t
    }()

    /// The program key of `shader` ("glsl:N"), rewriting it the first time.
    func key(_ shader: GLTransitionShader) -> String {
        if let h = hosted[shader] { return h.key }
        let host = GLTransitionHost(shader, reserved: GLTransitionPrograms.reserved)
        let key = "glsl:\(hosted.count)"
        hosted[shader] = (key, host)
        codes[key] = ShaderLibrary.glTransitionCode(code: host.code, initialisers: host.initialisers, macros: host.macros)
        return key
    }

    /// The transition section of the program `key` names, nil for a built-in.
    func code(_ key: String) -> String? { codes[key] }

    /// Uploads `image` for the image parameters that name `path`: upside down, so that the shader's uv (origin at
    /// the bottom left) shows it upright.
    func setImage(_ image: RGBAImage, path: String) throws {
        let rowBytes = image.width * 4
        var flipped = [UInt8](repeating: 0, count: image.pixels.count)
        for y in 0..<image.height {
            let from = (image.height - 1 - y) * rowBytes
            flipped[(y * rowBytes)..<((y + 1) * rowBytes)] = image.pixels[from..<(from + rowBytes)]
        }
        let t = images[path] ?? GLTexture()
        try t.upload(flipped, width: image.width, height: image.height, format: .rgba8)
        images[path] = t
    }

    /// Sets the uniforms of `transition`'s shader in `program`: each parameter's value (`params`, else its default);
    /// image parameters on texture units `firstUnit`….
    func setUniforms(_ program: GLProgram, _ transition: Transition, firstUnit: Int) {
        guard let shader = transition.shader, let host = hosted[shader]?.host else { return }
        var unit = firstUnit
        for u in shader.uniforms {
            let loc = program.location(host.uniformNames[u.name] ?? u.name)
            guard loc >= 0 else { continue }   // declared but unused: the compiler dropped it
            let value = transition.params[u.name] ?? u.defaultValue
            switch (u.type.base, value) {
            case (.sampler2D, .image(let path)):
                glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
                glBindTexture(GLenum(GL_TEXTURE_2D), (images[path] ?? black).id)
                glUniform1i(loc, GLint(unit))
                unit += 1
            case (.float, .number(let d)): glUniform1f(loc, Float(d))
            case (.float, .vector(let v)):
                let f = v.map { Float($0) }
                switch f.count { case 2: glUniform2fv(loc, 1, f); case 3: glUniform3fv(loc, 1, f); default: glUniform4fv(loc, 1, f) }
            case (.int, .number(let d)), (.bool, .number(let d)): glUniform1i(loc, GLint(d))
            case (.bool, .boolean(let b)): glUniform1i(loc, b ? 1 : 0)
            case (.int, .vector(let v)), (.bool, .vector(let v)):
                let i = v.map { GLint($0) }
                switch i.count { case 2: glUniform2iv(loc, 1, i); case 3: glUniform3iv(loc, 1, i); default: glUniform4iv(loc, 1, i) }
            default: break   // EditFile checks that values fit their uniforms
            }
        }
    }

    /// A compiler's complaint about `shader` in the user's terms: each message of the log at one of the shader's
    /// lines (`ShaderLibrary.glLineOffset` + n) as `NAME:n:COLUMN: message`; other lines (Segue's host code) as they are.
    static func compileError(_ shader: GLTransitionShader, log: String) -> EditError {
        var lines: [String] = []
        for raw in log.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            // Mesa writes "SOURCE:LINE(COLUMN): error: message".
            if let colon = line.firstIndex(of: ":"), let paren = line.firstIndex(of: "("), let close = line.firstIndex(of: ")"),
               colon < paren, paren < close, let row = Int(line[line.index(after: colon)..<paren]), row > ShaderLibrary.glLineOffset {
                let column = line[line.index(after: paren)..<close]
                let message = line[line.index(after: close)...].drop { $0 == ":" || $0 == " " }
                lines.append("\(shader.name):\(row - ShaderLibrary.glLineOffset):\(column): \(message)")
            } else {
                lines.append("(in Segue's host code) \(line)")
            }
        }
        return EditError(shader.field, "the shader \(shader.name) does not compile (GLSL ES 3.00):\n  " + lines.joined(separator: "\n  "))
    }
}
