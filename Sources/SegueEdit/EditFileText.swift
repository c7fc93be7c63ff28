import Foundation
import SegueCore

/// The edit file's text items (`{"text": …, "style": …}`) and `captions` (docs/text.md).
extension EditFile {
    /// The words and style of a text item (its `text` and `style` fields).
    static func textItem(_ o: [String: Any], _ f: String, base: String) throws -> TextSpec {
        let words = try string(o["text"]!, "\(f).text")
        if words.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw EditError("\(f).text", "must hold some words (got \"\(words)\")") }
        if words.unicodeScalars.count > 10_000 { throw EditError("\(f).text", "is too long: at most 10000 characters (got \(words.unicodeScalars.count))") }
        var spec = TextSpec(text: words)
        if let st = o["style"], !(st is NSNull) { spec.style = try style(st, "\(f).style", base: base, defaults: TextStyle()) }
        return spec
    }

    /// `"captions": {"path": "subs.srt", "style": {...}}` (or just the path as a string).
    static func captions(_ raw: Any, base: String) throws -> CaptionSpec {
        if let p = raw as? String {
            if p.isEmpty { throw EditError("captions", "must name a caption file (.srt, .vtt, .ass, .ssa)") }
            return CaptionSpec(path: resolved(p, base: base))
        }
        let o = try object(raw, "captions")
        try checkKeys(o, "captions", ["path", "style"])
        guard let p = o["path"] else { throw EditError("captions.path", "is required: the caption file (.srt, .vtt, .ass, .ssa)") }
        let path = try string(p, "captions.path")
        if path.isEmpty { throw EditError("captions.path", "must not be empty") }
        var spec = CaptionSpec(path: resolved(path, base: base))
        if let st = o["style"], !(st is NSNull) { spec.style = try style(st, "captions.style", base: base, defaults: .caption) }
        return spec
    }

    /// File name endings that make `style.font` a font file rather than a family name.
    static let fontFileExtensions = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa"]

    /// A `style` object: `font`, `size`, `color`, `weight`, `italic`, `align`, `maxWidth`, `lineHeight`, `outline`
    /// (`{"width", "color"}`), `shadow` (`{"x", "y", "blur", "color"}`), `box` (`{"color", "padding", "radius"}`),
    /// each optional, over `defaults`. `outline`, `shadow` or `box` null (or false) removes it.
    static func style(_ raw: Any, _ f: String, base: String, defaults: TextStyle) throws -> TextStyle {
        let o = try object(raw, f)
        try checkKeys(o, f, ["font", "size", "color", "weight", "italic", "align", "maxWidth", "lineHeight", "outline", "shadow", "box"])
        var s = defaults
        if let v = o["font"] {
            let name = try string(v, "\(f).font").trimmingCharacters(in: .whitespaces)
            if name.isEmpty { throw EditError("\(f).font", "must name a font family (\"Noto Sans\") or a font file") }
            let ext = (name as NSString).pathExtension.lowercased()
            s.font = name.contains("/") || fontFileExtensions.contains(ext) ? .file(resolved(name, base: base)) : .family(name)
        }
        if let v = o["size"] {
            let n = try number(v, "\(f).size")
            guard n >= 1 && n <= 4096 else { throw EditError("\(f).size", "is the font size in pixels of the render frame: must be 1…4096 (got \(n))") }
            s.size = n
        }
        if let v = o["color"] { s.colour = try colour(v, "\(f).color") }
        if let v = o["weight"] {
            if let name = v as? String {
                switch name.lowercased() {
                case "thin": s.weight = 100
                case "light": s.weight = 300
                case "normal", "regular": s.weight = 400
                case "medium": s.weight = 500
                case "semibold": s.weight = 600
                case "bold": s.weight = 700
                case "black", "heavy": s.weight = 900
                default: throw EditError("\(f).weight", "must be 100…900 or thin, light, normal, medium, semibold, bold, black (got \"\(name)\")")
                }
            } else {
                let n = try int(v, "\(f).weight")
                guard (1...1000).contains(n) else { throw EditError("\(f).weight", "must be 100…900 (400 normal, 700 bold) (got \(n))") }
                s.weight = n
            }
        }
        if let v = o["italic"] { s.italic = try bool(v, "\(f).italic") }
        if let v = o["align"] {
            let a = try string(v, "\(f).align")
            guard let al = TextAlign(rawValue: a.lowercased() == "centre" ? "center" : a.lowercased()) else {
                throw EditError("\(f).align", "must be left, center or right (got \"\(a)\")")
            }
            s.align = al
        }
        if o["maxWidth"] is NSNull { s.maxWidth = nil }
        if let v = o["maxWidth"], !(v is NSNull) {
            let n = try number(v, "\(f).maxWidth")
            guard n > 0 && n <= 1 else { throw EditError("\(f).maxWidth", "is a fraction of the render width: must be > 0 and ≤ 1 (got \(n))") }
            s.maxWidth = n
        }
        if o["lineHeight"] is NSNull { s.lineHeight = nil }
        if let v = o["lineHeight"], !(v is NSNull) {
            let n = try number(v, "\(f).lineHeight")
            guard n >= 0.5 && n <= 5 else { throw EditError("\(f).lineHeight", "is a multiple of the font size: must be 0.5…5 (got \(n))") }
            s.lineHeight = n
        }
        func removed(_ v: Any) -> Bool { v is NSNull || (isBool(v) && (v as? NSNumber)?.boolValue == false) }
        if let v = o["outline"] {
            if removed(v) { s.outline = nil } else {
                let of = "\(f).outline"
                var out = isBool(v) ? TextOutline() : (s.outline ?? TextOutline())
                if !isBool(v) {
                    let oo = try object(v, of)
                    try checkKeys(oo, of, ["width", "color"])
                    if let w = oo["width"] { out.width = try length(w, "\(of).width", upTo: 512) }
                    if let c = oo["color"] { out.colour = try colour(c, "\(of).color") }
                }
                s.outline = out
            }
        }
        if let v = o["shadow"] {
            if removed(v) { s.shadow = nil } else {
                let sf = "\(f).shadow"
                var sh = s.shadow ?? TextShadow()
                if !isBool(v) {
                    let so = try object(v, sf)
                    try checkKeys(so, sf, ["x", "y", "blur", "color"])
                    for (key, path) in [("x", \TextShadow.x), ("y", \TextShadow.y)] {
                        if let n = so[key] {
                            let d = try number(n, "\(sf).\(key)")
                            guard abs(d) <= 512 else { throw EditError("\(sf).\(key)", "is an offset in pixels: must be −512…512 (got \(d))") }
                            sh[keyPath: path] = d
                        }
                    }
                    if let b = so["blur"] { sh.blur = try length(b, "\(sf).blur", upTo: 256) }
                    if let c = so["color"] { sh.colour = try colour(c, "\(sf).color") }
                }
                s.shadow = sh
            }
        }
        if let v = o["box"] {
            if removed(v) { s.box = nil } else {
                let bf = "\(f).box"
                var box = s.box ?? TextBox()
                if !isBool(v) {
                    let bo = try object(v, bf)
                    try checkKeys(bo, bf, ["color", "padding", "radius"])
                    if let c = bo["color"] { box.colour = try colour(c, "\(bf).color") }
                    if let p = bo["padding"] { box.padding = try length(p, "\(bf).padding", upTo: 1024) }
                    if let r = bo["radius"] { box.radius = try length(r, "\(bf).radius", upTo: 1024) }
                }
                s.box = box
            }
        }
        return s
    }

    /// A length in pixels of the render frame, 0…`upTo`.
    static func length(_ v: Any, _ field: String, upTo limit: Double) throws -> Double {
        let n = try number(v, field)
        guard n >= 0 && n <= limit else { throw EditError(field, "is in pixels of the render frame: must be 0…\(Int(limit)) (got \(n))") }
        return n
    }

    /// A text colour: `"#rrggbb"`, `"#rrggbbaa"`, `"#rgb"`, `"#rgba"` or a name.
    static func colour(_ v: Any, _ field: String) throws -> TextColour {
        let s = try string(v, field)
        guard let c = TextColour.parse(s) else {
            throw EditError(field, "must be a colour as \"#rrggbb\", \"#rrggbbaa\" (with alpha), \"#rgb\" or a name (\(RGBColour.names.keys.sorted().joined(separator: ", "))) (got \"\(s)\")")
        }
        return c
    }
}
