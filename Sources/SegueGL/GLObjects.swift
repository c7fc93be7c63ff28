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

/// Throws `GPUError` if GL recorded an error since the last check.
func glCheck(_ function: String) throws {
    let e = glGetError()
    if e != GLenum(GL_NO_ERROR) { throw GPUError(function, glErrorName(e)) }
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
            let log = GLProgram.infoLog(id, program: true)
            glDeleteProgram(id)
            throw GPUError("glLinkProgram", "shader program \(name) failed to link: \(log)")
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
            throw GPUError("glCompileShader", "shader \(name) failed to compile: \(log)")
        }
        return s
    }

    static func infoLog(_ obj: GLuint, program: Bool) -> String {
        var len: GLint = 0
        if program { glGetProgramiv(obj, GLenum(GL_INFO_LOG_LENGTH), &len) } else { glGetShaderiv(obj, GLenum(GL_INFO_LOG_LENGTH), &len) }
        var buf = [GLchar](repeating: 0, count: Int(max(len, 1)))
        if program { glGetProgramInfoLog(obj, len, nil, &buf) } else { glGetShaderInfoLog(obj, len, nil, &buf) }
        return String(cString: buf)
    }

    func location(_ name: String) -> GLint {
        if let l = locations[name] { return l }
        let l = glGetUniformLocation(id, name)
        locations[name] = l
        return l
    }
}

/// An RGBA8 2-D texture sampled with `GL_LINEAR` and `GL_CLAMP_TO_EDGE`.
final class GLTexture {
    var id: GLuint = 0
    private(set) var width = 0, height = 0

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
    func allocate(_ w: Int, _ h: Int) {
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        width = w; height = h
    }

    /// Uploads `image`, row 0 at t = 0 (top-left origin in texture space).
    func upload(_ image: RGBAImage) throws {
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        image.pixels.withUnsafeBytes { p in
            if width == image.width && height == image.height {
                glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(image.width), GLsizei(image.height),
                                GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), p.baseAddress)
            } else {
                glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
                             GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), p.baseAddress)
            }
        }
        width = image.width; height = image.height
        try glCheck("glTexImage2D")
    }
}

import SegueCore

/// A framebuffer with one RGBA8 colour texture of the render size.
final class GLFramebuffer {
    var id: GLuint = 0
    let color = GLTexture()
    let size: PixelSize

    init(size: PixelSize) throws {
        self.size = size
        color.allocate(size.width, size.height)
        glGenFramebuffers(1, &id)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), color.id, 0)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        if status != GLenum(GL_FRAMEBUFFER_COMPLETE) {
            throw GPUError("glCheckFramebufferStatus", "framebuffer incomplete (0x\(String(status, radix: 16)))")
        }
    }
    deinit { glDeleteFramebuffers(1, &id) }
}
