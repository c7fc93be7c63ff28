import SegueCore

/// The CPU reference renderer: pure Swift, the same maths as `Shaders/glsl/` line for line, in `Float`
/// (IEEE binary32, like GLSL ES `highp`).
///
/// Sampling follows OpenGL ES 3.0 §3.8.10 for `GL_LINEAR` + `GL_CLAMP_TO_EDGE`: texel centres at
/// `(i + 0.5) / W`, weights from the fractional part of `u·W − 0.5`. Blending follows GLSL `mix`
/// (`x·(1 − a) + y·a`). Conversion to 8 bits follows the unorm rule of ES 3.0 §2.1.6: `round(clamp(c, 0, 1)·255)`.
public final class ReferenceRenderer: CompositeRenderer {
    public let name = "cpu (Segue reference)"
    public init() {}

    public func render(_ plan: FramePlan, from: RGBAImage, to: RGBAImage?, renderSize: PixelSize) throws -> RGBAImage {
        let p = TransitionParameters(plan: plan, renderSize: renderSize)
        let W = renderSize.width, H = renderSize.height
        var out = [UInt8](repeating: 255, count: W * H * 4)
        let fromLayer = Layer(image: from, map: p.fromMap)
        let toLayer = Layer(image: to ?? from, map: p.toMap)
        let fw = Float(W), fh = Float(H)
        let fn: (SIMD2<Float>) -> SIMD4<Float>
        let progress = p.progress
        let dir = SIMD2<Float>(p.direction.0, p.direction.1)
        switch p.function {
        case "crossfade":
            fn = { uv in Transitions.crossfade(fromLayer.color(uv), toLayer.color(uv), progress) }
        case "push":
            fn = { uv in Transitions.push(uv, progress: progress, direction: dir, from: fromLayer.color, to: toLayer.color) }
        case "wipe":
            fn = { uv in Transitions.wipe(uv, progress: progress, direction: dir, from: fromLayer.color, to: toLayer.color) }
        default:
            fn = { uv in fromLayer.color(uv) }
        }
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

    @inline(__always) func unorm8(_ c: Float) -> UInt8 { UInt8((min(max(c, 0), 1) * 255).rounded()) }
}

/// The transition functions of `Shaders/glsl/*.frag`, mirrored in Swift.
public enum Transitions {
    /// `crossfade.frag`: `mix(A, B, p)`.
    @inline(__always) public static func crossfade(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ p: Float) -> SIMD4<Float> {
        a * (1 - p) + b * p
    }
    /// `push.frag`.
    @inline(__always) public static func push(_ uv: SIMD2<Float>, progress: Float, direction: SIMD2<Float>,
                                              from: (SIMD2<Float>) -> SIMD4<Float>, to: (SIMD2<Float>) -> SIMD4<Float>) -> SIMD4<Float> {
        let a = uv - progress * direction
        if a.x >= 0 && a.x <= 1 && a.y >= 0 && a.y <= 1 { return from(a) }
        return to(uv + (1 - progress) * direction)
    }
    /// `wipe.frag`.
    @inline(__always) public static func wipe(_ uv: SIMD2<Float>, progress: Float, direction: SIMD2<Float>,
                                              from: (SIMD2<Float>) -> SIMD4<Float>, to: (SIMD2<Float>) -> SIMD4<Float>) -> SIMD4<Float> {
        var inA = true
        if direction.x > 0.5 { inA = inA && uv.x >= progress }
        if direction.x < -0.5 { inA = inA && uv.x < 1 - progress }
        if direction.y > 0.5 { inA = inA && uv.y >= progress }
        if direction.y < -0.5 { inA = inA && uv.y < 1 - progress }
        return inA ? from(uv) : to(uv)
    }
}

/// `getFromColor`/`getToColor` + `sampleLayer` of `prelude.glsl`.
struct Layer {
    let image: RGBAImage
    let a, b, c, d, tx, ty: Float
    let w: Int, h: Int
    let fw: Float, fh: Float

    init(image: RGBAImage, map m: [Float]) {
        self.image = image
        (a, b, c, d, tx, ty) = (m[0], m[1], m[2], m[3], m[4], m[5])
        w = image.width; h = image.height; fw = Float(w); fh = Float(h)
    }

    static let background = SIMD4<Float>(0, 0, 0, 1)

    func color(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        if uv.x < 0 || uv.x > 1 || uv.y < 0 || uv.y > 1 { return Layer.background }
        let s = a * uv.x + c * uv.y + tx
        let t = b * uv.x + d * uv.y + ty
        if s < 0 || s > 1 || t < 0 || t > 1 { return Layer.background }
        return bilinear(s, t)
    }

    @inline(__always) func bilinear(_ s: Float, _ t: Float) -> SIMD4<Float> {
        let x = s * fw - 0.5, y = t * fh - 0.5
        let x0f = x.rounded(.down), y0f = y.rounded(.down)
        let fx = x - x0f, fy = y - y0f
        let x0 = min(max(Int(x0f), 0), w - 1), x1 = min(max(Int(x0f) + 1, 0), w - 1)
        let y0 = min(max(Int(y0f), 0), h - 1), y1 = min(max(Int(y0f) + 1, 0), h - 1)
        return image.pixels.withUnsafeBufferPointer { p -> SIMD4<Float> in
            @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
                let i = (y * w + x) * 4
                return SIMD4(Float(p[i]), Float(p[i + 1]), Float(p[i + 2]), Float(p[i + 3])) / 255
            }
            let top = texel(x0, y0) * (1 - fx) + texel(x1, y0) * fx
            let bottom = texel(x0, y1) * (1 - fx) + texel(x1, y1) * fx
            return top * (1 - fy) + bottom * fy
        }
    }
}
