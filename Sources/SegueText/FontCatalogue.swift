import CTextShaping
import Foundation
import SegueCore
import SegueEdit

/// Owns one fontconfig configuration (`FcInitLoadConfigAndFonts` … `FcConfigDestroy`): the system's fonts as
/// fontconfig lists them (its cache makes this fast).
final class FontConfiguration {
    let handle: OpaquePointer
    init() throws {
        guard let c = FcInitLoadConfigAndFonts() else {
            throw TextError(function: "FcInitLoadConfigAndFonts", message: "fontconfig could not load its configuration and fonts")
        }
        handle = c
    }
    deinit { FcConfigDestroy(handle) }
}

/// Owns one `FcPattern` (`FcPatternCreate` … `FcPatternDestroy`).
final class FontPattern {
    let handle: OpaquePointer
    init() throws {
        guard let p = FcPatternCreate() else { throw TextError(function: "FcPatternCreate", message: "out of memory") }
        handle = p
    }
    deinit { FcPatternDestroy(handle) }
}

/// Owns one `FcFontSet` (from `FcFontSort` … `FcFontSetDestroy`).
final class FontSet {
    let handle: UnsafeMutablePointer<FcFontSet>
    init(_ handle: UnsafeMutablePointer<FcFontSet>) { self.handle = handle }
    deinit { FcFontSetDestroy(handle) }
    var count: Int { Int(handle.pointee.nfont) }
    func pattern(_ i: Int) -> OpaquePointer { handle.pointee.fonts[i]! }
}

/// The fonts for one style, in fontconfig's order of preference, and the choice among them for each character.
///
/// The primary font is fontconfig's best match for the style's family, weight and slant (`FcFontSort`'s first), or
/// the style's font file. Each grapheme cluster the primary font lacks takes a fallback font (per character, as
/// fontconfig's sorted list offers them): the first font in fontconfig's order that covers every scalar of the cluster,
/// preferring fonts of the primary's design family (a name that starts with its family's: "Noto Sans" → "Noto Sans
/// Arabic" before "DejaVu Sans", which fontconfig ranks first for Arabic here) and, for emoji, colour fonts. Clusters
/// other than letters are chosen by their run's script (`TextShaper.fontRuns`).
final class FontFallback {
    let primary: FontReference
    /// The family asked for was not found: the warning naming it and the font used instead.
    let warning: String?
    private let sorted: FontSet
    private let pattern: FontPattern
    private var byCluster: [String: FontReference] = [:]
    /// The primary's design family: "Noto Sans" for "Noto Sans", "Noto Sans" for "Noto Sans Display".
    private let designFamily: String

    /// - Throws: `EditError` naming `field` for a font file that cannot be read; `TextError` when fontconfig fails.
    init(config: FontConfiguration, faces: FaceCache, style: TextStyle, field: String) throws {
        pattern = try FontPattern()
        let family: String
        var file: String?
        switch style.font {
        case .family(let f): family = f
        case .file(let p): family = TextStyle.defaultFamily; file = p
        }
        segue_fc_add_string(pattern.handle, "family", family)
        FcPatternAddDouble(pattern.handle, "weight", FcWeightFromOpenTypeDouble(Double(style.weight)))
        FcPatternAddInteger(pattern.handle, "slant", style.italic ? 100 : 0)   // FC_SLANT_ITALIC, FC_SLANT_ROMAN
        FcConfigSubstitute(config.handle, pattern.handle, FcMatchPattern)
        FcDefaultSubstitute(pattern.handle)
        var result = FcResultNoMatch
        guard let set = FcFontSort(config.handle, pattern.handle, 0, nil, &result), set.pointee.nfont > 0 else {
            throw TextError(function: "FcFontSort", message: "fontconfig knows no fonts at all (install fonts-noto-core)")
        }
        sorted = FontSet(set)
        if let file {
            guard FileManager.default.isReadableFile(atPath: file) else { throw EditError("\(field).style.font", "font file not found: \(file)") }
            let ref = FontReference(path: file, index: 0, family: (file as NSString).lastPathComponent)
            do {
                let face = try faces.face(ref)
                let name = face.face.pointee.family_name.map { String(cString: $0) } ?? ref.family
                primary = FontReference(path: file, index: 0, family: name)
            } catch let e as TextError {
                throw EditError("\(field).style.font", "cannot read the font file \(file): \(e.message)")
            }
            warning = nil
        } else {
            primary = FontFallback.reference(sorted.pattern(0))
            let generic = ["sans-serif", "sans", "serif", "monospace", "mono", "emoji", "system-ui", "cursive", "fantasy", "math"]
            let names = FontFallback.families(sorted.pattern(0)).map { $0.lowercased() }
            // The default family falls back to the system's sans quietly: only a family the edit names warns.
            if !generic.contains(family.lowercased()) && !names.contains(family.lowercased()) && style.font != .standard {
                warning = "font \"\(family)\" not found: using \(primary.family) (\(primary.path)) instead"
            } else {
                warning = nil
            }
        }
        let words = primary.family.split(separator: " ")
        designFamily = words.count > 2 && ["Display", "UI", "Mono"].contains(String(words.last!)) ? words.dropLast().joined(separator: " ") : primary.family
    }

