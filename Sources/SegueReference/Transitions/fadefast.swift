import Foundation

extension CPUTransitions {
    /// `fadefast.frag` (FFmpeg xfade "fadefast").
    static func fadefast(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let a = t.toYCbCr(t.getFromColor(uv)), b = t.toYCbCr(t.getToColor(uv))
        let d = SIMD3(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
        func w(_ d: Float) -> Float { P <= 0 ? 0 : powf(P, 1 + logf(1 + d)) }
        return t.fromYCbCr(mix(b, a, SIMD3(w(d.x), w(d.y), w(d.z))))
    }
}
