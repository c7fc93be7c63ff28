import Foundation
import SegueCore
import SegueEdit

/// The text module's services to the planner (`TextServices`): lays out text items and caption cues
/// (`TextShaper`: fontconfig, libraqm over FriBidi and HarfBuzz, libunibreak, FreeType) and reads caption files
/// (`CaptionFiles`). One per resolve; not thread-safe (its FreeType library and caches are used on one thread).
public final class TextEngine: TextServices {
    let config: FontConfiguration
    let library: FreeTypeLibrary
    let faces: FaceCache
    let shaper: TextShaper

    /// - Throws: `TextError` when FreeType or fontconfig cannot start.
    public init() throws {
        config = try FontConfiguration()
        library = try FreeTypeLibrary()
        faces = FaceCache(library: library)
        shaper = TextShaper(config: config, faces: faces)
    }

    public func layout(_ text: TextSpec, renderSize: PixelSize, scale: Double, field: String) throws -> any TextBlock {
        try layoutText(text, renderSize: renderSize, scale: scale, field: field)
    }

    /// `layout`, typed: the glyphs and fonts as well (tests, `TextRasterizer`).
    public func layoutText(_ text: TextSpec, renderSize: PixelSize, scale: Double = 1, field: String = "text") throws -> TextLayout {
        try shaper.layout(text, renderSize: renderSize, scale: scale, field: field)
    }

    public func captions(_ spec: CaptionSpec) throws -> CaptionFile {
        let file = try CaptionFiles.read(spec.path)
        if file.format == .ass {
            // libass must read it too (it draws it): refuse here what it would not take.
            _ = try SubtitleRenderer(path: spec.path, renderSize: PixelSize(width: 16, height: 16))
        }
        return file
    }
}
