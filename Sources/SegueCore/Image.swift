/// An 8-bit RGBA picture, rows top to bottom, 4 bytes per pixel, no row padding (`width × height × 4` bytes).
/// Channel values are full-range, gamma-encoded (BT.709 transfer) R′G′B′; alpha is 255, except for the frames of an
/// output that keeps alpha (`FramePlan.keepsAlpha`), which the renderers draw premultiplied (`straightened`).
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA buffer must be width × height × 4 bytes")
        self.width = width; self.height = height; self.pixels = pixels
    }
    /// A picture filled with one colour.
    public init(width: Int, height: Int, fill: (UInt8, UInt8, UInt8)) {
        var p = [UInt8](repeating: 255, count: width * height * 4)
        for i in stride(from: 0, to: p.count, by: 4) { p[i] = fill.0; p[i + 1] = fill.1; p[i + 2] = fill.2 }
        self.init(width: width, height: height, pixels: p)
    }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// The pixel at column `x`, row `y` (top-left origin) as (R, G, B, A).
    public func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// A premultiplied picture with its colour divided by its alpha (`round(255·c / a)`, clamped; black where alpha is
    /// 0), as PNG stores it.
    public func straightened() -> RGBAImage {
        var p = pixels
        for i in stride(from: 0, to: p.count, by: 4) {
            let a = Int(p[i + 3])
            guard a < 255 else { continue }
            for c in 0..<3 { p[i + c] = a == 0 ? 0 : UInt8(min(255, (Int(p[i + c]) * 255 + a / 2) / a)) }
        }
        return RGBAImage(width: width, height: height, pixels: p)
    }
}

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
}

/// Per-pass shader parameters shared by both renderers, derived from a `CompositePass`.
public struct TransitionParameters: Sendable {
    /// The transition, nil for a frame without one.
    public let kind: TransitionKind?
    /// Which transition function: the `Shaders/glsl/*.frag` stem (`kind.shaderStem`), "none" without a transition.
    public var function: String { kind?.shaderStem ?? "none" }
    /// Progress 0…1 (GLSL `mix` semantics: 0 shows only the outgoing clip).
    public let progress: Float
    /// Direction as a unit step per axis (x right, y down).
    public let direction: (Float, Float)
    /// The kind's parameters (`TransitionTraits.parameters`, in order): the transition's values or the defaults.
    public let parameters: [Float]
    /// The transition mixes in linear light (`Blending.linear`).
    public let linear: Bool
    /// Output-normalized (0…1, top-left origin) → source-normalized maps, as (a, b, c, d, tx, ty) in row-vector form.
    public let fromMap: [Float]
    public let toMap: [Float]

    public init(pass: CompositePass, renderSize: PixelSize) {
        kind = pass.transition?.kind
        progress = Float(pass.progress)
        let v = pass.transition?.direction.vector ?? (x: 0, y: 0)
        direction = (Float(v.x), Float(v.y))
        parameters = pass.transition?.parameterValues.map { Float($0) } ?? []
        linear = pass.transition?.blend == .linear
        func uvMap(_ l: LayerPlan) -> [Float] {
            let m = Affine2D.scale(Double(renderSize.width), Double(renderSize.height)).then(l.outputToSource)
            return [m.a, m.b, m.c, m.d, m.tx, m.ty].map { Float($0) }
        }
        fromMap = uvMap(pass.from)
        toMap = pass.to.map(uvMap) ?? fromMap
    }

    /// Whether the transition's colour is a mix or a selection of the layers' colours (`TransitionTraits.mixesColoursOnly`;
    /// true without a transition): its luma and chroma passes are fused (`LayerColourMap`).
    public var mixesColoursOnly: Bool { kind?.traits.mixesColoursOnly ?? true }

    /// Whether the luma and chroma passes fold the output conversion into the layers: the transition only mixes
    /// colours, and mixes them in gamma space (linear light needs R′G′B′ to undo the transfer).
    public var fuses: Bool { mixesColoursOnly && !linear }

    /// Whether `layer`, showing `picture`, is read with exact texel fetches in this frame: its map is pixel-exact
    /// (`LayerGeometry.isPixelExact`), the transition does not move it by fractions of a pixel
    /// (`TransitionTraits.movesLayers`: push does), and the picture is 4:2:0 Y′CbCr, whose chroma grid is the
    /// output's: then every read lands on a stored sample. (4:2:2, 4:4:4 and RGBA pictures keep their filtered
    /// reads, which average the chroma the output's 4:2:0 has no room for.)
    /// A 1×1 picture (a colour layer: a fill, a gap's transparency) is exact wherever it is drawn: every read is its
    /// one texel.
    public static func isExact(_ pass: CompositePass, _ layer: LayerPlan, picture: VideoPicture) -> Bool {
        if picture.width == 1 && picture.height == 1 { return true }
        return picture.layout != .rgba && picture.chromaShiftX == 1 && picture.chromaShiftY == 1
            && pass.transition?.kind.traits.movesLayers != true && LayerGeometry.isPixelExact(layer.outputToSource, codedSize: picture.size)
    }
}
