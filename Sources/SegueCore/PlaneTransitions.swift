import Foundation

/// Frames drawn straight on the planes by the CPU, for machines whose only OpenGL is a software rasteriser
/// (llvmpipe): one layer scaled or moved (a clip whose size is not the render size, letterboxed or filling it), or a
/// crossfade (or xfade's `fade`), a wipe, a push, or xfade's `circleopen`/`circleclose` between two such layers, each
/// an upright, axis-aligned read of an 8-bit 4:2:0 BT.709 picture (`PlaneLayers.turn` is the identity: a phone clip is
/// turned upright first, `PictureTurner`). Such a frame is the same per-sample arithmetic on each plane as the fused
/// luma and chroma passes of `main.glsl` (the layer lookup of `layer.glsl`, then `crossfade.frag`, `fade.frag`,
/// `wipe.frag`, `push.frag`, `circleopen.frag`, `circleclose.frag`), written as loops over rows, the rows split between
/// threads: a few ms for a 1080p frame where llvmpipe takes 30–40.
///
/// Maths (the CPU reference's, `ReferenceRenderer` and `ReferenceLayer`): each sample is computed at the position the
/// passes compute (a luma sample's centre, a chroma sample's site, `RGBToOutputYCbCr.siting`). A layer is read there
/// through its map: outside 0…1 or outside its picture the background, else its picture's samples, with exact texel
/// fetches where the renderers fetch exactly (`TransitionParameters.isExact`) and otherwise bilinear (`GL_LINEAR`,
/// `GL_CLAMP_TO_EDGE`, ES 3.0 §3.8.10) with the taps and weights of each column and row computed once, in the
/// reference's `Float` arithmetic; the fused colour map of a BT.709 limited picture in a BT.709 limited output is
/// the identity, and the layers are opaque. A crossfade's sample is then `unorm8(A·(1 − p) + B·p)` with `p` the pass's
/// progress as `Float`; the circles mix the same way with a weight per sample (`smoothstep` of the distance from the
/// centre, xfade's formula); a wipe's sample is `A` or `B`, chosen per sample by `wipe.frag`'s test; a push reads A
/// and B at positions moved by `p` and `p − 1` along its direction and shows A where its position lies in the frame.
/// The one difference: `unorm8` here rounds a value exactly half-way between two codes to the even one (the reference
/// rounds it up), so mixed or filtered samples are within one code of the reference's, as the GPU's are
/// (`PlaneTransitionTests`); exact reads and a wipe's selections are equal.
public enum PlaneTransitions {
    /// The transition kinds drawn here.
    public static let kinds: Set<TransitionKind> = [.crossfade, .fade, .wipe, .push, .circleopen, .circleclose]

    /// Whether the planes draw `pass` as far as its kind goes: without a transition, or with one of `kinds` mixed in
    /// gamma space. (Its layers must also be upright reads: `turn`.)
    public static func drawsKind(_ pass: CompositePass) -> Bool {
        guard let t = pass.transition else { return true }
        return kinds.contains(t.kind) && t.blend != .linear && pass.to != nil
    }

    /// A frame of several passes whose first pass the planes draw (`image` of that pass alone), rewritten so that the
    /// renderer starts from those planes and draws only the passes above it, each inside its rectangle (as for a
    /// direct first layer, `DirectFrame.basePlanes`): the first pass becomes one untouched layer of the drawn
    /// picture (8-bit 4:2:0 BT.709, the render size). Nil when `plan` has one pass, keeps alpha, or its first pass is
    /// not one `image` draws. `pictures`: those of `plan.layers`.
    public static func withBasePlanes(_ plan: FramePlan, pictures: [VideoPicture], threads: Int = 2) -> (plan: FramePlan, pictures: [VideoPicture])? {
        guard plan.passes.count > 1, !plan.keepsAlpha else { return nil }
        let first = plan.passes[0], k = first.layers.count
        var alone = plan
        alone.passes = [first]
        guard let base = image(alone, pictures: Array(pictures[0..<k]), threads: threads) else { return nil }
        let size = plan.renderSize
        let picture = VideoPicture(width: size.width, height: size.height, layout: .planar, chromaShiftX: 1, chromaShiftY: 1, bitDepth: 8,
                                   planes: [PicturePlane(width: size.width, height: size.height, channels: 1, bytes: base.y),
                                            PicturePlane(width: size.width / 2, height: size.height / 2, channels: 1, bytes: base.cb),
                                            PicturePlane(width: size.width / 2, height: size.height / 2, channels: 1, bytes: base.cr)],
                                   colour: .output)
        var out = plan
        let layer = LayerPlan(clipIndex: first.from.clipIndex, sourceTime: first.from.sourceTime,
                              outputToSource: .scale(1 / Double(size.width), 1 / Double(size.height)))
        out.passes[0] = CompositePass(track: first.track, from: layer, to: nil, transition: nil, progress: 0, rect: first.rect)
        return (out, [picture] + pictures[k...])
    }

