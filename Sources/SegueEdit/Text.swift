import Foundation
import SegueCore

/// An R′G′B′ colour with an alpha (0…1) for text: `"#rrggbb"`, `"#rrggbbaa"`, `"#rgb"`, `"#rgba"` or a name
/// (`RGBColour.names`).
public struct TextColour: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rgb: RGBColour
    /// 0 (transparent) … 1 (opaque).
    public var alpha: Double
    public init(_ rgb: RGBColour, alpha: Double = 1) { self.rgb = rgb; self.alpha = alpha }
    public static let white = TextColour(.white), black = TextColour(.black)

    /// Parses a colour, with its alpha in two more hexadecimal digits (`"#00000080"`: black at 50 %); nil otherwise.
    public static func parse(_ s: String) -> TextColour? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let c = RGBColour.parse(t) { return TextColour(c) }
        guard t.hasPrefix("#") else { return nil }
        let hex = Array(t.dropFirst())
        guard hex.allSatisfy(\.isHexDigit), hex.count == 4 || hex.count == 8 else { return nil }
        let digits = hex.count == 4 ? hex.flatMap { [$0, $0] } : hex
        func byte(_ i: Int) -> UInt8 { UInt8(String(digits[i..<(i + 2)]), radix: 16)! }
        return TextColour(RGBColour(r: byte(0), g: byte(2), b: byte(4)), alpha: Double(byte(6)) / 255)
    }

    /// `"#rrggbb"`, or `"#rrggbbaa"` when not opaque.
    public var description: String {
        alpha >= 1 ? rgb.description : rgb.description + String(format: "%02x", Int((alpha * 255).rounded()))
    }
}

/// How lines of text line up with each other and which edge of the text block the layer's `x` places.
public enum TextAlign: String, CaseIterable, Sendable {
    case left, center, right
    /// The point of the block across its width that the layer's `x` places: 0, 0.5, 1.
    public var anchor: Double {
        switch self { case .left: 0; case .center: 0.5; case .right: 1 }
    }
}

/// Where the font comes from.
public enum FontChoice: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A fontconfig family name ("Noto Sans", "DejaVu Serif", "sans-serif").
    case family(String)
    /// A font file, absolute path (an edit file names it relative to itself).
    case file(String)
    /// "Noto Sans" (`TextStyle.defaultFamily`).
    public static let standard = FontChoice.family(TextStyle.defaultFamily)
    public var description: String {
        switch self { case .family(let f): f; case .file(let p): p.split(separator: "/").last.map(String.init) ?? p }
    }
}

/// A stroke around every glyph (`style.outline`).
public struct TextOutline: Equatable, Sendable {
    /// Pixels of the render frame (at layer scale 1); nil: 6 % of the font size.
    public var width: Double?
    public var colour = TextColour.black
    public init(width: Double? = nil, colour: TextColour = .black) { self.width = width; self.colour = colour }
}

/// A shadow under the text (`style.shadow`): the glyphs (and their outline) offset by `x`, `y` and blurred.
public struct TextShadow: Equatable, Sendable {
    /// Offset in pixels of the render frame (right and down); default 0.05 × the font size each.
    public var x: Double?, y: Double?
    /// The Gaussian blur's standard deviation in pixels (0: a hard shadow); default 0.
    public var blur: Double = 0
    public var colour = TextColour(.black, alpha: 0.6)
    public init(x: Double? = nil, y: Double? = nil, blur: Double = 0, colour: TextColour = TextColour(.black, alpha: 0.6)) {
        self.x = x; self.y = y; self.blur = blur; self.colour = colour
    }
}

/// A plate behind the text (`style.box`): the text block grown by `padding`, corners rounded by `radius`.
public struct TextBox: Equatable, Sendable {
    public var colour = TextColour(.black, alpha: 0.6)
    /// Pixels of the render frame around the text block; nil: 0.25 × the font size.
    public var padding: Double?
    /// Corner radius in pixels of the render frame; default 0.
    public var radius: Double = 0
    public init(colour: TextColour = TextColour(.black, alpha: 0.6), padding: Double? = nil, radius: Double = 0) {
        self.colour = colour; self.padding = padding; self.radius = radius
    }
}

