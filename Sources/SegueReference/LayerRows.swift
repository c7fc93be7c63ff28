import SegueCore

/// A layer's reads along rows of output sample positions, where its map is axis-aligned or turned by a quarter turn
/// (the stored column depends on the output column only and the stored row on the output row, or the other way round:
/// upright, mirrored and phone-rotated pictures at any scale), for 8-bit planar Y′CbCr and RGBA pictures: the taps of
/// each output column are made once per pass, and an upright layer's stored rows are filtered along x once for the
/// output rows that share them (`Cache`), in loops over contiguous memory.
///
/// The values are `ReferenceLayer.color`'s, bit for bit: the same taps (`ReferenceLayer.taps`, `exactTexel`), the
/// same bilinear arithmetic in the same order (along the stored x in both stored rows, then along y; an exact read is
/// a tap of weight 1 and one of weight 0, which gives the texel itself), the same colour map (`ReferenceLayer.shade`)
/// and opacity, the background outside the picture, the crop, and 0…1.
final class LayerRows: @unchecked Sendable {
    let layer: ReferenceLayer
    /// Output columns read (the others are left alone).
    let columns: Range<Int>
    /// Whether the map turns by a quarter turn: an output column is a stored row, an output row a stored column.
    private let swapsAxes: Bool
    /// Per column: inside 0…1 and the crop.
    private let inside: [Bool]
    /// Per stored plane read (0: luma or RGBA; 1: chroma), per output column: the two taps along the stored axis the
    /// column runs along (x when upright, y when turned) and their weights.
    private let taps: [ColumnTaps]
    /// Whether plane 0 is read, and the chroma planes.
    private let readsLuma: Bool, readsChroma: Bool
    /// An upright exact layer of an 8-bit planar picture without a colour stage: its value for each code, made once.
    private let codes: CodeValues?

    /// The terms of `ReferenceLayer.shade` (`c0·Y′ + c1·Cb + c2·Cr + off·α`, left to right) for each 8-bit code
    /// (`code / 255`), and the whole value of a luma-only read: a read adds the terms in the same order, so its value
    /// is the arithmetic's, bit for bit.
    struct CodeValues {
        /// `(c0·Y′ + c1·0 + c2·0 + off)·opacity`: a luma-only read.
        let lumaOnly: [SIMD4<Float>]
        /// `c0·Y′`, `c1·Cb`, `c0·0 + c1·Cb` (a chroma-only read), `c2·Cr`.
        let luma: [SIMD4<Float>], cb: [SIMD4<Float>], cbOnly: [SIMD4<Float>], cr: [SIMD4<Float>]
        init(_ l: ReferenceLayer) {
            let codes = (0..<256).map { Float($0) / 255 }
            lumaOnly = codes.map { (l.c0 * $0 + l.c1 * 0 + l.c2 * 0 + l.off) * l.opacity }
            luma = codes.map { l.c0 * $0 }
            cb = codes.map { l.c1 * $0 }
            cbOnly = codes.map { l.c0 * 0 + l.c1 * $0 }
            cr = codes.map { l.c2 * $0 }
        }
    }

    struct ColumnTaps {
        var i0: [Int32], i1: [Int32], w0: [Float], w1: [Float]
    }

