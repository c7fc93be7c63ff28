/// `floor` without a call: on x86-64 without SSE 4.1 (the baseline Swift targets) `Float.rounded(.down)` is a call to
/// libm's `floorf`, which the per-sample loops make millions of times a frame. `Float(Int(x))` is `x` truncated towards
/// zero, one less where that is above `x`: the same value as `floorf`. From 2^23 up every `Float` is an integer, and
/// infinities and NaN are their own floor: those are returned as they are.
extension Float {
    @inline(__always) var floored: Float {
        guard abs(self) < 8_388_608 else { return self }
        let t = Float(Int32(self))
        return t > self ? t - 1 : t
    }
}

extension SIMD2 where Scalar == Float {
    @inline(__always) var floored: SIMD2<Float> { SIMD2(x.floored, y.floored) }
}

extension SIMD3 where Scalar == Float {
    @inline(__always) var floored: SIMD3<Float> { SIMD3(x.floored, y.floored, z.floored) }
}
