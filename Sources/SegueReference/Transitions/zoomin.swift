extension CPUTransitions {
    /// `zoomin.frag` (FFmpeg xfade "zoomin").
    @inline(__always) static func zoomin(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let z = 0.5 + (t.pixel(uv) / t.resolution - 0.5) * smoothstep(0.5, 1, P)
        let a = t.getFromColor(t.moved(uv, (z * (t.resolution - 1)).rounded(.up)))
        return mix(t.getToColor(uv), a, smoothstep(0, 0.5, P))
    }
}