    /// Rows for `layer` at the output column positions `us` (0…1), for the columns `columns`; nil where the layer's
    /// reads are not separable (a rotation by other than quarter turns) or its picture is semi-planar or deeper than
    /// 8 bits (read point by point).
    init?(_ layer: ReferenceLayer, us: [Float], columns: Range<Int>) {
        guard layer.kind == .planar8 || layer.kind == .rgba, layer.effects == nil else { return nil }
        if layer.b == 0 && layer.c == 0 { swapsAxes = false } else if layer.a == 0 && layer.d == 0 { swapsAxes = true } else { return nil }
        self.layer = layer
        self.columns = columns
        readsLuma = layer.kind == .rgba || layer.readsLuma
        readsChroma = layer.kind == .planar8 && layer.readsChroma
        var inside = [Bool](repeating: false, count: us.count)
        var luma = ColumnTaps(i0: [], i1: [], w0: [], w1: []), chroma = luma
        let l = layer
        for i in 0..<us.count {
            let u = us[i]
            // ReferenceLayer.color: s = a·u + c·v + tx and t = b·u + d·v + ty, with c = b = 0 (upright) or a = d = 0 (turned).
            let (within, p, chromaPosition) = LayerRows.axis(l, swapsAxes ? l.b * u + l.ty : l.a * u + l.tx, alongX: !swapsAxes)
            inside[i] = columns.contains(i) && u >= 0 && u <= 1 && within
            func add(_ taps: inout ColumnTaps, _ p: Float, _ n: Int) {
                let (a, b, f) = l.exact ? (ReferenceLayer.exactTexel(p, n), ReferenceLayer.exactTexel(p, n), Float(0)) : l.taps(p, n)
                taps.i0.append(Int32(a)); taps.i1.append(Int32(b)); taps.w0.append(1 - f); taps.w1.append(f)
            }
            add(&luma, p, swapsAxes ? l.h : l.w)
            add(&chroma, chromaPosition, swapsAxes ? l.ch : l.cw)
        }
        self.inside = inside
        taps = [luma, chroma]
        codes = layer.exact && layer.kind == .planar8 && layer.stage == nil && !swapsAxes ? CodeValues(layer) : nil
    }

    /// A stored coordinate `w` (normalized, along x or y): whether it lies inside the crop, and the texel position
    /// reads take there (texel units; a cropped layer's filtered reads kept half a texel inside the crop) in the
    /// luma (or RGBA) plane and in the chroma planes (`ChromaPositionMap`), as `ReferenceLayer.sample` computes them.
    static func axis(_ l: ReferenceLayer, _ w: Float, alongX: Bool) -> (inside: Bool, texel: Float, chromaTexel: Float) {
        let (lo, hi, full) = alongX ? (l.u0, l.u1, l.fw) : (l.v0, l.v1, l.fh)
        var p = w * full
        if l.cropped && !l.exact { p = min(max(p, lo * full + 0.5), hi * full - 0.5) }
        let chroma = alongX ? p * l.chroma.scaleX + l.chroma.offsetX : p * l.chroma.scaleY + l.chroma.offsetY
        return (w >= lo && w <= hi, p, chroma)
    }

    /// One thread's working memory for one layer: the filtered stored rows it holds, and the plane values of a row.
    final class Cache {
        let width: Int
        /// Stored rows filtered along x, by plane (0: luma or RGBA, 1: Cb, 2: Cr): two slots each, by stored row; as
        /// four floats a column (RGBA pictures use all four, planes the first).
        fileprivate var rows: [[UnsafeMutablePointer<SIMD4<Float>>]]
        fileprivate var index: [[Int]]
        fileprivate var next = [0, 0, 0]
        /// A row of plane values (Y′, Cb, Cr; or R′G′B′A) at the output columns.
        fileprivate let values: [UnsafeMutablePointer<SIMD4<Float>>]
        init(width: Int) {
            self.width = width
            rows = (0..<3).map { _ in [.allocate(capacity: max(1, width)), .allocate(capacity: max(1, width))] }
            index = [[-1, -1], [-1, -1], [-1, -1]]
            values = (0..<3).map { _ in .allocate(capacity: max(1, width)) }
        }
        deinit {
            rows.joined().forEach { $0.deallocate() }
            values.forEach { $0.deallocate() }
        }
        /// Stored row `y` of plane `k` filtered along x, made by `fill` unless held; `keep`: a row not to evict for it.
        @inline(__always) fileprivate func row(_ k: Int, _ y: Int, keep: Int, _ fill: (UnsafeMutablePointer<SIMD4<Float>>) -> Void) -> UnsafeMutablePointer<SIMD4<Float>> {
            if index[k][0] == y { return rows[k][0] }
            if index[k][1] == y { return rows[k][1] }
            let slot = index[k][0] == keep ? 1 : index[k][1] == keep ? 0 : next[k]
            next[k] = 1 - slot
            index[k][slot] = y
            fill(rows[k][slot])
            return rows[k][slot]
        }
    }

