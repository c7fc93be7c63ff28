import XCTest
@testable import SegueCore

/// What Segue shows of a Dolby Vision stream, decided from its configuration record alone.
final class DolbyVisionTests: XCTestCase {
    func testProfile8PlaysItsCompatibleBaseLayer() {
        XCTAssertEqual(DolbyVisionConfiguration(profile: 8, level: 2, compatibilityID: 4).decision, .baseLayer(.hlg), "8.4: iPhone HLG")
        XCTAssertEqual(DolbyVisionConfiguration(profile: 8, compatibilityID: 1).decision, .baseLayer(.pq), "8.1: HDR10")
        XCTAssertEqual(DolbyVisionConfiguration(profile: 8, compatibilityID: 2).decision, .baseLayer(.sdr), "8.2: SDR")
        XCTAssertEqual(DolbyVisionConfiguration(profile: 7, enhancementLayerPresent: true, compatibilityID: 6).decision, .baseLayer(.pq), "7.6: Blu-ray")
        XCTAssertEqual(DolbyVisionConfiguration(profile: 8, level: 2, compatibilityID: 4).summary,
                       "Dolby Vision profile 8.4 (level 2, RPU): shows the HLG base layer (the RPU is not applied)")
    }

    func testProfile5IsRefusedSayingWhy() {
        let p5 = DolbyVisionConfiguration(profile: 5, level: 6, compatibilityID: 0)
        guard case .unsupported(let why) = p5.decision else { return XCTFail("profile 5 must not play: \(p5.decision)") }
        XCTAssertTrue(why.contains("profile 5") && why.contains("IPTPQc2") && why.contains("wrong colours"), why)
        XCTAssertTrue(p5.summary.hasPrefix("Dolby Vision profile 5.0 (level 6, RPU): cannot be shown"), p5.summary)
        // No base layer, or a compatibility id nobody defined: refused too.
        if case .baseLayer = DolbyVisionConfiguration(profile: 8, baseLayerPresent: false, compatibilityID: 1).decision { XCTFail("no base layer") }
        if case .baseLayer = DolbyVisionConfiguration(profile: 8, compatibilityID: 9).decision { XCTFail("unknown compatibility id") }
    }
}
