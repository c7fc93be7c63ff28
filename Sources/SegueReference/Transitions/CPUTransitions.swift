import SegueCore

/// The transition functions of `Shaders/glsl/*.frag`, mirrored in Swift: one file per transition, named like its
/// shader, each an extension of this enum with one function `(uv, input) -> colour`; here, the table from
/// `TransitionKind` to them.
enum CPUTransitions {
    /// A transition function: output uv (0…1, top-left origin) → colour (R′G′B′A, or the pass's values when fused).
    typealias Function = (SIMD2<Float>, TransitionInput) -> SIMD4<Float>

    /// The function of `kind`. Every built-in has one: a new `TransitionKind` case does not compile without its line
    /// in `visit`. `glsl` has none: the CPU reference cannot run GLSL.
    static func function(_ kind: TransitionKind) -> Function? {
        struct AsFunction: TransitionFormulaVisitor {
            func visit<T: TransitionFormula>(_ formula: T.Type) -> Function { T.colour }
        }
        return visit(kind, AsFunction())
    }

    /// Where the transition `kind` reads the from and to layers at uv moved by an offset that is the same for every
    /// sample of the frame (a push, a slide; added as `uv + offset`), from the same function its formula moves uv
    /// with; nil where it does not. A hint: `PassEvaluator` reads those rows at once, and a lookup takes them only
    /// where its position equals the row's, bit for bit.
    static func offsets(_ kind: TransitionKind, _ t: TransitionInput) -> (from: SIMD2<Float>, to: SIMD2<Float>)? {
        switch kind {
        case .push: return pushOffsets(t)
        case .slideleft: return slideleftOffsets(t)
        case .slideright: return sliderightOffsets(t)
        case .slideup: return slideupOffsets(t)
        case .slidedown: return slidedownOffsets(t)
        default: return nil
        }
    }

    /// Whether `kind` reads both layers at (nearly) every sample's own position, so that `PassEvaluator` reads a row's
    /// from and to before its loop rather than on first use: not the kinds that move uv, read elsewhere, or show one
    /// layer on whole rows (a wipe up or down). A hint: the values are the same either way.
    static func readsOwnRows(_ kind: TransitionKind, _ t: TransitionInput) -> Bool {
        switch kind {
        case .glsl, .push, .slideleft, .slideright, .slideup, .slidedown, .pixelize, .hblur, .zoomin, .squeezeh, .squeezev,
             .circlecrop, .rectcrop, .wipeup, .wipedown, .vertopen, .vertclose, .vuslice, .vdslice:
            return false
        case .wipe: return t.direction.y == 0
        default: return true
        }
    }

