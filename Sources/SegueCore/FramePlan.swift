import Foundation

/// One layer of an output frame: a picture (a clip's frame, a still, or one colour) and where it is drawn.
///
/// What the renderers get for it is a `VideoPicture` (the pipeline decodes a clip's frame, or makes a 1×1 picture of
/// a colour); everything else they need is here, decided by the timeline: the geometry, the opacity, the crop.
public struct LayerPlan: Equatable, Sendable {
    /// What the layer's picture is.
    public enum Content: Equatable, Sendable {
        /// Placement `clipIndex`'s media at `sourceTime`.
        case media
        /// One colour over the whole of the layer's frame, premultiplied by `alpha` (a fill: 1; the gap side of a
        /// transition: 0, transparent).
        case colour(RGBColour, alpha: Double)
        /// Placement `clipIndex`'s text: one premultiplied RGBA picture, shaped and rasterised once for the item's whole
        /// time (the pipeline's text module makes it).
        case text
        /// The caption file of placement `clipIndex` (ASS/SSA, drawn by libass) at `sourceTime`: a premultiplied RGBA
        /// picture of the render size, made for each frame whose captions differ from the frame before.
        case subtitles
        /// Placement `clipIndex`'s shape at this instant: the SVG document that draws it (`ShapeSVG`), which the
        /// pipeline has librsvg draw into a premultiplied RGBA picture (again only when the document changes).
        case shape(svg: String)
    }
    /// The placement (`Timeline.placements`) this layer shows.
    public let clipIndex: Int
    /// Time in the source, from its first frame (clip `start` + clip-local time).
    public let sourceTime: MediaTime
    /// Output pixel position → normalized stored-picture position (fit, motion, crop and the layer's transform).
    public let outputToSource: Affine2D
    /// Whether the layer's scale may change from frame to frame (`Motion`, keyframed scale or crop): its picture is
    /// prefiltered to power-of-two levels (`LayerGeometry.prefilterLevel`).
    public let moving: Bool
    /// The picture the layer draws.
    public var content: Content = .media
    /// Multiplies the picture's (premultiplied) colour and alpha: 1 opaque, 0 invisible.
    public var opacity: Double = 1
    /// The part of the stored picture shown (normalized, top-left origin): `NormalizedRect.unit` uncropped. Outside it
    /// the layer is transparent; inside, reads stay within it.
    public var crop: NormalizedRect = .unit
    /// How its colour mixes with what the passes before it drew (`BlendMode`); normal: drawn over it.
    public var blend = BlendMode.normal
    /// What is done to the picture's colours before its opacity and blend (`PictureEffect`), in order; empty: nothing.
    public var effects: [PictureEffect] = []
    /// The output pixels the layer's picture can reach (the bounding box of its visible part), or nil for anywhere.
    public var bounds: PixelRect?
    /// The clip plays backwards: its source times decrease from frame to frame (the pipeline reads it by GOPs).
    public var reversed = false
    /// The picture is the two source frames around `sourceTime` mixed by their distance (smooth slow motion), not the
    /// frame at or before it; the pipeline makes it, so both renderers get the same picture.
    public var frameBlend = false

    public init(clipIndex: Int, sourceTime: MediaTime, outputToSource: Affine2D, moving: Bool = false) {
        self.clipIndex = clipIndex; self.sourceTime = sourceTime; self.outputToSource = outputToSource; self.moving = moving
    }

    /// Whether the layer draws its picture as it is: opaque, uncropped, not blended (the picture's own alpha aside).
    public var isUntouched: Bool { opacity == 1 && crop == .unit && blend == .normal && effects.isEmpty }
}

/// One draw of a frame: a layer, or two layers joined by a transition at `progress`, composited over what the passes
/// before it drew (premultiplied "over"; the first pass over the edit's background). A track's items make one pass
/// per frame; an A/B transition inside the track is the pass's transition.
public struct CompositePass: Equatable, Sendable {
    /// The video track (0 = the bottom one) the pass draws.
    public let track: Int
    /// The only layer, or the outgoing one (A) in a transition.
    public let from: LayerPlan
    /// The incoming layer (B) during a transition.
    public let to: LayerPlan?
    public let transition: Transition?
    /// The transition's progress: its easing of `(t − T) / d` (in [0, 1): 0 on a transition's first frame).
    public let progress: Double
    /// The output pixels the pass may change (`PixelRect.evenAligned`, so that a 4:2:0 chroma sample and its luma
    /// change together); nil: the whole frame. Outside it the pass is transparent, on both renderers, so the
    /// result does not depend on how much of the frame a renderer actually draws.
    public let rect: PixelRect?
    /// The track matte on the track above that masks this pass (`PassMatte`), or nil. A pass with a matte is never a
    /// frame's first one (the planner puts a transparent pass under it) and is never fused.
    public var matte: PassMatte?

    public init(track: Int = 0, from: LayerPlan, to: LayerPlan?, transition: Transition?, progress: Double, rect: PixelRect? = nil,
                matte: PassMatte? = nil) {
        self.track = track; self.from = from; self.to = to; self.transition = transition; self.progress = progress; self.rect = rect
        self.matte = matte
    }

