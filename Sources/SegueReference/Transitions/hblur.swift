extension CPUTransitions {
    /// `hblur.frag` (FFmpeg xfade "hblur").
    @inline(__always) static func hblur(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let q = P <= 0.5 ? P * 2 : (1 - P) * 2
        let W = t.size.w
        let px = t.pixel(uv)
        let n = min(Int(1 + Float(W / 2) * q), W - Int(px.x))
        var a = SIMD4<Float>(), b = SIMD4<Float>()
        for k in 0..<n {
            let at = t.moved(uv, SIMD2(px.x + Float(k), px.y))
            a += t.getFromColor(at)
            b += t.getToColor(at)
        }
        return mix(b / Float(n), a / Float(n), P)
    }
}
