import CFFmpeg
import SegueCore

/// Turns 8-bit 4:2:0 planar pictures upright: the eight axis-aligned orientations of a display matrix (quarter turns,
/// the half turn, mirrors), done by libavfilter's `transpose` (SIMD 8×8 block transposes), `hflip` (SIMD) and `vflip`
/// (no copy: it reverses the row order) in a filter graph `buffer → … → buffersink` kept while the pictures keep their
/// size and orientation. What the direct path (`DirectFrame.route`) hands the encoder for a phone clip shown at scale 1.
///
/// Each plane is permuted on its own grid (luma on the picture's, Cb and Cr on the half-size chroma grid), which is
/// how both renderers read a turned 4:2:0 picture (`TransitionParameters.isExact`): the result, cropped at the route's
/// origin, equals their composite byte for byte. The picture's colour description is kept as it is.
///
/// The graph is one C handle (`FilterGraph`), freed with it. Errors are `MediaError`s with libavfilter's message.
public final class PictureTurner {
    private var graph: FilterGraph?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private var key: (width: Int, height: Int, turn: Orientation)?

    public init() {}

    /// Frees the filter graph now (the next `turned` makes another).
    public func release() {
        graph = nil
        key = nil
    }

    /// The filters that turn a picture by `turn` (the linear part of the map from turned pixel indices to stored ones,
    /// `DirectFrame.Route.turn`), as a libavfilter chain: "" for the identity.
    /// `transpose` directions (libavfilter's `vf_transpose.c`): 0 `out(X, Y) = in(Y, X)`, 1 (clock)
    /// `in(Y, H−1−X)`, 2 (cclock) `in(W−1−Y, X)`, 3 `in(W−1−Y, H−1−X)`; `hflip` `in(W−1−X, Y)`, `vflip` `in(X, H−1−Y)`.
    public static func filters(_ turn: Orientation) -> String {
        switch (turn.a, turn.b, turn.c, turn.d) {
        case (1, 0, 0, 1): return ""
        case (-1, 0, 0, 1): return "hflip"
        case (1, 0, 0, -1): return "vflip"
        case (-1, 0, 0, -1): return "hflip,vflip"
        case (0, 1, 1, 0): return "transpose=dir=0"
        case (0, -1, 1, 0): return "transpose=dir=1"
        case (0, 1, -1, 0): return "transpose=dir=2"
        case (0, -1, -1, 0): return "transpose=dir=3"
        default: preconditionFailure("not an axis-aligned orientation: \(turn)")
        }
    }

