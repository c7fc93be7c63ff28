extension CPUTransitions {
    /// `slideup.frag` (FFmpeg xfade "slideup").
    @inline(__always) static func slideup(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let H = Int(t.resolution.y)
        let px = t.pixel(uv)
        let z = Int(-P * t.resolution.y) + Int(px.y)
        let zz = z < 0 ? z + H : (z >= H ? z - H : z)
        let at = t.moved(uv, SIMD2(px.x, Float(zz)))
        return z >= 0 && z < H ? t.getToColor(at) : t.getFromColor(at)
    }
}