    /// The font for one grapheme cluster: the primary when it covers every scalar, else the fallback described above;
    /// the primary when no font covers it (its .notdef box shows).
    ///
    /// With `sample` (a cluster of the script of the run `cluster` sits in, for a cluster of no script of its own: a
    /// digit, a space, punctuation), a fallback must cover the sample too, so that the cluster takes a font of its
    /// run's script (Arabic-Indic digits in Arabic text: an Arabic font's, not the first font that has the digits, Noto
    /// Sans Hanifi Rohingya); when no font covers both, the cluster's own fallback.
    func font(for cluster: Character, alongside sample: Character? = nil, primaryCovers: (Unicode.Scalar) -> Bool) -> FontReference {
        let own = cluster.unicodeScalars.filter { !FontFallback.isDefaultIgnorable($0) }
        let scalars = own + (sample?.unicodeScalars.filter { !FontFallback.isDefaultIgnorable($0) } ?? [])
        let emoji = cluster.unicodeScalars.contains { $0.properties.isEmojiPresentation }
            || cluster.unicodeScalars.contains { $0.value == 0xFE0F }
        if !emoji && own.allSatisfy(primaryCovers) { return primary }
        let key = String(cluster) + (sample.map { "\u{0}" + String($0) } ?? "")
        if let known = byCluster[key] { return known }
        var first: Int?, family: Int?, colour: Int?
        for i in 0..<sorted.count {
            let p = sorted.pattern(i)
            guard let cs = segue_fc_get_charset(p), scalars.allSatisfy({ FcCharSetHasChar(cs, $0.value) != 0 }) else { continue }
            if first == nil { first = i }
            if family == nil, FontFallback.families(p).contains(where: { $0.hasPrefix(designFamily) }) { family = i }
            if colour == nil, segue_fc_get_bool(p, "color") != 0 { colour = i }
            if (emoji ? colour : family) != nil { break }
        }
        let pick = (emoji ? colour : nil) ?? family ?? first
        let ref: FontReference
        if pick == nil, sample != nil { ref = font(for: cluster, primaryCovers: primaryCovers) }
        else if emoji, pick == nil, own.allSatisfy(primaryCovers) { ref = primary } else { ref = pick.map { FontFallback.reference(sorted.pattern($0)) } ?? primary }
        byCluster[key] = ref
        return ref
    }

    /// A cluster's script, as HarfBuzz's Unicode functions say (`hb_unicode_script`, UAX #24): that of its first
    /// scalar that needs a glyph; nil for Common (spaces, punctuation, European digits, symbols, emoji), Inherited
    /// (combining marks) and Unknown, which take the script of the run they sit in.
    static func script(_ cluster: Character) -> UInt32? {
        guard let s = cluster.unicodeScalars.first(where: { !isDefaultIgnorable($0) }) else { return nil }
        let script = hb_unicode_script(hb_unicode_funcs_get_default(), hb_codepoint_t(s.value))
        guard script != HB_SCRIPT_COMMON && script != HB_SCRIPT_INHERITED && script != HB_SCRIPT_UNKNOWN else { return nil }
        return script.rawValue
    }

    static func reference(_ p: OpaquePointer) -> FontReference {
        FontReference(path: segue_fc_get_string(p, "file", 0).map { String(cString: $0) } ?? "",
                      index: Int(segue_fc_get_integer(p, "index", 0)),
                      family: families(p).first ?? "?")
    }

    static func families(_ p: OpaquePointer) -> [String] {
        var out: [String] = []
        var n: Int32 = 0
        while let s = segue_fc_get_string(p, "family", n) { out.append(String(cString: s)); n += 1 }
        return out
    }

    /// Scalars that need no glyph of their own (joiners, variation selectors, marks of direction): they go with the
    /// font of the cluster they sit in, whatever it covers.
    static func isDefaultIgnorable(_ s: Unicode.Scalar) -> Bool {
        s.properties.isDefaultIgnorableCodePoint || s.properties.isVariationSelector
    }
}
