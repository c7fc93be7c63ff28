extension CPUTransitions {
    /// `push.frag`: A moves by p·direction and slides out; B follows one picture behind, moved by (p − 1)·direction.
    @inline(__always) static func push(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let o = pushOffsets(t)
        let a = uv + o.from
        if a.x >= 0 && a.x <= 1 && a.y >= 0 && a.y <= 1 { return t.getFromColor(a) }
        return t.getToColor(uv + o.to)
    }
    /// Where `push` reads each layer: uv plus `−p·direction` (A; `uv + (−x)` is `uv − x`) and `(1 − p)·direction` (B).
    @inline(__always) static func pushOffsets(_ t: TransitionInput) -> (from: SIMD2<Float>, to: SIMD2<Float>) {
        (-(t.progress * t.direction), (1 - t.progress) * t.direction)
    }
}
