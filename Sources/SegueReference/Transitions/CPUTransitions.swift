import SegueCore

/// The transition functions of `Shaders/glsl/*.frag`, mirrored in Swift: one file per transition, named like its
/// shader, each an extension of this enum with one function `(uv, input) -> colour`.
enum CPUTransitions {
    /// A transition function: output uv (0…1, top-left origin) → colour (R′G′B′A, or the pass's values when fused).
    typealias Function = (SIMD2<Float>, TransitionInput) -> SIMD4<Float>

    /// The function of `kind`. Every built-in has one: a new `TransitionKind` case does not compile without its line
    /// here. `glsl` has none: the CPU reference cannot run GLSL.
    static func function(_ kind: TransitionKind) -> Function? {
        switch kind {
        case .glsl: return nil
        case .crossfade: return crossfade
        case .push: return push
        case .wipe: return wipe
        case .fade: return fade
        case .wipeleft: return wipeleft
        case .wiperight: return wiperight
        case .wipeup: return wipeup
        case .wipedown: return wipedown
        case .slideleft: return slideleft
        case .slideright: return slideright
        case .slideup: return slideup
        case .slidedown: return slidedown
        case .circlecrop: return circlecrop
        case .rectcrop: return rectcrop
        case .distance: return distance
        case .fadeblack: return fadeblack
        case .fadewhite: return fadewhite
        case .radial: return radial
        case .smoothleft: return smoothleft
        case .smoothright: return smoothright
        case .smoothup: return smoothup
        case .smoothdown: return smoothdown
        case .circleopen: return circleopen
        case .circleclose: return circleclose
        case .vertopen: return vertopen
        case .vertclose: return vertclose
        case .horzopen: return horzopen
        case .horzclose: return horzclose
        case .dissolve: return dissolve
        case .pixelize: return pixelize
        case .diagtl: return diagtl
        case .diagtr: return diagtr
        case .diagbl: return diagbl
        case .diagbr: return diagbr
        case .hlslice: return hlslice
        case .hrslice: return hrslice
        case .vuslice: return vuslice
        case .vdslice: return vdslice
        case .hblur: return hblur
        case .fadegrays: return fadegrays
        case .wipetl: return wipetl
        case .wipetr: return wipetr
        case .wipebl: return wipebl
        case .wipebr: return wipebr
        case .squeezeh: return squeezeh
        case .squeezev: return squeezev
        case .zoomin: return zoomin
        case .fadefast: return fadefast
        case .fadeslow: return fadeslow
        }
    }
}

/// What a transition function sees, as in the gl-transitions contract: `progress`, `ratio`, Segue's `direction`,
/// its parameters, and the two lookups `getFromColor` / `getToColor` (uv 0…1, top-left origin); and the helpers
/// of `prelude.glsl` and `colour.glsl` (`segue_pixel`, `segue_moved`, `segue_toYCbCr`, `segue_maxCode`, …) with the
/// same arithmetic.
struct TransitionInput {
    /// 0…1, GLSL `mix` semantics (0 shows only A).
    let progress: Float
    /// Render width / height.
    let ratio: Float
    /// Unit step per axis, x right, y down.
    let direction: SIMD2<Float>
    /// Render size in pixels.
    let resolution: SIMD2<Float>
    /// The kind's parameters, in the order of `TransitionTraits.parameters`.
    let parameters: [Float]
    let from: ReferenceLayer
    let to: ReferenceLayer
    /// Black and white as the layers give colours in this pass (`segue_black`, `segue_white`).
    let black: SIMD4<Float>
    let white: SIMD4<Float>
    /// `TransitionNoise` for the render size (empty unless the kind `usesNoise`).
    let noise: [Float]
    /// The pass's Y′CbCr (`segue_rowY`…, `segue_fromOutputMatrix`): the output's, or SDR BT.709 for RGBA previews.
    let output: OutputYCbCr
    /// Mixing in linear light (`LINEAR`): the signal the layers are in (the pass's `DynamicRange`), whose EOTF the
    /// lookups pass through (`segue_outputEOTF`) and whose inverse the Y′CbCr helpers apply first; nil: gamma.
    let linear: DynamicRange?

