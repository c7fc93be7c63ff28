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
    public init() {}

    public func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage {
        let W = plan.renderSize.width, H = plan.renderSize.height
        var out = [UInt8](repeating: 255, count: W * H * 4)
        let fw = Float(W), fh = Float(H)
        var k = 0
        for (n, pass) in plan.passes.enumerated() {
            let fn = try function(pass, plan: plan, pictures: Array(pictures[k...]), output: .rgba, overBelow: n > 0).fn
            k += pass.layers.count
            let r = n == 0 ? PixelRect(plan.renderSize) : (pass.rect ?? PixelRect(plan.renderSize)).intersection(PixelRect(plan.renderSize))
            out.withUnsafeMutableBufferPointer { o in
                for y in max(0, r.y0)..<max(r.y0, r.y1) {
                    let v = (Float(y) + 0.5) / fh
                    for x in max(0, r.x0)..<max(r.x0, r.x1) {
                        let c = fn(SIMD2((Float(x) + 0.5) / fw, v))
                        let i = (y * W + x) * 4
                        if n == 0 {
                            o[i] = unorm8(c.x); o[i + 1] = unorm8(c.y); o[i + 2] = unorm8(c.z); o[i + 3] = unorm8(c.w)
                        } else {
                            // main.glsl OUTPUT 0 over what is below: c + (1 − α)·below, alpha too.
                            let k = 1 - c.w
                            o[i] = unorm8(c.x + k * (Float(o[i]) / 255)); o[i + 1] = unorm8(c.y + k * (Float(o[i + 1]) / 255))
                            o[i + 2] = unorm8(c.z + k * (Float(o[i + 2]) / 255)); o[i + 3] = unorm8(c.w + k * (Float(o[i + 3]) / 255))
                        }
                    }
                }
            }
        }
        return RGBAImage(width: W, height: H, pixels: out)
    }

    /// `main.glsl`'s luma pass (every pixel centre) and chroma pass (every chroma site, `RGBToOutputYCbCr.siting`),
    /// in the output's format (`OutputYCbCr`: 8-bit BT.709, or 10-bit BT.2020 for HDR output): the first pass over the
    /// whole frame (or its picture's planes as they are, `DirectFrame.basePlanes`), then each later pass blended into
    /// the planes inside its rectangle.
    public func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture]) throws -> YUV420Image {
        let W = plan.renderSize.width, H = plan.renderSize.height, CW = W / 2, CH = H / 2
        let format = OutputYCbCr(plan.colour.dynamicRange)
        let b = format.bitDepth > 8 ? 2 : 1
        var image: YUV420Image
        var first = 0, k = 0
        if plan.passes.count > 1, !plan.keepsAlpha, let direct = DirectFrame.basePlanes(plan, picture: pictures[0]) {
            image = direct
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
            try draw(pass, plan: plan, pictures: Array(pictures[k...]), overBelow: n > 0, format: format, into: &image)
            k += pass.layers.count
        }
        return image
    }

    /// One pass into `image`'s planes: every sample (the first pass), or a later pass's samples inside its rectangle,
    /// each `value + (1 − α)·below` (`main.glsl`, `segue_over`).
    private func draw(_ pass: CompositePass, plan: FramePlan, pictures: [VideoPicture], overBelow: Bool, format: OutputYCbCr,
                      into image: inout YUV420Image) throws {
        let W = plan.renderSize.width, H = plan.renderSize.height, CW = W / 2, CH = H / 2
        let fw = Float(W), fh = Float(H)
        let tenBit = format.bitDepth > 8
        let maxCode = Float(format.maxCode)
        let ky = format.y, kb = format.cb, kr = format.cr
        // A premultiplied colour's value along an output row: dot(row.xyz, c.rgb) + row.w·α (main.glsl).
        @inline(__always) func dot(_ k: [Float], _ c: SIMD4<Float>) -> Float { k[0] * c.x + k[1] * c.y + k[2] * c.z + k[3] * c.w }
        @inline(__always) func load(_ plane: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> Float {
            tenBit ? Float(Int(plane[2 * i]) | Int(plane[2 * i + 1]) << 8) / maxCode : Float(plane[i]) / 255
        }
        @inline(__always) func store(_ plane: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ v: Float, alpha: Float) {
            let out = overBelow ? v + (1 - alpha) * load(plane, i) : v
            if tenBit {
                let c = unorm10(out)
                plane[2 * i] = UInt8(c & 255); plane[2 * i + 1] = UInt8(c >> 8)
            } else {
                plane[i] = unorm8(out)
            }
        }
        let r = overBelow ? (pass.rect ?? PixelRect(plan.renderSize)).intersection(PixelRect(plan.renderSize)) : PixelRect(plan.renderSize)
        guard !r.isEmpty else { return }
        let (luma, fusedLuma) = try function(pass, plan: plan, pictures: pictures, output: .luma, overBelow: overBelow)
        image.y.withUnsafeMutableBufferPointer { o in
            for j in r.y0..<r.y1 {
                let v = (Float(j) + 0.5) / fh
                for i in r.x0..<r.x1 {
                    let c = luma(SIMD2((Float(i) + 0.5) / fw, v))
                    store(o, j * W + i, fusedLuma ? c.x : dot(ky, c), alpha: c.w)
                }
            }
        }
        let (chroma, fusedChroma) = try function(pass, plan: plan, pictures: pictures, output: .chroma, overBelow: overBelow)
        let site = RGBToOutputYCbCr.siting
        // The chroma samples of the rectangle's 2×2 blocks (outside it the pass is transparent: `passColour`).
        let cx0 = r.x0 / 2, cx1 = min(CW, (r.x1 + 1) / 2), cy0 = r.y0 / 2, cy1 = min(CH, (r.y1 + 1) / 2)
        guard cx0 < cx1, cy0 < cy1 else { return }
        if plan.keepsAlpha {
            // main.glsl OUTPUT 3 and 4: the composite's alpha at pixel centres and at chroma sites, over the alpha below.
            func over(_ plane: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ a: Float) {
                plane[i] = unorm8(overBelow ? a + (1 - a) * (Float(plane[i]) / 255) : a)
            }
            let alpha = try function(pass, plan: plan, pictures: pictures, output: .alpha, overBelow: overBelow).fn
            image.alpha!.withUnsafeMutableBufferPointer { o in
                for j in r.y0..<r.y1 {
                    let v = (Float(j) + 0.5) / fh
                    for i in r.x0..<r.x1 { over(o, j * W + i, alpha(SIMD2((Float(i) + 0.5) / fw, v)).w) }
                }
            }
            let chromaAlpha = try function(pass, plan: plan, pictures: pictures, output: .chromaAlpha, overBelow: overBelow).fn
            image.chromaAlpha!.withUnsafeMutableBufferPointer { o in
                for j in cy0..<cy1 {
                    let v = ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh
                    for i in cx0..<cx1 { over(o, j * CW + i, chromaAlpha(SIMD2(((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw, v)).w) }
                }
            }
        }
        image.cb.withUnsafeMutableBufferPointer { ob in
            image.cr.withUnsafeMutableBufferPointer { or in
                for j in cy0..<cy1 {
                    let v = ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh
                    for i in cx0..<cx1 {
                        let c = chroma(SIMD2(((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw, v))
                        store(ob, j * CW + i, fusedChroma ? c.x : dot(kb, c), alpha: c.w)
                        store(or, j * CW + i, fusedChroma ? c.y : dot(kr, c), alpha: c.w)
                    }
                }
            }
        }
    }

    /// `passColour` of `main.glsl` for one pass and output: output uv (0…1, top-left origin) → the pass's colour,
    /// premultiplied and gamma-encoded (R′G′B′A, or with `fused` the output's values, `LayerColourMap`); in the first
    /// pass composited over the background, in a later one transparent outside the pass's rectangle. `pictures` start
    /// with the pass's own.
    func function(_ pass: CompositePass, plan: FramePlan, pictures: [VideoPicture], output: OutputPass,
                  overBelow: Bool) throws -> (fn: (SIMD2<Float>) -> SIMD4<Float>, fused: Bool) {
        let renderSize = plan.renderSize
        let p = TransitionParameters(pass: pass, renderSize: renderSize)
        let from = pictures[0], to = pass.to == nil ? nil : pictures[1]
        // As GPURenderer.draw: a layer with a colour stage (HDR) is never fused.
        let fromStage = ColourStage(picture: from, plan: plan, pass: output), toStage = to.flatMap { ColourStage(picture: $0, plan: plan, pass: output) }
        let fused = fuseColour && output.writesYCbCr && p.fuses && fromStage == nil && toStage == nil
        let outputRange = output.writesYCbCr ? plan.colour.dynamicRange : DynamicRange.sdr
        let format = OutputYCbCr(outputRange)
        let background = overBelow ? [Float](repeating: 0, count: 4)
            : LayerColourMap.background(pass: output, fused: fused, output: format, colour: plan.background, alpha: plan.backgroundAlpha)
        func layer(_ picture: VideoPicture, _ l: LayerPlan, _ map: [Float], _ stage: ColourStage?) -> ReferenceLayer {
            ReferenceLayer(picture: picture, map: map, exact: TransitionParameters.isExact(pass, l, picture: picture),
                           colour: LayerColourMap(picture: picture, pass: output, fused: fused, output: format), stage: stage,
                           background: background, crop: l.crop, opacity: Float(l.opacity))
        }
        let fromLayer = layer(from, pass.from, p.fromMap, fromStage)
        let composite: (SIMD2<Float>) -> SIMD4<Float>
        if let kind = p.kind {
            let toLayer = to.map { layer($0, pass.to ?? pass.from, p.toMap, toStage) } ?? fromLayer
            func constant(_ v: Double) -> SIMD4<Float> { SIMD4(LayerColourMap.constant(v, v, v, pass: output, fused: fused, output: format)) }
            let input = TransitionInput(progress: p.progress, ratio: Float(renderSize.width) / Float(renderSize.height),
                                        direction: SIMD2(p.direction.0, p.direction.1),
                                        resolution: SIMD2(Float(renderSize.width), Float(renderSize.height)),
                                        parameters: p.parameters, from: fromLayer, to: toLayer, black: constant(0), white: constant(1),
                                        noise: kind.traits.usesNoise ? noise(renderSize) : [], output: format,
                                        linear: p.linear ? outputRange : nil)
            guard let transition = CPUTransitions.function(kind) else { throw ReferenceRenderer.cannotRunGLSL(pass.transition) }
            composite = p.linear ? { uv in outputRange.inverseEOTFPremultiplied(transition(uv, input)) } : { uv in transition(uv, input) }
        } else {
            composite = { uv in fromLayer.color(uv) }
        }
        if !overBelow {
            let under = SIMD4<Float>(background[0], background[1], background[2], background[3])
            return ({ uv in
                let c = composite(uv)
                return c + (1 - c.w) * under
            }, fused)
        }
        let rect = pass.rect ?? PixelRect(renderSize)
        let res = SIMD2(Float(renderSize.width), Float(renderSize.height))
        let (x0, y0, x1, y1) = (Float(rect.x0), Float(rect.y0), Float(rect.x1), Float(rect.y1))
        return ({ uv in
            // segue_pixel of the position: outside the rectangle the pass is transparent.
            let px = (uv * res - 1.0 / 64).rounded(.down)
            if px.x < x0 || px.y < y0 || px.x >= x1 || px.y >= y1 { return SIMD4(repeating: 0) }
            return composite(uv)
        }, fused)
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

    @inline(__always) func unorm8(_ c: Float) -> UInt8 { UInt8((min(max(c, 0), 1) * 255).rounded()) }
    /// `bytes10` of `main.glsl`: the 10-bit code `floor(clamp(c, 0, 1)·1023 + 0.5)`.
    @inline(__always) func unorm10(_ c: Float) -> Int { Int((min(max(c, 0), 1) * 1023 + 0.5).rounded(.down)) }
}
