/// Draws output frames from a `FramePlan`. Implemented by the GPU renderer (`SegueGL`) and the CPU reference
/// (`SegueReference`); both must produce the same pixels (within rounding) for the same plan. A renderer draws what
/// the plan says and decides nothing: the passes, their layers' geometry, opacity, crop and rectangles all come from
/// the plan (`Timeline.plan(frame:)`).
public protocol CompositeRenderer: AnyObject {
    /// A short name for logs: "gpu (llvmpipe …)" or "cpu".
    var name: String { get }
    /// Renders one frame of `plan.renderSize` pixels as full-range R′G′B′ (previews, contact sheets, tests).
    /// - Parameters:
    ///   - plan: what to draw.
    ///   - pictures: the stored picture of each of `plan.layers`, in that order (a clip's frame at its source time;
    ///     a 1×1 premultiplied RGBA picture for a colour layer).
    func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage
    /// Renders one frame straight into the encoder's format: BT.709 limited-range Y′CbCr 4:2:0, chroma sited
    /// left (`YUV420Image`; the render size must be even). Luma is computed at each pixel centre, chroma at each
    /// chroma sample's site (`RGBToOutputYCbCr.siting`), both from the same composite.
    /// With `base` (8-bit 4:2:0, the render size: the first pass's planes taken straight from its picture,
    /// `FrameStrategy.base`) only the passes above it are drawn, each inside its rectangle; nil: every pass is drawn.
    func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> YUV420Image
    /// A pipeline for rendering many frames in a row into the encoder's format, with the same pixels as
    /// `renderYUV420`; the GPU renderer's overlaps each frame's readback with the next frame's drawing. The
    /// default renders synchronously (`SynchronousYUV420Pipeline`). Use it on the renderer's thread, and no
    /// other rendering call on that renderer between its `submit`s except `render`.
    func makeYUV420Pipeline() -> YUV420Pipeline
    /// The largest picture width or height this renderer takes (the GPU's `GL_MAX_TEXTURE_SIZE`), or nil for no limit
    /// (the CPU reference). The pipeline reduces larger pictures on the CPU before handing them over
    /// (`LayerGeometry.reducedSize`). The default is nil.
    var maxPictureSize: Int? { get }
    /// Gets ready to draw `transitions` (the GPU compiles their shaders), so that a transition this renderer cannot
    /// draw fails before the first frame. `images` holds the decoded image of every `.image` parameter, by path.
    /// The default does nothing.
    /// - Throws: `EditError` for a transition this renderer cannot draw (a glsl shader that does not compile,
    ///   or GLSL on the CPU), `GPUError`.
    func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws
    /// The blur of `image` (premultiplied R′G′B′A of the render size) by `filter`'s Gaussian (`LayerFilter`): the
    /// GPU's in GLSL (`segue_blur`), the CPU's `LayerFilter.blurred`. The default is the CPU's.
    func blurred(_ image: RGBAImage, by filter: LayerFilter) throws -> RGBAImage
}

/// Frames rendered in submission order, returned as they are finished: `submit` frame n may give back frame n
/// itself, an earlier one, or none yet; `finish` returns the rest. Every submitted frame comes back exactly once,
/// in order. Dropping the pipeline drops frames still in flight.
public protocol YUV420Pipeline: AnyObject {
    /// Starts rendering one frame (the arguments of `CompositeRenderer.renderYUV420`) and returns the frames
    /// finished since the last call, oldest first.
    func submit(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> [YUV420Image]
    /// Waits for every frame still in flight and returns them, oldest first.
    func finish() throws -> [YUV420Image]
}

/// `renderYUV420` frame by frame: `submit` returns its own frame, `finish` nothing.
public final class SynchronousYUV420Pipeline: YUV420Pipeline {
    public let renderer: CompositeRenderer
    public init(renderer: CompositeRenderer) { self.renderer = renderer }
    public func submit(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> [YUV420Image] {
        [try renderer.renderYUV420(plan, pictures: pictures, base: base)]
    }
    public func finish() throws -> [YUV420Image] { [] }
}

extension YUV420Pipeline {
    /// `submit` with every pass drawn.
    public func submit(_ plan: FramePlan, pictures: [VideoPicture]) throws -> [YUV420Image] { try submit(plan, pictures: pictures, base: nil) }
}

extension CompositeRenderer {
    /// `renderYUV420` with every pass drawn.
    public func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture]) throws -> YUV420Image {
        try renderYUV420(plan, pictures: pictures, base: nil)
    }
    public func makeYUV420Pipeline() -> YUV420Pipeline { SynchronousYUV420Pipeline(renderer: self) }
    public var maxPictureSize: Int? { nil }
    public func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws {}
    public func blurred(_ image: RGBAImage, by filter: LayerFilter) throws -> RGBAImage { filter.blurred(image) }
}
