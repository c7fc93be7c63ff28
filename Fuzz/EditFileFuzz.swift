// libFuzzer target for the edit-file parser (`make fuzz`). Compiled together with Sources/SegueCore and
// Sources/SegueEdit (one module), so it has no import. Any input must either parse or throw `EditError`; a crash, a trap or a
// sanitizer report is a bug: add the input to Tests/SegueEditTests/EditFileFuzzRegressionTests.swift.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func editFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    do {
        let edit = try EditFile.parse(data: bytes, baseDirectory: "/fuzz")
        // Resolve against made-up sources too: timeline arithmetic must not trap on any parsed values.
        let sources = Timeline.mediaItems(of: edit).map { _ in
            SourceInfo(codedSize: PixelSize(width: 640, height: 360), nominalFrameRate: 30, duration: MediaTime(value: 3, timescale: 1), hasAudio: true)
        }
        if let t = try? Timeline(edit: edit, sources: sources, text: FuzzText()), t.frameCount > 0 {
            _ = t.plan(frame: t.frameCount - 1)
            _ = t.plan(frame: t.frameCount / 2)
        }
    } catch is EditError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}

/// A stand-in for the text module: blocks 10 × 20 pixels per character (at the asked scale), anchored as the style
/// says, and a caption file of two cues; enough to drive the planner's text geometry and caption tracks.
final class FuzzText: TextServices {
    struct Block: TextBlock {
        let pictureSize: PixelSize, rasterScale: Double, anchorX: Double, anchorY: Double
        var summary: String { "fuzz" }
        var warnings: [String] { [] }
    }
    func layout(_ text: TextSpec, renderSize: PixelSize, scale: Double, field: String) throws -> any TextBlock {
        let s = min(scale, 64)
        return Block(pictureSize: PixelSize(width: max(1, Int(10 * s) * min(text.text.count, 1000)), height: max(1, Int(20 * s))), rasterScale: s,
                     anchorX: text.style.align.anchor, anchorY: text.verticalAnchor)
    }
    func captions(_ spec: CaptionSpec) throws -> CaptionFile {
        CaptionFile(path: spec.path, format: spec.path.hasSuffix(".ass") ? .ass : .srt,
                    cues: [CaptionCue(index: 1, start: .zero, end: MediaTime(value: 1, timescale: 2), text: "a", line: 1),
                           CaptionCue(index: 2, start: MediaTime(value: 1, timescale: 4), end: MediaTime(value: 9, timescale: 1), text: "b", line: 5)])
    }
}