    /// The turn (`Orientation`, the linear part of the map from turned pixel indices to stored ones, as
    /// `DirectFrame.Route.turn`) that makes `layer` an upright read of `picture` that the planes draw: `.identity` when
    /// it is one as it is, a quarter turn, half turn or mirror when its picture must be turned first
    /// (`DirectFrame.uprighted`), nil when the planes cannot draw it: an output that keeps alpha or is HDR, a picture
    /// that is not 8-bit 4:2:0 planar BT.709 limited-range SDR or has alpha, a layer that is not opaque, is cropped or
    /// is not media, a map that is not axis-aligned (rotation by other than quarter turns), or an odd render size.
    public static func turn(_ layer: LayerPlan, picture: VideoPicture, plan: FramePlan) -> Orientation? {
        guard DirectFrame.isOutputFormat(layer, picture: picture, plan: plan), picture.width % 2 == 0, picture.height % 2 == 0 else { return nil }
        let m = layer.outputToSource.then(.scale(Double(picture.width), Double(picture.height)))
        let scale = max(abs(m.a), abs(m.b), abs(m.c), abs(m.d))
        func zero(_ v: Double) -> Bool { abs(v) <= 1e-9 * scale }
        func sign(_ v: Double) -> Int { zero(v) ? 0 : v > 0 ? 1 : -1 }
        guard scale > 0, (zero(m.b) && zero(m.c) && !zero(m.a) && !zero(m.d)) || (zero(m.a) && zero(m.d) && !zero(m.b) && !zero(m.c)) else { return nil }
        return Orientation(a: sign(m.a), b: sign(m.b), c: sign(m.c), d: sign(m.d))
    }

    /// The chroma siting of a 4:2:0 picture turned by `turn` (`PictureTurner`), for reads that filter (bilinear): a
    /// mirrored axis puts each chroma sample on the other side of its 2×2 block (`s ↦ 1 − s`), a quarter turn swaps
    /// the axes. (Exact reads of a turned picture keep its stored siting: they read it as a permutation of each plane's
    /// samples, `DirectFrame`.)
    public static func siting(_ s: ChromaSiting, turnedBy turn: Orientation) -> ChromaSiting {
        // Turned axis X is stored axis x (a ≠ 0) or y (b ≠ 0), read backwards where the entry is negative.
        func axis(_ onX: Int, _ onY: Int) -> Double { onX != 0 ? (onX > 0 ? s.x : 1 - s.x) : (onY > 0 ? s.y : 1 - s.y) }
        return ChromaSiting(x: axis(turn.a, turn.b), y: axis(turn.c, turn.d))
    }

