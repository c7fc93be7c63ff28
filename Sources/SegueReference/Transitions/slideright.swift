extension CPUTransitions {
    /// `slideright.frag` (FFmpeg xfade "slideright").
    @inline(__always) static func slideright(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let W = Int(t.resolution.x)
        let px = t.pixel(uv)
        let z = sliderightShift(t) + Int(px.x)
        let zz = z < 0 ? z + W : (z >= W ? z - W : z)
        let at = t.moved(uv, SIMD2(Float(zz), px.y))
        return z >= 0 && z < W ? t.getToColor(at) : t.getFromColor(at)
    }
    /// The pixels `slideright` moves the pictures by: `Int(P·W)`, P = 1 − progress.
    @inline(__always) static func sliderightShift(_ t: TransitionInput) -> Int {
        let P = 1 - t.progress
        return Int(P * t.resolution.x)
    }
    /// Where `slideright` reads each layer: uv plus (pixels moved) / resolution, the pixels `k` for B and `k - W` for A
    /// (`segue_moved` with whole pixels: its difference of pixels is exact).
    @inline(__always) static func sliderightOffsets(_ t: TransitionInput) -> (from: SIMD2<Float>, to: SIMD2<Float>) {
        let k = sliderightShift(t), W = Int(t.resolution.x)
        return (SIMD2(Float(k - W), 0) / t.resolution, SIMD2(Float(k), 0) / t.resolution)
    }
}