/// How a text item (or a caption cue) looks: the edit file's `style` (docs/text.md). Sizes are pixels of the render
/// frame, the text shown at layer scale 1.
public struct TextStyle: Equatable, Sendable {
    /// The family when the style names none.
    public static let defaultFamily = "Noto Sans"
    public var font: FontChoice = .standard
    /// Font size in pixels of the render frame (the em square); nil: 1/12 of the render height for titles, 1/18 for
    /// captions.
    public var size: Double?
    public var colour = TextColour.white
    /// CSS / OpenType weight: 100 (thin) … 400 (normal) … 700 (bold) … 900 (black).
    public var weight = 400
    public var italic = false
    public var align = TextAlign.center
    /// Longest line as a fraction of the render width (0…1]; longer text wraps where the Unicode line-breaking rules
    /// (UAX #14) allow. Nil: lines break only where the text has line breaks.
    public var maxWidth: Double?
    /// Distance between baselines as a multiple of the font size; nil: the font's own line spacing.
    public var lineHeight: Double?
    public var outline: TextOutline?
    public var shadow: TextShadow?
    public var box: TextBox?
    public init() {}

    /// Captions' defaults: white with a black outline (`TextOutline()`), at 1/18 of the render height, lines wrapped
    /// at 90 % of the render width.
    public static var caption: TextStyle {
        var s = TextStyle()
        s.outline = TextOutline()
        s.maxWidth = 0.9
        return s
    }

    /// "Noto Sans 40 px bold italic, outline, box" (what differs from the defaults, and the size).
    public func summary(size px: Double) -> String {
        var parts = ["\(font) \(String(format: "%g", (px * 10).rounded() / 10)) px"]
        if weight != 400 { parts[0] += weight == 700 ? " bold" : " weight \(weight)" }
        if italic { parts[0] += " italic" }
        if colour != .white { parts[0] += " \(colour)" }
        if align != .center { parts.append("align \(align.rawValue)") }
        if let m = maxWidth { parts.append(String(format: "max width %g", m)) }
        if outline != nil { parts.append("outline") }
        if shadow != nil { parts.append("shadow") }
        if box != nil { parts.append("box") }
        return parts.joined(separator: ", ")
    }
}

/// Whether text is a title (a text item) or a caption cue: decides the default size and which point of the text
/// block the layer's `y` places.
public enum TextRole: Sendable, Equatable {
    /// Default size 1/12 of the render height; the block's vertical centre sits at the layer's `y`.
    case title
    /// Default size 1/18 of the render height; the block's bottom edge sits at the layer's `y` (a cue placed by line
    /// from the top, WebVTT's `line`, its top edge: `anchorTop`).
    case caption(anchorTop: Bool)
}

/// A text item's content (`{"text": …, "style": …}`) or one caption cue's.
public struct TextSpec: Equatable, Sendable {
    /// The words, with `\n` for line breaks. Shaped as a whole (bidirectional text, fallback fonts).
    public var text: String
    public var style: TextStyle
    public var role: TextRole
    /// Parts of the text drawn differently (word-by-word captions: the spoken word); none for titles.
    public var marks: [TextMark] = []
    public init(text: String, style: TextStyle = TextStyle(), role: TextRole = .title) {
        self.text = text; self.style = style; self.role = role
    }

    /// The font size in pixels of the render frame: `style.size`, else 1/12 (titles) or 1/18 (captions) of the
    /// render height.
    public func fontSize(renderSize: PixelSize) -> Double {
        if let s = style.size { return s }
        switch role {
        case .title: return Double(renderSize.height) / 12
        case .caption: return Double(renderSize.height) / 18
        }
    }

    /// Which point of the text block, as a fraction of its height from the top, the layer's `y` places.
    public var verticalAnchor: Double {
        switch role {
        case .title: return 0.5
        case .caption(let top): return top ? 0 : 1
        }
    }
}

