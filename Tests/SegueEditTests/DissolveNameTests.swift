import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Issue 37 #2: `dissolve` is the cross-dissolve every editor and OTIO's `SMPTE_Dissolve` mean (a crossfade); FFmpeg
/// xfade's random-pixel dissolve is `pixeldissolve`, or `xfade:dissolve`.
final class DissolveNameTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func kind(_ type: String) throws -> TransitionKind? {
        try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "\#(type)"}}]}"#).clips[1].transition?.kind
    }

    func testTheNames() throws {
        XCTAssertEqual(TransitionKind.named("dissolve"), .crossfade)
        XCTAssertEqual(TransitionKind.named("pixeldissolve"), .dissolve)
        XCTAssertEqual(TransitionKind.named("xfade:dissolve"), .dissolve)
        XCTAssertEqual(TransitionKind.named("xfade:wipeleft"), .wipeleft)
        XCTAssertNil(TransitionKind.named("xfade:crossfade"), "crossfade is Segue's own, not xfade's")
        XCTAssertNil(TransitionKind(rawValue: "dissolve"))
        // FFmpeg's name, its shader and CPU function keep xfade's name: the xfade oracle compares by it.
        XCTAssertEqual(TransitionKind.dissolve.rawValue, "pixeldissolve")
        XCTAssertEqual(TransitionKind.dissolve.xfadeName, "dissolve")
        XCTAssertEqual(TransitionKind.dissolve.shaderStem, "dissolve")
        XCTAssertEqual(TransitionKind.dissolve.aliases, ["xfade:dissolve"])
        XCTAssertEqual(TransitionKind.crossfade.aliases, ["dissolve"])
        // Every name leads to one transition.
        let names = TransitionKind.allCases.flatMap { [$0.rawValue] + $0.aliases }
        XCTAssertEqual(Set(names).count, names.count)
        for k in TransitionKind.allCases { for n in [k.rawValue] + k.aliases { XCTAssertEqual(TransitionKind.named(n), k, n) } }
    }

    func testTheEditFileAndTheCommandLineTakeThem() throws {
        XCTAssertEqual(try kind("dissolve"), .crossfade)
        XCTAssertEqual(try kind("pixeldissolve"), .dissolve)
        XCTAssertEqual(try kind("xfade:dissolve"), .dissolve)
        XCTAssertEqual(try kind("crossfade"), .crossfade)
        XCTAssertThrowsError(try kind("pixeldisolve")) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[1].transition.type")
            XCTAssertTrue("\(e)".contains("did you mean \"pixeldissolve\""), "\(e)")
        }
        // The written edit says what it means.
        let written = try EditFileWriter.data(try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "xfade:dissolve"}}, {"path": "c.mp4", "transition": {"type": "dissolve"}}]}"#))
        let text = String(decoding: written, as: UTF8.self)
        XCTAssertTrue(text.contains("\"pixeldissolve\"") && text.contains("\"crossfade\"") && !text.contains("\"dissolve\""), text)
        // The schema takes every name.
        let schema = String(decoding: EditSchema.json, as: UTF8.self)
        for name in ["\"pixeldissolve\"", "\"dissolve\"", "\"xfade:dissolve\""] { XCTAssertTrue(schema.contains(name), name) }
    }

    /// `segue transitions` and `plan` say it.
    func testTheCatalogueAndThePlanSayIt() throws {
        let catalogue = TransitionCatalogue()
        XCTAssertEqual(catalogue.transitions.first { $0.name == "crossfade" }?.aliases, ["dissolve"])
        XCTAssertEqual(catalogue.transitions.first { $0.name == "pixeldissolve" }?.xfade, "dissolve")
        let text = catalogue.text
        XCTAssertTrue(text.contains("also named: dissolve\n"), text)
        XCTAssertTrue(text.contains("\npixeldissolve  FFmpeg xfade's dissolve: pixels switch to B in a pseudo-random order (not a cross-dissolve"), text)
        XCTAssertTrue(text.contains("also named: xfade:dissolve\n"), text)
        XCTAssertFalse(text.contains("also named: xfade:wipeleft"), "xfade:NAME for a transition named NAME is said once, below")
        XCTAssertTrue(text.contains("dissolve is crossfade, the cross-dissolve of editors and OTIO's SMPTE_Dissolve"), text)

        let edit = try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "dissolve"}}, {"path": "c.mp4", "transition": {"type": "pixeldissolve"}}], "frameRate": 10}"#)
        let source = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 10, duration: MediaTime(seconds: 3), hasAudio: false)
        let plan = TimelineReport(try Timeline(edit: edit, sources: [source, source, source])).text
        XCTAssertTrue(plan.contains("\n  crossfade 1.000 s: frames 20–29\n"), plan)
        XCTAssertTrue(plan.contains("\n  pixeldissolve (FFmpeg xfade's dissolve: random pixels, not a cross-dissolve) 1.000 s: frames 40–49\n"), plan)
    }

    /// OpenTimelineIO: a plain dissolve is written `SMPTE_Dissolve`; FFmpeg's as a `Custom_Transition` named
    /// pixeldissolve, which reads back as it was.
    func testOTIOKeepsThemApart() throws {
        let edit = try parse(#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transition": {"type": "dissolve"}}, {"path": "c.mp4", "transition": {"type": "pixeldissolve"}}], "frameRate": 10}"#)
        let source = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 10, duration: MediaTime(seconds: 3), hasAudio: false)
        let timeline = try Timeline(edit: edit, sources: [source, source, source])
        let (data, _) = try OTIOWriter.write(timeline, name: "d")
        func transitions(_ v: Any) -> [[String: Any]] {
            if let o = v as? [String: Any] { return (o["OTIO_SCHEMA"] as? String == "Transition.1" ? [o] : []) + o.keys.sorted().flatMap { transitions(o[$0]!) } }
            if let a = v as? [Any] { return a.flatMap(transitions) }
            return []
        }
        let written = transitions(try JSONSerialization.jsonObject(with: data))
        XCTAssertEqual(written.map { $0["transition_type"] as? String }, ["SMPTE_Dissolve", "Custom_Transition"])
        XCTAssertEqual(written.map { $0["name"] as? String }, ["Cross Dissolve", "pixeldissolve"])
        XCTAssertEqual(((written.last?["metadata"] as? [String: Any])?["segue"] as? [String: Any])?["type"] as? String, "pixeldissolve")
        let read = try OTIOFile.parse(data: data, baseDirectory: "/e", options: OTIOReadOptions(missingMedia: .black)).edit
        XCTAssertEqual(read.tracks[0].clips.compactMap(\.transition?.kind), [.crossfade, .dissolve])
    }
}
