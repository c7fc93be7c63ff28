import CFFmpeg
import SegueCore

/// libavfilter's `bwdif` deinterlacer (Bob Weaver: w3fdif's field interpolation with yadif's temporal check) in
/// a filter graph of its own: `buffer → bwdif=mode=send_field:parity=auto:deint=interlaced → buffersink`.
///
/// One picture per field: each frame flagged interlaced (`AVFrame.interlaced_frame`) comes out twice, first
/// the field shown first (`top_field_first`) with the other field's lines interpolated, at PTS `2·p` in half
/// units of the input time base, then the second field at `p + p_next` (half-way to the next frame: the next
/// frame's PTS, or, for the last frame, the previous frame's spacing). A frame not flagged interlaced (PAFF/MBAFF
/// streams mix them) passes through untouched, once, at `2·p`. `bwdif` needs the next frame before it can give a
/// frame's pictures, so output lags input by one frame; `finish()` lets the last frame out.
///
/// Pixel formats: planar Y′CbCr of 8…16 bits (yuv420p, yuv422p10le, yuvj*, …), GBR planar and grey are filtered
/// as they are; libavfilter converts any other format (NV12, packed RGB) to one of those first.
///
/// The graph is one C handle (`FilterGraph`), freed with it. Errors are `MediaError`s with libavfilter's
/// message and the function that failed.
final class Deinterlacer {
    private let graph: FilterGraph
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    /// The input's time base (the stream's); output PTS are returned in half units of it.
    let timeBase: AVRational
    /// What the graph was configured for: frames of another size or format need a new graph.
    let width: Int32, height: Int32, format: Int32
    private let path: String?
    private var finished = false

    /// A graph for frames of `width × height` in `format` (`AVPixelFormat` raw value) with PTS in `timeBase`.
    /// `frameRate` (optional) and `sampleAspectRatio` are passed on as stream properties only.
    /// Wraps `avfilter_graph_alloc`, `avfilter_graph_create_filter`, `avfilter_link`, `avfilter_graph_config` (`FilterGraph`).
    /// Throws `MediaError` when libavfilter refuses the graph (no `bwdif` in this build, an impossible size).
    init(width: Int32, height: Int32, format: Int32, timeBase: AVRational, sampleAspectRatio: AVRational,
         frameRate: AVRational?, path: String?) throws {
        self.width = width; self.height = height; self.format = format; self.timeBase = timeBase; self.path = path
        let sar = sampleAspectRatio.isValid ? sampleAspectRatio : AVRational(num: 1, den: 1)
        var args = "video_size=\(width)x\(height):pix_fmt=\(format):time_base=\(timeBase.num)/\(timeBase.den)"
            + ":pixel_aspect=\(sar.num)/\(sar.den)"
        if let r = frameRate, r.isValid { args += ":frame_rate=\(r.num)/\(r.den)" }
        graph = try FilterGraph(path: path)
        source = try graph.add("buffer", "in", args)
        let bwdif = try graph.add("bwdif", "deinterlace", "mode=send_field:parity=auto:deint=interlaced")
        sink = try graph.add("buffersink", "out", nil)
        try graph.chain([source, bwdif, sink])
        try graph.configure()
    }

    /// Whether `frame` has the size and format this graph was configured for.
    func accepts(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        frame.pointee.width == width && frame.pointee.height == height && frame.pointee.format == format
    }

    /// Feeds one decoded frame (its `pts` in `timeBase`) and returns the pictures that became ready: zero, one or
    /// two, PTS in half units of `timeBase`. The frame's buffers are taken over and the frame is left empty, unless
    /// `keepingReference` (the graph then takes a reference of its own; nothing is copied either way).
    /// Wraps `av_buffersrc_add_frame_flags` and `av_buffersink_get_frame`.
    func push(_ frame: Frame, keepingReference: Bool = false) throws -> [(pts: Int64, frame: Frame)] {
        precondition(!finished, "Deinterlacer.push after finish")
        let flags = keepingReference ? Int32(AV_BUFFERSRC_FLAG_KEEP_REF) : 0
        try FF.check(av_buffersrc_add_frame_flags(source, frame.ptr, flags), "av_buffersrc_add_frame_flags", path: path)
        return try drain()
    }

    /// Signals the end of the stream and returns the pictures still held (the last frame's). Wraps
    /// `av_buffersrc_close`.
    func finish() throws -> [(pts: Int64, frame: Frame)] {
        guard !finished else { return [] }
        finished = true
        try FF.check(av_buffersrc_close(source, FF.noPTS, 0), "av_buffersrc_close", path: path)
        return try drain()
    }

    private func drain() throws -> [(pts: Int64, frame: Frame)] {
        let sinkBase = av_buffersink_get_time_base(sink)
        return try graph.readyFrames(sink).map { f in
            // bwdif stamps every picture (the input frames always carry a PTS).
            guard f.ptr.pointee.pts != FF.noPTS else {
                throw MediaError(path: path, function: "av_buffersink_get_frame", message: "the deinterlacer returned a picture without a PTS")
            }
            return (halfUnits(f.ptr.pointee.pts, from: sinkBase), f)
        }
    }

    /// `pts` (in `base`, the sink's time base: `timeBase / 2`, possibly reduced) in half units of `timeBase`;
    /// exact, since both name the same rational.
    private func halfUnits(_ pts: Int64, from base: AVRational) -> Int64 {
        // pts · base / (timeBase / 2) = pts · base.num · 2 · timeBase.den / (base.den · timeBase.num)
        av_rescale(pts, Int64(base.num) * 2 * Int64(timeBase.den), Int64(base.den) * Int64(timeBase.num))
    }
}
