extension CPUTransitions {
    /// `slideright.frag` (FFmpeg xfade "slideright").
    @inline(__always) static func slideright(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let W = Int(t.resolution.x)
        let px = t.pixel(uv)
        let z = Int(P * t.resolution.x) + Int(px.x)
        let zz = z < 0 ? z + W : (z >= W ? z - W : z)
        let at = t.moved(uv, SIMD2(Float(zz), px.y))
        return z >= 0 && z < W ? t.getToColor(at) : t.getFromColor(at)
    }
}
