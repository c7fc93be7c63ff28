import Foundation
import SegueCore

// An edit file's image sequences: an item's `path` as a numbered pattern, with `rate` and `missingFrames`.
extension EditFile {
    /// An item's image sequence: its path a numbered picture pattern (`frames/img_%04d.png`, `ImageSequencePattern`;
    /// a file that exists under that very name is a file, not a pattern), with `rate` (pictures per second, a number or
    /// a fraction such as "24000/1001"; default 24) and `missingFrames` (`error`, `hold` or `black`). Nil for any other
    /// path, where `rate` and `missingFrames` are errors.
    static func imageSequence(_ o: EditFields, path: String) throws -> ImageSequence? {
        let isPattern = ImageSequencePattern(path: path) != nil && !FileManager.default.fileExists(atPath: path)
        guard isPattern else {
            for key in ["rate", "missingFrames"] where o[key] != nil {
                throw EditError(o.path(key), "applies to an image sequence, whose path is a numbered pattern such as \"frames/img_%04d.png\" (got \"\(path)\")")
            }
            return nil
        }
        var sequence = ImageSequence()
        if let s = o.string("rate"), let rate = FrameRate.parse(s) { sequence.rate = rate }
        if let d = o.number("rate"), let rate = FrameRate.fromDecimal(d) { sequence.rate = rate }
        if let policy = o.choice("missingFrames", ImageSequence.MissingFrames.self) { sequence.missingFrames = policy }
        return sequence
    }
}