    /// The layer's colours (`ReferenceLayer.color`) at row position `v` (0…1) and every column of `columns`, into
    /// `out` (indexed by column).
    func fill(_ v: Float, into out: UnsafeMutablePointer<SIMD4<Float>>, cache: Cache) {
        let l = layer
        // The row's position along the stored axis it runs across: t (upright) or s (turned).
        let (within, p, chromaP) = LayerRows.axis(l, swapsAxes ? l.c * v + l.tx : l.d * v + l.ty, alongX: swapsAxes)
        guard v >= 0 && v <= 1 && within else {
            for i in columns { out[i] = l.background }
            return
        }
        if l.kind == .rgba {
            let rgba = plane(0, p, cache)
            inside.withUnsafeBufferPointer { ins in
                for i in columns {
                    guard ins[i] else { out[i] = l.background; continue }
                    let c = rgba[i]
                    out[i] = l.shade(SIMD3(c.x, c.y, c.z), alpha: c.w) * l.opacity
                }
            }
            return
        }
        if let codes {
            exactFill(codes, p, chromaP, into: out)
            return
        }
        // Planar: each plane's values are in the first float of each column's four (the others are 0, unread planes 0),
        // so one column is (Y′, Cb, Cr) = the three planes' first floats.
        let luma = readsLuma ? UnsafeMutableRawPointer(plane(0, p, cache)).assumingMemoryBound(to: Float.self) : nil
        let cb = readsChroma ? UnsafeMutableRawPointer(plane(1, chromaP, cache)).assumingMemoryBound(to: Float.self) : nil
        let cr = readsChroma ? UnsafeMutableRawPointer(plane(2, chromaP, cache)).assumingMemoryBound(to: Float.self) : nil
        let background = l.background, opacity = l.opacity
        let c0 = l.c0, c1 = l.c1, c2 = l.c2, off = l.off
        inside.withUnsafeBufferPointer { ins in
            if l.stage == nil, let y = luma, cb == nil {
                // Luma alone (a fused luma pass of a picture in the output's colours): shade(v, 1) with v = (Y′, 0, 0).
                for i in columns { out[i] = ins[i] ? (c0 * y[4 * i] + c1 * 0 + c2 * 0 + off) * opacity : background }
            } else if l.stage == nil, luma == nil, let b = cb, let r = cr {
                for i in columns { out[i] = ins[i] ? (c0 * 0 + c1 * b[4 * i] + c2 * r[4 * i] + off) * opacity : background }
            } else {
                for i in columns {
                    guard ins[i] else { out[i] = background; continue }
                    let v = SIMD3(luma?[4 * i] ?? 0, cb?[4 * i] ?? 0, cr?[4 * i] ?? 0)
                    out[i] = l.shade(v, alpha: 1) * opacity
                }
            }
        }
    }

    /// `fill` of an upright exact layer (`codes`): each column's texel in the stored row at `p` (chroma: `chromaP`),
    /// its value the sum of its codes' terms, `((c0·Y′ + c1·Cb) + c2·Cr + off)·opacity` as `shade` adds them.
    private func exactFill(_ codes: CodeValues, _ p: Float, _ chromaP: Float, into out: UnsafeMutablePointer<SIMD4<Float>>) {
        let l = layer, background = l.background, off = l.off, opacity = l.opacity
        let y = readsLuma ? l.p0.baseAddress! + ReferenceLayer.exactTexel(p, l.h) * l.w : nil
        let chromaRow = ReferenceLayer.exactTexel(chromaP, l.ch) * l.cw
        let cb = readsChroma ? l.p1.baseAddress! + chromaRow : nil, cr = readsChroma ? l.p2.baseAddress! + chromaRow : nil
        inside.withUnsafeBufferPointer { ins in taps[0].i0.withUnsafeBufferPointer { lx in taps[1].i0.withUnsafeBufferPointer { cx in
            codes.lumaOnly.withUnsafeBufferPointer { lumaOnly in codes.luma.withUnsafeBufferPointer { luma in
                codes.cb.withUnsafeBufferPointer { cbTerm in codes.cbOnly.withUnsafeBufferPointer { cbOnly in
                    codes.cr.withUnsafeBufferPointer { crTerm in
                        if let y, cb == nil {
                            for i in columns { out[i] = ins[i] ? lumaOnly[Int(y[Int(lx[i])])] : background }
                        } else if let b = cb, let r = cr, y == nil {
                            for i in columns {
                                let x = Int(cx[i])
                                out[i] = ins[i] ? (cbOnly[Int(b[x])] + crTerm[Int(r[x])] + off) * opacity : background
                            }
                        } else {
                            for i in columns {
                                guard ins[i] else { out[i] = background; continue }
                                let x = Int(cx[i])
                                let luma = y.map { luma[Int($0[Int(lx[i])])] } ?? l.c0 * 0
                                let b = cb.map { cbTerm[Int($0[x])] } ?? l.c1 * 0, r = cr.map { crTerm[Int($0[x])] } ?? l.c2 * 0
                                out[i] = (luma + b + r + off) * opacity
                            }
                        }
                    }
                } }
            } }
        } } }
    }

