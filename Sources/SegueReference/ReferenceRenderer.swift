import Foundation
import SegueCore

/// The CPU reference renderer: pure Swift, the same maths as `Shaders/glsl/` line for line, in `Float`
/// (IEEE binary32, like GLSL ES `highp`).
///
/// Sampling follows OpenGL ES 3.0 §3.8.10 for `GL_LINEAR` + `GL_CLAMP_TO_EDGE`: texel centres at
/// `(i + 0.5) / W`, weights from the fractional part of `u·W − 0.5`. Blending follows GLSL `mix`
/// (`x·(1 − a) + y·a`). Conversion to 8 bits follows the unorm rule of ES 3.0 §2.1.6: `round(clamp(c, 0, 1)·255)`.
public final class ReferenceRenderer: CompositeRenderer {
    public let name = "cpu (Segue reference)"
    /// As `GPURenderer.fuseColour`.
    public var fuseColour = true
    /// How many threads share a pass's rows (at least 1). The output does not depend on it.
    public var threads = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    /// Whether a layer's reads at the samples' own positions are made a row at a time where its map is axis-aligned
    /// (`LayerRows`: the fast path); off, every read is made point by point (`ReferenceLayer.color`). The values are
    /// the same either way; off only to prove that.
    public var rowReads = true
    public init() {}

    public func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage {
        let (plan, pictures) = try filteringLayers(plan, pictures: pictures)
        let W = plan.renderSize.width, H = plan.renderSize.height
        var out = [UInt8](repeating: 255, count: W * H * 4)
        let us = (0..<W).map { (Float($0) + 0.5) / Float(W) }, vs = (0..<H).map { (Float($0) + 0.5) / Float(H) }
        var k = 0
        for (n, pass) in plan.passes.enumerated() {
            let r = n == 0 ? PixelRect(plan.renderSize) : (pass.rect ?? PixelRect(plan.renderSize)).intersection(PixelRect(plan.renderSize))
            let e = try evaluator(pass, plan: plan, pictures: pictures[k...], output: .rgba, overBelow: n > 0, us: us, columns: r.x0..<max(r.x0, r.x1))
            k += pass.layers.count
            guard !r.isEmpty else { continue }
            let over = n > 0, blend = pass.blend
            out.withUnsafeMutableBufferPointer { o in
                let o = Shared(o.baseAddress!)
                evaluate(e, rows: r.y0..<r.y1, vs: vs) { y, c in
                    for x in r.x0..<r.x1 {
                        let i = (y * W + x) * 4
                        var v = c[x]
                        if !over {
                            o.p[i] = Unorm.code8(v.x); o.p[i + 1] = Unorm.code8(v.y); o.p[i + 2] = Unorm.code8(v.z); o.p[i + 3] = Unorm.code8(v.w)
                        } else {
                            // main.glsl OUTPUT 0 over what is below: c (blended with below: blend.glsl) + (1 − α)·below, alpha too.
                            if blend != .normal {
                                v = blend.premultipliedSource(v, over: SIMD4(Float(o.p[i]), Float(o.p[i + 1]), Float(o.p[i + 2]), Float(o.p[i + 3])) / 255)
                            }
                            let a = 1 - v.w
                            o.p[i] = Unorm.code8(v.x + a * (Float(o.p[i]) / 255)); o.p[i + 1] = Unorm.code8(v.y + a * (Float(o.p[i + 1]) / 255))
                            o.p[i + 2] = Unorm.code8(v.z + a * (Float(o.p[i + 2]) / 255)); o.p[i + 3] = Unorm.code8(v.w + a * (Float(o.p[i + 3]) / 255))
                        }
                    }
                }
            }
        }
        return RGBAImage(width: W, height: H, pixels: out)
    }

