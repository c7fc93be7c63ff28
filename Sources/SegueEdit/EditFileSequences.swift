import Foundation
import SegueCore

// An edit file's image sequences: an item's `path` as a numbered pattern, with `rate` and `missingFrames`.
extension EditFile {
    /// An item's image sequence: its path a numbered picture pattern (`frames/img_%04d.png`, `ImageSequencePattern`;
    /// a file that exists under that very name is a file, not a pattern), with `rate` (pictures per second, a number or
    /// a fraction such as "24000/1001"; default 24) and `missingFrames` (`error`, `hold` or `black`). Nil for any other
    /// path, where `rate` and `missingFrames` are errors.
    static func imageSequence(_ o: [String: Any], _ f: String, path: String) throws -> ImageSequence? {
        let isPattern = ImageSequencePattern(path: path) != nil && !FileManager.default.fileExists(atPath: path)
        guard isPattern else {
            for key in ["rate", "missingFrames"] where o[key] != nil {
                throw EditError("\(f).\(key)", "applies to an image sequence, whose path is a numbered pattern such as \"frames/img_%04d.png\" (got \"\(path)\")")
            }
            return nil
        }
        var sequence = ImageSequence()
        if let r = o["rate"] {
            let rate: FrameRate?
            if let s = r as? String { rate = FrameRate.parse(s) } else { rate = FrameRate.fromDecimal(try number(r, "\(f).rate")) }
            guard let fr = rate else { throw EditError("\(f).rate", "must be pictures per second from 0.01 to 1000, as a number or a fraction such as \"24000/1001\"") }
            sequence.rate = fr
        }
        if let m = o["missingFrames"] {
            let s = try string(m, "\(f).missingFrames")
            guard let policy = ImageSequence.MissingFrames(rawValue: s) else {
                throw EditError("\(f).missingFrames", "must be error, hold or black (got \"\(s)\")")
            }
            sequence.missingFrames = policy
        }
        return sequence
    }
}
