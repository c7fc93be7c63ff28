import XCTest
@testable import SegueCore
@testable import SegueEdit

/// The edit model's side of still pictures: `background`, EXIF orientations, still durations, the render-size cap.
final class StillTests: XCTestCase {
    func testBackgroundColoursParse() throws {
        func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
        XCTAssertEqual(try parse(##"{"clips": [{"path": "a.jpg"}]}"##).background, .black)
        XCTAssertEqual(try parse(##"{"clips": [{"path": "a.jpg"}], "background": "#336699"}"##).background, RGBColour(r: 0x33, g: 0x66, b: 0x99))
        XCTAssertEqual(try parse(##"{"clips": [{"path": "a.jpg"}], "background": "#FfF"}"##).background, .white)
        XCTAssertEqual(try parse(##"{"clips": [{"path": "a.jpg"}], "background": "Grey"}"##).background, RGBColour(r: 128, g: 128, b: 128))
        for bad in [##""#12345""##, ##""blurple""##, "3", ##""#gggggg""##] {
            XCTAssertThrowsError(try parse(##"{"clips": [{"path": "a.jpg"}], "background": \##(bad)}"##)) { e in
                XCTAssertEqual((e as? EditError)?.field, "background", "\(bad): \(e)")
            }
        }
        XCTAssertEqual(RGBColour(r: 0x1d, g: 0x2b, b: 0x3a).description, "#1d2b3a")
    }

    func testStraightAlphaOverIsRoundedToNearest() {
        // (200·128 + 0·127) / 255 = 100.39 → 100; (200·128 + 255·127) / 255 = 227.39 → 227; a = 0 and 255 are exact.
        XCTAssertEqual(RGBColour.over(200, 128, 0), 100)
        XCTAssertEqual(RGBColour.over(200, 128, 255), 227)
        XCTAssertEqual(RGBColour.over(50, 128, 255), 152)
        XCTAssertEqual(RGBColour.over(77, 0, 9), 9)
        XCTAssertEqual(RGBColour.over(77, 255, 9), 77)
        // Every (c, a, bg) against the exact value.
        for c in stride(from: 0, through: 255, by: 17) { for a in 0...255 { for bg in [0, 128, 255] {
            let exact = (Double(c * a) + Double(bg * (255 - a))) / 255
            XCTAssertLessThanOrEqual(abs(Double(RGBColour.over(UInt8(c), UInt8(a), UInt8(bg))) - exact), 0.5)
        } } }
    }

    func testExifOrientationsAreTheEightDisplayMatrixCases() {
        let all = (1...8).compactMap { Orientation(exifOrientation: $0) }
        XCTAssertEqual(Set(all).count, 8)
        XCTAssertNil(Orientation(exifOrientation: 0))
        XCTAssertNil(Orientation(exifOrientation: 9))
        XCTAssertEqual(all.map(\.isMirrored), [false, true, false, true, true, false, true, false])
        XCTAssertEqual(all.map(\.swapsAxes), [false, false, false, false, true, true, true, true])
        // 6 (a phone photo taken upright) is what a −90° display matrix gives; 8 is +90°, 3 is 180°.
        XCTAssertEqual(Orientation(exifOrientation: 6), Orientation(displayMatrix: [0, 65536, 0, -65536, 0, 0, 0, 0, 1 << 30]))
        XCTAssertEqual(Orientation(exifOrientation: 8), Orientation(displayMatrix: [0, -65536, 0, 65536, 0, 0, 0, 0, 1 << 30]))
        XCTAssertEqual(Orientation(exifOrientation: 3)?.rotationDegrees, 180)
        XCTAssertEqual(Orientation(exifOrientation: 2), Orientation(displayMatrix: [-65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30]))
        // 6 turns the stored top-left corner to the top right (as FFmpeg's transpose=clock).
        let m = LayerGeometry.outputToSource(codedSize: PixelSize(width: 4, height: 2), sar: 1, orientation: Orientation(exifOrientation: 6)!,
                                             renderSize: PixelSize(width: 2, height: 4), fit: .fill)
        let (u, v) = m.apply(1.5, 0.5)
        XCTAssertEqual(u, 0.5 / 4, accuracy: 1e-12)
        XCTAssertEqual(v, 0.5 / 2, accuracy: 1e-12)
    }

    func still(_ w: Int, _ h: Int) -> SourceInfo {
        var s = SourceInfo(codedSize: PixelSize(width: w, height: h), nominalFrameRate: nil, duration: SourceInfo.defaultStillDuration, hasAudio: false)
        s.isStill = true
        return s
    }

    func testStillsShowForTheirDurationAndHugeDefaultSizesAreCapped() throws {
        var edit = Edit(clips: [ClipSpec(path: "/a.jpg"), ClipSpec(path: "/b.png", duration: MediaTime(seconds: 2.5),
                                                                   transition: Transition(kind: .crossfade, duration: MediaTime(seconds: 0.5)))])
        edit.background = .white
        let t = try Timeline(edit: edit, sources: [still(640, 480), still(640, 480)])
        XCTAssertEqual(t.placements.map(\.duration), [MediaTime(value: 4, timescale: 1), MediaTime(seconds: 2.5)])
        XCTAssertEqual(t.duration, MediaTime(value: 6, timescale: 1))
        XCTAssertEqual(t.frameRate, FrameRate(30))
        XCTAssertEqual(t.plan(frame: 0).background, .white)
        XCTAssertTrue(TimelineReport(t).text.contains("background #ffffff"))
        edit.clips[0].start = MediaTime(seconds: 0.5)
        XCTAssertThrowsError(try Timeline(edit: edit, sources: [still(640, 480), still(640, 480)])) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[0].start")
        }
        // A 16400×1200 panorama: the default size is scaled to 16384 wide (1199 high → 1198, even).
        let wide = try Timeline(edit: Edit(clips: [ClipSpec(path: "/p.jpg")]), sources: [still(16400, 1200)])
        XCTAssertEqual(wide.renderSize, PixelSize(width: 16384, height: 1198))
    }
}