    /// `main.glsl`'s luma pass (every pixel centre) and chroma pass (every chroma site, `RGBToOutputYCbCr.siting`),
    /// in the output's format (`OutputYCbCr`: 8-bit BT.709, or 10-bit BT.2020 for HDR output): the first pass over the
    /// whole frame, then each later pass blended into the planes inside its rectangle. With `base` (8-bit, the render
    /// size: the first pass's planes taken from its picture, `FrameStrategy.base`) only the passes above it are drawn.
    public func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> YUV420Image {
        let W = plan.renderSize.width, H = plan.renderSize.height, CW = W / 2, CH = H / 2
        try plan.checkPlanesNeedNoBlend()
        try plan.checkEffectsAreSDR()
        let (plan, pictures) = try filteringLayers(plan, pictures: pictures)
        let format = OutputYCbCr(plan.colour.dynamicRange)
        let b = format.bitDepth > 8 ? 2 : 1
        var image: YUV420Image
        var first = 0, k = 0
        if let base {
            precondition(base.bitDepth == format.bitDepth && base.width == W && base.height == H && !plan.keepsAlpha, "base planes of another format")
            image = base
            first = 1
            k = plan.passes[0].layers.count
        } else {
            image = YUV420Image(width: W, height: H, bitDepth: format.bitDepth, y: [UInt8](repeating: 0, count: W * H * b),
                                cb: [UInt8](repeating: 0, count: CW * CH * b), cr: [UInt8](repeating: 0, count: CW * CH * b),
                                alpha: plan.keepsAlpha ? [UInt8](repeating: 0, count: W * H) : nil,
                                chromaAlpha: plan.keepsAlpha ? [UInt8](repeating: 0, count: CW * CH) : nil)
        }
        for n in first..<plan.passes.count {
            let pass = plan.passes[n]
            try draw(pass, plan: plan, pictures: pictures[k...], overBelow: n > 0, format: format, into: &image)
            k += pass.layers.count
        }
        return image
    }

    /// One pass into `image`'s planes: every sample (the first pass), or a later pass's samples inside its rectangle,
    /// each `value + (1 − α)·below` (`main.glsl`, `segue_over`).
    private func draw(_ pass: CompositePass, plan: FramePlan, pictures: ArraySlice<VideoPicture>, overBelow: Bool, format: OutputYCbCr,
                      into image: inout YUV420Image) throws {
        let W = plan.renderSize.width, H = plan.renderSize.height, CW = W / 2, CH = H / 2
        let fw = Float(W), fh = Float(H), site = RGBToOutputYCbCr.siting
        let r = overBelow ? (pass.rect ?? PixelRect(plan.renderSize)).intersection(PixelRect(plan.renderSize)) : PixelRect(plan.renderSize)
        guard !r.isEmpty else { return }
        let lumaU = (0..<W).map { (Float($0) + 0.5) / fw }, lumaV = (0..<H).map { (Float($0) + 0.5) / fh }
        let chromaU = (0..<CW).map { ((Float($0) + 0.5) * 2 - 0.5 + site.x) / fw }, chromaV = (0..<CH).map { ((Float($0) + 0.5) * 2 - 0.5 + site.y) / fh }
        // The chroma samples of the rectangle's 2×2 blocks (outside it the pass is transparent: `PassEvaluator`).
        let cx0 = r.x0 / 2, cx1 = min(CW, (r.x1 + 1) / 2), cy0 = r.y0 / 2, cy1 = min(CH, (r.y1 + 1) / 2)
        func recipe(_ output: OutputPass) -> PassRecipe {
            PassRecipe(pass: pass, plan: plan, pictures: pictures, output: output, overBelow: overBelow, fuseColour: fuseColour)
        }
        // A blended pass: the planes before it, read back as R′G′B′ (`BlendBackdrop`, blend.glsl's segue_backdrop).
        let backdrop = overBelow && pass.blend != .normal ? BlendBackdrop(mode: pass.blend, image: image, format: format) : nil
        let luma = try evaluator(pass, plan: plan, pictures: pictures, recipe: recipe(.luma), us: lumaU, columns: r.x0..<r.x1)
        image.y.withUnsafeMutableBufferPointer { o in
            let store = PlaneStore(o.baseAddress!, stride: W, recipe: luma.recipe, value: .y, format: format)
            evaluate(luma, rows: r.y0..<r.y1, vs: lumaV) { j, c in
                if let backdrop { backdrop.blended(c, row: j, columns: r.x0..<r.x1, chroma: false).withUnsafeBufferPointer { store.write(j, $0.baseAddress!, r.x0..<r.x1) } }
                else { store.write(j, c, r.x0..<r.x1) }
            }
        }
        guard cx0 < cx1, cy0 < cy1 else { return }
        if plan.keepsAlpha {
            // main.glsl OUTPUT 3 and 4: the composite's alpha at pixel centres and at chroma sites, over the alpha below.
            let alpha = try evaluator(pass, plan: plan, pictures: pictures, recipe: recipe(.alpha), us: lumaU, columns: r.x0..<r.x1)
            image.alpha!.withUnsafeMutableBufferPointer { o in
                let store = PlaneStore(o.baseAddress!, stride: W, recipe: alpha.recipe, value: .alpha, format: OutputYCbCr(.sdr))
                evaluate(alpha, rows: r.y0..<r.y1, vs: lumaV) { j, c in store.write(j, c, r.x0..<r.x1) }
            }
            let chromaAlpha = try evaluator(pass, plan: plan, pictures: pictures, recipe: recipe(.chromaAlpha), us: chromaU, columns: cx0..<cx1)
            image.chromaAlpha!.withUnsafeMutableBufferPointer { o in
                let store = PlaneStore(o.baseAddress!, stride: CW, recipe: chromaAlpha.recipe, value: .alpha, format: OutputYCbCr(.sdr))
                evaluate(chromaAlpha, rows: cy0..<cy1, vs: chromaV) { j, c in store.write(j, c, cx0..<cx1) }
            }
        }
        let chroma = try evaluator(pass, plan: plan, pictures: pictures, recipe: recipe(.chroma), us: chromaU, columns: cx0..<cx1)
        image.cb.withUnsafeMutableBufferPointer { ob in
            image.cr.withUnsafeMutableBufferPointer { or in
                let cb = PlaneStore(ob.baseAddress!, stride: CW, recipe: chroma.recipe, value: .cb, format: format)
                let cr = PlaneStore(or.baseAddress!, stride: CW, recipe: chroma.recipe, value: .cr, format: format)
                evaluate(chroma, rows: cy0..<cy1, vs: chromaV) { j, c in
                    if let backdrop {
                        backdrop.blended(c, row: j, columns: cx0..<cx1, chroma: true).withUnsafeBufferPointer {
                            cb.write(j, $0.baseAddress!, cx0..<cx1)
                            cr.write(j, $0.baseAddress!, cx0..<cx1)
                        }
                    } else {
                        cb.write(j, c, cx0..<cx1)
                        cr.write(j, c, cx0..<cx1)
                    }
                }
            }
        }
    }

