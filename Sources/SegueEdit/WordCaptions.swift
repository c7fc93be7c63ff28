import Foundation
import SegueCore

/// One timed word of a caption file (a WebVTT segment between inline timestamps, an ASS `\k` syllable, a JSON
/// transcript's word): the text it shows and when it is spoken, exact. Active on the output frames whose time `t`
/// (frame n: n / rate) satisfies `start ≤ t < end`.
public struct TimedWord: Equatable, Sendable {
    /// The word as drawn, white space around it removed (it may hold several words: a WebVTT segment).
    public var text: String
    public var start: MediaTime, end: MediaTime
    /// Written against the word before it, without a space (ASS syllables, WebVTT segments inside a word).
    public var glued = false
    public init(_ text: String, start: MediaTime, end: MediaTime) { self.text = text; self.start = start; self.end = end }
}

/// Part of a text drawn differently from the rest (`TextSpec.marks`): the UTF-8 byte range `range` of `TextSpec.text`.
/// The glyphs whose cluster starts in the range take its colour, are left out (`hidden`: they keep their place), or
/// are drawn `scale` times larger about the centre of their ink; `box`: a plate behind the range's glyphs.
public struct TextMark: Equatable, Sendable {
    public var range: Range<Int>
    public var colour: TextColour?
    public var hidden = false
    public var scale = 1.0
    public var box: TextColour?
    public init(range: Range<Int>, colour: TextColour? = nil, hidden: Bool = false, scale: Double = 1, box: TextColour? = nil) {
        self.range = range; self.colour = colour; self.hidden = hidden; self.scale = scale; self.box = box
    }
}

/// Word-by-word captions (`captionStyle`, docs/text.md): the caption file's timed words drawn a page of at most
/// `maxWords` words (and `maxLines` lines) at a time, the spoken word marked.
public struct WordCaptionStyle: Equatable, Sendable {
    /// How the spoken word is marked: `highlight` (it alone in `activeColour`), `karaoke` (every word up to it),
    /// `pop` (it in `activeColour`, `popScale` times larger for its first `popTime`), `reveal` (words appear as they
    /// are spoken; the spoken one in `activeColour`).
    public enum Mode: String, CaseIterable, Sendable { case highlight, karaoke, pop, reveal }
    public var mode = Mode.highlight
    /// Words on one caption page, 1…50.
    public var maxWords = 6
    /// Lines of one caption page, 1…10: a page that wraps to more is split in two (at its middle word) until it fits.
    public var maxLines = 2
    /// The spoken word's colour (default #ffd400, a warm yellow).
    public var activeColour = TextColour(RGBColour(r: 255, g: 212, b: 0))
    /// A plate behind the spoken word; nil: none.
    public var activeBox: TextColour?
    /// `pop`: how much larger the spoken word is drawn (1…3; default 1.25), and for how long from its start.
    public var popScale = 1.25
    public static let popTime = MediaTime(value: 1, timescale: 5)
    /// Keep the captions inside the 9:16 platforms' safe area (`WordCaptionStyle.safeArea`) when the output is
    /// portrait: true, false, or nil (default: when the render is taller than wide).
    public var safeArea: Bool?
    public init() {}

    /// The Reels safe area (Meta's: keep text out of the top 14 %, the bottom 35 % and 6 % at each side), which
    /// also clears TikTok's and YouTube Shorts' controls: captions' bottom edge at 65 % of the height, lines at most
    /// 88 % of the width.
    public static let safeBottom = 0.65, safeSide = 0.06
}

extension Timeline {
    /// One caption picture's time and text (a cue, or a page of words in one state).
    struct CaptionPiece {
        let cue: CaptionCue
        let start: MediaTime, end: MediaTime
        let text: TextSpec
    }

