import XCTest
import SegueCore
@testable import SegueReference

/// The CPU renderer's two conversions written without a trapping float-to-integer conversion (so that its loops over
/// rows vectorise and do not branch): `Unorm.code8` (the one rounding rule) and `Float.floored` (`segue_pixel`'s
/// floor) give the values of the plain definitions — `Int32(clamp(c, 0, 1)·255 + 0.5)` and libm's `floor` — at every
/// value where they could differ: each code's rounding boundary and the floats either side of it, every integer and
/// half and their neighbours, a dense sweep, zeros, subnormals, infinities and the largest floats. (Checked once for
/// all 2³² bit patterns when they were written; a sweep that size would take half a minute here.)
final class RoundingRuleTests: XCTestCase {
    /// The values tried: a sweep of −2…3 in steps of 2⁻¹⁶, each code's boundary `(n + 0.5)/255` and each integer and
    /// half up to 2²⁴ in powers of two, each with its neighbours, and the special values.
    private var values: [Float] {
        var v: [Float] = (-131_072...196_608).map { Float($0) / 65_536 }
        v += (0...256).map { (Float($0) + 0.5) / 255 }
        v += (0...256).map { Float($0) / 255 }
        var p: Float = 0.5
        while p <= 16_777_216 { v += [p, p + 0.5, p - 0.5, -p, -p + 0.5, -p - 0.5]; p *= 2 }
        v += [0, -0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .infinity, -.infinity,
              .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 8_388_607.5, -8_388_607.5, 255.5 / 255]
        return v.flatMap { [$0, $0.nextUp, $0.nextDown] }
    }

    func testCode8IsTheUnormRule() {
        var differ = 0
        for c in values where !c.isNaN {
            let expected = UInt8(Int32(min(max(c, 0), 1) * 255 + 0.5))
            if Unorm.code8(c) != expected { differ += 1; if differ < 5 { XCTFail("code8(\(c)) = \(Unorm.code8(c)), not \(expected)") } }
        }
        XCTAssertEqual(differ, 0)
        XCTAssertEqual(Unorm.code8(0.5), 128)
        XCTAssertEqual(Unorm.code8(127.5 / 255), 128)
        XCTAssertEqual(Unorm.code8((127.5 / 255 as Float).nextDown), 127)
        XCTAssertEqual(Unorm.code8(2), 255)
        XCTAssertEqual(Unorm.code8(-1), 0)
        XCTAssertEqual(Unorm.code8(.nan), 0, "NaN gives 0 rather than a trap")
    }

    func testFlooredIsFloor() {
        var differ = 0
        for x in values {
            let expected = x.rounded(.down)
            // The same value (an integral zero's sign aside: `floor(-0.0)` is −0, `floored` +0; both print and compare as 0).
            if !(x.floored == expected || (x.isNaN && x.floored.isNaN)) {
                differ += 1
                if differ < 5 { XCTFail("floored(\(x)) = \(x.floored), not \(expected)") }
            }
        }
        XCTAssertEqual(differ, 0)
        XCTAssertEqual(Float(-0.25).floored, -1)
        XCTAssertEqual(Float(2.999).floored, 2)
        XCTAssertEqual(SIMD2<Float>(-1.5, 7.25).floored, SIMD2(-2, 7))
    }
}
