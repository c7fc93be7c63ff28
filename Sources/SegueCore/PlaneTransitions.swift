import Foundation

/// Transition frames drawn straight on the planes by the CPU, for machines whose only OpenGL is a software rasteriser
/// (llvmpipe): a crossfade (or xfade's `fade`) or a wipe between two layers that are each a direct crop of an 8-bit
/// 4:2:0 BT.709 picture (`DirectFrame.route` with no turn: untouched, scale 1, whole even pixels). Such a frame is
/// the same per-sample arithmetic on each plane as the fused luma and chroma passes of `main.glsl` (`crossfade.frag`,
/// `fade.frag`, `wipe.frag`), written as loops over rows that the compiler vectorises, the rows split between
/// threads: about 3 ms for a 1080p frame where llvmpipe takes 30–40.
///
/// Maths (the CPU reference's, `ReferenceRenderer`): a crossfade's sample is `unorm8(A/255·(1 − p) + B/255·p)` with
/// `p` the pass's progress as `Float`, `A`, `B` the two layers' samples (the fused colour map of a BT.709 limited
/// picture in a BT.709 limited output is the identity; the layers are opaque, so the background adds nothing); a
/// wipe's sample is `A` or `B`, chosen per sample by `wipe.frag`'s test on the sample's position (a luma sample's
/// centre, a chroma sample's site). The one difference: `unorm8` here rounds a value exactly half-way between two
/// codes to the even one (the reference rounds it up), so a crossfade's samples are within one code of the
/// reference's, as the GPU's are (`PlaneTransitionTests`); a wipe's are equal.
public enum PlaneTransitions {
    /// The kinds drawn here.
    public static let kinds: Set<TransitionKind> = [.crossfade, .fade, .wipe]

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
        // The planes of each layer as the output sees them: a window of the picture's planes (no copy).
        struct Window { let bytes: [UInt8]; let stride: Int; let x: Int; let y: Int }
        func windows(_ picture: VideoPicture, _ r: DirectFrame.Route) -> [Window] {
            [Window(bytes: picture.planes[0].bytes, stride: picture.planes[0].width, x: r.x, y: r.y),
             Window(bytes: picture.planes[1].bytes, stride: picture.planes[1].width, x: r.x / 2, y: r.y / 2),
             Window(bytes: picture.planes[2].bytes, stride: picture.planes[2].width, x: r.x / 2, y: r.y / 2)]
        }
        let from = windows(pictures[0], a), into = windows(pictures[1], b)
        var planes = [[UInt8](repeating: 0, count: W * H), [UInt8](repeating: 0, count: W * H / 4), [UInt8](repeating: 0, count: W * H / 4)]
        let fw = Float(W), fh = Float(H), site = RGBToOutputYCbCr.siting
        let wipe = t.kind == .wipe
        for k in 0..<3 {
            let pw = k == 0 ? W : W / 2, ph = k == 0 ? H : H / 2
            // The position (0…1) of each column's and each row's samples, as the passes compute it.
            let us: [Float] = (0..<pw).map { i in k == 0 ? (Float(i) + 0.5) / fw : ((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw }
            let vs: [Float] = (0..<ph).map { j in k == 0 ? (Float(j) + 0.5) / fh : ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh }
            // wipe.frag, per axis: +1 keeps A where the position ≥ p, −1 where it is < 1 − p.
            func keepsA(_ v: Float, _ d: Float) -> Bool { d > 0.5 ? v >= p.progress : d < -0.5 ? v < 1 - p.progress : true }
            let columnsA = wipe ? us.map { keepsA($0, p.direction.0) } : []
            let rowsA = wipe ? vs.map { keepsA($0, p.direction.1) } : []
            let A = from[k], B = into[k]
            planes[k].withUnsafeMutableBufferPointer { out in
                A.bytes.withUnsafeBufferPointer { pa in
                    B.bytes.withUnsafeBufferPointer { pb in
                        let planes = Planes(a: pa.baseAddress!, b: pb.baseAddress!, out: out.baseAddress!)
                        let stripes = max(1, min(threads, ph))
                        DispatchQueue.concurrentPerform(iterations: stripes) { s in
                            for j in (s * ph / stripes)..<((s + 1) * ph / stripes) {
                                let rowA = planes.a + (A.y + j) * A.stride + A.x, rowB = planes.b + (B.y + j) * B.stride + B.x
                                let row = planes.out + j * pw
                                if wipe {
                                    wipeRow(rowA, rowB, row, pw, columnsA, rowsA[j])
                                } else {
                                    mixRow(rowA, rowB, row, pw, p.progress)
                                }
                            }
                        }
                    }
                }
            }
        }
        return YUV420Image(width: W, height: H, y: planes[0], cb: planes[1], cr: planes[2])
    }

    /// The two layers' planes and the output plane of one `image` loop, shared by its threads: each writes its own
    /// rows of `out` and only reads `a` and `b`, which outlive the loop (`@unchecked Sendable`).
    struct Planes: @unchecked Sendable {
        let a: UnsafePointer<UInt8>, b: UnsafePointer<UInt8>, out: UnsafeMutablePointer<UInt8>
    }

    /// `unorm8(a/255·(1 − p) + b/255·p)` for `n` samples: `mix` in `Float`, clamped, scaled to 255 and rounded to the
    /// nearest code (half-way values to even: adding 2²³ leaves the integer in the low bits of the `Float`), in a form
    /// the compiler vectorises (no checked conversions).
    @inline(__always)
    static func mixRow(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ n: Int, _ p: Float) {
        let q = 1 - p
        for i in 0..<n {
            let v = Float(a[i]) / 255 * q + Float(b[i]) / 255 * p
            let c = v < 0 ? 0 : (v > 1 ? 1 : v)
            out[i] = UInt8(truncatingIfNeeded: (c * 255 + 8_388_608).bitPattern)
        }
    }

    /// A wipe's row: `a` where the column keeps A and the row does, else `b`.
    @inline(__always)
    static func wipeRow(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ n: Int,
                        _ columnsA: [Bool], _ rowA: Bool) {
        guard rowA else { out.update(from: b, count: n); return }
        columnsA.withUnsafeBufferPointer { keep in
            for i in 0..<n { out[i] = keep[i] ? a[i] : b[i] }
        }
    }
}