    /// `picture` (planar 8-bit 4:2:0, even sides) turned by `turn`: `out(X, Y) = in(L·(X, Y) + e₀)` on each plane,
    /// where `L` is `turn` and `e₀` the stored corner that becomes the top-left. Its identity is 0 (the caller names it).
    /// The planes are handed to libavfilter without a copy (read-only buffers released before this returns).
    /// - Throws: `MediaError` when libavfilter fails.
    public func turned(_ picture: VideoPicture, by turn: Orientation) throws -> VideoPicture {
        precondition(picture.layout == .planar && picture.bitDepth == 8 && picture.chromaShiftX == 1 && picture.chromaShiftY == 1,
                     "PictureTurner takes 8-bit 4:2:0 planar pictures")
        if turn == .identity { var p = picture; p.identity = 0; return p }
        if key == nil || key!.width != picture.width || key!.height != picture.height || key!.turn != turn {
            try configure(width: picture.width, height: picture.height, turn: turn)
        }
        let (tw, th) = turn.swapsAxes ? (picture.height, picture.width) : (picture.width, picture.height)
        let planes = picture.planes
        // Buffers still referenced by libavfilter: must be 0 once the turned frame has been copied out and released.
        let held = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        held.initialize(to: 0)
        defer { held.deallocate() }
        let out = Frame()
        let result: [PicturePlane] = try planes[0].bytes.withUnsafeBufferPointer { y in
            try planes[1].bytes.withUnsafeBufferPointer { cb in
                try planes[2].bytes.withUnsafeBufferPointer { cr in
                    let input = Frame()
                    let f = input.ptr
                    f.pointee.width = Int32(picture.width)
                    f.pointee.height = Int32(picture.height)
                    f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
                    f.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
                    f.pointee.pts = 0
                    for (i, p) in [y, cb, cr].enumerated() {
                        let data = UnsafeMutablePointer(mutating: p.baseAddress!)
                        guard let ref = av_buffer_create(data, p.count, { opaque, _ in opaque!.assumingMemoryBound(to: Int.self).pointee -= 1 },
                                                         UnsafeMutableRawPointer(held), Int32(AV_BUFFER_FLAG_READONLY)) else {
                            // The references made so far are the frame's: `input` releases them.
                            throw MediaError(path: nil, function: "av_buffer_create", message: "out of memory")
                        }
                        held.pointee += 1
                        let width = Int32(planes[i].width)
                        switch i {
                        case 0: f.pointee.data.0 = data; f.pointee.linesize.0 = width; f.pointee.buf.0 = ref
                        case 1: f.pointee.data.1 = data; f.pointee.linesize.1 = width; f.pointee.buf.1 = ref
                        default: f.pointee.data.2 = data; f.pointee.linesize.2 = width; f.pointee.buf.2 = ref
                        }
                    }
                    // The source takes the frame's references; the graph releases them once the turned frame is made
                    // (vflip hands on the input's buffers with negative line sizes: released with `out` below).
                    do {
                        try FF.check(av_buffersrc_add_frame_flags(source, f, 0), "av_buffersrc_add_frame_flags")
                        try FF.check(av_buffersink_get_frame(sink, out.ptr), "av_buffersink_get_frame")
                    } catch {
                        // Whatever the graph still holds of these planes goes with it, before they can go away.
                        release()
                        throw error
                    }
                    let o = out.ptr.pointee
                    guard Int(o.width) == tw, Int(o.height) == th, o.format == AV_PIX_FMT_YUV420P.rawValue else {
                        av_frame_unref(out.ptr)
                        throw MediaError(path: nil, function: "av_buffersink_get_frame",
                                         message: "libavfilter turned a \(picture.width)x\(picture.height) picture into \(o.width)x\(o.height) (format \(o.format))")
                    }
                    func copy(_ data: UnsafeMutablePointer<UInt8>?, _ linesize: Int32, _ w: Int, _ h: Int) -> PicturePlane {
                        let bytes = [UInt8](unsafeUninitializedCapacity: w * h) { dst, count in
                            for row in 0..<h { (dst.baseAddress! + row * w).update(from: data! + row * Int(linesize), count: w) }
                            count = w * h
                        }
                        return PicturePlane(width: w, height: h, channels: 1, bytes: bytes)
                    }
                    let planes = [copy(o.data.0, o.linesize.0, tw, th), copy(o.data.1, o.linesize.1, tw / 2, th / 2),
                                  copy(o.data.2, o.linesize.2, tw / 2, th / 2)]
                    av_frame_unref(out.ptr)
                    return planes
                }
            }
        }
        precondition(held.pointee == 0, "libavfilter still holds a picture's planes after turning it")
        return VideoPicture(width: tw, height: th, layout: .planar, chromaShiftX: 1, chromaShiftY: 1, bitDepth: 8,
                            planes: result, colour: picture.colour)
    }

    /// A graph `buffer → filters(turn) → buffersink` for `width × height` yuv420p pictures, on one thread.
    private func configure(width: Int, height: Int, turn: Orientation) throws {
        release()
        // Pictures are a few MB: slice threads would only compete with the decoder and the encoder for the cores.
        let g = try FilterGraph(path: nil, threads: 1)
        graph = g
        let src = try g.add("buffer", "in", "video_size=\(width)x\(height):pix_fmt=\(AV_PIX_FMT_YUV420P.rawValue):time_base=1/1:pixel_aspect=1/1")
        let turns = try PictureTurner.filters(turn).split(separator: ",").enumerated().map { n, spec in
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            return try g.add(parts[0], "turn\(n)", parts.count > 1 ? parts[1] : nil)
        }
        let snk = try g.add("buffersink", "out", nil)
        try g.chain([src] + turns + [snk])
        try g.configure()
        source = src; sink = snk
        key = (width, height, turn)
    }
}
