import Foundation

/// Transition frames drawn straight on the planes by the CPU, for machines whose only OpenGL is a software rasteriser
/// (llvmpipe): a crossfade (or xfade's `fade`), a wipe, a push, or xfade's `circleopen`/`circleclose` between two
/// layers that are each a direct crop of an 8-bit 4:2:0 BT.709 picture (`DirectFrame.route` with no turn: untouched,
/// scale 1, whole even pixels). Such a frame is the same per-sample arithmetic on each plane as the fused luma and
/// chroma passes of `main.glsl` (`crossfade.frag`, `fade.frag`, `wipe.frag`, `push.frag`, `circleopen.frag`,
/// `circleclose.frag`), written as loops over rows, the rows split between threads: a few ms for a 1080p frame where
/// llvmpipe takes 30–40.
///
/// Maths (the CPU reference's, `ReferenceRenderer`): each sample is computed at the position the passes compute (a
/// luma sample's centre, a chroma sample's site, `RGBToOutputYCbCr.siting`). A crossfade's sample is
/// `unorm8(A/255·(1 − p) + B/255·p)` with `p` the pass's progress as `Float`, `A`, `B` the two layers' samples (the
/// fused colour map of a BT.709 limited picture in a BT.709 limited output is the identity; the layers are opaque,
/// so the background adds nothing); the circles mix the same way with a weight per sample (`smoothstep` of the
/// distance from the centre, xfade's formula); a wipe's sample is `A` or `B`, chosen per sample by `wipe.frag`'s
/// test. A push moves the layers by fractions of a pixel, so its layers are read as the renderers read them then:
/// bilinear (`GL_LINEAR`, `GL_CLAMP_TO_EDGE` at the picture's edges, ES 3.0 §3.8.10), the taps and weights of each
/// column and row computed once, in the reference's `Float` arithmetic. The one difference: `unorm8` here rounds a
/// value exactly half-way between two codes to the even one (the reference rounds it up), so mixed samples are within
/// one code of the reference's, as the GPU's are (`PlaneTransitionTests`); a wipe's are equal.
public enum PlaneTransitions {
    /// The kinds drawn here.
    public static let kinds: Set<TransitionKind> = [.crossfade, .fade, .wipe, .push, .circleopen, .circleclose]

