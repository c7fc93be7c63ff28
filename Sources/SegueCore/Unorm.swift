/// The one rounding rule for code values: a value `c` (0…1 after clamping) becomes the code `⌊c·(2^N − 1) + 0.5⌋`, the
/// nearest code with halves rounded up (ES 3.0 §2.1.6's unorm conversion, and `bytes10` of `main.glsl`). Every CPU
/// path writes its codes with it, and so does the GPU where it computes codes itself (10-bit output).
public enum Unorm {
    /// The 8-bit code of `c` (NaN gives 0).
    ///
    /// Without a trapping float-to-integer conversion, so that loops over rows vectorise: `y = clamp(c)·255 + 0.5`
    /// lies in 0.5…255.5, `y + 2²³` holds `y` rounded to the nearest integer (ties to even) in its low bits, and
    /// that is one more than `⌊y⌋` where it rounded up. Equal to `Int32(y)` for every `c` but NaN (checked for all
    /// 2³² bit patterns).
    @inlinable @inline(__always) public static func code8(_ c: Float) -> UInt8 {
        let x: Float = c > 0 ? (c < 1 ? c : 1) : 0
        let y = x * 255 + 0.5
        let r = y + 8_388_608
        return UInt8(truncatingIfNeeded: r.bitPattern &- (r - 8_388_608 > y ? 1 : 0))
    }
    /// The 10-bit code of `c` (0…1023).
    @inlinable @inline(__always) public static func code10(_ c: Float) -> Int {
        Int(min(max(c, 0), 1) * 1023 + 0.5)
    }
}