    /// The frame drawn on the planes, or nil when `plan` is not one this path draws: one pass (`drawsKind`) whose
    /// layers are upright reads (`turn` is the identity) of `pictures` (those of `plan.layers`). `threads`: how many
    /// threads share the rows (at least 1).
    public static func image(_ plan: FramePlan, pictures: [VideoPicture], threads: Int = 2) -> YUV420Image? {
        guard plan.passes.count == 1, drawsKind(plan.passes[0]) else { return nil }
        let pass = plan.passes[0]
        let layers = [pass.from] + (pass.to.map { [$0] } ?? [])
        guard pictures.count == layers.count,
              zip(layers, pictures).allSatisfy({ turn($0, picture: $1, plan: plan) == .identity }) else { return nil }
        let size = plan.renderSize, W = size.width, H = size.height
        let p = TransitionParameters(pass: pass, renderSize: size)
        let kind = pass.transition?.kind
        let maps = [p.fromMap, p.toMap]
        var planes = [[UInt8](repeating: 0, count: W * H), [UInt8](repeating: 0, count: W * H / 4), [UInt8](repeating: 0, count: W * H / 4)]
        let fw = Float(W), fh = Float(H), site = RGBToOutputYCbCr.siting
        for k in 0..<3 {
            let pw = k == 0 ? W : W / 2, ph = k == 0 ? H : H / 2
            // The position (0…1) of each column's and each row's samples, as the passes compute it.
            let us: [Float] = (0..<pw).map { i in k == 0 ? (Float(i) + 0.5) / fw : ((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw }
            let vs: [Float] = (0..<ph).map { j in k == 0 ? (Float(j) + 0.5) / fh : ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh }
            let fused = LayerColourMap.background(pass: k == 0 ? .luma : .chroma, fused: true, colour: plan.background, alpha: plan.backgroundAlpha)
            let background = fused[k == 2 ? 1 : 0]
            // Where each layer is read: at the sample's own position, or for a push moved along its direction (A by
            // −p, B by 1 − p: push.frag).
            let moves = kind == .push ? [-p.progress, 1 - p.progress] : [0, 0]
            // The columns each layer is shown in: all, but in a push along x only A's run and the rest.
            var needed = [0..<pw, 0..<pw]
            if kind == .push {
                func shows(_ v: Float, _ d: Float) -> Bool { let m = v - p.progress * d; return m >= 0 && m <= 1 }
                let columnsA = us.map { shows($0, p.direction.0) }, everyRow = vs.allSatisfy { shows($0, p.direction.1) }
                if let lo = columnsA.firstIndex(of: true), let hi = columnsA.lastIndex(of: true) {
                    needed[0] = lo..<(hi + 1)
                    if everyRow && lo == 0 { needed[1] = (hi + 1)..<pw } else if everyRow && hi == pw - 1 { needed[1] = 0..<lo }
                } else {
                    needed[0] = 0..<0
                }
            }
            let samplers = (0..<layers.count).map { n in
                Sampler(picture: pictures[n], plane: k, map: maps[n], exact: TransitionParameters.isExact(pass, layers[n], picture: pictures[n]),
                        columns: us.map { $0 + moves[n] * p.direction.0 }, rows: vs.map { $0 + moves[n] * p.direction.1 }, needed: needed[n],
                        background: background)
            }
            let row = kernel(kind, p, samplers: samplers, us: us, vs: vs, plan: plan)
            let b = samplers.count > 1 ? 1 : 0
            pictures[0].planes[k].bytes.withUnsafeBufferPointer { pa in
                pictures[b].planes[k].bytes.withUnsafeBufferPointer { pb in
                    planes[k].withUnsafeMutableBufferPointer { out in
                        let shared = Planes(a: pa.baseAddress!, b: pb.baseAddress!, out: out.baseAddress!)
                        let stripes = max(1, min(threads, ph))
                        DispatchQueue.concurrentPerform(iterations: stripes) { s in
                            let scratch = Scratch(width: pw)
                            for j in (s * ph / stripes)..<((s + 1) * ph / stripes) {
                                row(j, shared.a, shared.b, shared.out + j * pw, scratch)
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

    /// Draws row `j` of a plane: the layers' planes (`a`, `b`: whole pictures' planes) → the output row, with one
    /// thread's `Scratch`.
    typealias Row = @Sendable (_ j: Int, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>,
                               _ scratch: Scratch) -> Void

    /// The row kernel of `kind` (nil: the one layer alone) for one plane, reading the layers through `samplers` at the
    /// sample positions `us` (columns) and `vs` (rows). Where every read is an exact fetch of a window of the pictures
    /// (no move, scale 1), the kernels read the bytes directly; otherwise the samplers fill a row of values first.
    static func kernel(_ kind: TransitionKind?, _ p: TransitionParameters, samplers: [Sampler], us: [Float], vs: [Float], plan: FramePlan) -> Row {
        let n = us.count
        let A = samplers[0], B = samplers.count > 1 ? samplers[1] : samplers[0]
        let windows = kind != .push ? A.window.flatMap { a in B.window.map { b in Windows(a: a, b: b) } } : nil
        switch kind {
        case nil:
            return { j, a, _, out, scratch in
                if let w = windows {
                    out.update(from: w.rows(j, a, a).0, count: n)
                } else {
                    let ra = scratch.a
                    A.fill(j, a, ra, scratch.cacheA)
                    for i in 0..<n { out[i] = unorm8(ra[i]) }
                }
            }
        case .wipe?:
            // wipe.frag, per axis: +1 keeps A where the position ≥ p, −1 where it is < 1 − p.
            func keepsA(_ v: Float, _ d: Float) -> Bool { d > 0.5 ? v >= p.progress : d < -0.5 ? v < 1 - p.progress : true }
            let columnsA = Shared(us.map { keepsA($0, p.direction.0) ? UInt8(1) : 0 }), rowsA = vs.map { keepsA($0, p.direction.1) }
            return { j, a, b, out, scratch in
                let fa = scratch.a, fb = scratch.b
                let keep = columnsA.base
                if let w = windows {
                    let (ra, rb) = w.rows(j, a, b)
                    guard rowsA[j] else { out.update(from: rb, count: n); return }
                    for i in 0..<n { out[i] = keep[i] != 0 ? ra[i] : rb[i] }
                } else {
                    B.fill(j, b, fb, scratch.cacheB)
                    if rowsA[j] { A.fill(j, a, fa, scratch.cacheA) }
                    for i in 0..<n { out[i] = unorm8(rowsA[j] && keep[i] != 0 ? fa[i] : fb[i]) }
                }
                withExtendedLifetime(columnsA) {}
            }
        case .circleopen?, .circleclose?:
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
            return { j, a, b, out, scratch in
                let fa = scratch.a, fb = scratch.b
                let dy = dys[j], dx = dxs.base
                @inline(__always) func weight(_ i: Int) -> Float {
                    let e = (dx[i] + dy).squareRoot() / radius + offset
                    let t = e < 0 ? 0 : (e > 1 ? 1 : e)
                    return t * t * (3 - 2 * t)
                }
                if let w = windows {
                    let (ra, rb) = w.rows(j, a, b)
                    let (x, y) = opens ? (rb, ra) : (ra, rb)
                    for i in 0..<n {
                        let s = weight(i)
                        out[i] = unorm8(Float(x[i]) / 255 * (1 - s) + Float(y[i]) / 255 * s)
                    }
                } else {
                    A.fill(j, a, fa, scratch.cacheA); B.fill(j, b, fb, scratch.cacheB)
                    let (x, y) = opens ? (fb, fa) : (fa, fb)
                    for i in 0..<n {
                        let s = weight(i)
                        out[i] = unorm8(x[i] * (1 - s) + y[i] * s)
                    }
                }
                withExtendedLifetime(dxs) {}
            }
        case .push?:
            // push.frag: A (read at uv − p·direction) where that position lies inside the frame, else B. Along each
            // axis the positions where A shows are one run (the position is monotonic): the columns `lo..<hi`.
            let progress = p.progress
            func shows(_ v: Float, _ d: Float) -> Bool { let m = v - progress * d; return m >= 0 && m <= 1 }
            let columnsA = us.map { shows($0, p.direction.0) }, rowsA = vs.map { shows($0, p.direction.1) }
            let lo = columnsA.firstIndex(of: true) ?? n, hi = (columnsA.lastIndex(of: true) ?? -1) + 1
            return { j, a, b, out, scratch in
                let fa = scratch.a, fb = scratch.b
                if rowsA[j] && lo < hi {
                    A.fill(j, a, fa, scratch.cacheA)
                    for i in lo..<hi { out[i] = unorm8(fa[i]) }
                    guard lo > 0 || hi < n else { return }
                    B.fill(j, b, fb, scratch.cacheB)
                    for i in 0..<lo { out[i] = unorm8(fb[i]) }
                    for i in hi..<n { out[i] = unorm8(fb[i]) }
                } else {
                    B.fill(j, b, fb, scratch.cacheB)
                    for i in 0..<n { out[i] = unorm8(fb[i]) }
                }
            }
        default:
            // crossfade, fade: mix(A, B, p).
            let progress = p.progress, q = 1 - progress
            return { j, a, b, out, scratch in
                let fa = scratch.a, fb = scratch.b
                if let w = windows {
                    let (ra, rb) = w.rows(j, a, b)
                    for i in 0..<n { out[i] = unorm8(Float(ra[i]) / 255 * q + Float(rb[i]) / 255 * progress) }
                } else {
                    A.fill(j, a, fa, scratch.cacheA); B.fill(j, b, fb, scratch.cacheB)
                    for i in 0..<n { out[i] = unorm8(fa[i] * q + fb[i] * progress) }
                }
            }
        }
    }

    /// Where row `j` of the output starts in each layer's plane: the window's origin (`x`, `y`) and the row length.
    struct Windows: Sendable {
        let a: (x: Int, y: Int, stride: Int), b: (x: Int, y: Int, stride: Int)
        @inline(__always) func rows(_ j: Int, _ pa: UnsafePointer<UInt8>, _ pb: UnsafePointer<UInt8>) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
            (pa + (a.y + j) * a.stride + a.x, pb + (b.y + j) * b.stride + b.x)
        }
    }

    /// `v` (0…1, unclamped) as an 8-bit code: clamped, scaled to 255 and rounded to the nearest code (half-way values
    /// to even: adding 2²³ leaves the integer in the low bits of the `Float`), in a form the compiler vectorises (no
    /// checked conversions).
    @inline(__always) static func unorm8(_ v: Float) -> UInt8 {
        let c = v < 0 ? 0 : (v > 1 ? 1 : v)
        return UInt8(truncatingIfNeeded: (c * 255 + 8_388_608).bitPattern)
    }
}