    /// Plane `k`'s values (lane x, or R′G′B′A) at every column, the row at stored position `p` (texel units) along
    /// the axis the output row runs across.
    private func plane(_ k: Int, _ p: Float, _ cache: Cache) -> UnsafeMutablePointer<SIMD4<Float>> {
        let l = layer
        let chroma = k > 0
        let width = chroma ? l.cw : l.w, height = chroma ? l.ch : l.h
        let n = swapsAxes ? width : height
        let (r0, r1, f) = l.exact ? (ReferenceLayer.exactTexel(p, n), ReferenceLayer.exactTexel(p, n), Float(0)) : l.taps(p, n)
        let base = (k == 0 ? l.p0 : k == 1 ? l.p1 : l.p2).baseAddress!
        let channels = l.kind == .rgba ? 4 : 1
        let t = taps[chroma ? 1 : 0]
        let out = cache.values[k]
        if swapsAxes {
            // The output row is stored columns r0 and r1 (x), read down the stored rows the columns' taps give (y):
            // per sample, along x in both stored rows, then along y (`bilinear8`, `bilinear4`).
            let stride = width * channels, w0x = 1 - f
            @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
                let q = base + (y * stride + x * channels)
                return channels == 4 ? SIMD4(Float(q[0]), Float(q[1]), Float(q[2]), Float(q[3])) / 255 : SIMD4(Float(q[0]) / 255, 0, 0, 0)
            }
            t.i0.withUnsafeBufferPointer { i0 in t.i1.withUnsafeBufferPointer { i1 in
                t.w0.withUnsafeBufferPointer { w0 in t.w1.withUnsafeBufferPointer { w1 in
                    for i in columns {
                        let y0 = Int(i0[i]), y1 = Int(i1[i])
                        let top = texel(r0, y0) * w0x + texel(r1, y0) * f
                        let bottom = texel(r0, y1) * w0x + texel(r1, y1) * f
                        out[i] = top * w0[i] + bottom * w1[i]
                    }
                } }
            } }
            return out
        }
        let stride = width * channels
        let top = cache.row(k, r0, keep: r1) { filter(base + r0 * stride, t, channels, $0) }
        guard f != 0 else { return top }
        let bottom = cache.row(k, r1, keep: r0) { filter(base + r1 * stride, t, channels, $0) }
        let w0 = 1 - f
        for i in columns { out[i] = top[i] * w0 + bottom[i] * f }
        return out
    }

    /// One stored row filtered along x at every column read: `t[i0]/255·(1 − f) + t[i1]/255·f` (`bilinear8`, in lane
    /// x; `bilinear4` for RGBA).
    private func filter(_ row: UnsafePointer<UInt8>, _ t: ColumnTaps, _ channels: Int, _ out: UnsafeMutablePointer<SIMD4<Float>>) {
        t.i0.withUnsafeBufferPointer { i0 in t.i1.withUnsafeBufferPointer { i1 in
            t.w0.withUnsafeBufferPointer { w0 in t.w1.withUnsafeBufferPointer { w1 in
                if channels == 4 {
                    @inline(__always) func texel(_ x: Int) -> SIMD4<Float> {
                        let p = row + x * 4
                        return SIMD4(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) / 255
                    }
                    for i in columns { out[i] = texel(Int(i0[i])) * w0[i] + texel(Int(i1[i])) * w1[i] }
                } else if layer.exact {
                    // One tap of weight 1 and one of weight 0 (`x·1 + y·0` is `x`): the texel itself.
                    for i in columns { out[i] = SIMD4(Float(row[Int(i0[i])]) / 255, 0, 0, 0) }
                } else {
                    for i in columns {
                        out[i] = SIMD4(Float(row[Int(i0[i])]) / 255 * w0[i] + Float(row[Int(i1[i])]) / 255 * w1[i], 0, 0, 0)
                    }
                }
            } }
        } }
    }
}
