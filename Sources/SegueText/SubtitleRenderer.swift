import CASS
import Foundation
import SegueCore
import SegueEdit

/// Owns one `ASS_Library` (`ass_library_init` … `ass_library_done`).
final class ASSLibrary {
    let handle: OpaquePointer
    init() throws {
        guard let l = ass_library_init() else { throw TextError(function: "ass_library_init", message: "libass could not start") }
        handle = l
        segue_ass_silence(l)
    }
    deinit { ass_library_done(handle) }
}

/// Owns one `ASS_Renderer` (`ass_renderer_init` … `ass_renderer_done`); holds its library.
final class ASSRenderer {
    let library: ASSLibrary
    let handle: OpaquePointer
    init(library: ASSLibrary) throws {
        self.library = library
        guard let r = ass_renderer_init(library.handle) else { throw TextError(function: "ass_renderer_init", message: "libass could not make a renderer") }
        handle = r
    }
    deinit { ass_renderer_done(handle) }
}

/// Owns one `ASS_Track` (`ass_read_memory` … `ass_free_track`); holds its library.
final class ASSTrack {
    let library: ASSLibrary
    let handle: UnsafeMutablePointer<ASS_Track>
    init(library: ASSLibrary, data: Data, path: String) throws {
        self.library = library
        var bytes = [CChar](repeating: 0, count: data.count + 1)
        data.withUnsafeBytes { raw in for (i, b) in raw.enumerated() { bytes[i] = CChar(bitPattern: b) } }
        let size = data.count
        guard let t = bytes.withUnsafeMutableBufferPointer({ ass_read_memory(library.handle, $0.baseAddress, size, nil) }) else {
            throw EditError("captions.path", "libass cannot read \(path) as an ASS/SSA file")
        }
        handle = t
    }
    deinit { ass_free_track(handle) }
    var eventCount: Int { Int(handle.pointee.n_events) }
}

/// Draws an ASS/SSA caption file with libass, frame by frame, as FFmpeg's `subtitles` filter does: the frame size and
/// storage size are the render size, fonts come from fontconfig (`ass_set_fonts` with libass's default family and
/// autodetected provider), and the events showing at `floor(t × 1000)` ms are drawn (`ass_render_frame`). Each
/// picture is the render size, premultiplied R′G′B′A: libass's images (one colour and an 8-bit coverage each, in
/// order) composited "over" each other. A frame whose captions did not change (libass's `detect_change`) gets the same
/// picture, identity included (the GPU keeps its texture); a frame without captions a 1×1 transparent picture.
///
/// libass places an event that collides with others already on screen above them, and keeps it there while it shows:
/// where it draws an event depends on the frames drawn before. So that a farm's chunk, a smart render's stretch or a
/// `segue frame` preview that starts mid-edit draws what the single pass draws, a first frame (or a jump) at a time
/// other than the next frame of `frameRate` first has libass draw the frames before it since the start of the chain
/// of events overlapping one another up to it (`replayStart`), their pictures not made.
public final class SubtitleRenderer {
    let library: ASSLibrary
    let renderer: ASSRenderer
    let track: ASSTrack
    public let renderSize: PixelSize
    private var last: VideoPicture?
    private var lastTime: Int64?
    /// The edit's frame rate: the times frames are drawn at (nil: each call stands alone).
    private let frameRate: FrameRate?
    /// The frame of the last call (on `frameRate`'s grid).
    private var lastFrame: Int64?
    private let empty: VideoPicture
    /// Pictures made so far (tests: an unchanged frame makes none).
    public private(set) var picturesMade = 0

    /// - Throws: `EditError` for a file that cannot be read or parsed (with its line), `TextError` from libass.
    /// `frameRate`: the edit's, whose frames the pictures are asked for in order (see the type's note on collisions).
    public init(path: String, renderSize: PixelSize, frameRate: FrameRate? = nil) throws {
        self.frameRate = frameRate
        _ = try CaptionFiles.read(path)   // the structure, with line numbers
        guard let data = FileManager.default.contents(atPath: path) else { throw EditError("captions.path", "cannot read the caption file \(path)") }
        library = try ASSLibrary()
        renderer = try ASSRenderer(library: library)
        track = try ASSTrack(library: library, data: data, path: path)
        self.renderSize = renderSize
        ass_set_frame_size(renderer.handle, Int32(renderSize.width), Int32(renderSize.height))
        ass_set_storage_size(renderer.handle, Int32(renderSize.width), Int32(renderSize.height))
        ass_set_fonts(renderer.handle, nil, nil, Int32(ASS_FONTPROVIDER_AUTODETECT.rawValue), nil, 1)
        var e = VideoPicture.colour(.black, alpha: 0)
        e.identity = VideoPicture.newIdentity()
        empty = e
    }