    /// A pass's evaluator for `output` (its recipe made here).
    func evaluator(_ pass: CompositePass, plan: FramePlan, pictures: ArraySlice<VideoPicture>, output: OutputPass, overBelow: Bool,
                   us: [Float], columns: Range<Int>) throws -> PassEvaluator {
        let recipe = PassRecipe(pass: pass, plan: plan, pictures: pictures, output: output, overBelow: overBelow, fuseColour: fuseColour)
        return try evaluator(pass, plan: plan, pictures: pictures, recipe: recipe, us: us, columns: columns)
    }

    func evaluator(_ pass: CompositePass, plan: FramePlan, pictures: ArraySlice<VideoPicture>, recipe: PassRecipe, us: [Float],
                   columns: Range<Int>) throws -> PassEvaluator {
        try PassEvaluator(recipe, pass: pass, plan: plan, pictures: pictures, us: us, columns: columns, rowReads: rowReads) { noise(plan.renderSize) }
    }

    /// Evaluates `e` at each of `rows` (positions `vs`), the rows split between `threads` threads, handing each row's
    /// colours (indexed by column) to `store`, which writes that row only.
    private func evaluate(_ e: PassEvaluator, rows: Range<Int>, vs: [Float], store: @escaping (Int, UnsafePointer<SIMD4<Float>>) -> Void) {
        guard !rows.isEmpty else { return }
        let stripes = max(1, min(threads, rows.count))
        let width = e.us.count
        let run = { (s: Int) in
            let scratch = e.makeScratch()
            let values = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: max(1, width))
            defer { values.deallocate() }
            let lo = rows.lowerBound + s * rows.count / stripes, hi = rows.lowerBound + (s + 1) * rows.count / stripes
            for j in lo..<hi {
                e.row(vs[j], scratch: scratch, into: values)
                store(j, UnsafePointer(values))
            }
        }
        if stripes == 1 { run(0); return }
        // Each stripe writes its own rows only (`store`), and reads what nothing writes while it runs.
        let work = Unchecked(run)
        DispatchQueue.concurrentPerform(iterations: stripes) { work.value($0) }
    }

    /// A value the rows' threads share, which they only read (`@unchecked Sendable`).
    struct Unchecked<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }

    /// A pointer the rows' threads write through, each its own rows (`@unchecked Sendable`).
    struct Shared: @unchecked Sendable {
        let p: UnsafeMutablePointer<UInt8>
        init(_ p: UnsafeMutablePointer<UInt8>) { self.p = p }
    }

    /// A `glsl` transition is refused before the first frame (exit status 2): the reference has no GLSL compiler.
    public func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws {
        if let t = transitions.first(where: { $0.kind == .glsl }) { throw ReferenceRenderer.cannotRunGLSL(t) }
    }

    static func cannotRunGLSL(_ t: Transition?) -> EditError {
        EditError(t?.shader?.field ?? "transition.shader",
                  "the CPU reference cannot run GLSL: \(t?.shader?.name ?? "a glsl transition") needs the GPU renderer (--backend gpu or auto)")
    }

    /// `TransitionNoise` for the last render size that needed it.
    private var noiseCache: (size: PixelSize, values: [Float])?
    private func noise(_ size: PixelSize) -> [Float] {
        if let c = noiseCache, c.size == size { return c.values }
        let values = TransitionNoise.values(width: size.width, height: size.height)
        noiseCache = (size, values)
        return values
    }
}

