import Foundation
import SegueCore

/// The OpenGL ES driver an EGL context gets: what `segue --version` prints for Mesa.
public struct GLDriver: Sendable {
    /// `GL_VERSION`, e.g. "OpenGL ES 3.2 Mesa 22.3.6".
    public let version: String
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public let renderer: String
    /// Mesa's release where the driver is Mesa's (the word after "Mesa" in `GL_VERSION`: "22.3.6"), else nil
    /// (NVIDIA's own driver names itself "OpenGL ES 3.2 NVIDIA 550.54.15").
    public var mesaRelease: String? {
        let words = version.split(separator: " ")
        guard let k = words.firstIndex(of: "Mesa"), k + 1 < words.count else { return nil }
        return String(words[k + 1])
    }

    /// Opens an EGL context with `options` (as a render would), reads its strings and closes it again, releasing the
    /// calling thread's EGL state (`EGLSession.releaseThread`). Takes what a context takes to make (llvmpipe: tens of
    /// milliseconds).
    /// - Throws: `GPUError` when no context can be made (no EGL, `SEGUE_DISABLE_EGL=1`, a device that is not there).
    public static func current(_ options: EGLOptions = EGLOptions()) throws -> GLDriver {
        defer { EGLSession.releaseThread() }
        return try read(options)
    }

    /// The strings of a context made for the purpose, which is gone when this returns (before `releaseThread`).
    private static func read(_ options: EGLOptions) throws -> GLDriver {
        let session = try EGLSession(options: options)
        return GLDriver(version: session.version, renderer: session.renderer)
    }
}
