import Foundation

/// How `PlaneTransitions` reads a layer's plane (`Sampler`: the reference's exact fetches or bilinear taps, per column
/// and per row) and the working memory of its threads.
extension PlaneTransitions {
    /// Reads one layer's plane at the samples of the output plane (`ReferenceLayer.color` and `.sample` along each
    /// axis: the map is axis-aligned and upright, so a column's read depends on its position only, a row's on its).
    struct Sampler: @unchecked Sendable {
        let rows: Shared<Tap>
        /// Per column: the two taps, their weights (`1 − f`, `f`); the run of columns inside the layer.
        let taps0: Shared<Int32>, taps1: Shared<Int32>, weights0: Shared<Float>, weights1: Shared<Float>
        let first: Int, last: Int
        /// Columns whose taps are `runOffset + i` and `runOffset + i + 1`.
        let run: Range<Int>, runOffset: Int
        let n: Int, stride: Int
        let background: Float
        /// Where the reads are the window of the plane at (x, y), row length `stride`: every read exact and inside.
        let window: (x: Int, y: Int, stride: Int)?

        /// `picture`'s plane `k` read through `map` (`TransitionParameters.fromMap`/`toMap`: output uv → stored uv)
        /// at the output positions `columns` and `rows` (0…1, already moved by the transition), exactly (texel
        /// fetches) or bilinear, `background` (the fused pass's value) where a read falls outside 0…1 or the picture;
        /// only the columns `needed` (the others: the background).
        init(picture: VideoPicture, plane k: Int, map m: [Float], exact: Bool, columns: [Float], rows: [Float], needed: Range<Int>,
             background: Float) {
            let plane = picture.planes[k]
            let chroma = ChromaPositionMap(picture)
            func axis(_ positions: [Float], horizontal: Bool) -> [Tap] {
                let full = Float(horizontal ? picture.width : picture.height), count = horizontal ? plane.width : plane.height
                return positions.map { uv in
                    let s = horizontal ? m[0] * uv + m[4] : m[3] * uv + m[5]
                    var pos = s * full
                    if k > 0 { pos = horizontal ? pos * chroma.scaleX + chroma.offsetX : pos * chroma.scaleY + chroma.offsetY }
                    let inside = uv >= 0 && uv <= 1 && s >= 0 && s <= 1
                    return Tap(pos, count: count, exact: exact, inside: inside)
                }
            }
            let cs = axis(columns, horizontal: true), rs = axis(rows, horizontal: false)
            func window(_ taps: [Tap]) -> Int? {
                guard exact, let first = taps.first, taps.enumerated().allSatisfy({ $0.element.inside && $0.element.i0 == first.i0 + $0.offset }) else { return nil }
                return first.i0
            }
            if let x = window(cs), let y = window(rs) { self.window = (x, y, plane.width) } else { self.window = nil }
            self.rows = Shared(rs)
            n = cs.count; stride = plane.width
            self.background = background
            // The columns inside the layer are one run (the map is monotonic along each axis); only those `needed`
            // are read (the others are left as the background).
            first = max(cs.firstIndex { $0.inside } ?? 0, needed.lowerBound)
            last = min((cs.lastIndex { $0.inside } ?? -1) + 1, needed.upperBound)
            taps0 = Shared(cs.map { Int32($0.i0) }); taps1 = Shared(cs.map { Int32($0.i1) })
            // The longest run of columns whose taps are (c + i, c + i + 1) for one c.
            var best = 0..<0, start = 0
            for i in 0...cs.count {
                let continues = i < cs.count && cs[i].i1 == cs[i].i0 + 1 && (i == start || cs[i].i0 - i == cs[start].i0 - start)
                if !continues {
                    if i - start > best.count { best = start..<i }
                    start = i < cs.count && cs[i].i1 == cs[i].i0 + 1 ? i : i + 1
                }
            }
            run = best
            runOffset = best.isEmpty ? 0 : cs[best.lowerBound].i0 - best.lowerBound
            weights0 = Shared(cs.map { 1 - $0.f }); weights1 = Shared(cs.map { $0.f })
        }

        /// Row `j` of the layer's reads into `out` (`n` values, code / 255), from its plane at `base`. The bilinear rule
        /// of `ReferenceLayer.bilinear8`: along x in the two source rows (each filtered once for the output rows that
        /// share it, `cache`), then along y; an exact read has one tap of weight 1 (`x·1 + x·0` is `x`).
        @inline(__always) func fill(_ j: Int, _ base: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Float>, _ cache: RowCache) {
            let r = rows.base[j]
            guard r.inside, first < last else { out.update(repeating: background, count: n); return }
            let top = cache.row(r.i0, keep: r.i1) { filterRow(base + r.i0 * stride, into: $0) }
            if r.f == 0 {
                // top·(1 − 0) + bottom·0 is top.
                out.update(from: top, count: n)
            } else {
                let bottom = cache.row(r.i1, keep: r.i0) { filterRow(base + r.i1 * stride, into: $0) }
                let w0 = 1 - r.f, w1 = r.f
                for i in first..<last { out[i] = top[i] * w0 + bottom[i] * w1 }
            }
            for i in 0..<first { out[i] = background }
            for i in last..<n { out[i] = background }
        }

