import CEGL
import Foundation
import SegueCore

/// A failure of EGL or OpenGL ES, with the library's error name (e.g. `EGL_BAD_MATCH`) rather than its number.
/// Exit status 1; retryable when the GPU could not be started (`EGLSession`: no display, no context, no render node),
/// which another node or a later try may have, unless the user named a device that is not there.
public struct GPUError: SegueError {
    /// The call that failed (e.g. `eglInitialize`), or a Segue step.
    public let function: String
    public let message: String
    /// True when the GPU the user named (`--gpu-device`) does not exist or cannot be opened: not worth retrying,
    /// and never a reason to fall back to another device.
    public let namedDeviceMissing: Bool
    /// The compiler's info log, when a shader did not compile.
    public let compilerLog: String?
    /// True when the failure happened while starting the GPU (`EGLSession.init`), set there.
    public let duringStartUp: Bool
    public init(_ function: String, _ message: String, namedDeviceMissing: Bool = false, compilerLog: String? = nil, duringStartUp: Bool = false) {
        self.function = function; self.message = message; self.namedDeviceMissing = namedDeviceMissing; self.compilerLog = compilerLog
        self.duringStartUp = duringStartUp
    }
    public var description: String { "\(message) (\(function))" }
    public var exitStatus: Int32 { ExitStatus.failed }
    /// Start-up may work on another node or later; a device the user named that is not there, or a GL failure while
    /// rendering (a picture over the texture limit), would fail again.
    public var isRetryable: Bool { duringStartUp && !namedDeviceMissing }

    /// This error with another message (the same call, flags and log).
    public func with(message: String) -> GPUError {
        GPUError(function, message, namedDeviceMissing: namedDeviceMissing, compilerLog: compilerLog, duringStartUp: duringStartUp)
    }
    var atStartUp: GPUError {
        GPUError(function, message, namedDeviceMissing: namedDeviceMissing, compilerLog: compilerLog, duringStartUp: true)
    }

    static func egl(_ function: String) -> GPUError {
        GPUError(function, eglErrorName(eglGetError()))
    }
}

func eglErrorName(_ code: EGLint) -> String {
    switch code {
    case EGL_SUCCESS: return "EGL_SUCCESS"
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED: EGL is not initialized for this display"
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC: out of GPU resources"
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG: no usable configuration"
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY: not an EGL display"
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH: arguments are inconsistent"
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST: the GPU was reset"
    default: return "EGL error 0x\(String(code, radix: 16))"
    }
}

/// How to pick the headless EGL display.
public struct EGLOptions: Sendable {
    public enum Platform: String, CaseIterable, Sendable {
        /// GBM on a DRM render node (`/dev/dri/renderD*`; `EGL_KHR_platform_gbm`).
        case gbm
        /// The EGL device platform (`EGL_EXT_platform_device`): NVIDIA's headless path; Mesa offers a software device.
        case device
        /// Mesa's surfaceless platform (`EGL_MESA_platform_surfaceless`): llvmpipe where there is no GPU.
        case surfaceless
    }
    /// Force one platform; nil tries gbm, device, surfaceless in that order.
    public var platform: Platform?
    /// A render node path (`/dev/dri/renderD129`, for gbm) or an EGL device index (`"1"`, for device).
    public var device: String?
    public init(platform: Platform? = nil, device: String? = nil) { self.platform = platform; self.device = device }
}

// One owner per handle: each class frees its handle in deinit, so whatever step of opening a session fails, what was
// made before it is released (a class whose init throws before every stored property is set never runs its deinit).

/// An open DRM render node (`open`), closed in deinit.
final class DRMDescriptor {
    let fd: Int32
    init(path: String) throws {
        fd = segue_open_rdwr(path)
        guard fd >= 0 else { throw GPUError("open", "cannot open \(path): \(String(cString: strerror(errno)))") }
    }
    deinit { close(fd) }
}

/// A GBM device on a render node (`gbm_create_device`), destroyed in deinit before its descriptor is closed.
final class GBMDevice {
    let device: OpaquePointer
    let node: DRMDescriptor
    init(node: DRMDescriptor, path: String) throws {
        guard let g = gbm_create_device(node.fd) else { throw GPUError("gbm_create_device", "GBM refused \(path)") }
        device = g
        self.node = node
    }
    deinit { gbm_device_destroy(device) }
}

