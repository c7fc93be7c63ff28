import Foundation
import SegueCore
import SegueEdit

/// Word timings of caption files (`CaptionCue.words`, word-by-word captions; docs/text.md): WebVTT inline timestamps,
/// ASS karaoke tags and JSON transcripts, each into the one model, `TimedWord` (exact times).
enum WordTimings {
    // MARK: WebVTT

    /// A WebVTT cue's timed segments: the text before its first inline timestamp (`<00:00:01.250>`, `<01.250>`…
    /// `[hh:]mm:ss.ttt`) from the cue's start, each later segment from its timestamp, each to the next timestamp or
    /// the cue's end; markup removed, segments without text left out. Empty when the cue has no timestamp.
    /// - Throws: `EditError` (with the cue's `line`) for a timestamp before the cue's start, after its end, or before
    ///   the timestamp before it.
    static func webVTT(_ raw: String, start: MediaTime, end: MediaTime, line: Int, name: String) throws -> [TimedWord] {
        var segments: [(text: String, start: MediaTime)] = [("", start)]
        var i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == "<", let close = raw[i...].firstIndex(of: ">"), let t = CaptionFiles.vttTime(String(raw[raw.index(after: i)..<close])) {
                guard start <= t, t <= end, segments.last!.start <= t else {
                    throw CaptionFiles.error(name, line, "the inline timestamp <\(raw[raw.index(after: i)..<close])> lies outside the cue's time or before the timestamp before it")
                }
                segments.append(("", t))
                i = raw.index(after: close)
                continue
            }
            segments[segments.count - 1].text.append(raw[i])
            i = raw.index(after: i)
        }
        guard segments.count > 1 else { return [] }
        return words(segments.indices.map { k in
            (CaptionFiles.markupRemoved(segments[k].text, entities: true).text, segments[k].start, k + 1 < segments.count ? segments[k + 1].start : end)
        })
    }

    /// Timed pieces of text as words: each trimmed (empty ones left out), `glued` when written against the one before.
    static func words(_ pieces: [(text: String, start: MediaTime, end: MediaTime)]) -> [TimedWord] {
        var out: [TimedWord] = []
        var spaceBefore = true
        for p in pieces {
            let text = p.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty {
                var w = TimedWord(text, start: p.start, end: p.end)
                w.glued = !out.isEmpty && !spaceBefore && !(p.text.first?.isWhitespace ?? true)
                out.append(w)
                spaceBefore = p.text.last?.isWhitespace ?? false
            } else if !p.text.isEmpty {
                spaceBefore = true
            }
        }
        return out
    }

    // MARK: ASS

    /// An ASS event's karaoke syllables: each `\k`, `\K`, `\kf` or `\ko` tag (centiseconds) starts a syllable where the
    /// one before ends (the first at the event's start); the syllable is the text up to the next karaoke tag, override
    /// blocks removed, `\N` a space. Empty without karaoke tags.
    static func karaoke(_ raw: String, start: MediaTime) -> [TimedWord] {
        var pieces: [(text: String, start: MediaTime, end: MediaTime)] = []
        var t = start
        var i = raw.startIndex
        var text = ""
        while i < raw.endIndex {
            if raw[i] == "{", let close = raw[i...].firstIndex(of: "}") {
                let block = String(raw[raw.index(after: i)..<close])
                for tag in block.split(separator: "\\") {
                    let letters = tag.prefix { $0.isLetter }
                    guard ["k", "K", "kf", "ko"].contains(String(letters)), let cs = Int64(tag.dropFirst(letters.count).trimmingCharacters(in: .whitespaces)), cs >= 0 else { continue }
                    if !pieces.isEmpty { pieces[pieces.count - 1].text = text } else if !text.isEmpty { pieces.append((text, start, start)) }
                    text = ""
                    pieces.append(("", t, t + MediaTime(value: cs, timescale: 100)))
                    t = t + MediaTime(value: cs, timescale: 100)
                }
                i = raw.index(after: close)
                continue
            }
            text.append(raw[i])
            i = raw.index(after: i)
        }
        guard !pieces.isEmpty else { return [] }
        pieces[pieces.count - 1].text = text
        return words(pieces.map { ($0.text.replacingOccurrences(of: "\\N", with: " ").replacingOccurrences(of: "\\n", with: " ")
            .replacingOccurrences(of: "\\h", with: "\u{00A0}"), $0.start, $0.end) })
    }

    // MARK: JSON

    /// A JSON transcript's cues: Whisper's `{"segments": [{"start", "end", "text", "words": [{"word", "start",
    /// "end"}]}]}` (a cue per segment; a segment without `words` is a cue of its `text`), or a plain list
    /// `[{"word", "start", "end"}]` (one cue). Times are seconds, read to the microsecond; `line` is the segment's
    /// number (1-based).
    /// - Throws: `EditError` (field `captions.path`) naming the file and the position (`segments[2].words[0]`): not
    ///   JSON, a word without its text, `start` or `end`, a negative time, an end before its start, a word that
    ///   starts before the word before it.
    static func transcript(_ data: Data, name: String) throws -> [CaptionCue] {
        func fail(_ at: String, _ m: String) -> EditError { EditError("captions.path", "\(name)\(at.isEmpty ? "" : " " + at): \(m)") }
        guard let root = try? JSONSerialization.jsonObject(with: data) else { throw EditError("captions.path", "\(name): not JSON (a transcript is a JSON list of words or Whisper's {\"segments\": [...]})") }
        func time(_ o: [String: Any], _ key: String, _ at: String) throws -> MediaTime {
            guard let n = o[key] as? NSNumber, !EditFile.isBool(n) else { throw fail(at, "needs \"\(key)\", a time in seconds") }
            guard n.doubleValue >= 0, MediaTime.isRepresentable(seconds: n.doubleValue) else { throw fail(at, "\(key) \(n) is negative or too large") }
            return MediaTime(seconds: n.doubleValue)
        }
        func wordList(_ list: [Any], at: String, after: inout MediaTime?) throws -> [TimedWord] {
            try list.enumerated().map { k, item in
                let here = "\(at)[\(k)]"
                guard let o = item as? [String: Any] else { throw fail(here, "a word is an object {\"word\", \"start\", \"end\"}") }
                guard let text = (o["word"] ?? o["text"]) as? String else { throw fail(here, "needs \"word\", its text") }
                let s = try time(o, "start", here), e = try time(o, "end", here)
                guard s <= e else { throw fail(here, "ends (\(e.seconds) s) before it starts (\(s.seconds) s)") }
                if let a = after, s < a { throw fail(here, "starts (\(s.seconds) s) before the word before it (\(a.seconds) s): words must be in time order") }
                after = s
                return TimedWord(text.trimmingCharacters(in: .whitespacesAndNewlines), start: s, end: e)
            }.filter { !$0.text.isEmpty }
        }
        func cue(_ words: [TimedWord], index: Int, text: String? = nil, start: MediaTime? = nil, end: MediaTime? = nil) -> CaptionCue? {
            guard let a = start ?? words.first?.start, let b = end ?? words.map(\.end).max(), a < b else { return nil }
            var c = CaptionCue(index: index, start: a, end: b, text: text ?? words.map(\.text).joined(separator: " "), line: index)
            c.words = words
            return c
        }
        var after: MediaTime?
        if let list = root as? [Any] {
            return cue(try wordList(list, at: "", after: &after), index: 1).map { [$0] } ?? []
        }
        guard let segments = (root as? [String: Any])?["segments"] as? [Any] else {
            throw fail("", "expected a list of words or Whisper's {\"segments\": [...]}")
        }
        var cues: [CaptionCue] = []
        for (k, item) in segments.enumerated() {
            let at = "segments[\(k)]"
            guard let s = item as? [String: Any] else { throw fail(at, "a segment is an object") }
            if let list = s["words"] as? [Any], !list.isEmpty {
                if let c = cue(try wordList(list, at: at + ".words", after: &after), index: k + 1) { cues.append(c) }
            } else {
                let a = try time(s, "start", at), b = try time(s, "end", at)
                guard a <= b else { throw fail(at, "ends before it starts") }
                let text = (s["text"] as? String ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty, let c = cue([], index: k + 1, text: text, start: a, end: b) { cues.append(c) }
            }
        }
        return cues
    }
}
