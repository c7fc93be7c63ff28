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

    public func render(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> RGBAImage {
        let W = renderSize.width, H = renderSize.height
        var out = [UInt8](repeating: 255, count: W * H * 4)
        let fn = try function(plan, from: from, to: to, renderSize: renderSize, pass: .rgba).fn
        let fw = Float(W), fh = Float(H)
        out.withUnsafeMutableBufferPointer { o in
            for y in 0..<H {
                let v = (Float(y) + 0.5) / fh
                for x in 0..<W {
                    let c = fn(SIMD2((Float(x) + 0.5) / fw, v))
                    let i = (y * W + x) * 4
                    o[i] = unorm8(c.x); o[i + 1] = unorm8(c.y); o[i + 2] = unorm8(c.z); o[i + 3] = unorm8(c.w)
                }
            }
        }
        return RGBAImage(width: W, height: H, pixels: out)
    }

    /// `main.glsl`'s luma pass (every pixel centre) and chroma pass (every chroma site, `RGBToOutputYCbCr.siting`),
    /// in the output's format (`OutputYCbCr`: 8-bit BT.709, or 10-bit BT.2020 for HDR output).
    public func renderYUV420(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> YUV420Image {
        let W = renderSize.width, H = renderSize.height, CW = W / 2, CH = H / 2
        let fw = Float(W), fh = Float(H)
        let format = OutputYCbCr(plan.colour.dynamicRange)
        let tenBit = format.bitDepth > 8, b = tenBit ? 2 : 1
        var y = [UInt8](repeating: 0, count: W * H * b), cb = [UInt8](repeating: 0, count: CW * CH * b), cr = cb
        let ky = format.y, kb = format.cb, kr = format.cr
        @inline(__always) func dot(_ k: [Float], _ c: SIMD4<Float>) -> Float { k[0] * c.x + k[1] * c.y + k[2] * c.z + k[3] }
        @inline(__always) func store(_ plane: UnsafeMutableBufferPointer<UInt8>, _ i: Int, _ v: Float) {
            if tenBit {
                let c = unorm10(v)
                plane[2 * i] = UInt8(c & 255); plane[2 * i + 1] = UInt8(c >> 8)
            } else {
                plane[i] = unorm8(v)
            }
        }
        let (luma, fusedLuma) = try function(plan, from: from, to: to, renderSize: renderSize, pass: .luma)
        y.withUnsafeMutableBufferPointer { o in
            for j in 0..<H {
                let v = (Float(j) + 0.5) / fh
                for i in 0..<W {
                    let c = luma(SIMD2((Float(i) + 0.5) / fw, v))
                    store(o, j * W + i, fusedLuma ? c.x : dot(ky, c))
                }
            }
        }
        let (chroma, fusedChroma) = try function(plan, from: from, to: to, renderSize: renderSize, pass: .chroma)
        let site = RGBToOutputYCbCr.siting
        cb.withUnsafeMutableBufferPointer { ob in
            cr.withUnsafeMutableBufferPointer { or in
                for j in 0..<CH {
                    let v = ((Float(j) + 0.5) * 2 - 0.5 + site.y) / fh
                    for i in 0..<CW {
                        let c = chroma(SIMD2(((Float(i) + 0.5) * 2 - 0.5 + site.x) / fw, v))
                        store(ob, j * CW + i, fusedChroma ? c.x : dot(kb, c)); store(or, j * CW + i, fusedChroma ? c.y : dot(kr, c))
                    }
                }
            }
        }
        return YUV420Image(width: W, height: H, bitDepth: format.bitDepth, y: y, cb: cb, cr: cr)
    }

    /// The transition function of `plan` over its two layers for one pass: output uv (0…1, top-left origin) →
    /// colour (R′G′B′A, or with `fused` the pass's output values, `LayerColourMap`).
    func function(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize,
                  pass: OutputPass) throws -> (fn: (SIMD2<Float>) -> SIMD4<Float>, fused: Bool) {
        let p = TransitionParameters(plan: plan, renderSize: renderSize)
        // As GPURenderer.draw: a layer with a colour stage (HDR) is never fused.
        let fromStage = ColourStage(picture: from, plan: plan, pass: pass), toStage = to.flatMap { ColourStage(picture: $0, plan: plan, pass: pass) }
        let fused = fuseColour && pass != .rgba && p.fuses && fromStage == nil && toStage == nil
        let outputRange = pass == .rgba ? DynamicRange.sdr : plan.colour.dynamicRange
        let format = OutputYCbCr(outputRange)
        let background = LayerColourMap.background(pass: pass, fused: fused, output: format, colour: plan.background)
        func layer(_ picture: VideoPicture, _ l: LayerPlan, _ map: [Float], _ stage: ColourStage?) -> ReferenceLayer {
            ReferenceLayer(picture: picture, map: map, exact: TransitionParameters.isExact(plan, l, picture: picture),
                           colour: LayerColourMap(picture: picture, pass: pass, fused: fused, output: format), stage: stage, background: background)
        }
        let fromLayer = layer(from, plan.from, p.fromMap, fromStage)
        guard let kind = p.kind else { return ({ uv in fromLayer.color(uv) }, fused) }
        let toLayer = to.map { layer($0, plan.to ?? plan.from, p.toMap, toStage) } ?? fromLayer
        func constant(_ v: Double) -> SIMD4<Float> { SIMD4(LayerColourMap.constant(v, v, v, pass: pass, fused: fused, output: format)) }
        let input = TransitionInput(progress: p.progress, ratio: Float(renderSize.width) / Float(renderSize.height),
                                    direction: SIMD2(p.direction.0, p.direction.1),
                                    resolution: SIMD2(Float(renderSize.width), Float(renderSize.height)),
                                    parameters: p.parameters, from: fromLayer, to: toLayer, black: constant(0), white: constant(1),
                                    noise: kind.traits.usesNoise ? noise(renderSize) : [], output: format,
                                    linear: p.linear ? outputRange : nil)
        guard let transition = CPUTransitions.function(kind) else { throw ReferenceRenderer.cannotRunGLSL(plan.transition) }
        if p.linear { return ({ uv in outputRange.inverseEOTF(transition(uv, input)) }, fused) }
        return ({ uv in transition(uv, input) }, fused)
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
