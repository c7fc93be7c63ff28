import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// `"layer": {"blend": MODE}` (issue 35 item 7) as the edit file reads and writes it, the schema lists it, and the
/// planner and `segue plan` carry it.
final class BlendModeEditTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    let twoTracks = ##"{"renderSize": {"width": 64, "height": 48}, "tracks": [{"clips": [{"fill": "#808080", "duration": 1}]}, {"clips": [{"fill": "#ff0000", "duration": 1, "layer": {"blend": "BLEND", "opacity": 0.5}}]}]}"##

    func testEveryModeReadsAndWritesBack() throws {
        for mode in BlendMode.allCases {
            let edit = try parse(twoTracks.replacingOccurrences(of: "BLEND", with: mode.rawValue))
            XCTAssertEqual(edit.tracks[1].clips[0].layer.blend, mode)
            let text = String(decoding: try EditFileWriter.data(edit), as: UTF8.self)
            XCTAssertEqual(text.contains("\"blend\""), mode != .normal, "\(mode): \(text)")
            XCTAssertEqual(try EditFile.parse(data: Data(text.utf8), baseDirectory: "/e").tracks[1].clips[0].layer.blend, mode)
        }
        XCTAssertEqual(try parse(#"{"clips": [{"fill": "red", "duration": 1}]}"#).tracks[0].clips[0].layer.blend, .normal)
    }

    /// An unknown mode names the field and the nearest name.
    func testUnknownModeNamesFieldAndNearestName() {
        for (bad, near) in [("multipy", "multiply"), ("softlight", "soft-light"), ("colour-dodge", "color-dodge")] {
            XCTAssertThrowsError(try parse(twoTracks.replacingOccurrences(of: "BLEND", with: bad))) { e in
                let err = e as? EditError
                XCTAssertEqual(err?.field, "tracks[1].clips[0].layer.blend", "\(e)")
                XCTAssertTrue("\(e)".contains("did you mean \"\(near)\""), "\(e)")
            }
        }
    }

    /// The schema lists the modes; the planner puts the mode on the layer's pass (and it is not untouched), and the
    /// timeline's description (`segue plan`) mentions it.
    func testSchemaPlanAndDescription() throws {
        guard case .string(.choice(let c))? = EditSchema.layer.field("blend")?.type else { return XCTFail("layer.blend is not a choice") }
        XCTAssertEqual(c.names, BlendMode.allCases.map(\.rawValue))
        let edit = try parse(twoTracks.replacingOccurrences(of: "BLEND", with: "screen"))
        let t = try Timeline(edit: edit, sources: [])
        let plan = t.plan(frame: 0)
        XCTAssertEqual(plan.passes.map(\.blend), [.normal, .screen])
        XCTAssertFalse(plan.passes[1].from.isUntouched)
        XCTAssertTrue(t.notes.contains { $0.contains("blend screen") }, "\(t.notes)")
    }
}