    /// How the pass mixes with what is below it: its first drawn layer's mode that is not normal (in a transition
    /// between items of different modes the outgoing one's), else normal.
    public var blend: BlendMode { drawnLayers.first { $0.blend != .normal }?.blend ?? .normal }

    /// The layers it draws: `from`, then `to` if any.
    public var drawnLayers: [LayerPlan] { to.map { [from, $0] } ?? [from] }

    /// Its layers, one picture each: `from`, then `to` if any, then the matte's if any.
    public var layers: [LayerPlan] { drawnLayers + (matte.map { [$0.layer] } ?? []) }
}

/// What to draw for one output frame: its passes, bottom first, at the render size.
///
/// The first pass is drawn over `background` across the whole frame: outside its layers' pictures the background
/// shows (letterbox bars, pushed-out areas), as in an edit of one track. Each later pass is blended into the planes
/// the passes before it made, inside its `rect` only: premultiplied "over", `out = c + (1 − α)·below`, on the
/// output's Y′CbCr values (an affine map of R′G′B′, so over on either is the same) at each luma sample and each chroma
/// site, each pass's result quantized to the output's bits before the next (both renderers).
public struct FramePlan: Sendable {
    public let frame: Int64
    public let time: MediaTime
    /// Output picture size in pixels (even for 4:2:0 output).
    public var renderSize: PixelSize
    /// Bottom first; never empty (a frame of nothing but background is one transparent colour layer).
    public var passes: [CompositePass]
    /// The output's dynamic range and tone-mapping curve (the edit's `output`).
    public var colour: OutputColour
    /// What shows under every pass (`Edit.background`); black unless the edit says otherwise.
    public var background: RGBColour = .black
    /// Whether the output keeps alpha (`"background": "transparent"`): nothing shows under the passes (the background is
    /// transparent: premultiplied 0), and the renderers write the composite's alpha too — at every pixel centre and at
    /// every chroma site (`YUV420Image.alpha`, `chromaAlpha`), composited like the colour (`a + (1 − a)·below`). The
    /// planes stay premultiplied (`YUV420Image.straightened` divides them out for the encoder).
    public var keepsAlpha = false

    public init(frame: Int64, time: MediaTime, renderSize: PixelSize, passes: [CompositePass], colour: OutputColour = .sdr,
                background: RGBColour = .black, keepsAlpha: Bool = false) {
        precondition(!passes.isEmpty, "a frame plan has at least one pass")
        self.frame = frame; self.time = time; self.renderSize = renderSize; self.passes = passes; self.colour = colour
        self.background = background; self.keepsAlpha = keepsAlpha
    }

    /// The background as the first pass composites over it: the edit's colour, opaque, or nothing (transparent) when
    /// the output keeps alpha.
    public var backgroundAlpha: Double { keepsAlpha ? 0 : 1 }

    /// Every layer of every pass, in drawing order (pass 0's `from`, its `to`, pass 1's `from`, …): the order of the
    /// pictures a renderer is handed.
    public var layers: [LayerPlan] { passes.flatMap(\.layers) }
}

/// A rectangle of whole output pixels, `[x0, x1) × [y0, y1)` (top-left origin).
public struct PixelRect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    /// The whole of a frame of `size`.
    public init(_ size: PixelSize) { self.init(x0: 0, y0: 0, x1: size.width, y1: size.height) }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var width: Int { max(0, x1 - x0) }
    public var height: Int { max(0, y1 - y0) }
    /// Pixels covered.
    public var area: Int { width * height }
    public func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }
    public func intersection(_ o: PixelRect) -> PixelRect {
        PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    /// Grown to even coordinates (x0, y0 down, x1, y1 up), so that it holds whole 2×2 blocks of a 4:2:0 picture.
    public var evenAligned: PixelRect {
        PixelRect(x0: x0 & ~1, y0: y0 & ~1, x1: (x1 + 1) & ~1, y1: (y1 + 1) & ~1)
    }
    /// Whether output pixel `(x, y)` lies inside.
    @inlinable public func contains(_ x: Int, _ y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
    public var description: String { "\(x0),\(y0)–\(x1),\(y1)" }
}

/// An axis-aligned rectangle in normalized picture coordinates (0…1, top-left origin): `[u0, u1] × [v0, v1]`.
public struct NormalizedRect: Equatable, Hashable, Sendable {
    public var u0, v0, u1, v1: Double
    public init(u0: Double, v0: Double, u1: Double, v1: Double) { self.u0 = u0; self.v0 = v0; self.u1 = u1; self.v1 = v1 }
    /// The whole picture.
    public static let unit = NormalizedRect(u0: 0, v0: 0, u1: 1, v1: 1)
    /// As `Float` (u0, v0, u1, v1) for the renderers.
    public var floats: [Float] { [Float(u0), Float(v0), Float(u1), Float(v1)] }
}
