import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// The `chromaKey` entry of an item's effects: read with its defaults, keyframes evaluated per frame into the layer's
/// `PictureEffect`, written back as read, refused with the field named, and shown by `segue plan`.
final class ChromaKeyEditTests: XCTestCase {
    func timeline(_ effects: String) throws -> Timeline {
        var source = SourceInfo(codedSize: PixelSize(width: 64, height: 48), nominalFrameRate: 10, duration: MediaTime(seconds: 2), hasAudio: false)
        source.streamRate = FrameRate(10)
        let edit = try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4", "effects": \#(effects)}], "frameRate": 10}"#.utf8), baseDirectory: "/e")
        return try Timeline(edit: edit, sources: [source])
    }

    func testTheKeyIsReadEvaluatedWrittenAndShown() throws {
        let t = try timeline(##"[{"type": "chromaKey", "colour": "#00ff00", "similarity": {"keyframes": [{"time": 0, "value": 0.1}, {"time": 1, "value": 0.3}]}, "spill": 0.3}]"##)
        guard case .chromaKey(let k)? = t.placements[0].spec.effects.first else { return XCTFail("\(t.placements[0].spec.effects)") }
        XCTAssertEqual(k.colour, RGBColour(r: 0, g: 255, b: 0))
        XCTAssertEqual(k.smoothness, .constant(0.05), "the default")
        // Frame 5 is 0.5 s in: similarity halfway, 0.2; the key colour as R′G′B′ 0…1.
        XCTAssertEqual(t.plan(frame: 5).from.effects, [.chromaKey(ChromaKey(colour: SIMD3(0, 1, 0), similarity: 0.2, smoothness: 0.05, spill: 0.3))])
        XCTAssertEqual(TimelineReport(t).clips[0].effects, ["chromaKey"])
        XCTAssertTrue(TimelineReport(t).text.contains("chroma key #00ff00, similarity 0.1@0s → 0.3@1s, smoothness 0.05, spill 0.3"), TimelineReport(t).text)
        // Written back: the colour and the settings that are not the defaults.
        let edit = try EditFile.parse(data: Data(##"{"clips": [{"path": "a.mp4", "effects": [{"type": "chromaKey", "similarity": 0.2}]}]}"##.utf8), baseDirectory: "/e")
        let written = String(decoding: try EditFileWriter.data(edit), as: UTF8.self)
        XCTAssertTrue(written.contains(#""type":"chromaKey""#) || written.contains(#""type": "chromaKey""#), written)
        XCTAssertEqual(try EditFile.parse(data: try EditFileWriter.data(edit), baseDirectory: "/e").clips[0].effects, edit.clips[0].effects)
        XCTAssertFalse(written.contains("smoothness"), written)
    }

    func testBadValuesNameTheField() {
        for (effect, field) in [(#"{"type": "chromaKey", "similarity": 2}"#, "clips[0].effects[0].similarity"),
                                (#"{"type": "chromaKey", "colour": "grass"}"#, "clips[0].effects[0].colour")] {
            XCTAssertThrowsError(try timeline("[\(effect)]")) { XCTAssertEqual(($0 as? EditError)?.field, field, "\($0)") }
        }
    }
}
