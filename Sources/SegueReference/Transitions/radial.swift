import Foundation

extension CPUTransitions {
    /// `radial.frag` (FFmpeg xfade "radial").
    @inline(__always) static func radial(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let d = t.pixel(uv) - SIMD2(Float(t.size.w / 2), Float(t.size.h / 2))
        let angle = d.x == 0 ? (d.y < 0 ? Float.pi : 0) : atan2f(d.x, d.y)
        let s = smoothstep(0, 1, angle - (P - 0.5) * 7.8539816)
        return mix(t.getFromColor(uv), t.getToColor(uv), s)
    }
}