/// An initialised EGL display (`eglInitialize`), terminated in deinit; it keeps the GBM device it was made on (if any)
/// until then.
final class EGLDisplayHandle {
    let display: EGLDisplay
    /// "gbm /dev/dri/renderD128", "device 0 (…)", "surfaceless".
    let description: String
    private let gbm: GBMDevice?
    init(_ dpy: EGLDisplay?, description: String, gbm: GBMDevice? = nil) throws {
        guard let d = dpy, d != segue_egl_no_display() else { throw GPUError.egl("eglGetPlatformDisplay") }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(d, &major, &minor) == EGL_TRUE else { throw GPUError.egl("eglInitialize") }
        display = d
        self.description = description
        self.gbm = gbm
        guard EGLSession.hasExtension(d, "EGL_KHR_surfaceless_context") else {
            throw GPUError("eglQueryString", "the display lacks EGL_KHR_surfaceless_context")
        }
    }
    deinit { eglTerminate(display) }
}

/// An OpenGL ES context on a display (`eglCreateContext`), released from any thread it is current on and destroyed
/// in deinit, before its display is terminated.
final class EGLContextHandle {
    let context: EGLContext
    let display: EGLDisplayHandle
    init(display: EGLDisplayHandle, config: EGLConfig?, attributes: [EGLint]) throws {
        guard let ctx = eglCreateContext(display.display, config, segue_egl_no_context(), attributes), ctx != segue_egl_no_context() else {
            let e = GPUError.egl("eglCreateContext")
            throw GPUError(e.function, "cannot create an OpenGL ES 3.0 context on \(display.description): \(e.message)")
        }
        context = ctx
        self.display = display
    }
    deinit {
        eglMakeCurrent(display.display, segue_egl_no_surface(), segue_egl_no_surface(), segue_egl_no_context())
        eglDestroyContext(display.display, context)
    }
}

/// A headless EGL display and OpenGL ES 3 context, current on the thread that created it.
///
/// All GL work must happen on that one thread (a context is current on one thread only).
/// Setting the environment variable `SEGUE_DISABLE_EGL=1` makes creation fail (to test fallbacks).
public final class EGLSession {
    private let contextHandle: EGLContextHandle
    public var display: EGLDisplay { contextHandle.display.display }
    public var context: EGLContext { contextHandle.context }
    /// Which platform was used: "gbm /dev/dri/renderD128", "device 0 (EGL_MESA_device_software)", "surfaceless".
    public var platformDescription: String { contextHandle.display.description }
    /// `GL_RENDERER`, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)".
    public let renderer: String
    /// `GL_VERSION`.
    public let version: String

    /// Creates the display and context. A device named in `options.device` must exist: a render node path is
    /// opened with GBM only, an index with the EGL device platform only, never silently replaced by another GPU or
    /// by llvmpipe. Throws `GPUError` naming each platform tried and why it failed (with `namedDeviceMissing` and
    /// the devices that do exist when the named one cannot be used).
    public init(options: EGLOptions = EGLOptions()) throws {
        do {
            (contextHandle, renderer, version) = try EGLSession.start(options)
        } catch let e as GPUError {
            throw e.atStartUp
        }
    }

