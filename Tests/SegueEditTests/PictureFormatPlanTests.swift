import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Issue 22 #2, the planner: a decoded picture of another size or SAR than its clip was probed with is fitted by its
/// own (`Timeline.plan(frame:pictures:)`), with the render size and the fit unchanged.
final class PictureFormatPlanTests: XCTestCase {
    func testAPictureOfAnotherSizeIsFittedByItsOwnSize() throws {
        var edit = Edit(clips: [ClipSpec(path: "/hd-then-sd.ts")])
        edit.fit = .fit
        let hd = SourceInfo(codedSize: PixelSize(width: 1280, height: 720), nominalFrameRate: 30, duration: MediaTime(seconds: 2), hasAudio: false)
        let tl = try Timeline(edit: edit, sources: [hd])
        XCTAssertEqual(tl.renderSize, PixelSize(width: 1280, height: 720))
        let probed = tl.plan(frame: 40).layers[0].outputToSource
        XCTAssertEqual(probed.apply(0, 0).0, 0, accuracy: 1e-12)
        // The decoder gave 640x480 (4:3): pillarboxed, 960 wide, from x = 160.
        let sd = PictureFormat(size: PixelSize(width: 640, height: 480), sampleAspectRatio: 1)
        XCTAssertTrue(tl.placements[0].differs(sd))
        XCTAssertFalse(tl.placements[0].differs(PictureFormat(size: hd.codedSize, sampleAspectRatio: 1)))
        let plan = tl.plan(frame: 40, pictures: [0: sd])
        XCTAssertEqual(plan.renderSize, tl.renderSize)
        let m = plan.layers[0].outputToSource
        XCTAssertEqual(m.apply(160, 0).0, 0, accuracy: 1e-12)
        XCTAssertEqual(m.apply(1120, 720).0, 1, accuracy: 1e-12)
        XCTAssertEqual(m.apply(1120, 720).1, 1, accuracy: 1e-12)
        // The same picture with SAR 4:3 is 853⅓ x 480 displayed: 16:9, the whole frame again.
        let anamorphic = tl.plan(frame: 40, pictures: [0: PictureFormat(size: sd.size, sampleAspectRatio: 4.0 / 3)]).layers[0].outputToSource
        XCTAssertEqual(anamorphic.apply(0, 0).0, 0, accuracy: 1e-12)
        XCTAssertEqual(anamorphic.apply(1280, 720).0, 1, accuracy: 1e-12)
    }
}
