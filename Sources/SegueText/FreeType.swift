import CTextShaping
import SegueCore

/// A failure inside the text libraries (FreeType, fontconfig, libraqm, libass) with the library's own words: the
/// function that failed and its message. Exit status 1 (the work failed; the edit itself may be fine).
public struct TextError: SegueError, Equatable {
    /// The C function that failed ("FT_Load_Glyph").
    public let function: String
    public let message: String
    public init(function: String, message: String) { self.function = function; self.message = message }
    public var description: String { "\(function): \(message)" }
    public var exitStatus: Int32 { ExitStatus.failed }
}

/// FreeType's message for an error code (`FT_Error_String`), or its number when the library was built without them.
func freeTypeMessage(_ code: FT_Error) -> String {
    if let s = FT_Error_String(code) { return String(cString: s) }
    return "FreeType error 0x\(String(code, radix: 16))"
}

/// Owns one `FT_Library` (`FT_Init_FreeType` … `FT_Done_FreeType`). Every face made from it holds it, so it lives as
/// long as they do. Not thread-safe: one per engine, used on one thread at a time.
final class FreeTypeLibrary {
    let handle: FT_Library
    init() throws {
        var lib: FT_Library?
        let rc = FT_Init_FreeType(&lib)
        guard rc == 0, let lib else { throw TextError(function: "FT_Init_FreeType", message: freeTypeMessage(rc)) }
        handle = lib
    }
    deinit { FT_Done_FreeType(handle) }
}

/// Where a face comes from: a font file and the face's index inside it (a `.ttc` collection holds several).
public struct FontReference: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let index: Int
    /// The family name the font gives (fontconfig's first `family`).
    public let family: String
    public init(path: String, index: Int, family: String) { self.path = path; self.index = index; self.family = family }
    public var description: String { "\(family) (\(path.split(separator: "/").last.map(String.init) ?? path)\(index > 0 ? " #\(index)" : ""))" }
}

/// Owns one `FT_Face` (`FT_New_Face` … `FT_Done_Face`), set to one pixel size at a time.
///
/// Scalable faces are sized exactly (`FT_Set_Char_Size` at 72 dpi: points = pixels). A bitmap-only colour font
/// (Noto Color Emoji: CBDT strikes at 109 pixels per em) cannot be sized: its strike is selected (`FT_Select_Size`)
/// and everything it gives — advances from HarfBuzz, bitmaps, metrics — is scaled by `bitmapScale` = asked pixels per
/// em / the strike's.
final class FontFace {
    let library: FreeTypeLibrary
    let face: FT_Face
    let reference: FontReference
    /// The face has colour glyphs (`FT_FACE_FLAG_COLOR`: CBDT/sbix bitmaps, COLR layers): glyphs load with `FT_LOAD_COLOR`.
    let isColour: Bool
    /// The face has outlines (`FT_FACE_FLAG_SCALABLE`) rather than only bitmap strikes.
    let isScalable: Bool
    /// The pixels per em asked for (`setSize`).
    private(set) var pixelSize = 0.0
    /// Output pixels per face pixel: 1 for scalable faces, asked size / strike size for bitmap strikes.
    private(set) var bitmapScale = 1.0

    init(library: FreeTypeLibrary, reference: FontReference) throws {
        self.library = library
        self.reference = reference
        var f: FT_Face?
        let rc = FT_New_Face(library.handle, reference.path, FT_Long(reference.index), &f)
        guard rc == 0, let f else { throw TextError(function: "FT_New_Face", message: "\(reference.path): \(freeTypeMessage(rc))") }
        face = f
        let flags = f.pointee.face_flags
        isColour = flags & segue_ft_face_flag_color != 0
        isScalable = flags & segue_ft_face_flag_scalable != 0
    }
    deinit { FT_Done_Face(face) }

    /// Sets the face to `pixels` per em (for a bitmap-only face: the strike nearest above, else the largest, scaled).
    func setSize(_ pixels: Double) throws {
        if pixels == pixelSize { return }
        if isScalable {
            let rc = FT_Set_Char_Size(face, 0, FT_F26Dot6((pixels * 64).rounded()), 72, 72)
            guard rc == 0 else { throw TextError(function: "FT_Set_Char_Size", message: "\(reference): \(freeTypeMessage(rc))") }
            bitmapScale = 1
        } else {
            let n = Int(face.pointee.num_fixed_sizes)
            guard n > 0, let sizes = face.pointee.available_sizes else {
                throw TextError(function: "FT_Select_Size", message: "\(reference): neither outlines nor bitmap strikes")
            }
            // The smallest strike at least as large as asked (scaling down keeps detail), else the largest.
            let ppem = (0..<n).map { Double(sizes[$0].y_ppem) / 64 }
            let pick = ppem.indices.filter { ppem[$0] >= pixels }.min(by: { ppem[$0] < ppem[$1] }) ?? ppem.indices.max(by: { ppem[$0] < ppem[$1] })!
            let rc = FT_Select_Size(face, FT_Int(pick))
            guard rc == 0 else { throw TextError(function: "FT_Select_Size", message: "\(reference): \(freeTypeMessage(rc))") }
            bitmapScale = pixels / ppem[pick]
        }
        pixelSize = pixels
    }

    /// Design units → pixels at the current size (scalable faces), or the strike's metrics scaled.
    var ascender: Double {
        if isScalable { return Double(face.pointee.ascender) * pixelSize / Double(face.pointee.units_per_EM) }
        return Double(face.pointee.size.pointee.metrics.ascender) / 64 * bitmapScale
    }
    /// Negative below the baseline.
    var descender: Double {
        if isScalable { return Double(face.pointee.descender) * pixelSize / Double(face.pointee.units_per_EM) }
        return Double(face.pointee.size.pointee.metrics.descender) / 64 * bitmapScale
    }
    /// The font's distance between baselines.
    var lineSpacing: Double {
        if isScalable { return Double(face.pointee.height) * pixelSize / Double(face.pointee.units_per_EM) }
        return Double(face.pointee.size.pointee.metrics.height) / 64 * bitmapScale
    }

    /// Whether the face maps `scalar` to a glyph (`FT_Get_Char_Index`).
    func covers(_ scalar: Unicode.Scalar) -> Bool { FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0 }

    /// Loads glyph `index` into the face's slot: outlines unhinted (the layout scales linearly, so a text rasterised
    /// at twice its size and shown at half is the same text), colour bitmaps with `FT_LOAD_COLOR`.
    func load(glyph index: UInt32) throws -> FT_GlyphSlot {
        let flags = isColour ? segue_ft_load_color : segue_ft_load_no_hinting
        let rc = FT_Load_Glyph(face, index, Int32(flags))
        guard rc == 0, let slot = face.pointee.glyph else {
            throw TextError(function: "FT_Load_Glyph", message: "\(reference) glyph \(index): \(freeTypeMessage(rc))")
        }
        return slot
    }
}

/// Faces by reference, each opened once per engine (and per size set as needed).
final class FaceCache {
    let library: FreeTypeLibrary
    private var faces: [FontReference: FontFace] = [:]
    init(library: FreeTypeLibrary) { self.library = library }
    func face(_ reference: FontReference) throws -> FontFace {
        if let f = faces[reference] { return f }
        let f = try FontFace(library: library, reference: reference)
        faces[reference] = f
        return f
    }
}