    /// `visitor` given the formula of `kind` as a type (nil for `glsl`), so that what it does with it — a loop over a
    /// row of samples — is specialised for that formula, the formula inlined.
    static func visit<V: TransitionFormulaVisitor>(_ kind: TransitionKind, _ visitor: V) -> V.Result? {
        typealias F = Formulas
        switch kind {
        case .glsl: return nil
        case .crossfade: return visitor.visit(F.crossfade.self)
        case .push: return visitor.visit(F.push.self)
        case .wipe: return visitor.visit(F.wipe.self)
        case .fade: return visitor.visit(F.fade.self)
        case .wipeleft: return visitor.visit(F.wipeleft.self)
        case .wiperight: return visitor.visit(F.wiperight.self)
        case .wipeup: return visitor.visit(F.wipeup.self)
        case .wipedown: return visitor.visit(F.wipedown.self)
        case .slideleft: return visitor.visit(F.slideleft.self)
        case .slideright: return visitor.visit(F.slideright.self)
        case .slideup: return visitor.visit(F.slideup.self)
        case .slidedown: return visitor.visit(F.slidedown.self)
        case .circlecrop: return visitor.visit(F.circlecrop.self)
        case .rectcrop: return visitor.visit(F.rectcrop.self)
        case .distance: return visitor.visit(F.distance.self)
        case .fadeblack: return visitor.visit(F.fadeblack.self)
        case .fadewhite: return visitor.visit(F.fadewhite.self)
        case .radial: return visitor.visit(F.radial.self)
        case .smoothleft: return visitor.visit(F.smoothleft.self)
        case .smoothright: return visitor.visit(F.smoothright.self)
        case .smoothup: return visitor.visit(F.smoothup.self)
        case .smoothdown: return visitor.visit(F.smoothdown.self)
        case .circleopen: return visitor.visit(F.circleopen.self)
        case .circleclose: return visitor.visit(F.circleclose.self)
        case .vertopen: return visitor.visit(F.vertopen.self)
        case .vertclose: return visitor.visit(F.vertclose.self)
        case .horzopen: return visitor.visit(F.horzopen.self)
        case .horzclose: return visitor.visit(F.horzclose.self)
        case .dissolve: return visitor.visit(F.dissolve.self)
        case .pixelize: return visitor.visit(F.pixelize.self)
        case .diagtl: return visitor.visit(F.diagtl.self)
        case .diagtr: return visitor.visit(F.diagtr.self)
        case .diagbl: return visitor.visit(F.diagbl.self)
        case .diagbr: return visitor.visit(F.diagbr.self)
        case .hlslice: return visitor.visit(F.hlslice.self)
        case .hrslice: return visitor.visit(F.hrslice.self)
        case .vuslice: return visitor.visit(F.vuslice.self)
        case .vdslice: return visitor.visit(F.vdslice.self)
        case .hblur: return visitor.visit(F.hblur.self)
        case .fadegrays: return visitor.visit(F.fadegrays.self)
        case .wipetl: return visitor.visit(F.wipetl.self)
        case .wipetr: return visitor.visit(F.wipetr.self)
        case .wipebl: return visitor.visit(F.wipebl.self)
        case .wipebr: return visitor.visit(F.wipebr.self)
        case .squeezeh: return visitor.visit(F.squeezeh.self)
        case .squeezev: return visitor.visit(F.squeezev.self)
        case .zoomin: return visitor.visit(F.zoomin.self)
        case .fadefast: return visitor.visit(F.fadefast.self)
        case .fadeslow: return visitor.visit(F.fadeslow.self)
        }
    }
}

/// A transition's formula as a type (`CPUTransitions.visit`).
protocol TransitionFormula {
    static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float>
}

/// What is done with the formula of a transition kind (`CPUTransitions.visit`).
protocol TransitionFormulaVisitor {
    associatedtype Result
    func visit<T: TransitionFormula>(_ formula: T.Type) -> Result
}

