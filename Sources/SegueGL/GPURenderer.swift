import CEGL
import SegueCore
import SegueShaders

/// The GPU renderer: uploads the two stored pictures as textures and runs one fragment shader per output
/// frame (`Shaders/glsl/prelude.glsl` + `<transition>.frag` + `main.glsl`), which fuses rotation, fit and the
/// transition into the texture lookups; reads the RGBA result back.
///
/// Owns its `EGLSession`; every call must come from the thread that created it.
public final class GPURenderer: CompositeRenderer {
    public let session: EGLSession
    public var name: String { "gpu (\(session.renderer), EGL \(session.platformDescription))" }
    private var programs: [String: GLProgram] = [:]
    // Created after the context is current (stored-property initialisers would run before it exists).
    private let fromTexture: GLTexture
    private let toTexture: GLTexture
    private var framebuffer: GLFramebuffer?
    private var vao: GLuint = 0
    /// `GL_MAX_TEXTURE_SIZE`, read once: the largest picture or render size this context takes.
    private let maxTextureSize: Int

    /// Creates the EGL context and compiles every transition program. Throws `GPUError`.
    public init(options: EGLOptions = EGLOptions()) throws {
        session = try EGLSession(options: options)
        fromTexture = GLTexture()
        toTexture = GLTexture()
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        maxTextureSize = Int(maxSize)
        glGenVertexArrays(1, &vao)
        for t in ShaderLibrary.transitions {
            programs[t] = try GLProgram(vertex: ShaderLibrary.vertexSource, fragment: ShaderLibrary.fragmentSource(transition: t)!, name: "\(t).frag")
        }
    }
    deinit {
        try? session.makeCurrent()
        glDeleteVertexArrays(1, &vao)
    }

    public func render(_ plan: FramePlan, from: RGBAImage, to: RGBAImage?, renderSize: PixelSize) throws -> RGBAImage {
        try session.makeCurrent()
        let p = TransitionParameters(plan: plan, renderSize: renderSize)
        guard let program = programs[p.function] else { throw GPUError("render", "no shader for transition \(p.function)") }
        if framebuffer?.size != renderSize {
            try checkFits(renderSize, "render size \(renderSize) exceeds this GPU's maximum texture size (\(maxTextureSize))")
            framebuffer = try GLFramebuffer(size: renderSize)
        }
        let fb = framebuffer!
        try upload(from, into: fromTexture)
        if let t = to { try upload(t, into: toTexture) }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fb.id)
        glViewport(0, 0, GLsizei(renderSize.width), GLsizei(renderSize.height))
        glUseProgram(program.id)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), fromTexture.id)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), to == nil ? fromTexture.id : toTexture.id)
        glUniform1i(program.location("uFrom"), 0)
        glUniform1i(program.location("uTo"), 1)
        setMap(program.location("uFromMap"), p.fromMap)
        setMap(program.location("uToMap"), p.toMap)
        glUniform2f(program.location("uResolution"), Float(renderSize.width), Float(renderSize.height))
        glUniform1f(program.location("progress"), p.progress)
        glUniform1f(program.location("ratio"), Float(renderSize.width) / Float(renderSize.height))
        glUniform2f(program.location("direction"), p.direction.0, p.direction.1)
        glBindVertexArray(vao)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        try glCheck("glDrawArrays")
        var pixels = [UInt8](repeating: 0, count: renderSize.width * renderSize.height * 4)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        pixels.withUnsafeMutableBytes { p in
            glReadPixels(0, 0, GLsizei(renderSize.width), GLsizei(renderSize.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), p.baseAddress)
        }
        try glCheck("glReadPixels")
        return RGBAImage(width: renderSize.width, height: renderSize.height, pixels: pixels)
    }

    private func upload(_ picture: RGBAImage, into texture: GLTexture) throws {
        try checkFits(picture.size, "a \(picture.width)x\(picture.height) picture is larger than this GPU's maximum texture size (\(maxTextureSize)); render it with --backend cpu")
        try texture.upload(picture)
    }

    private func checkFits(_ size: PixelSize, _ message: @autoclosure () -> String) throws {
        if size.width > maxTextureSize || size.height > maxTextureSize { throw GPUError("GL_MAX_TEXTURE_SIZE", message()) }
    }

    /// Column-major mat3 for `st = M · (uv, 1)`: columns (a, b, 0), (c, d, 0), (tx, ty, 1).
    private func setMap(_ loc: GLint, _ m: [Float]) {
        let mat: [Float] = [m[0], m[1], 0, m[2], m[3], 0, m[4], m[5], 1]
        glUniformMatrix3fv(loc, 1, GLboolean(GL_FALSE), mat)
    }
}
