import XCTest
@testable import SegueCore

final class GeometryTests: XCTestCase {
    func map(_ m: Affine2D, _ x: Double, _ y: Double) -> (Double, Double) { m.apply(x, y) }

    func testOrientationFromDisplayMatrices() {
        // av_display_rotation_set(m, 90): a = 0, b = -1, c = 1, d = 0 (16.16).
        let ccw90: [Int32] = [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30]
        XCTAssertEqual(Orientation(displayMatrix: ccw90).rotationDegrees, 90)
        XCTAssertEqual(Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30]).rotationDegrees, -90)
        XCTAssertEqual(Orientation(displayMatrix: [-65536, 0, 0, 0, -65536, 0, 0, 0, 1 << 30]).rotationDegrees, 180)
        let mirror = Orientation(displayMatrix: [-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30])
        XCTAssertTrue(mirror.isMirrored)
        XCTAssertFalse(Orientation(displayMatrix: ccw90).isMirrored)
        // Apple files carry a translation; it does not change the orientation.
        XCTAssertEqual(Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 320 << 16, 0, 1 << 30]).rotationDegrees, -90)
    }

    func testSquareCropOfLandscapeIsCentred() {
        // 1920×1080 into 1080×1080 fill: scale 1, crop 420 px each side.
        let m = LayerGeometry.outputToSource(codedSize: PixelSize(width: 1920, height: 1080), sar: 1, orientation: .identity,
                                             renderSize: PixelSize(width: 1080, height: 1080), fit: .fill)
        let (u, v) = map(m, 0.5, 0.5)
        XCTAssertEqual(u, 420.5 / 1920, accuracy: 1e-12)   // a texel centre: exact fetch
        XCTAssertEqual(v, 0.5 / 1080, accuracy: 1e-12)
    }

    func testQuarterTurnMapsCornersLikeFFmpegAutorotate() {
        // rotation -90 (shown turned 90° clockwise): the stored top-left corner ends up top-right.
        let o = Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30])
        let m = LayerGeometry.outputToSource(codedSize: PixelSize(width: 4, height: 2), sar: 1, orientation: o,
                                             renderSize: PixelSize(width: 2, height: 4), fit: .fill)
        let (u, v) = map(m, 1.5, 0.5)      // output top-right pixel
        XCTAssertEqual(u, 0.5 / 4, accuracy: 1e-12)
        XCTAssertEqual(v, 0.5 / 2, accuracy: 1e-12)
        let (u2, v2) = map(m, 0.5, 3.5)    // output bottom-left ← stored bottom-right
        XCTAssertEqual(u2, 3.5 / 4, accuracy: 1e-12)
        XCTAssertEqual(v2, 1.5 / 2, accuracy: 1e-12)
    }

    func testFitLetterboxesAndStretchFillsBothAxes() {
        let fit = LayerGeometry.outputToSource(codedSize: PixelSize(width: 200, height: 100), sar: 1, orientation: .identity,
                                               renderSize: PixelSize(width: 100, height: 100), fit: .fit)
        // Picture occupies rows 25..<75: row 0 maps above the source (background).
        XCTAssertLessThan(map(fit, 50, 0.5).1, 0)
        XCTAssertEqual(map(fit, 50, 25).1, 0, accuracy: 1e-12)
        XCTAssertEqual(map(fit, 50, 75).1, 1, accuracy: 1e-12)
        let stretch = LayerGeometry.outputToSource(codedSize: PixelSize(width: 200, height: 100), sar: 1, orientation: .identity,
                                                   renderSize: PixelSize(width: 100, height: 100), fit: .stretch)
        XCTAssertEqual(map(stretch, 0, 0).0, 0, accuracy: 1e-12)
        XCTAssertEqual(map(stretch, 100, 100).1, 1, accuracy: 1e-12)
    }

    func testNonSquarePixelsUseTheDisplayAspect() {
        // 640×360 with SAR 2:1 displays as 1280×360.
        let s = SourceInfo(codedSize: PixelSize(width: 640, height: 360), sampleAspectRatio: 2, nominalFrameRate: 30, duration: .zero, hasAudio: false)
        XCTAssertEqual(s.displaySize, PixelSize(width: 1280, height: 360))
    }
}
