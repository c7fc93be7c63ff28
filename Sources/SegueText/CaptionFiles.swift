import Foundation
import SegueCore
import SegueEdit

/// Reads caption files: SubRip (`.srt`) and WebVTT (`.vtt`) cues for the title path (each cue shaped like a text item
/// in `CaptionSpec.style`), and ASS/SSA (`.ass`, `.ssa`) files for libass (their events listed for `plan`; libass
/// draws them). A file that does not parse is an `EditError` naming the file and the line.
///
/// The formats: SubRip as players read it (a cue number, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, text lines, a blank line;
/// the number may be missing; `.` is taken for `,`); WebVTT per the W3C WebVTT recommendation (the `WEBVTT` line,
/// `NOTE`/`STYLE`/`REGION` blocks skipped, optional cue identifiers, `[hh:]mm:ss.ttt` times, the `position`, `line`
/// and `align` cue settings); ASS/SSA per the Sub Station Alpha v4.00+ specification (`[Script Info]`, styles,
/// `[Events]` with a `Format:` line before the `Dialogue:` lines).
public enum CaptionFiles {
    /// Reads `path`, by its extension (`.srt`, `.vtt`, `.webvtt`, `.ass`, `.ssa`, `.json`: a transcript of timed
    /// words, `WordTimings.transcript`) or, without a known one, by its first line (`WEBVTT`, `[Script Info]`, else
    /// SubRip). Timed words (WebVTT inline timestamps, ASS karaoke tags) go in `CaptionCue.words`.
    /// - Throws: `EditError` (field `captions.path`): unreadable file, not UTF-8, or a line that does not parse.
    public static func read(_ path: String) throws -> CaptionFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EditError("captions.path", "cannot read the caption file \(path) (missing or not readable)")
        }
        let name = (path as NSString).lastPathComponent
        let ext = (path as NSString).pathExtension.lowercased()
        if ext == "json" {
            return CaptionFile(path: path, format: .json, cues: try WordTimings.transcript(data, name: name))
        }
        // Line ends: "\r\n" is one Character in Swift; make every line end "\n" first.
        let text = try decode(data, name: name).replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let first = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let format: CaptionFile.Format
        switch ext {
        case "srt": format = .srt
        case "vtt", "webvtt": format = .webvtt
        case "ass", "ssa": format = .ass
        default:
            format = first.hasPrefix("WEBVTT") ? .webvtt : first.trimmingCharacters(in: .whitespaces).lowercased() == "[script info]" ? .ass : .srt
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cues: [CaptionCue]
        switch format {
        case .srt: cues = try subRip(lines, name: name)
        case .webvtt: cues = try webVTT(lines, name: name)
        case .ass: cues = try ASSEvents.read(lines, name: name)
        case .json: cues = []   // (read above)
        }
        return CaptionFile(path: path, format: format, cues: cues)
    }

    /// The file as UTF-8 text without its byte-order mark. - Throws: `EditError` naming the line of the first byte
    /// that is not UTF-8.
    static func decode(_ data: Data, name: String) throws -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        // Find the first bad byte by decoding line by line.
        var line = 1, start = 0
        for i in 0...bytes.count where i == bytes.count || bytes[i] == 0x0A {
            if String(validating: bytes[start..<i], as: UTF8.self) == nil {
                throw EditError("captions.path", "\(name) line \(line): not UTF-8 text (save the caption file as UTF-8)")
            }
            line += 1; start = i + 1
        }
        throw EditError("captions.path", "\(name): not UTF-8 text")
    }

    static func error(_ name: String, _ line: Int, _ message: String) -> EditError {
        EditError("captions.path", "\(name) line \(line): \(message)")
    }

    // MARK: SubRip

    /// SubRip cues. - Throws: `EditError` with the line of a block that is neither a cue number nor a time range, a
    /// time that does not parse, or a cue that ends before it starts.
    static func subRip(_ lines: [String], name: String) throws -> [CaptionCue] {
        var cues: [CaptionCue] = []
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            if line.isEmpty { i += 1; continue }
            let blockStart = i + 1
            var timing = line
            var timingLine = i + 1
            if !line.contains("-->") {
                guard Int(line) != nil else {
                    throw error(name, i + 1, "expected a cue number or a time range such as \"00:00:01,000 --> 00:00:02,500\" (got \"\(excerpt(line))\")")
                }
                i += 1
                guard i < lines.count, lines[i].contains("-->") else {
                    throw error(name, i + 1, "expected the time range of cue \(line), such as \"00:00:01,000 --> 00:00:02,500\"" + (i < lines.count ? " (got \"\(excerpt(lines[i]))\")" : " (the file ends)"))
                }
                timing = lines[i]
                timingLine = i + 1
            }
            let (start, end) = try range(timing, line: timingLine, name: name, parse: subRipTime)
            i += 1
            var text: [String] = []
            while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty { text.append(lines[i]); i += 1 }
            var cue = CaptionCue(index: cues.count + 1, start: start, end: end, text: "", line: blockStart)
            (cue.text, cue.italic, cue.bold) = markupRemoved(text.joined(separator: "\n"), entities: false)
            if !cue.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { cues.append(cue) }
        }
        return cues
    }

    /// `HH:MM:SS,mmm` (hours of any width; `.` for `,`; fewer millisecond digits as a decimal fraction).
    static func subRipTime(_ s: String) -> MediaTime? {
        let t = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), h >= 0, (0..<60).contains(m) else { return nil }
        guard let sec = seconds(String(parts[2])) else { return nil }
        return MediaTime(value: Int64(h) * 3_600_000 + Int64(m) * 60_000, timescale: 1000) + sec
    }

    /// `SS.fff` → a time (exact: milliseconds, or the digits given as a fraction).
    static func seconds(_ s: String) -> MediaTime? {
        let p = s.split(separator: ".", omittingEmptySubsequences: false)
        guard p.count <= 2, let whole = Int(p[0]), p[0].count <= 2, (0..<60).contains(whole), p[0].allSatisfy(\.isNumber) else { return nil }
        var t = MediaTime(value: Int64(whole), timescale: 1)
        if p.count == 2 {
            let digits = p[1]
            guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy(\.isNumber), let f = Int64(digits) else { return nil }
            var scale: Int64 = 1
            for _ in 0..<digits.count { scale *= 10 }
            t = t + MediaTime(value: f, timescale: scale)
        }
        return t
    }

    /// `A --> B[ settings]`: the two times, checked (`B` after `A`).
    static func range(_ line: String, line n: Int, name: String, parse: (String) -> MediaTime?) throws -> (MediaTime, MediaTime) {
        let halves = line.components(separatedBy: "-->")
        guard halves.count == 2 else { throw error(name, n, "expected a time range such as \"00:00:01,000 --> 00:00:02,500\" (got \"\(excerpt(line))\")") }
        let a = halves[0].trimmingCharacters(in: .whitespaces)
        let b = halves[1].trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
        guard let start = parse(a) else { throw error(name, n, "the start time \"\(excerpt(a))\" does not parse") }
        guard let end = parse(b) else { throw error(name, n, "the end time \"\(excerpt(b))\" does not parse") }
        guard start < end else { throw error(name, n, "the cue ends (\(b)) before it starts (\(a)) or when it starts") }
        return (start, end)
    }

    // MARK: WebVTT

    /// WebVTT cues with their settings. - Throws: `EditError` with the line: no `WEBVTT` first line, a cue without a
    /// time range, a time that does not parse, a cue that ends before it starts.
    static func webVTT(_ lines: [String], name: String) throws -> [CaptionCue] {
        guard let first = lines.first, first.hasPrefix("WEBVTT"), first.count == 6 || [" ", "\t"].contains(first.dropFirst(6).first.map(String.init)) else {
            throw error(name, 1, "a WebVTT file starts with the line \"WEBVTT\" (got \"\(excerpt(lines.first ?? ""))\")")
        }
        var i = 1
        while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty { i += 1 }   // header
        var cues: [CaptionCue] = []
        while i < lines.count {
            if lines[i].trimmingCharacters(in: .whitespaces).isEmpty { i += 1; continue }
            let blockStart = i
            var block: [String] = []
            while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty { block.append(lines[i]); i += 1 }
            let head = block[0]
            if head.hasPrefix("NOTE") || head == "STYLE" || head == "REGION" || head.hasPrefix("STYLE ") || head.hasPrefix("REGION ") { continue }
            var t = 0
            if !head.contains("-->") {
                guard block.count > 1, block[1].contains("-->") else {
                    throw error(name, blockStart + (block.count > 1 ? 2 : 1), "expected a cue's time range such as \"00:01.000 --> 00:04.000\" after its identifier \"\(excerpt(head))\"")
                }
                t = 1
            }
            let (start, end) = try range(block[t], line: blockStart + t + 1, name: name, parse: vttTime)
            var cue = CaptionCue(index: cues.count + 1, start: start, end: end, text: "", line: blockStart + 1)
            (cue.text, cue.italic, cue.bold) = markupRemoved(block[(t + 1)...].joined(separator: "\n"), entities: true)
            try settings(block[t], into: &cue, line: blockStart + t + 1, name: name)
            cue.words = try WordTimings.webVTT(block[(t + 1)...].joined(separator: "\n"), start: start, end: end, line: blockStart + t + 2, name: name)
            if !cue.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { cues.append(cue) }
        }
        return cues
    }

    /// `[hh:]mm:ss.ttt`.
    static func vttTime(_ s: String) -> MediaTime? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.last!.contains(".") else { return nil }
        var h = 0
        if parts.count == 3 { guard let v = Int(parts[0]), v >= 0 else { return nil }; h = v }
        guard let m = Int(parts[parts.count - 2]), (0..<60).contains(m), parts[parts.count - 2].count == 2 else { return nil }
        guard let sec = seconds(String(parts.last!)) else { return nil }
        return MediaTime(value: Int64(h) * 3600 + Int64(m) * 60, timescale: 1) + sec
    }

    /// The cue settings after the end time: `position:N%`, `line:N%` (or a line number: from the top for N ≥ 0, the
    /// default bottom line for negative N), `align:start|center|middle|end|left|right`; others (`size`, `vertical`,
    /// `region`) are ignored.
    static func settings(_ timing: String, into cue: inout CaptionCue, line n: Int, name: String) throws {
        guard let arrow = timing.range(of: "-->") else { return }
        let rest = timing[arrow.upperBound...].split(separator: " ", omittingEmptySubsequences: true).dropFirst()
        for setting in rest {
            let kv = setting.split(separator: ":", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            let value = kv[1].split(separator: ",").first.map(String.init) ?? ""
            func percent() throws -> Double {
                guard value.hasSuffix("%"), let v = Double(value.dropLast()), (0...100).contains(v) else {
                    throw error(name, n, "the cue setting \(kv[0]) takes a percentage 0%…100% (got \"\(kv[1])\")")
                }
                return v / 100
            }
            switch kv[0] {
            case "position": cue.x = try percent()
            case "line":
                if value.hasSuffix("%") { cue.y = try percent() } else if let k = Int(value) {
                    // A line number: lines of captions' default size (1/18 of the height) with the default leading.
                    if k >= 0 { cue.y = min(1, Double(k) / 18 * 1.362) }
                } else {
                    throw error(name, n, "the cue setting line takes a percentage or a line number (got \"\(kv[1])\")")
                }
            case "align":
                switch value {
                case "start", "left": cue.align = .left
                case "center", "middle": cue.align = .center
                case "end", "right": cue.align = .right
                default: throw error(name, n, "the cue setting align takes start, center, end, left or right (got \"\(value)\")")
                }
            default: continue
            }
        }
    }

    // MARK: Markup

    /// The cue's text without markup: `<…>` tags (SubRip's `<i>`, `<b>`, `<u>`, `<font>`; WebVTT's `<c.class>`,
    /// `<v Name>`, `<lang>`, timestamps) and `{\…}` override blocks (SubRip files written for ASS players);
    /// WebVTT's character references decoded. Whether all of its text is inside `<i>` or `<b>`.
    static func markupRemoved(_ s: String, entities: Bool) -> (text: String, italic: Bool, bold: Bool) {
        var out = ""
        var italic = true, bold = true
        var depthI = 0, depthB = 0
        var i = s.startIndex
        while i < s.endIndex {
            let c = s[i]
            if c == "<", let close = s[i...].firstIndex(of: ">") {
                let tag = s[s.index(after: i)..<close].lowercased()
                if tag == "i" { depthI += 1 } else if tag == "/i" { depthI -= 1 }
                if tag == "b" { depthB += 1 } else if tag == "/b" { depthB -= 1 }
                i = s.index(after: close)
                continue
            }
            if c == "{", s[i...].dropFirst().first == "\\", let close = s[i...].firstIndex(of: "}") {
                i = s.index(after: close)
                continue
            }
            if !c.isWhitespace { if depthI <= 0 { italic = false }; if depthB <= 0 { bold = false } }
            out.append(c)
            i = s.index(after: i)
        }
        if entities {
            for (e, v) in [("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{00A0}"), ("&lrm;", "\u{200E}"), ("&rlm;", "\u{200F}"), ("&amp;", "&")] {
                out = out.replacingOccurrences(of: e, with: v)
            }
        }
        let anyText = out.contains { !$0.isWhitespace }
        return (out, italic && anyText, bold && anyText)
    }

    static func excerpt(_ s: String) -> String { s.count > 60 ? String(s.prefix(59)) + "…" : s }
}
