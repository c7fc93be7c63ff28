import Foundation

/// The BT.1886 EOTF (ITU-R BT.1886 Annex 1 with white Lw = 1 and black Lb = 0: `L = V^2.4`) and its inverse, as
/// `segue_bt1886EOTF` / `segue_bt1886InverseEOTF` of `prelude.glsl`: per R′G′B′ channel, values below 0 mirrored
/// (`−(−V)^2.4`); alpha unchanged. Linear-light mixing (`Blending.linear`) goes through them.
public enum BT1886 {
    @inline(__always) static func eotf(_ v: Float) -> Float { v < 0 ? -powf(-v, 2.4) : powf(v, 2.4) }
    @inline(__always) static func inverseEOTF(_ l: Float) -> Float { l < 0 ? -powf(-l, 1 / 2.4) : powf(l, 1 / 2.4) }
    @inline(__always) public static func eotf(_ c: SIMD4<Float>) -> SIMD4<Float> { SIMD4(eotf(c.x), eotf(c.y), eotf(c.z), c.w) }
    @inline(__always) public static func inverseEOTF(_ c: SIMD4<Float>) -> SIMD4<Float> { SIMD4(inverseEOTF(c.x), inverseEOTF(c.y), inverseEOTF(c.z), c.w) }
}
