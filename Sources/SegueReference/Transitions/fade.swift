extension Formulas {
    /// `fade.frag` (FFmpeg xfade "fade").
    enum fade: TransitionFormula {
        @inline(__always) static func colour(_ uv: SIMD2<Float>, _ t: TransitionInput) -> SIMD4<Float> {
            mix(t.getFromColor(uv), t.getToColor(uv), t.progress)
        }
    }
}
