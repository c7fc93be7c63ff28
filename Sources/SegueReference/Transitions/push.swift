extension CPUTransitions {
    /// `push.frag`: A moves by p·direction and slides out; B follows one picture behind, moved by (p − 1)·direction.
    @inline(__always) static func push(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
        let a = uv - t.progress * t.direction
        if a.x >= 0 && a.x <= 1 && a.y >= 0 && a.y <= 1 { return t.getFromColor(a) }
        return t.getToColor(uv + (1 - t.progress) * t.direction)
    }
}
