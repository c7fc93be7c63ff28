import Foundation
import Segue

// The values of the options that take more than a word or a number: overlays, titles, transitions, music.

extension Arguments {
    /// `FILE[:VOLUME]`: music and its volume 0…16. A path may itself contain colons, so only a trailing number counts
    /// as the volume; "song.m4a:loud", where the file exists without the suffix, is refused as a volume that is not a
    /// number.
    static func parseMusic(_ v: String) throws -> (path: String, volume: Double?) {
        if let colon = v.lastIndex(of: ":"), let vol = Double(v[v.index(after: colon)...]) {
            guard vol >= 0 && vol <= 16 else { throw UsageError("--music volume must be 0…16 (got \(vol))") }
            return (String(v[..<colon]), vol)
        }
        if let colon = v.lastIndex(of: ":"), !FileManager.default.fileExists(atPath: v), FileManager.default.fileExists(atPath: String(v[..<colon])) {
            throw UsageError("--music volume must be a number 0…16 after the last colon (got \(v[v.index(after: colon)...]))")
        }
        return (v, nil)
    }

    /// `FILE[:x,y,scale[,opacity]]`: a picture or clip over the whole edit, its centre at (x, y) (normalized, top-left
    /// origin), `scale` times its fitted size, `opacity` 0…1. The geometry follows the last colon only when it is 3 or 4
    /// numbers (a path may itself hold colons).
    static func parseOverlay(_ s: String) throws -> Overlay {
        if let colon = s.lastIndex(of: ":") {
            let tail = s[s.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if (3...4).contains(tail.count), tail.allSatisfy({ $0 != nil && $0!.isFinite }) {
                var o = Overlay(path: String(s[..<colon]))
                o.x = tail[0]!; o.y = tail[1]!; o.scale = tail[2]!
                if tail.count == 4 { o.opacity = tail[3]! }
                guard o.scale > 0 && o.scale <= 100 else { throw UsageError("--overlay scale must be > 0 and ≤ 100 (got \(o.scale))") }
                guard (0...1).contains(o.opacity) else { throw UsageError("--overlay opacity must be 0…1 (got \(o.opacity))") }
                guard abs(o.x) <= 100 && abs(o.y) <= 100 else { throw UsageError("--overlay x and y are positions in the frame, 0…1 (got \(o.x), \(o.y))") }
                if o.path.isEmpty { throw UsageError("--overlay needs a file: FILE[:x,y,scale[,opacity]]") }
                return o
            }
            if tail.count >= 2 && tail.count <= 4 && tail.contains(where: { $0 != nil }) && !FileManager.default.fileExists(atPath: s) {
                throw UsageError("--overlay takes FILE[:x,y,scale[,opacity]], e.g. logo.png:0.92,0.9,0.1 (got \(s))")
            }
        }
        if s.isEmpty { throw UsageError("--overlay needs a file: FILE[:x,y,scale[,opacity]]") }
        return Overlay(path: s)
    }

    /// `TEXT[:SECONDS]`: a title, centred, for SECONDS (default `SourceInfo.defaultStillDuration`). Only a trailing
    /// positive number after the last colon is the duration ("Part 2: the end" is all text).
    static func parseTitle(_ s: String) throws -> (text: String, seconds: Double?) {
        var text = s, seconds: Double?
        if let colon = s.lastIndex(of: ":"), let d = Double(s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)) {
            guard d > 0, d <= 86_400 else { throw UsageError("--title seconds must be > 0 (got \(d))") }
            text = String(s[..<colon]); seconds = d
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw UsageError("--title needs some words: --title \"TEXT\"[:SECONDS]") }
        return (text.replacingOccurrences(of: "\\n", with: "\n"), seconds)
    }

    /// `TYPE:SECONDS[:DIRECTION]`, or `cut`; TYPE may be `xfade:NAME` (`TransitionKind.aliases`).
    static func parseTransition(_ s: String) throws -> Transition? {
        if s == "cut" || s == "none" { return nil }
        var parts = s.split(separator: ":").map(String.init)
        if parts.count > 1, parts[0] == "xfade" { parts = [parts[0] + ":" + parts[1]] + parts.dropFirst(2) }
        guard let first = parts.first else { throw UsageError("--transition takes TYPE:SECONDS[:DIRECTION] (got \(s))") }
        let kind: TransitionKind
        do { kind = try EditFile.transitionKind(first, field: "--transition") } catch let e as EditError {
            throw UsageError(e.description)
        }
        if kind == .glsl { throw UsageError("--transition glsl needs a shader file: give it in an edit file ({\"type\": \"glsl\", \"shader\": \"FILE\"})") }
        var duration = MediaTime(value: 1, timescale: 1)
        if parts.count > 1 {
            guard let d = Double(parts[1]), d > 0, MediaTime.isRepresentable(seconds: d) else { throw UsageError("--transition duration must be > 0 seconds (got \(parts[1]))") }
            duration = MediaTime(seconds: d)
        }
        var direction: Transition.Direction?
        if parts.count > 2 {
            guard let d = Transition.Direction(rawValue: parts[2]) else { throw UsageError("unknown --transition direction \(parts[2])") }
            do { try Transition.check(kind: kind, direction: d, field: "--transition") } catch let e as EditError {
                throw UsageError(e.description)
            }
            direction = d
        }
        if parts.count > 3 { throw UsageError("--transition takes TYPE:SECONDS[:DIRECTION] (got \(s))") }
        return Transition(kind: kind, duration: duration, direction: direction)
    }
}
