import Foundation
import SegueCore

/// The edit file's text items (`{"text": …, "style": …}`) and `captions` (docs/text.md).
extension EditFile {
    /// The words and style of a text item (its `text` and `style` fields).
    static func textItem(_ o: EditFields, base: String) throws -> TextSpec {
        var spec = TextSpec(text: o.string("text") ?? "")
        if let st = o.object("style") { spec.style = style(st, base: base, defaults: TextStyle()) }
        return spec
    }

    /// The edit's `captions`: `{"path": "subs.srt", "style": {...}}` or just the path as a string.
    /// `captionStyle` (word-by-word captions) beside `captions` or inside its object (which wins).
    static func captions(_ e: EditFields, base: String) throws -> CaptionSpec? {
        var spec: CaptionSpec
        if let p = e.string("captions") { spec = CaptionSpec(path: resolved(p, base: base)) } else {
            guard let c = e.object("captions") else { return nil }
            spec = CaptionSpec(path: resolved(c.string("path") ?? "", base: base))
            if let st = c.object("style") { spec.style = style(st, base: base, defaults: .caption) }
            spec.words = c.object("captionStyle").map(wordStyle)
        }
        if spec.words == nil { spec.words = e.object("captionStyle").map(wordStyle) }
        return spec
    }

    /// A `captionStyle` object (`EditSchema.captionStyle`) over `WordCaptionStyle()`.
    static func wordStyle(_ o: EditFields) -> WordCaptionStyle {
        var w = WordCaptionStyle()
        if let m = o.string("words").flatMap(WordCaptionStyle.Mode.init(rawValue:)) { w.mode = m }
        if let n = o.int("maxWords") { w.maxWords = n }
        if let n = o.int("maxLines") { w.maxLines = n }
        if let c = o.string("activeColour").flatMap(TextColour.parse) { w.activeColour = c }
        w.activeBox = o.string("activeBox").flatMap(TextColour.parse)
        if let n = o.number("popScale") { w.popScale = n }
        w.safeArea = o.bool("safeArea")
        return w
    }

    /// File name endings that make `style.font` a font file rather than a family name.
    static let fontFileExtensions = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa"]

    /// A `style` object (`EditSchema.style`): `font`, `size`, `color`, `weight`, `italic`, `align`, `maxWidth`,
    /// `lineHeight`, `outline` (`{"width", "color"}`), `shadow` (`{"x", "y", "blur", "color"}`), `box`
    /// (`{"color", "padding", "radius"}`), each optional, over `defaults`. `outline`, `shadow` or `box` null (or false)
    /// removes it; `maxWidth` or `lineHeight` null removes the default.
    static func style(_ o: EditFields, base: String, defaults: TextStyle) -> TextStyle {
        var s = defaults
        if let v = o.string("font") {
            let name = v.trimmingCharacters(in: .whitespaces)
            let ext = (name as NSString).pathExtension.lowercased()
            s.font = name.contains("/") || fontFileExtensions.contains(ext) ? .file(resolved(name, base: base)) : .family(name)
        }
        if let n = o.number("size") { s.size = n }
        if let c = o.string("color").flatMap(TextColour.parse) { s.colour = c }
        if let n = o.int("weight") { s.weight = n }
        if let name = o.string("weight"), let w = EditSchema.weightNames[name.lowercased()] { s.weight = w }
        if let v = o.bool("italic") { s.italic = v }
        if let a = o.string("align")?.lowercased(), let align = TextAlign(rawValue: a == "centre" ? "center" : a) { s.align = align }
        if o.isNull("maxWidth") { s.maxWidth = nil }
        if let n = o.number("maxWidth") { s.maxWidth = n }
        if o.isNull("lineHeight") { s.lineHeight = nil }
        if let n = o.number("lineHeight") { s.lineHeight = n }
        // outline, shadow, box: null or false removes it, true gives it (its defaults), an object sets it.
        func removed(_ name: String) -> Bool { o.isNull(name) || o.bool(name) == false }
        if removed("outline") { s.outline = nil } else if o.bool("outline") == true { s.outline = TextOutline() } else if let oo = o.object("outline") {
            var out = s.outline ?? TextOutline()
            if let w = oo.number("width") { out.width = w }
            if let c = oo.string("color").flatMap(TextColour.parse) { out.colour = c }
            s.outline = out
        }
        if removed("shadow") { s.shadow = nil } else if o.bool("shadow") == true { s.shadow = s.shadow ?? TextShadow() } else if let so = o.object("shadow") {
            var sh = s.shadow ?? TextShadow()
            if let x = so.number("x") { sh.x = x }
            if let y = so.number("y") { sh.y = y }
            if let b = so.number("blur") { sh.blur = b }
            if let c = so.string("color").flatMap(TextColour.parse) { sh.colour = c }
            s.shadow = sh
        }
        if removed("box") { s.box = nil } else if o.bool("box") == true { s.box = s.box ?? TextBox() } else if let bo = o.object("box") {
            var box = s.box ?? TextBox()
            if let c = bo.string("color").flatMap(TextColour.parse) { box.colour = c }
            if let p = bo.number("padding") { box.padding = p }
            if let r = bo.number("radius") { box.radius = r }
            s.box = box
        }
        return s
    }
}