    /// Opens the display, makes the context current, reads `GL_RENDERER` and `GL_VERSION`.
    private static func start(_ options: EGLOptions) throws -> (EGLContextHandle, renderer: String, version: String) {
        if ProcessInfo.processInfo.environment["SEGUE_DISABLE_EGL"] == "1" {
            throw GPUError("EGLSession", "EGL is disabled by SEGUE_DISABLE_EGL=1")
        }
        var order: [EGLOptions.Platform] = options.platform.map { [$0] } ?? [.gbm, .device, .surfaceless]
        if let d = options.device {
            guard d.hasPrefix("/") || (Int(d).map { $0 >= 0 } ?? false) else {
                throw GPUError("EGLSession", "--gpu-device \(d): give a render node path (/dev/dri/renderD129) or an EGL device index (0, 1, …); this machine has: \(availableDevices().joined(separator: "; "))", namedDeviceMissing: true)
            }
            let wanted: EGLOptions.Platform = d.hasPrefix("/") ? .gbm : .device
            if let p = options.platform, p != wanted {
                throw GPUError("EGLSession", "--gpu-device \(d) is \(wanted == .gbm ? "a render node, which only the gbm platform opens" : "an EGL device index, which only the device platform takes"), not \(p.rawValue)", namedDeviceMissing: true)
            }
            order = [wanted]
        }
        var failures: [String] = []
        var chosen: EGLDisplayHandle?
        for platform in order {
            do {
                chosen = try EGLSession.open(platform, device: options.device)
                break
            } catch let e as GPUError {
                failures.append("\(platform.rawValue): \(e.message)")
            }
        }
        guard let displayHandle = chosen else {
            if let d = options.device {
                throw GPUError("EGLSession", "GPU device \(d) cannot be used (\(failures.joined(separator: "; "))); this machine has: \(availableDevices().joined(separator: "; "))", namedDeviceMissing: true)
            }
            throw GPUError("eglGetPlatformDisplay", "no headless EGL display could be made (\(failures.joined(separator: "; ")))")
        }
        let dpy = displayHandle.display
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGL_TRUE else { throw GPUError.egl("eglBindAPI") }
        // Prefer a pbuffer-capable ES3 config; headless displays lack window configs. Fall back to no config.
        var config: EGLConfig? = segue_egl_no_config()
        let attribs: [EGLint] = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
                                 EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE]
        var n: EGLint = 0
        if eglChooseConfig(dpy, attribs, &config, 1, &n) != EGL_TRUE || n == 0 { config = segue_egl_no_config() }
        let ctxAttribs: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        let contextHandle = try EGLContextHandle(display: displayHandle, config: config, attributes: ctxAttribs)
        guard eglMakeCurrent(dpy, segue_egl_no_surface(), segue_egl_no_surface(), contextHandle.context) == EGL_TRUE else {
            throw GPUError.egl("eglMakeCurrent")
        }
        return (contextHandle, glGetString(GLenum(GL_RENDERER)).map { String(cString: $0) } ?? "?",
                glGetString(GLenum(GL_VERSION)).map { String(cString: $0) } ?? "?")
    }

    /// Releases the calling thread's EGL state (`eglReleaseThread`: its current context and API, and the per-thread
    /// state libglvnd and Mesa keep for it), as EGL 1.5 §3.11 asks of a thread that is done with EGL. A thread that
    /// rendered calls it before it ends, after its sessions are gone: otherwise the thread's exit frees that state in
    /// its TLS destructors, racing the process's exit handlers, which free the same lists (a library program that
    /// exited right after a render error died of SIGSEGV inside libEGL about once in 40 runs under load). Harmless on a
    /// thread that never used EGL.
    public static func releaseThread() {
        _ = eglReleaseThread()
    }

    /// Makes this context current on the calling thread if it is not already (another session may have
    /// been current on this thread since). Throws `GPUError`.
    public func makeCurrent() throws {
        if eglGetCurrentContext() != context {
            guard eglMakeCurrent(display, segue_egl_no_surface(), segue_egl_no_surface(), context) == EGL_TRUE else {
                throw GPUError.egl("eglMakeCurrent")
            }
        }
    }

    /// The GPUs `--gpu-device` can name on this machine, described: each DRM render node ("render node
    /// /dev/dri/renderD128") and each EGL device ("EGL device 0 (EGL_MESA_device_software …)"), or "none".
    public static func availableDevices() -> [String] {
        var found = renderNodes().map { "render node " + $0 }
        if clientExtensions.contains("EGL_EXT_platform_device") {
            for (i, d) in eglDevices().enumerated() { found.append("EGL device \(i)\(d.extensions.isEmpty ? "" : " (\(d.extensions))")") }
        }
        return found.isEmpty ? ["none"] : found
    }

    /// The DRM render nodes (`/dev/dri/renderD*`, through libdrm's `drmGetDevices2`), at most 8.
    static func renderNodes() -> [String] {
        var buf = [CChar](repeating: 0, count: 8 * 256)
        let n = segue_drm_render_nodes(&buf, 256, 8)
        return (0..<Int(n)).map { i in buf.withUnsafeBufferPointer { String(cString: $0.baseAddress! + i * 256) } }
    }

    /// The EGL devices (`eglQueryDevicesEXT`, at most 16) with their extension strings; empty where they cannot be
    /// enumerated.
    static func eglDevices() -> [(device: EGLDeviceEXT?, extensions: String)] {
        var devices = [EGLDeviceEXT?](repeating: nil, count: 16)
        var count: EGLint = 0
        guard segue_egl_query_devices(16, &devices, &count) == EGL_TRUE else { return [] }
        return devices.prefix(Int(count)).map { ($0, segue_egl_query_device_string($0, EGL_EXTENSIONS).map { String(cString: $0) } ?? "") }
    }

    /// The client extensions (`eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`).
    static var clientExtensions: String {
        eglQueryString(segue_egl_no_display(), EGL_EXTENSIONS).map { String(cString: $0) } ?? ""
    }

    /// Whether a session made with `options` could only be a software rasteriser, found without making one: no device
    /// named, the gbm platform not forced, no DRM render node (`drmGetDevices2`, which the gbm platform would open
    /// first), and every EGL device (`eglQueryDevicesEXT`) is Mesa's software device (`EGL_MESA_device_software`).
    /// Enumerating devices loads no driver (about 2 MB here); `eglInitialize` on llvmpipe maps 50–55 MB of LLVM and
    /// Gallium code and state, which `RenderJob` then makes only when a frame needs it. False when EGL is disabled
    /// (`SEGUE_DISABLE_EGL=1`) or devices cannot be enumerated: then a session is made (or fails) as usual.
    public static func isSoftwareOnly(_ options: EGLOptions = EGLOptions()) -> Bool {
        if ProcessInfo.processInfo.environment["SEGUE_DISABLE_EGL"] == "1" { return false }
        guard options.device == nil, options.platform != .gbm, renderNodes().isEmpty else { return false }
        let clientExt = clientExtensions
        guard clientExt.contains("EGL_EXT_device_enumeration") || clientExt.contains("EGL_EXT_device_base") else { return false }
        let devices = eglDevices()
        return !devices.isEmpty && devices.allSatisfy { $0.extensions.split(separator: " ").contains("EGL_MESA_device_software") }
    }

    static func hasExtension(_ dpy: EGLDisplay?, _ name: String) -> Bool {
        guard let s = eglQueryString(dpy, EGL_EXTENSIONS) else { return false }
        return String(cString: s).split(separator: " ").contains(Substring(name))
    }

    static func open(_ platform: EGLOptions.Platform, device: String?) throws -> EGLDisplayHandle {
        let clientExt = clientExtensions
        switch platform {
        case .gbm:
            guard clientExt.contains("EGL_KHR_platform_gbm") || clientExt.contains("EGL_MESA_platform_gbm") else {
                throw GPUError("eglQueryString", "EGL_KHR_platform_gbm is not supported")
            }
            let nodes = device.flatMap { $0.hasPrefix("/") ? [$0] : nil } ?? renderNodes()
            guard let node = nodes.first else { throw GPUError("drmGetDevices2", "no DRM render node (/dev/dri/renderD*)") }
            let gbm = try GBMDevice(node: try DRMDescriptor(path: node), path: node)
            return try EGLDisplayHandle(segue_egl_platform_display(EGLenum(EGL_PLATFORM_GBM_KHR), UnsafeMutableRawPointer(gbm.device)),
                                        description: "gbm \(node)", gbm: gbm)
        case .device:
            guard clientExt.contains("EGL_EXT_platform_device") else {
                throw GPUError("eglQueryString", "EGL_EXT_platform_device is not supported")
            }
            let devices = eglDevices()
            guard !devices.isEmpty else { throw GPUError("eglQueryDevicesEXT", "no EGL devices") }
            var index = 0
            if let d = device, !d.hasPrefix("/") {
                guard let i = Int(d), i >= 0, i < devices.count else {
                    throw GPUError("eglQueryDevicesEXT", "EGL device \(d) does not exist (found \(devices.count))")
                }
                index = i
            }
            let (chosen, ext) = devices[index]
            return try EGLDisplayHandle(segue_egl_platform_display(EGLenum(EGL_PLATFORM_DEVICE_EXT), UnsafeMutableRawPointer(chosen)),
                                        description: "device \(index) (\(ext.isEmpty ? "no extensions" : ext))")
        case .surfaceless:
            guard clientExt.contains("EGL_MESA_platform_surfaceless") else {
                throw GPUError("eglQueryString", "EGL_MESA_platform_surfaceless is not supported")
            }
            return try EGLDisplayHandle(segue_egl_platform_display(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil), description: "surfaceless")
        }
    }
}
