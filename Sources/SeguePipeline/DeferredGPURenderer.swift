import SegueCore
import SegueGL
import SegueReference

/// `--backend auto` where the only GPU is Mesa's software rasteriser (`EGLSession.isSoftwareOnly`): the frames the CPU
/// draws faster on the planes never need OpenGL (`PlaneTransitions`, `PlaneOverlays`, direct frames), so the EGL
/// context — llvmpipe's 50–55 MB of mapped LLVM and Gallium code and its state, about 60 MB of peak RSS at 1080p — is
/// made only when the first frame that does need it is drawn, on the thread that draws it (the render thread, as
/// for an eager `GPURenderer`). An edit none of whose frames needs it never makes one.
///
/// Until then it says what llvmpipe would: `maxPictureSize` is llvmpipe's `GL_MAX_TEXTURE_SIZE`
/// (`assumedMaxPictureSize`, checked when the context is made), and transitions handed to `prepare` are compiled
/// then. Made only for edits without glsl transitions (those need the GPU at once: compiled and tried before the
/// first frame, `RenderJob.preflight`). If the context cannot be made after all, the CPU reference draws the
/// remaining frames, with the same one-line warning `auto` gives at start.
final class DeferredGPURenderer: CompositeRenderer {
    /// llvmpipe's `GL_MAX_TEXTURE_SIZE` (Mesa: `LP_MAX_TEXTURE_2D_LEVELS` 15, 2^14 texels), which pictures are
    /// reduced to before they reach a renderer (`LayerGeometry.reducedSize`).
    static let assumedMaxPictureSize = 16384

    private let options: RenderOptions
    private var made: CompositeRenderer?
    private var preparedFor: (transitions: [Transition], images: [String: RGBAImage])?

    init(options: RenderOptions) { self.options = options }

    /// Whether the GL context was made (a frame needed it).
    var isStarted: Bool { made != nil }

    var name: String {
        made?.name ?? "cpu on the planes (the only GPU is a software rasteriser, and no frame needed it: no GL context was made)"
    }
    var maxPictureSize: Int? { Self.assumedMaxPictureSize }

    func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws {
        if let made { return try made.prepare(for: transitions, images: images) }
        preparedFor = (transitions, images)
    }

    /// The renderer, made (and prepared) on first use.
    /// - Throws: `GPUError` when llvmpipe's texture limit is below `assumedMaxPictureSize` (pictures up to that were
    ///   let through), or from `prepare`.
    func renderer() throws -> CompositeRenderer {
        if let made { return made }
        let r: CompositeRenderer
        do {
            r = try GPURenderer(options: options.egl)
        } catch let e as GPUError {
            RenderJob.warnNoGPU(e, options)
            r = ReferenceRenderer()
        }
        if let gpu = r as? GPURenderer {
            if let limit = gpu.maxPictureSize, limit < Self.assumedMaxPictureSize {
                throw GPUError("GL_MAX_TEXTURE_SIZE", "\(gpu.session.renderer) takes pictures of at most \(limit) pixels, not the \(Self.assumedMaxPictureSize) assumed before its context was made; use --backend gpu")
            }
            if options.verbose { options.log("segue: a frame needs OpenGL: made the context now (\(gpu.name))") }
        }
        if let p = preparedFor { try r.prepare(for: p.transitions, images: p.images) }
        made = r
        return r
    }

    func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage {
        try renderer().render(plan, pictures: pictures)
    }

    func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture]) throws -> YUV420Image {
        try renderer().renderYUV420(plan, pictures: pictures)
    }

    func makeYUV420Pipeline() -> YUV420Pipeline { DeferredPipeline(owner: self) }

    /// The renderer's pipeline, made with it on the first frame submitted.
    private final class DeferredPipeline: YUV420Pipeline {
        private let owner: DeferredGPURenderer
        private var inner: YUV420Pipeline?
        init(owner: DeferredGPURenderer) { self.owner = owner }

        func submit(_ plan: FramePlan, pictures: [VideoPicture]) throws -> [YUV420Image] {
            if inner == nil { inner = try owner.renderer().makeYUV420Pipeline() }
            return try inner!.submit(plan, pictures: pictures)
        }

        func finish() throws -> [YUV420Image] { try inner?.finish() ?? [] }
    }
}