/// How a pass's colours become one output plane's codes (`main.glsl`'s outputs): the value — the fused pass's lane
/// (Y′ in x, Cb in x and Cr in y of the chroma pass), `dot(row.xyz, c.rgb) + row.w·α` with the output's row when the
/// pass is not fused, or the alpha — then, for a later pass, `value + (1 − α)·below`, as an 8-bit or 10-bit code
/// (`Unorm`; 10-bit as little-endian byte pairs). Rows of different threads go to different bytes.
struct PlaneStore: @unchecked Sendable {
    enum Value { case y, cb, cr, alpha }
    let plane: UnsafeMutablePointer<UInt8>
    let stride: Int
    /// The lane of a fused value (0 or 1), or nil: the dot product with `weights`, or (alpha) lane 3.
    let lane: Int?
    let weights: SIMD4<Float>
    let alphaOnly: Bool, overBelow: Bool, tenBit: Bool
    let maxCode: Float

    init(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, recipe: PassRecipe, value: Value, format: OutputYCbCr) {
        self.plane = plane; self.stride = stride
        alphaOnly = value == .alpha
        overBelow = recipe.overBelow
        tenBit = !alphaOnly && format.bitDepth > 8
        maxCode = Float(format.maxCode)
        let row: [Float]
        switch value {
        case .y: row = format.y; lane = recipe.fused ? 0 : nil
        case .cb: row = format.cb; lane = recipe.fused ? 0 : nil
        case .cr: row = format.cr; lane = recipe.fused ? 1 : nil
        case .alpha: row = [0, 0, 0, 1]; lane = nil
        }
        weights = SIMD4(row[0], row[1], row[2], row[3])
    }

    /// The value of colour `c`.
    @inline(__always) func value(_ c: SIMD4<Float>) -> Float {
        if alphaOnly { return c.w }
        if let lane { return lane == 0 ? c.x : c.y }
        let p = weights * c
        return p.x + p.y + p.z + p.w
    }

    /// Row `j`'s samples `columns` from the colours `c` (indexed by column).
    func write(_ j: Int, _ c: UnsafePointer<SIMD4<Float>>, _ columns: Range<Int>) {
        if !overBelow && !tenBit, let lane {
            // The common case: a fused first pass, 8-bit.
            // One loop for either lane (the values as floats, four a sample, from the lane's), which vectorises.
            let out = plane + j * stride, values = UnsafeRawPointer(c).assumingMemoryBound(to: Float.self) + lane
            for i in columns { out[i] = Unorm.code8(values[i &<< 2]) }
            return
        }
        for i in columns {
            let k = j * stride + i
            let v = value(c[i]), a = c[i].w
            if tenBit {
                let below = Float(Int(plane[2 * k]) | Int(plane[2 * k + 1]) << 8) / maxCode
                let code = Unorm.code10(overBelow ? v + (1 - a) * below : v)
                plane[2 * k] = UInt8(code & 255); plane[2 * k + 1] = UInt8(code >> 8)
            } else {
                plane[k] = Unorm.code8(overBelow ? v + (1 - a) * (Float(plane[k]) / 255) : v)
            }
        }
    }
}
