import Foundation

extension CPUTransitions {
    /// `fadefast.frag` (FFmpeg xfade "fadefast").
    @inline(__always) static func fadefast(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let A = t.getFromColor(uv), B = t.getToColor(uv)
        let a = t.toYCbCr(A), b = t.toYCbCr(B)
        let d = SIMD3(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
        func w(_ d: Float) -> Float { P <= 0 ? 0 : powf(P, 1 + logf(1 + d)) }
        var c = t.fromYCbCr(mix(b, a, SIMD3(w(d.x), w(d.y), w(d.z))))
        c.w = A.w == B.w ? A.w : B.w * (1 - P) + A.w * P   // alphas crossfade; opaque layers stay opaque (the shader's)
        return c
    }
}
