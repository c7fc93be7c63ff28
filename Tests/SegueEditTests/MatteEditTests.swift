import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// An item's `"matte"` (issue 35 item 6) as the edit file reads and writes it, the errors, and the planner: the matte
/// item makes no pass of its own, the pass of the track below carries it (never as the frame's first pass), its
/// keyframes move it, and `segue plan` says which item mattes which track.
final class MatteEditTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    /// A grey background fill, a red fill on track 1, and on track 2 a white box (scale 0.5, x keyframed 0.25 → 0.75
    /// over 1 s, opacity 0.8) as the matte for its first second, then a plain blue fill.
    let edit = ##"{"renderSize": {"width": 160, "height": 90}, "frameRate": 10, "tracks": [{"clips": [{"fill": "#808080", "duration": 2}]}, {"clips": [{"fill": "#ff0000", "duration": 2}]}, {"clips": [{"fill": "white", "duration": 1, "matte": "MODE", "layer": {"scale": 0.5, "opacity": 0.8, "x": {"keyframes": [{"time": 0, "value": 0.25}, {"time": 1, "value": 0.75}]}}}, {"fill": "#0000ff", "duration": 1}]}]}"##

    func testEveryModeReadsAndWritesBack() throws {
        for mode in MatteMode.allCases {
            let e = try parse(edit.replacingOccurrences(of: "MODE", with: mode.rawValue))
            XCTAssertEqual(e.tracks[2].clips.map(\.matte), [mode, nil])
            let text = String(decoding: try EditFileWriter.data(e), as: UTF8.self)
            XCTAssertTrue(text.contains("\"matte\" : \"\(mode.rawValue)\"") || text.contains("\"matte\":\"\(mode.rawValue)\"")
                          || text.contains("\"matte\": \"\(mode.rawValue)\""), text)
            XCTAssertEqual(try parse(text).tracks[2].clips.map(\.matte), [mode, nil])
        }
        guard case .string(.choice(let c))? = EditSchema.fill.field("matte")?.type else { return XCTFail("fill.matte is not a choice") }
        XCTAssertEqual(c.names, ["alpha", "luma", "alpha-inverted", "luma-inverted"])
        for item in [EditSchema.clip, EditSchema.text, EditSchema.shape] { XCTAssertNotNil(item.field("matte"), item.name) }
        XCTAssertNil(EditSchema.gap.field("matte"))
    }

    /// An unknown mode names the field and the nearest name; a matte on the bottom track (nothing below to mask) is an
    /// edit error naming its field.
    func testErrors() throws {
        XCTAssertThrowsError(try parse(edit.replacingOccurrences(of: "MODE", with: "lumma"))) { e in
            XCTAssertEqual((e as? EditError)?.field, "tracks[2].clips[0].matte", "\(e)")
            XCTAssertTrue("\(e)".contains("did you mean \"luma\""), "\(e)")
        }
        let bottom = try parse(#"{"renderSize": {"width": 160, "height": 90}, "tracks": [{"clips": [{"fill": "red", "duration": 1, "matte": "alpha"}]}, {"clips": [{"fill": "blue", "duration": 1}]}]}"#)
        XCTAssertThrowsError(try Timeline(edit: bottom, sources: [])) { e in
            XCTAssertEqual((e as? EditError)?.field, "tracks[0].clips[0].matte", "\(e)")
        }
    }

    /// While the matte lasts: track 0's pass, then track 1's carrying the matte (luma, track 2, its layer at half
    /// scale, opacity 0.8, moving right with its keyframe), and no pass for track 2; after it, track 2's plain fill is
    /// drawn and nothing is masked. `segue plan` and the notes name the matte and the track it masks. A masked track
    /// at the bottom gets a transparent first pass under it.
    func testPlannerCarriesTheMatteOnTheTrackBelow() throws {
        let t = try Timeline(edit: try parse(edit.replacingOccurrences(of: "MODE", with: "luma")), sources: [])
        let first = t.plan(frame: 0), later = t.plan(frame: 5)
        for plan in [first, later] {
            XCTAssertEqual(plan.passes.map(\.track), [0, 1])
            guard plan.passes.count == 2 else { return }
            XCTAssertEqual(plan.passes.map { $0.matte?.mode }, [nil, .luma])
            XCTAssertEqual(plan.passes[1].matte?.track, 2)
            XCTAssertEqual(plan.passes[1].layers.count, 2, "the red fill and the matte")
            XCTAssertEqual(plan.passes[1].matte?.layer.opacity ?? 0, 0.8, accuracy: 1e-9)
        }
        // x 0.25 → 0.75: the matte's picture moves right (its map's offset changes), the masked layer does not.
        let m0 = try XCTUnwrap(first.passes[1].matte?.layer), m5 = try XCTUnwrap(later.passes[1].matte?.layer)
        XCTAssertNotEqual(m0.outputToSource.tx, m5.outputToSource.tx)
        XCTAssertEqual(m0.bounds?.x0 ?? -1, 0, "x 0.25 at scale 0.5: the left half")
        XCTAssertTrue((39...40).contains(m5.bounds?.x0 ?? -1), "halfway: x 0.5 (one pixel of filtering margin)")
        XCTAssertEqual(first.passes[1].from.outputToSource, later.passes[1].from.outputToSource)
        let after = t.plan(frame: 15)
        XCTAssertEqual(after.passes.map(\.track), [0, 1, 2])
        XCTAssertTrue(after.passes.allSatisfy { $0.matte == nil })
        XCTAssertEqual(after.passes[2].from.content, .colour(RGBColour(r: 0, g: 0, b: 255), alpha: 1))
        let report = TimelineReport(t).text
        XCTAssertTrue(report.contains("luma matte of track 1 (not drawn)"), report)
        XCTAssertTrue(t.notes.contains { $0.contains("luma track matte of track 1") }, "\(t.notes)")
        let bottom = try Timeline(edit: try parse(#"{"renderSize": {"width": 160, "height": 90}, "tracks": [{"clips": [{"fill": "red", "duration": 1}]}, {"clips": [{"fill": "white", "duration": 1, "matte": "alpha"}]}]}"#), sources: [])
        let plan = bottom.plan(frame: 0)
        XCTAssertEqual(plan.passes.map(\.track), [0, 0])
        XCTAssertEqual(plan.passes.first?.from.content, .colour(.black, alpha: 0), "the clear pass")
        XCTAssertEqual(plan.passes.map { $0.matte?.mode }, [nil, .alpha])
    }
}
