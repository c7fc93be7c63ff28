import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// The `chromaKey` entry of an item's effects: the formula (`ChromaKey`); read with its defaults, keyframes evaluated per frame into the layer's
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

    /// The formula at three colours, the key #00b140 by BT.709's definition: Cb = (B′ − Y′) / 1.8556, Cr = (R′ − Y′) /
    /// 1.5748, times 224/255 (studio scale); grey is at √((Cb² + Cr²) / 2) ≈ 0.2213 from it.
    func testTheFormula() {
        let key = SIMD3<Float>(0, 0xb1, 0x40) / 255
        let y = 0.7152 * Double(key.y) + 0.0722 * Double(key.z)
        let cb = (Double(key.z) - y) / 1.8556 * 224 / 255, cr = -y / 1.5748 * 224 / 255
        let grey = ((cb * cb + cr * cr) / 2).squareRoot()
        XCTAssertEqual(grey, 0.2213, accuracy: 0.0005)
        let k = ChromaKey(colour: key, similarity: 0.2, smoothness: 0.1, spill: 0.2)
        // Grey: alpha (d − 0.2) / 0.1 of what it was, still grey.
        let g = k.apply(SIMD4(0.5, 0.5, 0.5, 0.8))
        XCTAssertEqual(Double(g.w), 0.8 * (grey - 0.2) / 0.1, accuracy: 0.001)
        XCTAssertEqual(g.x, 0.5, accuracy: 1e-5); XCTAssertEqual(g.y, 0.5, accuracy: 1e-5)
        // A green near the key: keyed out, and grey (its BT.709 luma).
        let near = k.apply(SIMD4(0.2, 0.6, 0.3, 1))
        XCTAssertEqual(near.w, 0)
        XCTAssertEqual(near.x, 0.4933, accuracy: 0.0005); XCTAssertEqual(near.y, near.x, accuracy: 1e-5); XCTAssertEqual(near.z, near.x, accuracy: 1e-5)
        // Red, 0.51 away: untouched. The key colour itself: alpha 0; with no smoothness, a step.
        XCTAssertEqual(k.apply(SIMD4(1, 0, 0, 1)), SIMD4(1, 0, 0, 1))
        XCTAssertEqual(k.apply(SIMD4(key, 1)).w, 0)
        let hard = ChromaKey(colour: key, similarity: 0.22, smoothness: 0, spill: 0)
        XCTAssertEqual(hard.apply(SIMD4(0.5, 0.5, 0.5, 1)).w, 1)
        XCTAssertEqual(hard.apply(SIMD4(0.3, 0.5, 0.35, 1)), SIMD4(0.3, 0.5, 0.35, 0), "no spill: the colour kept")
    }

    func testBadValuesNameTheField() {
        for (effect, field) in [(#"{"type": "chromaKey", "similarity": 2}"#, "clips[0].effects[0].similarity"),
                                (#"{"type": "chromaKey", "colour": "grass"}"#, "clips[0].effects[0].colour")] {
            XCTAssertThrowsError(try timeline("[\(effect)]")) { XCTAssertEqual(($0 as? EditError)?.field, field, "\($0)") }
        }
    }
}