    /// The frame drawn on the planes, or nil when `plan` is not one this path draws: one pass, a transition of
    /// `kinds` mixed in gamma space between two layers that are direct crops (`DirectFrame.route`, no turn) of
    /// `pictures` (those of `plan.layers`). `threads`: how many threads share the rows (at least 1).
    public static func image(_ plan: FramePlan, pictures: [VideoPicture], threads: Int = 2) -> YUV420Image? {
        guard plan.passes.count == 1, pictures.count == 2, let t = plan.passes[0].transition, kinds.contains(t.kind), t.blend != .linear,
              let to = plan.passes[0].to,
              let a = DirectFrame.route(plan.passes[0].from, picture: pictures[0], plan: plan), !a.turns,
              let b = DirectFrame.route(to, picture: pictures[1], plan: plan), !b.turns else { return nil }
        let size = plan.renderSize, W = size.width, H = size.height
        let p = TransitionParameters(pass: plan.passes[0], renderSize: size)
        let from = Layer(pictures[0], a, map: p.fromMap), into = Layer(pictures[1], b, map: p.toMap)
        var planes = [[UInt8](repeating: 0, count: W * H), [UInt8](repeating: 0, count: W * H / 4), [UInt8](repeating: 0, count: W * H / 4)]
        let fw = Float(W), fh = Float(H), site = RGBToOutputYCbCr.siting
        for k in 0..<3 {
            let pw = k == 0 ? W : W / 2, ph = k == 0 ? H : H / 2
            // The position (0…1) of each column's and each row's samples, as the passes compute it.
            let us: [Float] = (0..<pw).map { i in k == 0 ? (Float(i) + 0.5) / fw : ((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw }
            let vs: [Float] = (0..<ph).map { j in k == 0 ? (Float(j) + 0.5) / fh : ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh }
            let row = kernel(t.kind, p, plane: k, us: us, vs: vs, from: from, into: into, plan: plan)
            from.picture.planes[k].bytes.withUnsafeBufferPointer { pa in
                into.picture.planes[k].bytes.withUnsafeBufferPointer { pb in
                    planes[k].withUnsafeMutableBufferPointer { out in
                        let shared = Planes(a: pa.baseAddress!, b: pb.baseAddress!, out: out.baseAddress!)
                        let stripes = max(1, min(threads, ph))
                        DispatchQueue.concurrentPerform(iterations: stripes) { s in
                            for j in (s * ph / stripes)..<((s + 1) * ph / stripes) { row(j, shared.a, shared.b, shared.out + j * pw) }
                        }
                    }
                }
            }
        }
        return YUV420Image(width: W, height: H, y: planes[0], cb: planes[1], cr: planes[2])
    }

    /// One layer of the pass: its picture and where the output's top-left sample sits in it (`DirectFrame.Route`),
    /// and its output → source map (`TransitionParameters.fromMap`/`toMap`) for the moving reads of a push.
    struct Layer {
        let picture: VideoPicture
        let route: DirectFrame.Route
        let map: [Float]
        let chroma: ChromaPositionMap
        init(_ picture: VideoPicture, _ route: DirectFrame.Route, map: [Float]) {
            self.picture = picture; self.route = route; self.map = map; chroma = ChromaPositionMap(picture)
        }
        /// Plane `k`'s row length and size, and the crop's origin in it.
        func plane(_ k: Int) -> (width: Int, height: Int, x: Int, y: Int) {
            let q = picture.planes[k]
            return (q.width, q.height, k == 0 ? route.x : route.x / 2, k == 0 ? route.y : route.y / 2)
        }
    }

    /// The two layers' planes and the output plane of one `image` loop, shared by its threads: each writes its own
    /// rows of `out` and only reads `a` and `b`, which outlive the loop (`@unchecked Sendable`).
    struct Planes: @unchecked Sendable {
        let a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>
    }

    /// Draws row `j` of a plane: the layers' planes (`a`, `b`, whole pictures' planes) → the output row.
    typealias Row = @Sendable (_ j: Int, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) -> Void

    /// The row kernel of `kind` for plane `k` (0 luma, 1 Cb, 2 Cr) at the sample positions `us` (columns) and `vs`
    /// (rows).
    static func kernel(_ kind: TransitionKind, _ p: TransitionParameters, plane k: Int, us: [Float], vs: [Float],
                       from: Layer, into: Layer, plan: FramePlan) -> Row {
        let A = from.plane(k), B = into.plane(k)
        let n = us.count
        // The layers' samples at the output's own positions: their windows of the pictures (exact reads).
        let windows = Windows(a: (A.x, A.y, A.width), b: (B.x, B.y, B.width))
        switch kind {
        case .wipe:
            // wipe.frag, per axis: +1 keeps A where the position ≥ p, −1 where it is < 1 − p.
            func keepsA(_ v: Float, _ d: Float) -> Bool { d > 0.5 ? v >= p.progress : d < -0.5 ? v < 1 - p.progress : true }
            let columnsA = Shared(us.map { keepsA($0, p.direction.0) ? UInt8(1) : 0 }), rowsA = vs.map { keepsA($0, p.direction.1) }
            return { j, a, b, out in
                let (ra, rb) = windows.rows(j, a, b)
                guard rowsA[j] else { out.update(from: rb, count: n); return }
                let keep = columnsA.base
                for i in 0..<n { out[i] = keep[i] != 0 ? ra[i] : rb[i] }
                withExtendedLifetime(columnsA) {}
            }
        case .circleopen, .circleclose:
            // xfade's circles (circleopen.frag, circleclose.frag): the distance of the sample's pixel
            // (`segue_pixel`) from (W/2, H/2) over hypot(W/2, H/2), through smoothstep.
            let P = 1 - p.progress, res = (Float(plan.renderSize.width), Float(plan.renderSize.height))
            let c = (Float(plan.renderSize.width / 2), Float(plan.renderSize.height / 2))
            let radius = (c.0 * c.0 + c.1 * c.1).squareRoot()
            let offset = kind == .circleopen ? (P - 0.5) * 3 : (1 - P - 0.5) * 3
            let dxs = Shared(us.map { u -> Float in let d = (u * res.0 - 1.0 / 64).rounded(.down) - c.0; return d * d })
            let dys = vs.map { v -> Float in let d = (v * res.1 - 1.0 / 64).rounded(.down) - c.1; return d * d }
            // circleopen: mix(B, A, s); circleclose: mix(A, B, s).
            let opens = kind == .circleopen
            return { j, a, b, out in
                let (ra, rb) = windows.rows(j, a, b)
                let (x, y) = opens ? (rb, ra) : (ra, rb)
                let dy = dys[j], dx = dxs.base
                for i in 0..<n {
                    let e = (dx[i] + dy).squareRoot() / radius + offset
                    let t = e < 0 ? 0 : (e > 1 ? 1 : e)
                    let s = t * t * (3 - 2 * t)
                    out[i] = unorm8(Float(x[i]) / 255 * (1 - s) + Float(y[i]) / 255 * s)
                }
                withExtendedLifetime(dxs) {}
            }
        case .push:
            return push(p, plane: k, us: us, vs: vs, from: from, into: into, plan: plan)
        default:
            // crossfade, fade: mix(A, B, p).
            let progress = p.progress, q = 1 - progress
            return { j, a, b, out in
                let (ra, rb) = windows.rows(j, a, b)
                for i in 0..<n { out[i] = unorm8(Float(ra[i]) / 255 * q + Float(rb[i]) / 255 * progress) }
            }
        }
    }

    /// push.frag: A read at `uv − p·direction` where that lies inside the frame, else B at `uv + (1 − p)·direction`,
    /// each bilinear (the layers move by fractions of a pixel: `TransitionTraits.movesLayers`), the background where a
    /// read falls outside its layer (`ReferenceLayer.color`).
    static func push(_ p: TransitionParameters, plane k: Int, us: [Float], vs: [Float], from: Layer, into: Layer, plan: FramePlan) -> Row {
        let A = from.plane(k), B = into.plane(k), n = us.count
        let progress = p.progress
        let fused = LayerColourMap.background(pass: k == 0 ? .luma : .chroma, fused: true, colour: plan.background, alpha: plan.backgroundAlpha)
        let background = unorm8(fused[k == 2 ? 1 : 0])
        // ReferenceLayer.color and .sample along one axis: the source position s = m·uv + t (the route has no turn,
        // so the other axis's term is zero; outside 0…1 the background), the picture's luma position s·w, on the
        // chroma grid through its ChromaPositionMap, then the bilinear taps (clamped indices, weight of the second).
        func read(_ layer: Layer, _ uv: Float, horizontal: Bool) -> Tap {
            let m = layer.map
            let s = horizontal ? m[0] * uv + m[4] : m[3] * uv + m[5]
            var pos = s * Float(horizontal ? layer.picture.width : layer.picture.height)
            if k > 0 { pos = horizontal ? pos * layer.chroma.scaleX + layer.chroma.offsetX : pos * layer.chroma.scaleY + layer.chroma.offsetY }
            let count = horizontal ? layer.plane(k).width : layer.plane(k).height
            let q = pos - 0.5, qf = q.rounded(.down), i = Int(qf)
            return Tap(inside: uv >= 0 && uv <= 1 && s >= 0 && s <= 1, i0: min(max(i, 0), count - 1), i1: min(max(i + 1, 0), count - 1), f: q - qf)
        }
        // Per column and per row: whether A shows there (push.frag's test on its position), and A's and B's taps.
        func axis(_ positions: [Float], _ dir: Float, horizontal: Bool) -> Shared<AxisTap> {
            Shared(positions.map { u in
                let ua = u - progress * dir, ub = u + (1 - progress) * dir
                return AxisTap(showsA: ua >= 0 && ua <= 1, a: read(from, ua, horizontal: horizontal), b: read(into, ub, horizontal: horizontal))
            })
        }
        let columns = axis(us, p.direction.0, horizontal: true), rows = axis(vs, p.direction.1, horizontal: false)
        return { j, a, b, out in
            let r = rows.base[j], c = columns.base
            // The bilinear rule of ReferenceLayer.bilinear8: along x in the two rows, then along y.
            @inline(__always) func bilinear(_ p: UnsafePointer<UInt8>, _ stride: Int, _ y: Tap, _ x: Tap) -> UInt8 {
                let t = p + y.i0 * stride, u = p + y.i1 * stride
                let top = Float(t[x.i0]) / 255 * (1 - x.f) + Float(t[x.i1]) / 255 * x.f
                let bottom = Float(u[x.i0]) / 255 * (1 - x.f) + Float(u[x.i1]) / 255 * x.f
                return unorm8(top * (1 - y.f) + bottom * y.f)
            }
            for i in 0..<n {
                let x = c[i]
                if x.showsA && r.showsA {
                    out[i] = x.a.inside && r.a.inside ? bilinear(a, A.width, r.a, x.a) : background
                } else {
                    out[i] = x.b.inside && r.b.inside ? bilinear(b, B.width, r.b, x.b) : background
                }
            }
            withExtendedLifetime((columns, rows)) {}
        }
    }

    /// Where row `j` of the output starts in each layer's plane: the crop's origin (`x`, `y`) and the row length.
    struct Windows: Sendable {
        let a: (x: Int, y: Int, stride: Int), b: (x: Int, y: Int, stride: Int)
        @inline(__always) func rows(_ j: Int, _ pa: UnsafePointer<UInt8>, _ pb: UnsafePointer<UInt8>) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
            (pa + (a.y + j) * a.stride + a.x, pb + (b.y + j) * b.stride + b.x)
        }
    }

    /// A bilinear read along one axis: whether it lies inside its layer, its two taps and the second's weight.
    struct Tap { let inside: Bool; let i0: Int; let i1: Int; let f: Float }
    /// A push's column or row: whether A shows there, and where A and B are read.
    struct AxisTap { let showsA: Bool; let a: Tap; let b: Tap }

    /// `v` (0…1, unclamped) as an 8-bit code: clamped, scaled to 255 and rounded to the nearest code (half-way values
    /// to even: adding 2²³ leaves the integer in the low bits of the `Float`), in a form the compiler vectorises (no
    /// checked conversions).
    @inline(__always) static func unorm8(_ v: Float) -> UInt8 {
        let c = v < 0 ? 0 : (v > 1 ? 1 : v)
        return UInt8(truncatingIfNeeded: (c * 255 + 8_388_608).bitPattern)
    }

    /// A copy of some bytes at a stable address, read by the kernels' threads and freed with the last closure that
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
