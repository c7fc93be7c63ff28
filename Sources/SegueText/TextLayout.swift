import Foundation
import SegueCore
import SegueEdit

/// One glyph placed in a text picture.
public struct PlacedGlyph: Sendable, Equatable {
    /// Index into `TextLayout.fonts`.
    public let font: Int
    /// The glyph's index in its font.
    public let glyph: UInt32
    /// Its origin on the baseline, in picture pixels (top-left origin, y down).
    public let x: Double, y: Double
    /// The UTF-8 byte offset in the text of its cluster's first character.
    public var cluster = 0
    /// The index in `TextLayout.marks` of the mark it is drawn in; nil: in the style.
    public var mark: Int?
    /// Drawn this many times `TextLayout.pixelSize` (a `pop` word).
    public var scale = 1.0
}

/// A text shaped for one render size: every glyph placed in the picture, the fonts they come from and what the picture
/// draws around them (outline, shadow, box). Made by `TextEngine` when the edit is resolved (the planner keeps it in
/// the text item's placement, `Timeline.Placement.text`); rasterised once by `TextRasterizer`.
///
/// Pixel sizes here are picture pixels: pixels of the render frame × `rasterScale`.
public struct TextLayout: TextBlock, Equatable {
    public let pictureSize: PixelSize
    public let rasterScale: Double
    public let anchorX: Double, anchorY: Double
    /// Every font the glyphs come from, the primary first (fallback fonts in order of first use).
    public let fonts: [FontReference]
    public let glyphs: [PlacedGlyph]
    /// The font size in picture pixels (`style.size` or the default, × `rasterScale`).
    public let pixelSize: Double
    /// How many lines the text takes (its own line breaks and wrapping at `maxWidth`).
    public let lineCount: Int
    /// The calls to libraqm that shaped it (`raqm_layout`): one per paragraph, plus one per line of a wrapped paragraph.
    public let shapingCalls: Int
    public let style: TextStyle
    /// The outline's width in picture pixels (0 without one).
    public let outlineWidth: Double
    /// The shadow's offset and blur (standard deviation) in picture pixels.
    public let shadowOffset: (x: Double, y: Double)
    public let shadowBlur: Double
    /// The box plate in picture pixels (x0, y0, x1, y1) and its corner radius; nil without a box.
    public let box: (x0: Double, y0: Double, x1: Double, y1: Double)?
    public let boxRadius: Double
    public let warnings: [String]
    /// The text's marks (`TextSpec.marks`), which `PlacedGlyph.mark` indexes; a mark's glyphs take its colour.
    public let marks: [TextMark]
    /// The plates behind marks (`TextMark.box`), picture pixels, with their colour.
    public let markBoxes: [(x0: Double, y0: Double, x1: Double, y1: Double, colour: TextColour)]

    public var summary: String {
        let names = fonts.map(\.family).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let size = pixelSize / rasterScale
        return style.summary(size: size).replacingOccurrences(of: "\(style.font) ", with: names.joined(separator: " + ") + " ", options: .anchored)
            + ", \(lineCount) line\(lineCount == 1 ? "" : "s")" + (rasterScale == 1 ? "" : String(format: ", rasterised at ×%g", rasterScale))
    }

    public static func == (a: TextLayout, b: TextLayout) -> Bool {
        a.pictureSize == b.pictureSize && a.rasterScale == b.rasterScale && a.anchorX == b.anchorX && a.anchorY == b.anchorY
            && a.fonts == b.fonts && a.glyphs == b.glyphs && a.pixelSize == b.pixelSize && a.style == b.style && a.marks == b.marks
    }

    init(pictureSize: PixelSize, rasterScale: Double, anchorX: Double, anchorY: Double, fonts: [FontReference], glyphs: [PlacedGlyph],
         pixelSize: Double, lineCount: Int, shapingCalls: Int, style: TextStyle, outlineWidth: Double, shadowOffset: (x: Double, y: Double),
         shadowBlur: Double, box: (x0: Double, y0: Double, x1: Double, y1: Double)?, boxRadius: Double, warnings: [String],
         marks: [TextMark] = [], markBoxes: [(x0: Double, y0: Double, x1: Double, y1: Double, colour: TextColour)] = []) {
        self.pictureSize = pictureSize; self.rasterScale = rasterScale; self.anchorX = anchorX; self.anchorY = anchorY
        self.fonts = fonts; self.glyphs = glyphs; self.pixelSize = pixelSize; self.lineCount = lineCount; self.shapingCalls = shapingCalls
        self.style = style; self.outlineWidth = outlineWidth; self.shadowOffset = shadowOffset; self.shadowBlur = shadowBlur
        self.box = box; self.boxRadius = boxRadius; self.warnings = warnings; self.marks = marks; self.markBoxes = markBoxes
    }
}
