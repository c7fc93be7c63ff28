/// What drawing one pass of a frame into one output (`OutputPass`) means, decided once from the plan and the pictures:
/// whether the output conversion is folded into the layers (fused), each layer's colour map and colour stage and
/// whether it is read with exact texel fetches, the colour under the pass, and the constants transitions mix with.
/// Both renderers draw a pass from its recipe (`GPURenderer.draw` sets its program and uniforms from it, the CPU
/// renderer evaluates it), so neither decides any of this itself.
public struct PassRecipe: Sendable {
    /// One layer of the pass as it is read.
    public struct Layer: Sendable {
        public let plan: LayerPlan
        /// Output uv (0…1, top-left origin) → stored uv, as (a, b, c, d, tx, ty) in row-vector form
        /// (`TransitionParameters.fromMap`).
        public let map: [Float]
        /// Stored samples → the pass's values: R′G′B′, or fused, the output's luma or Cb and Cr.
        public let colour: LayerColourMap
        /// The non-affine colour stage (an HDR clip, or primaries that differ from the output's), or nil.
        public let stage: ColourStage?
        /// Read with exact texel fetches (`TransitionParameters.isExact`).
        public let exact: Bool
    }

    public let output: OutputPass
    public let parameters: TransitionParameters
    /// Whether the layers give the output's values directly (`LayerColourMap` fused): a pass writing Y′CbCr whose
    /// transition only mixes colours in gamma space and whose layers have no colour stage.
    public let fused: Bool
    /// The signal the pass's values are in: the output's dynamic range for its planes, SDR for RGBA previews.
    public let outputRange: DynamicRange
    /// The output's Y′CbCr (8-bit BT.709, or 10-bit BT.2020 for HDR).
    public let format: OutputYCbCr
    public let from: Layer
    /// The incoming layer; the outgoing one again when the pass has a single layer.
    public let to: Layer
    /// The track matte's layer (`CompositePass.matte`), read as R′G′B′A (never fused), or nil.
    public let matte: Layer?
    /// Whether the pass is blended into what the passes before it drew, inside its rectangle.
    public let overBelow: Bool
    /// What the layers give outside their pictures: the edit's background in the pass's values (the first pass), or
    /// transparent (a later one). Four values: R′G′B′A, or the fused values and alpha.
    public let background: [Float]
    /// Black and white as the layers give colours in this pass (`segue_black`, `segue_white`).
    public let black: [Float], white: [Float]

    /// - Parameters:
    ///   - pictures: the pass's pictures: `from`'s, then `to`'s when the pass has two layers, then its matte's.
    ///   - fuseColour: whether fusing is allowed at all (the renderers' `fuseColour`, off only to compare).
    public init(pass: CompositePass, plan: FramePlan, pictures: ArraySlice<VideoPicture>, output: OutputPass, overBelow: Bool,
                fuseColour: Bool = true) {
        let p = TransitionParameters(pass: pass, renderSize: plan.renderSize)
        let fromPicture = pictures[pictures.startIndex]
        let toPicture = pass.to == nil ? fromPicture : pictures[pictures.startIndex + 1]
        // A layer with a colour stage (HDR clips, other primaries) gives R′G′B′: the composite is converted, not fused.
        let fromStage = ColourStage(picture: fromPicture, plan: plan, pass: output)
        let toStage = pass.to == nil ? nil : ColourStage(picture: toPicture, plan: plan, pass: output)
        // A pass that blends (a later one) mixes R′G′B′ with the backdrop: not fused either.
        // A layer with picture effects gives R′G′B′ too (the effects work on colours).
        let fused = fuseColour && output.writesYCbCr && p.fuses && fromStage == nil && toStage == nil && (!overBelow || pass.blend == .normal)
            && pass.layers.allSatisfy(\.effects.isEmpty)
            && pass.matte == nil
        let range = output.writesYCbCr ? plan.colour.dynamicRange : DynamicRange.sdr
        let format = OutputYCbCr(range)
        func layer(_ l: LayerPlan, _ picture: VideoPicture, _ map: [Float], _ stage: ColourStage?) -> Layer {
            Layer(plan: l, map: map, colour: LayerColourMap(picture: picture, pass: output, fused: fused, output: format), stage: stage,
                  exact: TransitionParameters.isExact(pass, l, picture: picture))
        }
        self.output = output
        parameters = p
        self.fused = fused
        outputRange = range
        self.format = format
        from = layer(pass.from, fromPicture, p.fromMap, fromStage)
        to = pass.to.map { layer($0, toPicture, p.toMap, toStage) } ?? from
        if let m = pass.matte {
            // The matte's picture is the pass's last; it gives R′G′B′A whatever the pass writes.
            let picture = pictures[pictures.startIndex + pass.layers.count - 1]
            matte = Layer(plan: m.layer, map: TransitionParameters.uvMap(m.layer, renderSize: plan.renderSize),
                          colour: LayerColourMap(picture: picture, pass: output, fused: false, output: format),
                          stage: ColourStage(picture: picture, plan: plan, pass: output), exact: TransitionParameters.isExact(m.layer, picture: picture))
        } else {
            matte = nil
        }
        self.overBelow = overBelow
        background = overBelow ? [0, 0, 0, 0]
            : LayerColourMap.background(pass: output, fused: fused, output: format, colour: plan.background, alpha: plan.backgroundAlpha)
        black = LayerColourMap.constant(0, 0, 0, pass: output, fused: fused, output: format)
        white = LayerColourMap.constant(1, 1, 1, pass: output, fused: fused, output: format)
    }
}