    /// The events of the file, as libass read them.
    public var eventCount: Int { track.eventCount }

    /// The start (ms) of the chain of events that overlap one another up to `ms`: no event shows across it.
    func replayStart(_ ms: Int64) -> Int64 {
        let events = (0..<track.eventCount).map { (track.handle.pointee.events[$0].Start, track.handle.pointee.events[$0].Duration) }
        var start = ms
        while let e = events.first(where: { $0.0 < start && start < $0.0 + $0.1 }) { start = e.0 }
        return start
    }

    /// Has libass draw the frames of `rate` from `replayStart` up to frame `n` (exclusive), whose collisions place
    /// the events showing at frame `n`; their images are not used.
    func replay(before n: Int64, at ms: Int64, rate: FrameRate) {
        let from = replayStart(ms)
        // The first frame whose time is at or after `from`.
        let start = MediaTime(value: from, timescale: 1000)
        var first = start.floored(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator))
        if MediaTime(frame: first, rate: rate) < start { first += 1 }
        first = max(0, first)
        var changed: Int32 = 0
        for m in first..<max(first, n) {
            _ = ass_render_frame(renderer.handle, track.handle, MediaTime(frame: m, rate: rate).floored(toUnitsOf: 1000, per: 1), &changed)
        }
    }

    /// The captions at `t` (seconds on the timeline).
    public func picture(at t: MediaTime) throws -> VideoPicture {
        let ms = t.floored(toUnitsOf: 1000, per: 1)
        if let rate = frameRate {
            let n = t.floored(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator))
            if n != lastFrame && n != (lastFrame ?? -1) + 1 { replay(before: n, at: ms, rate: rate) }
            lastFrame = n
        }
        var changed: Int32 = 0
        let images = ass_render_frame(renderer.handle, track.handle, ms, &changed)
        if changed == 0, let last, lastTime != nil { return last }
        lastTime = ms
        guard let images else { last = empty; return empty }
        let W = renderSize.width, H = renderSize.height
        var out = [Float](repeating: 0, count: W * H * 4)
        var any = false
        var image: UnsafeMutablePointer<ASS_Image>? = images
        while let im = image {
            let i = im.pointee
            image = i.next
            guard i.w > 0, i.h > 0, let bitmap = i.bitmap else { continue }
            any = true
            // RRGGBBTT: TT is the transparency.
            let r = Float((i.color >> 24) & 0xFF) / 255, g = Float((i.color >> 16) & 0xFF) / 255, b = Float((i.color >> 8) & 0xFF) / 255
            let alpha = Float(255 - (i.color & 0xFF)) / 255
            for y in 0..<Int(i.h) {
                let dy = Int(i.dst_y) + y
                guard dy >= 0 && dy < H else { continue }
                for x in 0..<Int(i.w) {
                    let dx = Int(i.dst_x) + x
                    guard dx >= 0 && dx < W else { continue }
                    let a = alpha * Float(bitmap[y * Int(i.stride) + x]) / 255
                    if a == 0 { continue }
                    let p = (dy * W + dx) * 4, k = 1 - a
                    out[p] = r * a + k * out[p]; out[p + 1] = g * a + k * out[p + 1]; out[p + 2] = b * a + k * out[p + 2]
                    out[p + 3] = a + k * out[p + 3]
                }
            }
        }
        guard any else { last = empty; return empty }
        var bytes = [UInt8](repeating: 0, count: W * H * 4)
        for k in 0..<(W * H * 4) { bytes[k] = UInt8(max(0, min(255, (out[k] * 255).rounded()))) }
        var picture = VideoPicture(RGBAImage(width: W, height: H, pixels: bytes))
        picture.hasAlpha = true
        picture.identity = VideoPicture.newIdentity()
        picturesMade += 1
        last = picture
        return picture
    }
}
