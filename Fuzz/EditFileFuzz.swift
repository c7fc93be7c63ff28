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
        if let t = try? Timeline(edit: edit, sources: sources), t.frameCount > 0 {
            _ = t.plan(frame: t.frameCount - 1)
            _ = t.plan(frame: t.frameCount / 2)
        }
    } catch is EditError {
    } catch {
        fatalError("unexpected error type: \(error)")
    }
    return 0
}
