import XCTest
@testable import SegueCore

final class MediaTimeTests: XCTestCase {
    func testExactArithmeticAcrossTimescales() {
        let a = MediaTime(value: 1001, timescale: 30000)   // one NTSC frame
        var t = MediaTime.zero
        for _ in 0..<30000 { t = t + a }                    // no accumulated error
        XCTAssertEqual(t, MediaTime(value: 1001, timescale: 1))
        XCTAssertEqual(MediaTime(value: 1, timescale: 2) + MediaTime(value: 1, timescale: 3), MediaTime(value: 5, timescale: 6))
        XCTAssertEqual(MediaTime(value: 3, timescale: 6), MediaTime(value: 1, timescale: 2))
        XCTAssertTrue(MediaTime(value: 1, timescale: 3) < MediaTime(value: 333_334, timescale: 1_000_000))
    }

    func testSecondsInputIsMicrosecondExact() {
        XCTAssertEqual(MediaTime(seconds: 0.5), MediaTime(value: 1, timescale: 2))
        XCTAssertEqual(MediaTime(seconds: 1.25), MediaTime(value: 5, timescale: 4))
    }

    func testRoundingToFramesAndSamples() {
        // 10.5 frames rounds half away from zero.
        XCTAssertEqual(MediaTime(value: 21, timescale: 60).rounded(toUnitsOf: 30), 11)
        XCTAssertEqual(MediaTime(value: 1, timescale: 3).rounded(toUnitsOf: 48000), 16000)
        // 1001/30000 s at 48 kHz = 1601.6 samples → 1602.
        XCTAssertEqual(MediaTime(value: 1001, timescale: 30000).rounded(toUnitsOf: 48000), 1602)
        XCTAssertEqual(MediaTime(value: -1, timescale: 3).floored(toUnitsOf: 1), -1)
    }

    func testFrameRateParsingAndSnapping() {
        XCTAssertEqual(FrameRate.parse("30000/1001"), FrameRate(30000, 1001))
        XCTAssertEqual(FrameRate.parse("29.97"), FrameRate(30000, 1001))
        XCTAssertEqual(FrameRate.parse("25"), FrameRate(25))
        XCTAssertNil(FrameRate.parse("-3"))
        XCTAssertEqual(FrameRate.snapped(29.977), FrameRate(30000, 1001))
        XCTAssertEqual(FrameRate.snapped(23.976), FrameRate(24000, 1001))
        XCTAssertEqual(FrameRate.snapped(7.399), FrameRate(7))
        XCTAssertEqual(FrameRate.snapped(240), FrameRate(60))       // capped
        XCTAssertEqual(FrameRate(60, 2).frameDuration, MediaTime(value: 1, timescale: 30))
    }
}
