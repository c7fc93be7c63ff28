import CEGL
import SegueShaders

func glErrorName(_ e: GLenum) -> String {
    switch Int32(e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
    default: return "GL error 0x\(String(e, radix: 16))"
    }
}

/// Throws `GPUError` naming every error GL recorded since the last check (`pendingErrors`).
func glCheck(_ function: String) throws {
    let names = pendingErrors(glGetError)
    if !names.isEmpty { throw GPUError(function, names.joined(separator: ", ")) }
}

/// The names of the error flags `read` (`glGetError`) returns until `GL_NO_ERROR`, each once. GL may keep one flag
/// per kind of error, returning (and clearing) one a call (OpenGL ES 3.0 §2.5; Mesa keeps only the first), so all are
/// read: a flag left set would be blamed on the next, innocent call. At most 8 reads (a lost context may report
/// itself forever).
func pendingErrors(_ read: () -> GLenum) -> [String] {
    var names: [String] = []
    for _ in 0..<8 {
        let e = read()
        if e == GLenum(GL_NO_ERROR) { break }
        if !names.contains(glErrorName(e)) { names.append(glErrorName(e)) }
    }
    return names
}

/// A linked GLSL ES 3.00 program: the full-screen triangle + one transition fragment shader.
final class GLProgram {
    let id: GLuint
    private var locations: [String: GLint] = [:]

    /// Compiles and links; throws `GPUError` with the compiler's info log.
    init(vertex: String, fragment: String, name: String) throws {
        let vs = try GLProgram.compile(GLenum(GL_VERTEX_SHADER), vertex, name: "vertex")
        defer { glDeleteShader(vs) }
        let fs = try GLProgram.compile(GLenum(GL_FRAGMENT_SHADER), fragment, name: name)
        defer { glDeleteShader(fs) }
        id = glCreateProgram()
        glAttachShader(id, vs)
        glAttachShader(id, fs)
        glLinkProgram(id)
        var ok: GLint = 0
        glGetProgramiv(id, GLenum(GL_LINK_STATUS), &ok)
        if ok == 0 {
            // `id` is set, so this object is whole: its deinit deletes the program (deleting it here too deleted it twice).
            throw GPUError("glLinkProgram", "shader program \(name) failed to link: \(GLProgram.infoLog(id, program: true))")
        }
    }
    deinit { glDeleteProgram(id) }

    static func compile(_ type: GLenum, _ source: String, name: String) throws -> GLuint {
        let s = glCreateShader(type)
        source.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(s, 1, &ptr, nil)
        }
        glCompileShader(s)
        var ok: GLint = 0
        glGetShaderiv(s, GLenum(GL_COMPILE_STATUS), &ok)
        if ok == 0 {
            let log = infoLog(s, program: false)
            glDeleteShader(s)
            throw GPUError("glCompileShader", "shader \(name) failed to compile: \(log)", compilerLog: log)
        }
        return s
    }

    static func infoLog(_ obj: GLuint, program: Bool) -> String {
        var len: GLint = 0
        if program { glGetProgramiv(obj, GLenum(GL_INFO_LOG_LENGTH), &len) } else { glGetShaderiv(obj, GLenum(GL_INFO_LOG_LENGTH), &len) }
        var buf = [GLchar](repeating: 0, count: Int(max(len, 1)))
        if program { glGetProgramInfoLog(obj, len, nil, &buf) } else { glGetShaderInfoLog(obj, len, nil, &buf) }
        return buf.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func location(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }
}

/// Texel formats the renderer uploads and renders to (OpenGL ES 3.0 Table 3.2 sized internal formats).
enum GLTexelFormat: Equatable {
    /// 8-bit unorm, 1, 2 or 4 channels: filterable.
    case r8, rg8, rgba8
    /// 16-bit unsigned integer, 1 channel (9…16-bit planes): read with `texelFetch` only.
    case r16ui
    /// 32-bit float, 1 channel (tables such as `TransitionNoise`): read with `texelFetch` only.
    case r32f

    var internalFormat: GLint {
        switch self { case .r8: GL_R8; case .rg8: GL_RG8; case .rgba8: GL_RGBA8; case .r16ui: GL_R16UI; case .r32f: GL_R32F }
    }
    var format: GLenum {
        switch self {
        case .r8, .r32f: GLenum(GL_RED)
        case .rg8: GLenum(GL_RG)
        case .rgba8: GLenum(GL_RGBA)
        case .r16ui: GLenum(GL_RED_INTEGER)
        }
    }
    var type: GLenum {
        switch self {
        case .r16ui: GLenum(GL_UNSIGNED_SHORT)
        case .r32f: GLenum(GL_FLOAT)
        default: GLenum(GL_UNSIGNED_BYTE)
        }
    }
    /// Integer and 32-bit float textures are incomplete with `GL_LINEAR` (ES 3.0 §3.8.13).
    var filter: GLint { self == .r16ui || self == .r32f ? GL_NEAREST : GL_LINEAR }
}

