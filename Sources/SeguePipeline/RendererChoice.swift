import Foundation
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SegueReference

/// Choosing and preparing the renderers of a render (`RenderOptions.backend`): the CPU renderer, and the GPU where a
/// frame may need it (`FrameRenderer`).
extension RenderJob {
    /// Makes the renderers for `options.backend`, ready for the transitions of `timeline` (`CompositeRenderer.prepare`):
    ///
    /// - `.cpu`: the CPU renderer alone; a glsl transition is refused (`EditError`: it cannot run GLSL).
    /// - `.gpu`: the GPU draws every frame that needs drawing (`GPUError` when there is none, or when the render size
    ///   exceeds its `GL_MAX_TEXTURE_SIZE`).
    /// - `.auto`: the GPU draws them where there is a real one; where the only OpenGL is a software rasteriser
    ///   (llvmpipe) or there is none, the CPU renderer does, faster, and the GPU context is made only when a
    ///   gl-transitions shader needs it (`EGLSession.isSoftwareOnly` finds that without making one). A GPU that cannot
    ///   be had gives a one-line warning and the CPU, unless the user named a device (`options.egl.device`: an error)
    ///   or a transition needs it (glsl: an error); a render size over its texture limit gives the CPU with a warning.
    ///
    /// Then, with `options.frameTimeout`, each gl-transitions shader is tried on a tiny target before any frame is
    /// rendered (`preflight`), so that one that never finishes fails in a second or two rather than after a frame timeout.
    public static func makeRenderer(_ options: RenderOptions, for timeline: Timeline? = nil) throws -> FrameRenderer {
        let transitions = timeline?.placements.compactMap(\.spec.transition) ?? []
        let renderer = try makeRenderer(options, needsGPU: transitions.contains { $0.kind == .glsl }, renderSize: timeline?.renderSize)
        let images = try images(of: transitions, policy: timeline?.inputPolicy ?? options.inputPolicy)
        // Compiling is timed too: Mesa takes minutes over a shader whose macros expand to thousands of statements.
        let shaders = transitions.compactMap { $0.shader.map { "\($0.name) (\($0.field))" } }
        if let seconds = options.frameTimeout, !shaders.isEmpty {
            try Watchdog(seconds: seconds).guarding("compiling the shaders \(shaders.joined(separator: ", ")) before the render started") {
                try renderer.prepare(for: transitions, images: images)
            }
        } else {
            try renderer.prepare(for: transitions, images: images)
        }
        if let seconds = options.frameTimeout, let gpu = renderer.gpu { try preflight(transitions, on: gpu, frameTimeout: seconds) }
        return renderer
    }

    /// The most the first pre-flight draw of a shader may take (compiling it, and drawing one pixel), seconds.
    public static let preflightCompileSeconds = 10.0
    /// The most the pre-flight's test frames of a shader may take together, seconds (a gl-transitions shader draws
    /// them in milliseconds once compiled).
    public static let preflightSeconds = 2.0
    /// The progress values the pre-flight draws each shader at.
    public static let preflightProgress = [0, 0.25, 0.5, 0.75, 1]

    /// Tries each glsl transition (each shader with its parameters once) before a frame is rendered: one pixel at
    /// progress 0.5, which compiles it (Mesa compiles a shader at its first draw), within `preflightCompileSeconds`,
    /// then a 16×16 frame at each of `preflightProgress`, all within `preflightSeconds` (the frame timeout where that is
    /// shorter). A shader that does not finish ends the process with exit status 1 (`Watchdog`), naming the shader and
    /// its field, before the render has written anything. On llvmpipe no loop runs more than 65535 times per pixel
    /// (its loop limiter), so a shader "never ends" by doing too much per iteration, and the pre-flight catches that
    /// in about 2 s; one that is slow only at other progress values is the frame timeout's to catch.
    static func preflight(_ transitions: [Transition], on gpu: GPURenderer, frameTimeout: Double) throws {
        var tried: [Transition] = []
        for t in transitions where t.kind == .glsl && !tried.contains(t) {
            tried.append(t)
            guard let shader = t.shader else { continue }
            let compile = min(frameTimeout, preflightCompileSeconds), frames = min(frameTimeout, preflightSeconds)
            let name = "\(shader.field): the shader \(shader.name)"
            try Watchdog(seconds: compile, limitName: "\(Watchdog.format(compile)) s (the pre-flight; --frame-timeout \(Watchdog.format(frameTimeout)) s)")
                .guarding("\(name), compiled and drawn on one test pixel before the render started,") {
                    try gpu.preflight(t, progress: 0.5, size: PixelSize(width: 1, height: 1))
                }
            let watchdog = Watchdog(seconds: frames, limitName: "\(Watchdog.format(frames)) s (the pre-flight; --frame-timeout \(Watchdog.format(frameTimeout)) s)")
            defer { watchdog.disarm() }
            for p in preflightProgress {
                watchdog.describe("\(name), drawn on 16x16 test frames at progress \(preflightProgress.map { "\($0)" }.joined(separator: ", ")) before the render started (it was at \(p)),")
                try gpu.preflight(t, progress: p)
            }
        }
    }

