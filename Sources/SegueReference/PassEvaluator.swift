import Foundation
import SegueCore

/// `passColour` of `main.glsl` for one pass and one output (`PassRecipe`): output uv (0…1, top-left origin) → the
/// pass's colour, premultiplied and gamma-encoded (R′G′B′A, or fused, the output's values), in the first pass composited
/// over the background, in a later one transparent outside the pass's rectangle.
///
/// Evaluated a row of samples at a time (`row`): each layer's reads at the samples' own positions are made for the
/// whole row at once (`LayerRows`, where the layer's map is axis-aligned) the first time the row needs them, and a
/// transition's lookups there take them (`RowCursor`); lookups elsewhere (a push, a slide) read their point. Both give
/// the same values (`LayerRows`), so how a sample is reached changes nothing.
final class PassEvaluator: @unchecked Sendable {
    let recipe: PassRecipe
    /// The pass's layers: `from`, and `to` (the same object when the pass has one layer).
    let layers: [ReferenceLayer]
    /// Each layer's row reads at the output columns, where separable.
    let rows: [LayerRows?]
    let transition: CPUTransitions.Function?
    /// The transition's input, without a cursor.
    let input: TransitionInput?
    /// Output columns evaluated, and their positions.
    let columns: Range<Int>
    let us: [Float]
    private let under: SIMD4<Float>
    private let res: SIMD2<Float>
    private let rect: (Float, Float, Float, Float)
    private let linear: DynamicRange?

    /// - Parameters:
    ///   - pictures: the pass's pictures (`from`'s, then `to`'s).
    ///   - us: the u position (0…1) of every output column of the plane; `columns`: those evaluated.
    ///   - noise: `TransitionNoise` values for the render size (kinds that use noise).
    /// - Throws: `EditError` for a glsl transition (the CPU renderer has no GLSL compiler).
    init(_ recipe: PassRecipe, pass: CompositePass, plan: FramePlan, pictures: ArraySlice<VideoPicture>, us: [Float], columns: Range<Int>,
         rowReads: Bool = true, noise: () -> [Float]) throws {
        self.recipe = recipe
        let from = ReferenceLayer(recipe.from, picture: pictures[pictures.startIndex], background: recipe.background)
        let to = pass.to == nil ? from : ReferenceLayer(recipe.to, picture: pictures[pictures.startIndex + 1], background: recipe.background)
        layers = [from, to]
        let fromRows = rowReads ? LayerRows(from, us: us, columns: columns) : nil
        rows = [fromRows, pass.to == nil || !rowReads ? fromRows : LayerRows(to, us: us, columns: columns)]
        self.us = us
        self.columns = columns
        let size = plan.renderSize
        res = SIMD2(Float(size.width), Float(size.height))
        let p = recipe.parameters
        linear = p.linear ? recipe.outputRange : nil
        if let kind = p.kind {
            guard let f = CPUTransitions.function(kind) else { throw ReferenceRenderer.cannotRunGLSL(pass.transition) }
            transition = f
            func constant(_ v: [Float]) -> SIMD4<Float> { SIMD4(v[0], v[1], v[2], v[3]) }
            input = TransitionInput(progress: p.progress, ratio: Float(size.width) / Float(size.height),
                                    direction: SIMD2(p.direction.0, p.direction.1), resolution: res, parameters: p.parameters,
                                    from: from, to: to, black: constant(recipe.black), white: constant(recipe.white),
                                    noise: kind.traits.usesNoise ? noise() : [], output: recipe.format, linear: linear)
        } else {
            transition = nil
            input = nil
        }
        let b = recipe.background
        under = SIMD4(b[0], b[1], b[2], b[3])
        let r = pass.rect ?? PixelRect(size)
        rect = (Float(r.x0), Float(r.y0), Float(r.x1), Float(r.y1))
    }

    /// Per-thread state: the cursor and each layer's row cache.
    final class Scratch {
        let cursor: RowCursor
        let caches: [LayerRows.Cache]
        init(width: Int) {
            caches = [LayerRows.Cache(width: width), LayerRows.Cache(width: width)]
            cursor = RowCursor(width: width)
        }
    }

    func makeScratch() -> Scratch { Scratch(width: us.count) }

    /// The pass's colours at row position `v` (0…1) and every column of `columns`, into `out` (indexed by column).
    func row(_ v: Float, scratch: Scratch, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let k = scratch.cursor
        k.start(self, v: v, caches: scratch.caches)
        let overBelow = recipe.overBelow
        us.withUnsafeBufferPointer { us in
            if overBelow && (((v * res.y - 1.0 / 64).rounded(.down)) < rect.1 || ((v * res.y - 1.0 / 64).rounded(.down)) >= rect.3) {
                for i in columns { out[i] = SIMD4(repeating: 0) }
                return
            }
            for i in columns {
                let uv = SIMD2(us[i], v)
                if overBelow {
                    // segue_pixel of the position: outside the rectangle the pass is transparent.
                    let px = (uv.x * res.x - 1.0 / 64).rounded(.down)
                    if px < rect.0 || px >= rect.2 { out[i] = SIMD4(repeating: 0); continue }
                }
                let c: SIMD4<Float>
                if let transition, var input {
                    k.uv = uv
                    k.i = i
                    input.cursor = k
                    let t = transition(uv, input)
                    c = linear.map { $0.inverseEOTFPremultiplied(t) } ?? t
                } else {
                    k.uv = uv
                    k.i = i
                    c = k.own(0)
                }
                out[i] = overBelow ? c : c + (1 - c.w) * under
            }
        }
    }

    /// One layer's colours at the row's own positions (`row`): read through its `LayerRows`, or point by point.
    fileprivate func fill(_ n: Int, v: Float, into out: UnsafeMutablePointer<SIMD4<Float>>, cache: LayerRows.Cache) {
        if let r = rows[n] {
            r.fill(v, into: out, cache: cache)
        } else {
            let layer = layers[n]
            us.withUnsafeBufferPointer { us in
                for i in columns { out[i] = layer.color(SIMD2(us[i], v)) }
            }
        }
    }
}

/// The sample a `PassEvaluator` row is at, and each layer's reads at the row's own positions, made on first use.
final class RowCursor {
    /// The current sample's position and column.
    var uv = SIMD2<Float>(repeating: -1)
    var i = 0
    private var v: Float = 0
    private let values: [UnsafeMutablePointer<SIMD4<Float>>]
    private var filled = [false, false]
    private unowned(unsafe) var evaluator: PassEvaluator?
    private var caches: [LayerRows.Cache] = []

    init(width: Int) { values = [.allocate(capacity: max(1, width)), .allocate(capacity: max(1, width))] }
    deinit { values.forEach { $0.deallocate() } }

    fileprivate func start(_ e: PassEvaluator, v: Float, caches: [LayerRows.Cache]) {
        evaluator = e
        self.v = v
        self.caches = caches
        filled = [false, false]
    }

    /// Layer `n`'s (0: from, 1: to) colour at the current sample.
    @inline(__always) func own(_ n: Int) -> SIMD4<Float> {
        let m = evaluator!.layers[1] === evaluator!.layers[0] ? 0 : n
        if !filled[m] {
            evaluator!.fill(m, v: v, into: values[m], cache: caches[m])
            filled[m] = true
        }
        return values[m][i]
    }
}