/// Each transition's function (`CPUTransitions.crossfade`, … one file per transition named like its shader) as a
/// `TransitionFormula`, for `CPUTransitions.visit`.
enum Formulas {
    enum crossfade: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.crossfade(uv, t) } }
    enum push: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.push(uv, t) } }
    enum wipe: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipe(uv, t) } }
    enum fade: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fade(uv, t) } }
    enum wipeleft: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipeleft(uv, t) } }
    enum wiperight: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wiperight(uv, t) } }
    enum wipeup: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipeup(uv, t) } }
    enum wipedown: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipedown(uv, t) } }
    enum slideleft: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.slideleft(uv, t) } }
    enum slideright: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.slideright(uv, t) } }
    enum slideup: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.slideup(uv, t) } }
    enum slidedown: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.slidedown(uv, t) } }
    enum circlecrop: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.circlecrop(uv, t) } }
    enum rectcrop: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.rectcrop(uv, t) } }
    enum distance: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.distance(uv, t) } }
    enum fadeblack: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fadeblack(uv, t) } }
    enum fadewhite: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fadewhite(uv, t) } }
    enum radial: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.radial(uv, t) } }
    enum smoothleft: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.smoothleft(uv, t) } }
    enum smoothright: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.smoothright(uv, t) } }
    enum smoothup: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.smoothup(uv, t) } }
    enum smoothdown: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.smoothdown(uv, t) } }
    enum circleopen: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.circleopen(uv, t) } }
    enum circleclose: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.circleclose(uv, t) } }
    enum vertopen: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.vertopen(uv, t) } }
    enum vertclose: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.vertclose(uv, t) } }
    enum horzopen: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.horzopen(uv, t) } }
    enum horzclose: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.horzclose(uv, t) } }
    enum dissolve: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.dissolve(uv, t) } }
    enum pixelize: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.pixelize(uv, t) } }
    enum diagtl: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.diagtl(uv, t) } }
    enum diagtr: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.diagtr(uv, t) } }
    enum diagbl: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.diagbl(uv, t) } }
    enum diagbr: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.diagbr(uv, t) } }
    enum hlslice: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.hlslice(uv, t) } }
    enum hrslice: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.hrslice(uv, t) } }
    enum vuslice: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.vuslice(uv, t) } }
    enum vdslice: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.vdslice(uv, t) } }
    enum hblur: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.hblur(uv, t) } }
    enum fadegrays: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fadegrays(uv, t) } }
    enum wipetl: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipetl(uv, t) } }
    enum wipetr: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipetr(uv, t) } }
    enum wipebl: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipebl(uv, t) } }
    enum wipebr: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.wipebr(uv, t) } }
    enum squeezeh: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.squeezeh(uv, t) } }
    enum squeezev: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.squeezev(uv, t) } }
    enum zoomin: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.zoomin(uv, t) } }
    enum fadefast: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fadefast(uv, t) } }
    enum fadeslow: TransitionFormula { @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> { CPUTransitions.fadeslow(uv, t) } }
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
    /// Black and white as the layers give colours in this pass (`segue_black`, `segue_white`).
    let black: SIMD4<Float>
    let white: SIMD4<Float>
    /// Mixing in linear light (`LINEAR`): the signal the layers are in (the pass's `DynamicRange`), whose EOTF the
    /// lookups pass through (`segue_outputEOTF`) and whose inverse the Y′CbCr helpers apply first; nil: gamma.
    let linear: DynamicRange?
    /// Render width and height as integers (`resolution`'s; made once, not per sample).
    let size: (w: Int, h: Int)
    /// `segue_maxCode`: the output's largest code value (255, or 1023 for HDR output).
    let maxCode: Float
    /// `segue_neutralChroma`: neutral Cb and Cr, code / `maxCode`.
    let neutralChroma: Float
    /// The rest, held by reference: the input is handed to each sample's formula, and stays a few words long. Its
    /// owner (`PassEvaluator`, or whoever made the input) keeps it alive.
    unowned(unsafe) let context: Context

    /// What the formulas read less often: the layers, the parameters, the noise, the output's conversions.
    final class Context {
        let parameters: [Float]
        let from: ReferenceLayer, to: ReferenceLayer
        let noise: [Float]
        let output: OutputYCbCr
        let rowY: [Float], rowCb: [Float], rowCr: [Float]
        let toRGB: YCbCrToRGB
        init(parameters: [Float], from: ReferenceLayer, to: ReferenceLayer, noise: [Float], output: OutputYCbCr) {
            self.parameters = parameters; self.from = from; self.to = to; self.noise = noise; self.output = output
            rowY = output.y; rowCb = output.cb; rowCr = output.cr
            toRGB = output.toRGB
        }
    }

    /// `context` must outlive the input.
    init(progress: Float, ratio: Float, direction: SIMD2<Float>, resolution: SIMD2<Float>, black: SIMD4<Float>, white: SIMD4<Float>,
         linear: DynamicRange?, context: Context) {
        self.progress = progress; self.ratio = ratio; self.direction = direction; self.resolution = resolution
        self.black = black; self.white = white; self.linear = linear; self.context = context
        size = (Int(resolution.x), Int(resolution.y))
        maxCode = Float(context.output.maxCode)
        neutralChroma = context.output.neutralChroma
    }

    /// The kind's parameters, in the order of `TransitionTraits.parameters`.
    var parameters: [Float] { context.parameters }
    var from: ReferenceLayer { context.from }
    var to: ReferenceLayer { context.to }
    /// The pass's Y′CbCr (`segue_rowY`…, `segue_fromOutputMatrix`): the output's, or SDR BT.709 for RGBA previews.
    var output: OutputYCbCr { context.output }

    /// The row being evaluated when the pass is evaluated row by row (`PassEvaluator`): a lookup at the sample's own
    /// position takes the layer's value from the row read once for all columns. Nil: every lookup reads its point.
    var cursor: UnsafeMutablePointer<RowCursor>?
    /// With `cursor`: the sample's position and column, set per sample in a copy of the input (so that where a
    /// formula passes its uv on, the optimiser sees the lookup is at the sample's own position); and, where the
    /// row's reads were made before its loop (`CPUTransitions.readsOwnRows`), the from and to rows (indexed by column).
    var here = SIMD2<Float>(repeating: -1)
    var column = 0
    var ownRows: (from: UnsafePointer<SIMD4<Float>>, to: UnsafePointer<SIMD4<Float>>)?
    /// With `cursor`, where the row's moved reads were made before its loop (a push or slide along rows:
    /// `PassEvaluator.moves`): from's and to's moved rows.
    var movedRows: (from: RowCursor.MovedValues, to: RowCursor.MovedValues)?

    @inline(__always) func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { lookup(0, uv) }
    @inline(__always) func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { lookup(1, uv) }
    /// Layer `n`'s (0: from, 1: to) colour at `uv`: the row's own read at the sample's position, a moved row's where
    /// `uv` is its position (`TransitionFormula.offsets`), else the point read.
    @inline(__always) func lookup(_ n: Int, _ uv: SIMD2<Float>) -> SIMD4<Float> {
        if let k = cursor {
            // The sample's own position, bit for bit (a position equal to it otherwise reads the same value by its point).
            if uv.x.bitPattern == here.x.bitPattern && uv.y.bitPattern == here.y.bitPattern {
                let c = ownRows.map { n == 0 ? $0.from[column] : $0.to[column] } ?? k.pointee.own(n, column)
                return linear == nil ? c : lightened(c)
            }
            if let m = movedRows {
                let r = n == 0 ? m.from : m.to
                if uv.y == r.v && uv.x == r.us[column] { return linear == nil ? r.values[column] : lightened(r.values[column]) }
            }
            if let c = k.pointee.moved(n, uv, column) { return linear == nil ? c : lightened(c) }
        }
        return TransitionInput.read(n == 0 ? context.from : context.to, uv, linear)
    }
    /// A lookup elsewhere than the sample's own position: `layer`'s point read, in the pass's light (`linear`). Static,
    /// with few arguments, so that a row's loop keeps its input in registers rather than storing it for this call.
    @inline(never) static func read(_ layer: ReferenceLayer, _ uv: SIMD2<Float>, _ linear: DynamicRange?) -> SIMD4<Float> {
        let c = layer.color(uv)
        return linear.map { $0.eotfPremultiplied(c) } ?? c
    }
    /// A layer's colour as transitions mix it: through the signal's EOTF when they mix in linear light.
    @inline(__always) func lightened(_ c: SIMD4<Float>) -> SIMD4<Float> { linear.map { $0.eotfPremultiplied(c) } ?? c }

    /// `segue_pixel`: the output pixel (column, row) that uv lies in; edges count for the pixel above / to the left.
    @inline(__always) func pixel(_ uv: SIMD2<Float>) -> SIMD2<Float> { (uv * resolution - 1.0 / 64).floored }
    /// `segue_moved`: uv moved by whole pixels into `pixel`.
    @inline(__always) func moved(_ uv: SIMD2<Float>, _ pixel: SIMD2<Float>) -> SIMD2<Float> { uv + (pixel - self.pixel(uv)) / resolution }

    /// `segue_noise` at a pixel.
    @inline(__always) func noise(_ x: Int, _ y: Int) -> Float { context.noise[y * size.w + x] }

    /// `segue_toYCbCr`: R′G′B′ → the output's Y′CbCr (code / (2^N − 1)).
    @inline(__always) func toYCbCr(_ colour: SIMD4<Float>) -> SIMD3<Float> {
        let c = linear.map { $0.inverseEOTF(colour) } ?? colour
        let y = context.rowY, cb = context.rowCb, cr = context.rowCr
        return SIMD3(y[0] * c.x + y[1] * c.y + y[2] * c.z + y[3], cb[0] * c.x + cb[1] * c.y + cb[2] * c.z + cb[3],
                     cr[0] * c.x + cr[1] * c.y + cr[2] * c.z + cr[3])
    }
    /// `segue_fromYCbCr`: the output's Y′CbCr (code / (2^N − 1)) → R′G′B′A (alpha 1).
    @inline(__always) func fromYCbCr(_ v: SIMD3<Float>) -> SIMD4<Float> {
        let m = context.toRGB.matrix, o = context.toRGB.offset
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
@inline(__always) func fract(_ x: Float) -> Float { x - x.floored }
