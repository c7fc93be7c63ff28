extension CPUTransitions {
    /// `rectcrop.frag` (FFmpeg xfade "rectcrop").
    @inline(__always) static func rectcrop(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let P = 1 - t.progress
        let px = t.pixel(uv)
        let dx = abs(Int(px.x) - t.size.w / 2), dy = abs(Int(px.y) - t.size.h / 2)
        let zw = Int(abs(P - 0.5) * t.resolution.x), zh = Int(abs(P - 0.5) * t.resolution.y)
        if !(dx < zw && dy < zh) { return t.black }
        return P < 0.5 ? t.getToColor(uv) : t.getFromColor(uv)
    }
}
