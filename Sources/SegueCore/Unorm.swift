/// The one rounding rule for code values: a value `c` (0…1 after clamping) becomes the code `⌊c·(2^N − 1) + 0.5⌋`, the
/// nearest code with halves rounded up (ES 3.0 §2.1.6's unorm conversion, and `bytes10` of `main.glsl`). Every CPU
/// path writes its codes with it, and so does the GPU where it computes codes itself (10-bit output).
public enum Unorm {
    /// The 8-bit code of `c`.
    @inlinable @inline(__always) public static func code8(_ c: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int32(min(max(c, 0), 1) * 255 + 0.5))
    }
    /// The 10-bit code of `c` (0…1023).
    @inlinable @inline(__always) public static func code10(_ c: Float) -> Int {
        Int(min(max(c, 0), 1) * 1023 + 0.5)
    }
}