/// Captions over the whole edit (`"captions": {"path", "style"}`, `--captions FILE`).
public struct CaptionSpec: Equatable, Sendable {
    /// The caption file, absolute path: SubRip (`.srt`), WebVTT (`.vtt`), ASS/SSA (`.ass`, `.ssa`) or a JSON
    /// transcript of timed words (`.json`).
    public var path: String
    /// How SRT and WebVTT cues look (ASS files keep their own styles); starts from `TextStyle.caption`.
    public var style = TextStyle.caption
    /// Word-by-word captions (`captionStyle`): the file's word timings drawn a page at a time with the spoken word
    /// marked; nil: cues as written.
    public var words: WordCaptionStyle?
    public init(path: String) { self.path = path }
}

/// One cue of a caption file, as read.
public struct CaptionCue: Equatable, Sendable {
    /// 1-based, in file order.
    public var index: Int
    /// The cue shows on the output frames whose time lies in `[start, end)`.
    public var start: MediaTime, end: MediaTime
    /// The cue's text, markup removed (`\n` between lines).
    public var text: String
    /// The line of the file where the cue starts.
    public var line: Int
    /// WebVTT cue settings, when given: `position` (x of the anchor, 0…1), `line` (y of the block's top, 0…1),
    /// `align`.
    public var x: Double? = nil, y: Double? = nil
    public var align: TextAlign? = nil
    /// Italic or bold for the whole cue (SRT's `<i>`/`<b>` around all of it).
    public var italic = false, bold = false
    /// The cue's timed words (WebVTT inline timestamps, ASS `\k` tags, a JSON transcript), in order; empty when the
    /// cue has none.
    public var words: [TimedWord] = []
    public init(index: Int, start: MediaTime, end: MediaTime, text: String, line: Int) {
        self.index = index; self.start = start; self.end = end; self.text = text; self.line = line
    }
}

/// A caption file, read.
public struct CaptionFile: Sendable {
    public enum Format: String, Sendable { case srt, webvtt, ass, json }
    /// The file, absolute path.
    public var path: String
    public var format: Format
    /// Every cue (for ASS: every `Dialogue` event, its text with override tags as written).
    public var cues: [CaptionCue]
    public init(path: String, format: Format, cues: [CaptionCue]) { self.path = path; self.format = format; self.cues = cues }
}

/// A text shaped for one render size: what the planner needs of it (`TextServices.layout`). The text module's
/// layout (`SegueText.TextLayout`) carries the glyphs as well, which the pipeline rasterises once.
public protocol TextBlock: Sendable {
    /// The picture's size in pixels: rasterised at `rasterScale` times the size it has at layer scale 1.
    var pictureSize: PixelSize { get }
    /// How many picture pixels per output pixel at layer scale 1: the item's largest scale (keyframed scale: the max).
    var rasterScale: Double { get }
    /// The point of the picture (normalized, top-left origin) that the layer's `x`, `y` place: the text block's
    /// aligned edge (or centre) across, its centre (titles) or bottom (captions) down.
    var anchorX: Double { get }
    var anchorY: Double { get }
    /// "Noto Sans 40 px + Noto Sans Arabic + Noto Color Emoji, 2 lines": for `plan` and `--verbose`.
    var summary: String { get }
    /// A font asked for but not found, naming the family and the font used instead.
    var warnings: [String] { get }
    /// How many lines the text takes (its own line breaks and wrapping at `maxWidth`).
    var lineCount: Int { get }
}

extension TextBlock {
    public var lineCount: Int { 1 }
}

/// The text module's services to the planner (`SegueText.TextEngine`): shaping text items and caption cues, and
/// reading caption files. `Timeline.init(edit:sources:text:)` takes one when the edit has text or captions.
public protocol TextServices: AnyObject {
    /// Shapes `text` for a render of `renderSize`, rasterised at `scale` times its size at layer scale 1.
    /// - Throws: `EditError` naming `field` (a font file that cannot be read).
    func layout(_ text: TextSpec, renderSize: PixelSize, scale: Double, field: String) throws -> any TextBlock
    /// Reads a caption file. - Throws: `EditError` naming the file and the line that does not parse.
    func captions(_ spec: CaptionSpec) throws -> CaptionFile
}