/// A 2-D texture (`GL_CLAMP_TO_EDGE`; `GL_LINEAR`, or `GL_NEAREST` for integer formats).
final class GLTexture {
    var id: GLuint = 0
    private(set) var width = 0, height = 0
    private(set) var texelFormat = GLTexelFormat.rgba8

    init() {
        glGenTextures(1, &id)
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    }
    deinit { glDeleteTextures(1, &id) }

    /// Allocates storage of `w × h` (no data): used as a render target.
    func allocate(_ w: Int, _ h: Int, format: GLTexelFormat = .rgba8) {
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format.internalFormat, GLsizei(w), GLsizei(h), 0, format.format, format.type, nil)
        width = w; height = h; texelFormat = format
    }

    /// Uploads `image`, row 0 at t = 0 (top-left origin in texture space).
    func upload(_ image: RGBAImage) throws {
        try upload(image.pixels, width: image.width, height: image.height, format: .rgba8)
    }

    /// Uploads tightly packed rows (`bytes`: `width × height` texels of `format`, row 0 at t = 0); reallocates
    /// only when the size or format changes.
    func upload(_ bytes: [UInt8], width w: Int, height h: Int, format: GLTexelFormat) throws {
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        if format.filter != texelFormat.filter {
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), format.filter)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), format.filter)
        }
        bytes.withUnsafeBytes { p in
            if width == w && height == h && texelFormat == format {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(w), GLsizei(h), format.format, format.type, p.baseAddress)
            } else {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, format.internalFormat, GLsizei(w), GLsizei(h), 0, format.format, format.type, p.baseAddress)
            }
        }
        width = w; height = h; texelFormat = format
        try glCheck("glTexImage2D")
    }
}

import SegueCore

/// A framebuffer with one or more colour textures of one size (`GL_COLOR_ATTACHMENT0…`).
final class GLFramebuffer {
    var id: GLuint = 0
    let attachments: [GLTexture]
    let size: PixelSize
    var color: GLTexture { attachments[0] }

    init(size: PixelSize, formats: [GLTexelFormat] = [.rgba8]) throws {
        self.size = size
        attachments = formats.map { f in
            let t = GLTexture()
            t.allocate(size.width, size.height, format: f)
            return t
        }
        glGenFramebuffers(1, &id)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
        var buffers: [GLenum] = []
        for (i, t) in attachments.enumerated() {
            let a = GLenum(GL_COLOR_ATTACHMENT0 + Int32(i))
            glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), a, GLenum(GL_TEXTURE_2D), t.id, 0)
            buffers.append(a)
        }
        glDrawBuffers(GLsizei(buffers.count), buffers)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        if status != GLenum(GL_FRAMEBUFFER_COMPLETE) {
            throw GPUError("glCheckFramebufferStatus", "framebuffer incomplete (0x\(String(status, radix: 16)))")
        }
    }
    deinit { glDeleteFramebuffers(1, &id) }

    /// Reads attachment `index` back, rows top first (`glReadPixels`; `GL_RED` for R8, `GL_RGBA` for RGBA8).
    /// No pixel pack buffer may be bound.
    func read(_ index: Int, into bytes: inout [UInt8]) throws {
        try bytes.withUnsafeMutableBytes { p in try readPixels(index, p.baseAddress) }
    }

    /// Starts reading attachment `index` into the bound `GL_PIXEL_PACK_BUFFER` at byte `offset`, rows top first,
    /// tightly packed (`glReadPixels` with a pack buffer bound: returns without waiting for the GPU).
    func read(_ index: Int, toPackBufferOffset offset: Int) throws {
        try readPixels(index, UnsafeMutableRawPointer(bitPattern: offset))
    }

    private func readPixels(_ index: Int, _ destination: UnsafeMutableRawPointer?) throws {
        let t = attachments[index]
        let format: GLenum = t.texelFormat == .rgba8 ? GLenum(GL_RGBA) : GLenum(GL_RED)
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), id)
        glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0 + Int32(index)))
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(size.width), GLsizei(size.height), format, GLenum(GL_UNSIGNED_BYTE), destination)
        try glCheck("glReadPixels")
    }
}