        /// One source row filtered along x at every output column inside the layer: `t[i0]/255·(1 − f) + t[i1]/255·f`.
        /// Where the taps are consecutive samples (`run`: no scaling, away from the clamped edges) the loads are
        /// contiguous and the loop vectorises; elsewhere each tap is fetched by its index.
        @inline(__always) func filterRow(_ t: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Float>) {
            let i0 = taps0.base, i1 = taps1.base, w0 = weights0.base, w1 = weights1.base, unorm = Sampler.unorm.base
            let lo = min(max(run.lowerBound, first), last), hi = max(min(run.upperBound, last), lo)
            for i in first..<lo { out[i] = unorm[Int(t[Int(i0[i])])] * w0[i] + unorm[Int(t[Int(i1[i])])] * w1[i] }
            if lo < hi {
                let p = t + runOffset
                for i in lo..<hi { out[i] = Float(p[i]) / 255 * w0[i] + Float(p[i + 1]) / 255 * w1[i] }
            }
            for i in hi..<last { out[i] = unorm[Int(t[Int(i0[i])])] * w0[i] + unorm[Int(t[Int(i1[i])])] * w1[i] }
        }

        /// `code / 255` for each 8-bit code, as the reference computes it.
        static let unorm = Shared((0..<256).map { Float($0) / 255 })
    }

    /// One thread's working rows: each layer's samples of the output row (`a`, `b`), and each layer's last two
    /// source rows filtered along x (`RowCache`), which the output rows between them share.
    final class Scratch {
        let a: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>
        let cacheA: RowCache, cacheB: RowCache
        init(width: Int) {
            a = .allocate(capacity: width); b = .allocate(capacity: width)
            cacheA = RowCache(width: width); cacheB = RowCache(width: width)
        }
        deinit { a.deallocate(); b.deallocate() }
    }

    /// Two source rows of a layer filtered along x (`Sampler.filterRow`), by source row index.
    final class RowCache {
        private var index = [-1, -1]
        private let rows: [UnsafeMutablePointer<Float>]
        private var next = 0
        init(width: Int) { rows = [.allocate(capacity: width), .allocate(capacity: width)] }
        deinit { rows.forEach { $0.deallocate() } }
        /// Source row `y` filtered along x, made by `fill` unless held; `keep`: a row not to evict for it.
        @inline(__always) func row(_ y: Int, keep: Int, _ fill: (UnsafeMutablePointer<Float>) -> Void) -> UnsafePointer<Float> {
            if index[0] == y { return UnsafePointer(rows[0]) }
            if index[1] == y { return UnsafePointer(rows[1]) }
            let slot = index[0] == keep ? 1 : index[1] == keep ? 0 : next
            next = 1 - slot
            index[slot] = y
            fill(rows[slot])
            return UnsafePointer(rows[slot])
        }
    }

    /// A read along one axis: whether it lies inside its layer, its two taps (indices into the plane's rows or
    /// columns, equal for an exact read) and the second's weight.
    struct Tap {
        let inside: Bool, i0: Int, i1: Int, f: Float
        init(inside: Bool, i0: Int, i1: Int, f: Float) { self.inside = inside; self.i0 = i0; self.i1 = i1; self.f = f }
        /// The read at `pos` (texel units, centres at `i + 0.5`) along an axis of `count` texels: with `exact`,
        /// `exactTexel` of prelude.glsl (the texel containing the position, ties to the lower index); else the
        /// bilinear taps of ES 3.0 §3.8.10 (weights from the fraction of `pos − 0.5`), clamped to the edge.
        init(_ pos: Float, count: Int, exact: Bool, inside: Bool) {
            if exact {
                let i = min(max(Int((pos - 1.0 / 64).rounded(.down)), 0), count - 1)
                self.init(inside: inside, i0: i, i1: i, f: 0)
            } else {
                let q = pos - 0.5, qf = q.rounded(.down), i = Int(qf)
                self.init(inside: inside, i0: min(max(i, 0), count - 1), i1: min(max(i + 1, 0), count - 1), f: q - qf)
            }
        }
    }

    /// A copy of some values at a stable address, read by the kernels' threads and freed with the last closure that
    /// holds it (`@unchecked Sendable`: nothing writes it after `init`).
    final class Shared<Element>: @unchecked Sendable {
        let base: UnsafePointer<Element>
        private let buffer: UnsafeMutableBufferPointer<Element>
        init(_ values: [Element]) {
            buffer = .allocate(capacity: max(1, values.count))
            _ = buffer.initialize(from: values)
            base = UnsafePointer(buffer.baseAddress!)
        }
        deinit { buffer.deallocate() }
    }
}
