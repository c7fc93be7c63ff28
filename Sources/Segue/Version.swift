import SegueGL
import SegueMedia
import SegueText

/// Segue's version, `MAJOR.MINOR.PATCH` (semantic versioning; the minor number follows the issue that last changed
/// the interface: 0.31 is issue 31's one option table). What `segue --version` prints first, and what a resolved edit
/// records (`EditResolution.segueVersion`). Read as `Segue.version`; written once, in SegueCore (`SegueVersion`).
public let version = SegueVersion.current

/// A library Segue renders with and the version of it this process loaded (`libraryVersions`).
public struct LibraryVersion: Sendable, Equatable {
    /// "FFmpeg", "libx264", "Mesa" or "HarfBuzz".
    public let name: String
    /// The version as found at run time, or why none was ("no EGL: …", "not found: …").
    public let version: String
    /// False when the library could not be found or used (the version then says why).
    public let found: Bool
}

/// The versions of the libraries Segue renders with, as this process finds them at run time (not the headers it was
/// built against), in this order:
/// - FFmpeg: `av_version_info()` with libavcodec's, libavformat's and libavutil's versions (`FFmpegVersions.ffmpeg`);
/// - libx264: as x264 names itself in the first frame it encodes ("core 164 r3095 baee400"; one 16×16 frame);
/// - Mesa: the release in `GL_VERSION` of an EGL context made with `gpu`, with `GL_VERSION` and `GL_RENDERER`
///   ("22.3.6 (OpenGL ES 3.2 Mesa 22.3.6; llvmpipe (LLVM 15.0.6, 256 bits))"); "not in use (…)" where another
///   driver (NVIDIA's) answers, "no EGL: …" where no context can be made;
/// - HarfBuzz: `hb_version_string()`.
/// Takes about what making an EGL context takes (llvmpipe: tens of milliseconds). Never throws: a library that is
/// missing gets `found == false` and a version saying why.
public func libraryVersions(gpu: EGLOptions = EGLOptions()) async -> [LibraryVersion] {
    let mesa: LibraryVersion
    do {
        let driver = try await onOwnThread { try GLDriver.current(gpu) }
        let strings = "\(driver.version); \(driver.renderer)"
        mesa = LibraryVersion(name: "Mesa", version: driver.mesaRelease.map { "\($0) (\(strings))" } ?? "not in use (\(strings))",
                              found: driver.mesaRelease != nil)
    } catch let e as GPUError {
        mesa = LibraryVersion(name: "Mesa", version: "no EGL: \(e.message)", found: false)
    } catch {
        mesa = LibraryVersion(name: "Mesa", version: "no EGL: \(error)", found: false)
    }
    let x264: LibraryVersion
    do { x264 = LibraryVersion(name: "libx264", version: try FFmpegVersions.x264(), found: true) } catch {
        x264 = LibraryVersion(name: "libx264", version: "not found: \(error)", found: false)
    }
    return [LibraryVersion(name: "FFmpeg", version: FFmpegVersions.ffmpeg, found: true), x264, mesa,
            LibraryVersion(name: "HarfBuzz", version: HarfBuzzVersion.current, found: true)]
}