    init(progress: Float, ratio: Float, direction: SIMD2<Float>, resolution: SIMD2<Float>, parameters: [Float], from: ReferenceLayer,
         to: ReferenceLayer, black: SIMD4<Float>, white: SIMD4<Float>, noise: [Float], output: OutputYCbCr, linear: DynamicRange?) {
        self.progress = progress; self.ratio = ratio; self.direction = direction; self.resolution = resolution
        self.parameters = parameters; self.from = from; self.to = to; self.black = black; self.white = white; self.noise = noise
        self.output = output; self.linear = linear
        rowY = output.y; rowCb = output.cb; rowCr = output.cr
        toRGB = output.toRGB
        maxCode = Float(output.maxCode)
        neutralChroma = output.neutralChroma
    }
    private let rowY: [Float], rowCb: [Float], rowCr: [Float]
    private let toRGB: YCbCrToRGB
    /// `segue_maxCode`: the output's largest code value (255, or 1023 for HDR output).
    let maxCode: Float
    /// `segue_neutralChroma`: neutral Cb and Cr, code / `maxCode`.
    let neutralChroma: Float

    /// The sample being evaluated when the pass is evaluated row by row (`PassEvaluator`): a lookup at the sample's own
    /// position takes the layer's value from the row read once for all columns. Nil: every lookup reads its point.
    unowned(unsafe) var cursor: RowCursor?

    @inline(__always) func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let c: SIMD4<Float>
        if let k = cursor, uv == k.uv { c = k.own(0) } else { c = from.color(uv) }
        return linear.map { $0.eotfPremultiplied(c) } ?? c
    }
    @inline(__always) func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let c: SIMD4<Float>
        if let k = cursor, uv == k.uv { c = k.own(1) } else { c = to.color(uv) }
        return linear.map { $0.eotfPremultiplied(c) } ?? c
    }

    /// `segue_pixel`: the output pixel (column, row) that uv lies in; edges count for the pixel above / to the left.
    @inline(__always) func pixel(_ uv: SIMD2<Float>) -> SIMD2<Float> { (uv * resolution - 1.0 / 64).rounded(.down) }
    /// `segue_moved`: uv moved by whole pixels into `pixel`.
    @inline(__always) func moved(_ uv: SIMD2<Float>, _ pixel: SIMD2<Float>) -> SIMD2<Float> { uv + (pixel - self.pixel(uv)) / resolution }
    /// Render width and height as integers.
    var size: (w: Int, h: Int) { (Int(resolution.x), Int(resolution.y)) }
    /// `segue_noise` at a pixel.
    @inline(__always) func noise(_ x: Int, _ y: Int) -> Float { noise[y * size.w + x] }

    /// `segue_toYCbCr`: R′G′B′ → the output's Y′CbCr (code / (2^N − 1)).
    @inline(__always) func toYCbCr(_ colour: SIMD4<Float>) -> SIMD3<Float> {
        let c = linear.map { $0.inverseEOTF(colour) } ?? colour
        let y = rowY, cb = rowCb, cr = rowCr
        return SIMD3(y[0] * c.x + y[1] * c.y + y[2] * c.z + y[3], cb[0] * c.x + cb[1] * c.y + cb[2] * c.z + cb[3],
                     cr[0] * c.x + cr[1] * c.y + cr[2] * c.z + cr[3])
    }
    /// `segue_fromYCbCr`: the output's Y′CbCr (code / (2^N − 1)) → R′G′B′A (alpha 1).
    @inline(__always) func fromYCbCr(_ v: SIMD3<Float>) -> SIMD4<Float> {
        let m = toRGB.matrix, o = toRGB.offset
        @inline(__always) func row(_ r: Int) -> Float { m[3 * r] * v.x + m[3 * r + 1] * v.y + m[3 * r + 2] * v.z + o[r] }
        let c = SIMD4(row(0), row(1), row(2), 1)
        return linear.map { $0.eotf(c) } ?? c
    }
}

/// GLSL `mix(x, y, a)`: `x·(1 − a) + y·a`.
@inline(__always) func mix(_ x: SIMD4<Float>, _ y: SIMD4<Float>, _ a: Float) -> SIMD4<Float> { x * (1 - a) + y * a }
@inline(__always) func mix(_ x: SIMD3<Float>, _ y: SIMD3<Float>, _ a: SIMD3<Float>) -> SIMD3<Float> { x * (1 - a) + y * a }
/// GLSL `smoothstep(e0, e1, x)`: `t²·(3 − 2t)` with `t = clamp((x − e0) / (e1 − e0), 0, 1)`.
@inline(__always) func smoothstep(_ e0: Float, _ e1: Float, _ x: Float) -> Float {
    let t = min(max((x - e0) / (e1 - e0), 0), 1)
    return t * t * (3 - 2 * t)
}
/// GLSL `fract(x)`: `x − floor(x)`.
@inline(__always) func fract(_ x: Float) -> Float { x - x.rounded(.down) }
