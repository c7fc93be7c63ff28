extension CPUTransitions {
    /// `distance.frag` (FFmpeg xfade "distance").
    @inline(__always) static func distance(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let a = t.getFromColor(uv), b = t.getToColor(uv)
        let ca: SIMD3<Float> = (t.toYCbCr(a) * t.maxCode + 0.5).floored
        let cb: SIMD3<Float> = (t.toYCbCr(b) * t.maxCode + 0.5).floored
        let d = ca / t.maxCode - cb / t.maxCode
        let near = (d.x * d.x + d.y * d.y + d.z * d.z).squareRoot() <= P ? a : b
        return mix(b, near, P)
    }
}
