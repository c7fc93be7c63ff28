import CSVG
import Foundation
import SegueCore

/// An SVG still (`.svg`, `.svgz`), drawn from its vectors by librsvg (over cairo) at the size it is shown rather than
/// decoded once at one size: a logo scaled 4× is as crisp as at 1×. One owner of the librsvg handle.
///
/// Size: `size` is the document's own size in pixels at 96 dpi (its `width`/`height` in absolute units, else its
/// `viewBox`), what the edit places and fits like any picture's stored size. Each picture is drawn at the size a layer
/// shows it at (`VectorPicture.drawnSize`), never above the input policy's picture limit nor the renderer's largest texture.
///
/// Alpha: cairo's ARGB32 surface holds premultiplied alpha; its values become the premultiplied RGBA `VideoPicture`
/// the renderers draw "over" as they are (only the bytes reordered), so alpha is applied exactly once.
///
/// External references: the handle is made from the file's bytes without a base file or URL, so librsvg loads none of
/// them (`<image href="other.png">`, `file:///…`, `http://…`, XInclude); they draw nothing. Only `data:` URLs inside the
/// document are drawn. The `.svg` path itself is an input like any other, checked against the input policy before it
/// is read.
final class SVGStill {
    let path: String
    /// The document's own size in pixels (at least 1×1).
    let size: PixelSize
    let handle: UnsafeMutablePointer<RsvgHandle>
    /// The largest file read (an SVG of more is refused: a still's description, not a data store).
    static let maxFileBytes = 64 << 20

    /// Whether `path` names an SVG document by its extension (`.svg`, `.svgz`, any case).
    static func isSVG(path: String) -> Bool {
        ["svg", "svgz"].contains((path as NSString).pathExtension.lowercased())
    }

    /// Reads and parses `path` (already checked against `policy` by the caller), its size checked against
    /// `policy.limits.maxPicturePixels`.
    /// - Throws: `MediaError` naming the path (unreadable, too large a file, not an SVG librsvg parses, no size),
    ///   `LimitExceeded` for a document larger than the picture limit.
    convenience init(path: String, policy: InputPolicy) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw MediaError(path: path, function: nil, message: "cannot read the SVG file")
        }
        guard data.count <= SVGStill.maxFileBytes else {
            throw MediaError(path: path, function: nil, message: "SVG file of \(data.count) bytes, over the \(SVGStill.maxFileBytes) read")
        }
        try self.init(data: data, path: path, policy: policy)
    }

    /// Parses the document in `data` (what `path` names in messages), its size checked as `init(path:policy:)` does.
    init(data: Data, path: String, policy: InputPolicy) throws {
        self.path = path
        var error = [CChar](repeating: 0, count: 512)
        let h = data.withUnsafeBytes { segue_svg_open($0.bindMemory(to: UInt8.self).baseAddress, $0.count, &error, error.count) }
        guard let h else { throw MediaError(path: path, function: "rsvg_handle_new_from_data", message: SVGStill.message(error)) }
        handle = h
        var w = 0.0, hh = 0.0
        guard segue_svg_size(h, &w, &hh) != 0, w.isFinite, hh.isFinite else {
            segue_svg_free(h)
            throw MediaError(path: path, function: "rsvg_handle_get_intrinsic_size_in_pixels", message: "the SVG document has no size (no width, height or viewBox)")
        }
        size = PixelSize(width: max(1, Int(w.rounded())), height: max(1, Int(hh.rounded())))
        if Double(size.width) * Double(size.height) > Double(policy.limits.maxPicturePixels) {
            throw LimitExceeded.picture(path, size, policy.limits)   // initialised: deinit frees the handle
        }
    }

    deinit { segue_svg_free(handle) }

    static func message(_ error: [CChar]) -> String {
        String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The whole document drawn at `target` pixels, as RGBA with premultiplied alpha (cairo's values).
    /// - Throws: `MediaError` with librsvg's or cairo's message.
    func draw(_ target: PixelSize) throws -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: target.width * target.height * 4)
        var error = [CChar](repeating: 0, count: 512)
        let rc = pixels.withUnsafeMutableBufferPointer {
            segue_svg_render(handle, Int32(target.width), Int32(target.height), $0.baseAddress, &error, error.count)
        }
        guard rc == 0 else { throw MediaError(path: path, function: "rsvg_handle_render_document", message: SVGStill.message(error)) }
        return RGBAImage(width: target.width, height: target.height, pixels: pixels)
    }

    /// The document drawn at `target` as a premultiplied `VideoPicture` (`VectorPicture.premultiplied`).
    func picture(_ target: PixelSize) throws -> VideoPicture { VectorPicture.premultiplied(try draw(target)) }

    /// The document drawn at `target` with straight alpha (`frame(at:)`: what a still's RGBA reading gives).
    func straightImage(_ target: PixelSize) throws -> RGBAImage { VectorPicture.straight(try draw(target)) }
}

/// SVG documents Segue writes itself (a shape item's at one instant, `ShapeSVG`), drawn by librsvg.
public enum SVGDocument {
    /// `svg` drawn at its own size (its `width` and `height` in pixels) as a premultiplied RGBA picture; `name` says
    /// what it draws in messages.
    /// - Throws: `MediaError` with librsvg's message, `LimitExceeded` for a picture over `policy`'s limit.
    public static func picture(_ svg: String, name: String, policy: InputPolicy) throws -> VideoPicture {
        let document = try SVGStill(data: Data(svg.utf8), path: name, policy: policy)
        return try document.picture(document.size)
    }
}