    /// The pieces of word-by-word captions: each cue's words in pages (`maxWords`, then halved until a page takes at
    /// most `maxLines` lines), a page from its first word's start to its last word's end, cut at every word's start
    /// and end (and, for `pop`, `popTime` after a start) into pieces, each one picture with the words marked as at
    /// that time. A cue without timed words is one piece, its words as in `highlight` before any is spoken.
    /// - Throws: `EditError` from `TextServices.layout`.
    static func wordPieces(_ file: CaptionFile, _ words: WordCaptionStyle, style: TextStyle, services: TextServices, renderSize: PixelSize,
                           field: (CaptionCue) -> String) throws -> [CaptionPiece] {
        var pieces: [CaptionPiece] = []
        for cue in file.cues {
            let list = cue.words.isEmpty ? [TimedWord(file.format == .ass ? assPlain(cue.text) : cue.text, start: cue.start, end: cue.end)] : cue.words
            var pending = stride(from: 0, to: list.count, by: words.maxWords).map { Array(list[$0..<min($0 + words.maxWords, list.count)]) }
            while !pending.isEmpty {
                let page = pending.removeFirst()
                let (text, ranges) = joined(page)
                let base = TextSpec(text: text, style: style, role: .caption(anchorTop: cue.y != nil))
                if page.count > 1, try services.layout(base, renderSize: renderSize, scale: 1, field: field(cue)).lineCount > words.maxLines {
                    pending.insert(contentsOf: [Array(page[..<(page.count / 2)]), Array(page[(page.count / 2)...])], at: 0)
                    continue
                }
                var cuts = page.flatMap { [$0.start, $0.end] }
                if words.mode == .pop { cuts += page.map { $0.start + WordCaptionStyle.popTime } }
                let first = page[0].start, last = page.map(\.end).max()!
                cuts = cuts.filter { first <= $0 && $0 <= last }.sorted()
                for (a, b) in zip(cuts, cuts.dropFirst()) where a < b {
                    var spec = base
                    spec.marks = cue.words.isEmpty ? [] : marks(page, ranges: ranges, at: a, words)
                    pieces.append(CaptionPiece(cue: cue, start: a, end: b, text: spec))
                }
            }
        }
        return pieces
    }

    /// An ASS event's text without its override blocks (`{\\…}`), `\\N` a line break, `\\n` and `\\h` spaces.
    static func assPlain(_ s: String) -> String {
        s.replacingOccurrences(of: "\\{[^}]*\\}", with: "", options: .regularExpression).replacingOccurrences(of: "\\N", with: "\n")
            .replacingOccurrences(of: "\\n", with: " ").replacingOccurrences(of: "\\h", with: "\u{00A0}")
    }

    /// The words of a page joined into one text, a space between two words unless the second is `glued` or both sides
    /// are CJK (Han, kana, bopomofo: scripts written without spaces), and each word's UTF-8 byte range in it.
    static func joined(_ words: [TimedWord]) -> (String, [Range<Int>]) {
        var text = "", ranges: [Range<Int>] = []
        func cjk(_ s: Unicode.Scalar?) -> Bool {
            guard let v = s?.value else { return false }
            return (0x2E80...0x9FFF).contains(v) || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFFEF).contains(v) || (0x20000...0x3FFFF).contains(v)
        }
        for word in words {
            let w = word.text
            if !text.isEmpty, !word.glued, !(cjk(text.unicodeScalars.last) && cjk(w.unicodeScalars.first)) { text += " " }
            let a = text.utf8.count
            text += w
            ranges.append(a..<text.utf8.count)
        }
        return (text, ranges)
    }

    /// The marks of a page at time `t`: the spoken word (start ≤ t < end) in `activeColour` (with `activeBox`; for
    /// `pop` scaled until `popTime` after its start), every word before it as well for `karaoke`, words not yet
    /// started hidden for `reveal`.
    static func marks(_ page: [TimedWord], ranges: [Range<Int>], at t: MediaTime, _ s: WordCaptionStyle) -> [TextMark] {
        var out: [TextMark] = []
        for (w, r) in zip(page, ranges) {
            let active = w.start <= t && t < w.end
            if active {
                let popping = s.mode == .pop && t < w.start + WordCaptionStyle.popTime
                out.append(TextMark(range: r, colour: s.activeColour, scale: popping ? s.popScale : 1, box: s.activeBox))
            } else if s.mode == .karaoke && w.end <= t {
                out.append(TextMark(range: r, colour: s.activeColour))
            } else if s.mode == .reveal && t < w.start {
                out.append(TextMark(range: r, hidden: true))
            }
        }
        return out
    }
}
