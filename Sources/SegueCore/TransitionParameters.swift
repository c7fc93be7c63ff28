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
        func uvMap(_ l: LayerPlan) -> [Float] { TransitionParameters.uvMap(l, renderSize: renderSize) }
        fromMap = uvMap(pass.from)
        toMap = pass.to.map(uvMap) ?? fromMap
    }

    /// `layer`'s map from output uv (0…1, top-left origin) to stored uv, as (a, b, c, d, tx, ty) in row-vector form.
    public static func uvMap(_ layer: LayerPlan, renderSize: PixelSize) -> [Float] {
        let m = Affine2D.scale(Double(renderSize.width), Double(renderSize.height)).then(layer.outputToSource)
        return [m.a, m.b, m.c, m.d, m.tx, m.ty].map { Float($0) }
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
        isExact(layer, picture: picture, moved: pass.transition?.kind.traits.movesLayers == true)
    }

    /// As above for a layer no transition moves (`moved` false): a pass's matte.
    public static func isExact(_ layer: LayerPlan, picture: VideoPicture, moved: Bool = false) -> Bool {
        if picture.width == 1 && picture.height == 1 { return true }
        return picture.layout != .rgba && picture.chromaShiftX == 1 && picture.chromaShiftY == 1
            && !moved && LayerGeometry.isPixelExact(layer.outputToSource, codedSize: picture.size)
    }
}