    /// The decoded image of every image parameter (`sampler2D` uniforms of glsl transitions), by path, each opened
    /// under `policy`.
    /// - Throws: `EditError` naming the parameter (`clips[1].transition.params.luma`) for a file that is not a picture
    ///   it can decode (as an input that is not a media file: exit 2); `InputRefused`, `LimitExceeded`.
    static func images(of transitions: [Transition], policy: InputPolicy = .default) throws -> [String: RGBAImage] {
        var out: [String: RGBAImage] = [:]
        for t in transitions {
            for (name, value) in t.params.sorted(by: { $0.key < $1.key }) {
                guard case .image(let path) = value, !path.isEmpty, out[path] == nil else { continue }
                do { out[path] = try StillImage.read(path, policy: policy) } catch let e as MediaError {
                    let field = (t.shader?.field).map { $0.hasSuffix(".shader") ? String($0.dropLast(".shader".count)) : $0 } ?? "transition"
                    throw EditError("\(field).params.\(name)", "\(path) is not a picture this transition can use (\(e.message))")
                }
            }
        }
        return out
    }

    /// `auto`'s one-line warning when it takes the CPU reference because the GPU context could not be made.
    static func warnNoGPU(_ error: Error, _ options: RenderOptions) {
        options.log("warning: no GPU context (\(error)); rendering on the CPU reference instead")
    }

    /// `needsGPU`: a transition only the GPU can draw (glsl): `auto` does not fall back to the CPU then.
    private static func makeRenderer(_ options: RenderOptions, needsGPU: Bool, renderSize: PixelSize?) throws -> FrameRenderer {
        let cpu = ReferenceRenderer()
        let gpu: GPURenderer
        switch options.backend {
        case .cpu: return FrameRenderer(cpu: cpu, gpu: nil, composites: .cpu, options: options)
        case .gpu: gpu = try GPURenderer(options: options.egl)
        case .auto where !needsGPU && EGLSession.isSoftwareOnly(options.egl):
            // llvmpipe or nothing, and no frame needs OpenGL: no context is made.
            return FrameRenderer(cpu: cpu, gpu: nil, composites: .cpu, options: options,
                                 why: "the only EGL device is a software rasteriser (EGL_MESA_device_software)")
        case .auto:
            do { gpu = try GPURenderer(options: options.egl) } catch let e as GPUError where e.namedDeviceMissing {
                throw e
            } catch let e as GPUError where needsGPU {
                throw e.with(message: "\(e.message); a glsl transition needs the GPU (the CPU reference cannot run GLSL)")
            } catch {
                warnNoGPU(error, options)
                return FrameRenderer(cpu: cpu, gpu: nil, composites: .cpu, options: options, why: "no GPU")
            }
        }
        var composites: FrameStrategy.Drawer = .gpu
        var why: String?
        if options.backend == .auto && gpu.isSoftwareRasteriser {
            composites = .cpu
            why = "GL_RENDERER is a software rasteriser"
        }
        if let size = renderSize, let limit = gpu.maxPictureSize, max(size.width, size.height) > limit {
            let problem = "render size \(size) exceeds this GPU's maximum texture size (\(limit))"
            guard options.backend == .auto else { throw GPUError("GL_MAX_TEXTURE_SIZE", problem + "; use --backend cpu or a smaller --size") }
            if needsGPU { throw GPUError("GL_MAX_TEXTURE_SIZE", problem + "; a glsl transition needs the GPU: use a smaller --size") }
            if composites == .gpu { options.log("warning: \(problem); rendering on the CPU reference instead") }
            return FrameRenderer(cpu: cpu, gpu: nil, composites: .cpu, options: options, why: why ?? problem)
        }
        // A software rasteriser that no frame needs is let go (its context holds 50–60 MB).
        return FrameRenderer(cpu: cpu, gpu: composites == .gpu || needsGPU ? gpu : nil, composites: composites, options: options, why: why)
    }
}
