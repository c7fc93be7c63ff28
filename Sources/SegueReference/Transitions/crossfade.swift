extension Formulas {
    /// `crossfade.frag`: `mix(A, B, p)`.
    enum crossfade: TransitionFormula {
        @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
            t.getFromColor(uv) * (1 - t.progress) + t.getToColor(uv) * t.progress
        }
    }
}
