/// `floor` without a call: on x86-64 without SSE 4.1 (the baseline Swift targets) `Float.rounded(.down)` is a call to
/// libm's `floorf`, which the per-sample loops make millions of times a frame. Below 2^23 in magnitude, `(x ± 2^23) ∓ 2^23`
/// (the sign of `x`) is `x` rounded to the nearest integer, one less where that is above `x`: the same value as
/// `floorf`, with no float-to-integer conversion (whose range checks a loop would branch on; bit for bit the
/// truncating `Float(Int32(x))` this had before, for every float). From 2^23 up every `Float` is an integer, and
/// infinities and NaN are their own floor: those are returned as they are.
extension Float {
    @inline(__always) var floored: Float {
        guard abs(self) < 8_388_608 else { return self }
        let c: Float = self < 0 ? -8_388_608 : 8_388_608
        let t = (self + c) - c
        return t > self ? t - 1 : t
    }
}

extension SIMD2 where Scalar == Float {
    @inline(__always) var floored: SIMD2<Float> { SIMD2(x.floored, y.floored) }
}

extension SIMD3 where Scalar == Float {
    @inline(__always) var floored: SIMD3<Float> { SIMD3(x.floored, y.floored, z.floored) }
}
