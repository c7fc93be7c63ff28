// libFuzzer target for the edit-file parser and the input policy (`make fuzz`). Compiled together with
// Sources/SegueCore and Sources/SegueEdit (one module), so it has no import. Any input must either parse or throw
// `EditError` (or, from the policy's limits, `LimitExceeded`); a crash, a trap or a sanitizer report is a bug: add the
// input to Tests/SegueEditTests/EditFileFuzzRegressionTests.swift.
//
// Paths: the edit is parsed under an input policy whose root is an empty folder made for the run (and relative paths
// resolve inside it), so every path the fuzzer writes — `../`, symbolic-link tricks, `concat:`, `file:`, `http:`,
// devices — goes through `InputPolicy.checkFile`/`checkInput`, and no file outside the folder is ever read.
import Foundation

/// The run's empty root folder.
let fuzzRoot: String = {
    let p = NSTemporaryDirectory() + "segue-fuzz-root-\(getpid())"
    try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
    return p
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func editFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    var policy = InputPolicy(root: fuzzRoot)
    policy.limits.maxClips = 64
    do {
        let edit = try EditFile.parse(data: bytes, baseDirectory: fuzzRoot, policy: policy)
        let applied = policy.applied(to: edit)
        // Every path the edit names, through the policy; and each on its own, as a URL or a path.
        for input in edit.inputPaths {
            _ = InputPolicy.urlScheme(of: input.path)
            _ = try? applied.checkInput(path: input.path, field: input.field)
            _ = try? applied.checkFile(path: input.path, field: input.field)
        }
        try applied.check(edit)
        // Resolve against made-up sources too: timeline arithmetic and the limits must not trap on any parsed values.
        let sources = Timeline.mediaItems(of: edit).map { _ in
            SourceInfo(codedSize: PixelSize(width: 640, height: 360), nominalFrameRate: 30, duration: MediaTime(value: 3, timescale: 1), hasAudio: true)
        }
        if let t = try? Timeline(edit: edit, sources: sources, text: FuzzText()), t.frameCount > 0 {
            _ = t.plan(frame: t.frameCount - 1)
            _ = t.plan(frame: t.frameCount / 2)
            _ = try? applied.check(t)
        }
    } catch is EditError {
    } catch is LimitExceeded {
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
