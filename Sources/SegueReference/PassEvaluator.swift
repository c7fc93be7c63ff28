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
    /// Rows a transition reads at positions moved by an offset constant over the frame (`TransitionFormula.offsets`):
    /// the layer, the offset, the moved column positions, and the layer's rows at them.
    let moves: [Move]
    final class Move {
        let layer: Int
        let offset: SIMD2<Float>
        let us: UnsafeMutablePointer<Float>
        let rows: LayerRows
        init?(layer: Int, offset: SIMD2<Float>, of l: ReferenceLayer, us: [Float], columns: Range<Int>) {
            // `us[i] + offset.x`, as the formula adds it.
            let moved = us.map { $0 + offset.x }
            guard let rows = LayerRows(l, us: moved, columns: columns) else { return nil }
            self.layer = layer; self.offset = offset; self.rows = rows
            self.us = .allocate(capacity: max(1, moved.count))
            for i in moved.indices { self.us[i] = moved[i] }
        }
        deinit { us.deallocate() }
    }
    /// The track matte (`PassRecipe.matte`): its layer (transparent outside its picture), its row reads where
    /// separable, and how its colour masks the pass (`MatteMode.value`).
    let matte: (layer: ReferenceLayer, rows: LayerRows?, mode: MatteMode)?
    /// The transition's input, without a cursor, and what it refers to (kept alive here).
    let input: TransitionInput?
    private let context: TransitionInput.Context?
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
        if let m = recipe.matte, let mode = pass.matte?.mode {
            let l = ReferenceLayer(m, picture: pictures[pictures.startIndex + pass.layers.count - 1], background: [0, 0, 0, 0])
            matte = (l, rowReads ? LayerRows(l, us: us, columns: columns) : nil, mode)
        } else {
            matte = nil
        }
        let fromRows = rowReads ? LayerRows(from, us: us, columns: columns) : nil
        rows = [fromRows, pass.to == nil || !rowReads ? fromRows : LayerRows(to, us: us, columns: columns)]
        self.us = us
        self.columns = columns
        let size = plan.renderSize
        res = SIMD2(Float(size.width), Float(size.height))
        let p = recipe.parameters
        linear = p.linear ? recipe.outputRange : nil
        if let kind = p.kind {
            guard CPUTransitions.function(kind) != nil else { throw ReferenceRenderer.cannotRunGLSL(pass.transition) }
            func constant(_ v: [Float]) -> SIMD4<Float> { SIMD4(v[0], v[1], v[2], v[3]) }
            let context = TransitionInput.Context(parameters: p.parameters, from: from, to: to, noise: kind.traits.usesNoise ? noise() : [],
                                                  output: recipe.format)
            self.context = context
            let input = TransitionInput(progress: p.progress, ratio: Float(size.width) / Float(size.height),
                                        direction: SIMD2(p.direction.0, p.direction.1), resolution: res, black: constant(recipe.black),
                                        white: constant(recipe.white), linear: linear, context: context)
            self.input = input
            let offsets = (rowReads ? CPUTransitions.offsets(kind, input) : nil).map { [(layer: 0, offset: $0.from), (layer: 1, offset: $0.to)] } ?? []
            let layers = [from, to]
            moves = offsets.compactMap { Move(layer: $0.layer, offset: $0.offset, of: layers[$0.layer], us: us, columns: columns) }
        } else {
            input = nil
            context = nil
            moves = []
        }
        let b = recipe.background
        under = SIMD4(b[0], b[1], b[2], b[3])
        let r = pass.rect ?? PixelRect(size)
        rect = (Float(r.x0), Float(r.y0), Float(r.x1), Float(r.y1))
    }

    /// Per-thread state: the cursor and each layer's row cache.
    final class Scratch {
        let cursor: UnsafeMutablePointer<RowCursor>
        /// Each layer's row cache (from, to), then each move's.
        let caches: [LayerRows.Cache]
        private let values: [UnsafeMutablePointer<SIMD4<Float>>]
        /// The matte's row cache and its colours at the row's positions.
        let matteCache: LayerRows.Cache
        let matteValues: UnsafeMutablePointer<SIMD4<Float>>
        init(width: Int, moves: Int) {
            matteCache = LayerRows.Cache(width: width)
            matteValues = .allocate(capacity: max(1, width))
            caches = (0..<2 + moves).map { _ in LayerRows.Cache(width: width) }
            values = (0..<2 + moves).map { _ in .allocate(capacity: max(1, width)) }
            cursor = .allocate(capacity: 1)
            cursor.initialize(to: RowCursor(from: values[0], to: values[1], moved: Array(values.dropFirst(2))))
        }
        deinit {
            cursor.deinitialize(count: 1)
            cursor.deallocate()
            values.forEach { $0.deallocate() }
            matteValues.deallocate()
        }
    }

    func makeScratch() -> Scratch { Scratch(width: us.count, moves: moves.count) }

    /// The pass's colours at row position `v` (0…1) and every column of `columns`, into `out` (indexed by column): its
    /// layers' (`drawnRow`), times its matte's value there (`main.glsl`'s MATTE).
    func row(_ v: Float, scratch: Scratch, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        drawnRow(v, scratch: scratch, into: out)
        guard let (layer, rows, mode) = matte else { return }
        let m = scratch.matteValues
        if let rows {
            rows.fill(v, into: m, cache: scratch.matteCache)
        } else {
            us.withUnsafeBufferPointer { us in for i in columns { m[i] = layer.color(SIMD2(us[i], v)) } }
        }
        for i in columns { out[i] *= mode.value(m[i]) }
    }

    /// The colours the pass's layers and transition give at row position `v`, without the matte.
    private func drawnRow(_ v: Float, scratch: Scratch, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let k = scratch.cursor
        k.pointee.start(self, v: v, caches: scratch.caches)
        let overBelow = recipe.overBelow, under = self.under, res = self.res, rect = self.rect
        if overBelow {
            // segue_pixel of the row: outside the rectangle the pass is transparent.
            let py = (v * res.y - 1.0 / 64).floored
            if py < rect.1 || py >= rect.3 {
                for i in columns { out[i] = SIMD4(repeating: 0) }
                return
            }
        }
        let columns = self.columns
        us.withUnsafeBufferPointer { us in
            guard let kind = recipe.parameters.kind, var withCursor = input else {
                // One layer: its own reads.
                let own = k.pointee.row(0)
                for i in columns {
                    if overBelow {
                        let px = (us[i] * res.x - 1.0 / 64).floored
                        if px < rect.0 || px >= rect.2 { out[i] = SIMD4(repeating: 0); continue }
                    }
                    let c = own[i]
                    out[i] = overBelow ? c : c + (1 - c.w) * under
                }
                return
            }
            withCursor.cursor = k
            if CPUTransitions.readsOwnRows(kind, withCursor) { withCursor.ownRows = (UnsafePointer(k.pointee.row(0)), UnsafePointer(k.pointee.row(1))) }
            withCursor.movedRows = k.pointee.movedAlongRow()
            let loop = RowLoop(input: withCursor, us: us.baseAddress!, v: v, columns: columns, out: out, under: under,
                               overBelow: overBelow, res: res, rect: rect, linear: linear)
            _ = CPUTransitions.visit(kind, loop)
        }
    }

    /// The loop over a row's samples for one transition, specialised for its formula (`CPUTransitions.visit`), which
    /// the optimiser inlines.
    struct RowLoop: TransitionFormulaVisitor {
        let input: TransitionInput
        let us: UnsafePointer<Float>
        let v: Float
        let columns: Range<Int>
        let out: UnsafeMutablePointer<SIMD4<Float>>
        let under: SIMD4<Float>
        let overBelow: Bool
        let res: SIMD2<Float>
        let rect: (Float, Float, Float, Float)
        let linear: DynamicRange?

        func visit<T: TransitionFormula>(_ formula: T.Type) {
            var input = self.input
            let us = self.us, v = self.v, out = self.out, under = self.under
            if linear == nil && !overBelow {
                // The common case: a first pass mixed in gamma.
                @inline(__always) func run() {
                    for i in columns {
                        let uv = SIMD2(us[i], v)
                        input.here = uv
                        input.column = i
                        let c = T.colour(uv, input)
                        out[i] = c + (1 - c.w) * under
                    }
                }
                // The same loop under what the lookups test, so that the optimiser drops those tests from it.
                if input.cursor != nil, input.ownRows != nil, input.linear == nil { run() }
                else if input.cursor != nil, input.movedRows != nil, input.linear == nil { run() }
                else { run() }
                return
            }
            for i in columns {
                let uv = SIMD2(us[i], v)
                if overBelow {
                    let px = (uv.x * res.x - 1.0 / 64).floored
                    if px < rect.0 || px >= rect.2 { out[i] = SIMD4(repeating: 0); continue }
                }
                input.here = uv
                input.column = i
                let t = T.colour(uv, input)
                let c = linear.map { $0.inverseEOTFPremultiplied(t) } ?? t
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

/// The sample a `PassEvaluator` row is at, and each layer's reads at the row's own positions, made on first use. A
/// plain value behind a pointer (`PassEvaluator.Scratch.cursor`), so that reaching it per sample costs no reference
/// counting.
struct RowCursor {
    private var v: Float = 0
    private let from: UnsafeMutablePointer<SIMD4<Float>>, to: UnsafeMutablePointer<SIMD4<Float>>
    private var fromFilled = false, toFilled = false
    /// The pass has one layer (`to` is `from`).
    private var oneLayer = false
    private var evaluator: Unmanaged<PassEvaluator>?
    private var fromCache: Unmanaged<LayerRows.Cache>?, toCache: Unmanaged<LayerRows.Cache>?
    /// The pass's moves (`PassEvaluator.moves`, at most two are looked up): each one's row, made on first use.
    private var move0: MovedRow?, move1: MovedRow?
    private let movedValues: [UnsafeMutablePointer<SIMD4<Float>>]

    struct MovedRow {
        let layer: Int
        /// The row position it is read at (`v + offset.y`), and the column positions (`us[i] + offset.x`).
        let v: Float
        let us: UnsafeMutablePointer<Float>
        let values: UnsafeMutablePointer<SIMD4<Float>>
        let rows: Unmanaged<LayerRows>, cache: Unmanaged<LayerRows.Cache>
        var filled = false

        @inline(__always) mutating func value(_ uv: SIMD2<Float>, _ i: Int) -> SIMD4<Float>? {
            guard uv.y == v && uv.x == us[i] else { return nil }
            if !filled { fill() }
            return values[i]
        }
        @inline(never) mutating func fill() {
            let v = self.v, values = self.values
            rows._withUnsafeGuaranteedRef { r in cache._withUnsafeGuaranteedRef { c in r.fill(v, into: values, cache: c) } }
            filled = true
        }
    }

    init(from: UnsafeMutablePointer<SIMD4<Float>>, to: UnsafeMutablePointer<SIMD4<Float>>, moved: [UnsafeMutablePointer<SIMD4<Float>>]) {
        self.from = from; self.to = to; movedValues = moved
    }

    fileprivate mutating func start(_ e: PassEvaluator, v: Float, caches: [LayerRows.Cache]) {
        evaluator = Unmanaged.passUnretained(e)
        self.v = v
        fromCache = Unmanaged.passUnretained(caches[0]); toCache = Unmanaged.passUnretained(caches[1])
        fromFilled = false; toFilled = false
        oneLayer = e.layers[1] === e.layers[0]
        func row(_ k: Int) -> MovedRow? {
            guard k < e.moves.count else { return nil }
            let m = e.moves[k]
            return MovedRow(layer: m.layer, v: v + m.offset.y, us: m.us, values: movedValues[k], rows: Unmanaged.passUnretained(m.rows),
                            cache: Unmanaged.passUnretained(caches[2 + k]))
        }
        move0 = row(0); move1 = row(1)
    }

    /// A moved row's values, for the lookups of a row's loop (`TransitionInput.movedRows`): its row position (`v +
    /// offset.y`), its column positions (`us[i] + offset.x`), and the layer's colours there.
    struct MovedValues {
        let v: Float
        let us: UnsafePointer<Float>
        let values: UnsafePointer<SIMD4<Float>>
    }

    /// Where the pass moves from and to along rows (`PassEvaluator.moves`: both layers, offsets without a y part, so
    /// that nearly every row shows both): both moved rows, read now; else nil (read on first use).
    mutating func movedAlongRow() -> (from: MovedValues, to: MovedValues)? {
        guard var a = move0, var b = move1, a.layer == 0, b.layer == 1, a.v == v, b.v == v else { return nil }
        if !a.filled { a.fill() }
        if !b.filled { b.fill() }
        move0 = a; move1 = b
        return (MovedValues(v: a.v, us: a.us, values: a.values), MovedValues(v: b.v, us: b.us, values: b.values))
    }

    /// Layer `n`'s colour at `uv` if `uv` is a moved row's position at column `i` (`PassEvaluator.moves`).
    @inline(__always) mutating func moved(_ n: Int, _ uv: SIMD2<Float>, _ i: Int) -> SIMD4<Float>? {
        if move0?.layer == n, let c = move0!.value(uv, i) { return c }
        if move1?.layer == n, let c = move1!.value(uv, i) { return c }
        return nil
    }

    /// Layer `n`'s (0: from, 1: to) colours at the row's own positions, read now if not yet.
    @inline(__always) fileprivate mutating func row(_ n: Int) -> UnsafeMutablePointer<SIMD4<Float>> {
        if n == 0 || oneLayer {
            if !fromFilled { fill(0) }
            return from
        }
        if !toFilled { fill(1) }
        return to
    }

    @inline(never) private mutating func fill(_ n: Int) {
        let cache = (n == 0 ? fromCache : toCache)!
        let out = n == 0 ? from : to
        let v = self.v
        evaluator!._withUnsafeGuaranteedRef { e in cache._withUnsafeGuaranteedRef { c in e.fill(n, v: v, into: out, cache: c) } }
        if n == 0 { fromFilled = true } else { toFilled = true }
    }

    /// Layer `n`'s (0: from, 1: to) colour at column `i`.
    @inline(__always) mutating func own(_ n: Int, _ i: Int) -> SIMD4<Float> { row(n)[i] }
}
