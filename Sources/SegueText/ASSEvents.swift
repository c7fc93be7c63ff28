import Foundation
import SegueCore
import SegueEdit

/// The structure of an ASS/SSA file, checked line by line so that a file that does not parse is refused with its line
/// (libass, which draws the file, skips what it cannot read without saying where), and its `Dialogue` events listed
/// (for `plan`). Sub Station Alpha v4.00+: a `[Script Info]` section first; `[V4+ Styles]` (or `[V4 Styles]`) with a
/// `Format:` line before its `Style:` lines; `[Events]` with a `Format:` line before its `Dialogue:` lines, each of
/// which has as many comma-separated fields as the format names (the last, `Text`, takes the rest of the line) and
/// `H:MM:SS.cc` times.
enum ASSEvents {
    static func read(_ lines: [String], name: String) throws -> [CaptionCue] {
        func error(_ n: Int, _ m: String) -> EditError { CaptionFiles.error(name, n, m) }
        guard let first = lines.firstIndex(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix(";") }) else {
            throw error(1, "the file is empty: an ASS/SSA file starts with \"[Script Info]\"")
        }
        guard lines[first].trimmingCharacters(in: .whitespaces).lowercased() == "[script info]" else {
            throw error(first + 1, "an ASS/SSA file starts with \"[Script Info]\" (got \"\(CaptionFiles.excerpt(lines[first]))\")")
        }
        var section = ""
        var styleFormat: [String]?, eventFormat: [String]?
        var cues: [CaptionCue] = []
        for (k, raw) in lines.enumerated() {
            let n = k + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("!:") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw error(n, "a section name ends with \"]\" (got \"\(CaptionFiles.excerpt(line))\")") }
                section = line.lowercased()
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                if section == "[script info]" || section == "[events]" || section.hasSuffix("styles]") {
                    throw error(n, "expected \"Key: value\" (got \"\(CaptionFiles.excerpt(line))\")")
                }
                continue   // [Fonts], [Graphics] hold encoded data
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            if section.hasSuffix("styles]") {
                if key == "format" { styleFormat = fields(value, count: nil) }
                if key == "style" {
                    guard let f = styleFormat else { throw error(n, "a Style line comes before the styles' Format line") }
                    if fields(value, count: f.count).count < f.count {
                        throw error(n, "a Style line needs \(f.count) fields (\(f.joined(separator: ", "))), got \(fields(value, count: nil).count)")
                    }
                }
            } else if section == "[events]" {
                if key == "format" {
                    let f = fields(value, count: nil).map { $0.lowercased() }
                    guard f.contains("start"), f.contains("end"), f.last == "text" else {
                        throw error(n, "the events' Format line names Start, End and, last, Text (got \"\(CaptionFiles.excerpt(value))\")")
                    }
                    eventFormat = f
                }
                if key == "dialogue" {
                    guard let f = eventFormat else { throw error(n, "a Dialogue line comes before the events' Format line") }
                    let v = fields(value, count: f.count)
                    guard v.count == f.count else { throw error(n, "a Dialogue line needs \(f.count) fields (\(f.joined(separator: ", "))), got \(v.count)") }
                    let s = v[f.firstIndex(of: "start")!], e = v[f.firstIndex(of: "end")!]
                    guard let start = time(s) else { throw error(n, "the start time \"\(s)\" does not parse (H:MM:SS.cc)") }
                    guard let end = time(e) else { throw error(n, "the end time \"\(e)\" does not parse (H:MM:SS.cc)") }
                    guard start < end else { throw error(n, "the event ends (\(e)) before it starts (\(s)) or when it starts") }
                    var cue = CaptionCue(index: cues.count + 1, start: start, end: end, text: v.last!, line: n)
                    cue.words = WordTimings.karaoke(v.last!, start: start)
                    cues.append(cue)
                }
            }
        }
        return cues
    }

    /// Comma-separated fields, trimmed; with `count`, the last takes the rest of the line (commas included).
    static func fields(_ s: String, count: Int?) -> [String] {
        let parts = s.split(separator: ",", maxSplits: count.map { max(0, $0 - 1) } ?? Int.max, omittingEmptySubsequences: false)
        return parts.enumerated().map { i, p in count != nil && i == parts.count - 1 ? String(p) : p.trimmingCharacters(in: .whitespaces) }
    }

    /// `H:MM:SS.cc` (ASS: centiseconds; more or fewer digits as a decimal fraction).
    static func time(_ s: String) -> MediaTime? {
        let p = s.split(separator: ":", omittingEmptySubsequences: false)
        guard p.count == 3, let h = Int(p[0]), h >= 0, let m = Int(p[1]), (0..<60).contains(m) else { return nil }
        guard let sec = CaptionFiles.seconds(String(p[2])) else { return nil }
        return MediaTime(value: Int64(h) * 3600 + Int64(m) * 60, timescale: 1) + sec
    }
}
