extension CPUTransitions {
    /// `slideup.frag` (FFmpeg xfade "slideup").
    @inline(__always) static func slideup(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let H = Int(t.resolution.y)
        let px = t.pixel(uv)
        let z = slideupShift(t) + Int(px.y)
        let zz = z < 0 ? z + H : (z >= H ? z - H : z)
        let at = t.moved(uv, SIMD2(px.x, Float(zz)))
        return z >= 0 && z < H ? t.getToColor(at) : t.getFromColor(at)
    }
    /// The pixels `slideup` moves the pictures by: `Int(-P·H)`, P = 1 − progress.
    @inline(__always) static func slideupShift(_ t: TransitionInput) -> Int {
        let P = 1 - t.progress
        return Int(-P * t.resolution.y)
    }
    /// Where `slideup` reads each layer: uv plus (pixels moved) / resolution, the pixels `k` for B and `k + H` for A
    /// (`segue_moved` with whole pixels: its difference of pixels is exact).
    @inline(__always) static func slideupOffsets(_ t: TransitionInput) -> (from: SIMD2<Float>, to: SIMD2<Float>) {
        let k = slideupShift(t), H = Int(t.resolution.y)
        return (SIMD2(0, Float(k + H)) / t.resolution, SIMD2(0, Float(k)) / t.resolution)
    }
}
