import CFFmpeg

/// An animated GIF's colours: libavfilter's `palettegen` (256 colours chosen from every frame of the clip,
/// `stats_mode=full`) and `paletteuse` (each frame mapped to them, its default Sierra-2-4A dithering), the graph
/// `buffer → split → [palettegen → paletteuse's palette input], [paletteuse] → buffersink`. Frames go in as BGRA
/// (`AV_PIX_FMT_BGRA`, the format both filters take, converted from the output's Y′CbCr by `MediaWriter` with the
/// BT.709 matrix so that no filter guesses it) and come out as `pal8`; since the palette needs every frame, they come
/// out at `finish`, having waited in the graph (about 4 bytes a pixel for each frame: GIFs are short). One owner:
/// the graph is freed in deinit.
final class PaletteFilter {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let path: String
    private var finished = false

    /// Wraps `avfilter_graph_alloc`, `avfilter_graph_create_filter`, `avfilter_link`, `avfilter_graph_config`.
    /// - Throws: `MediaError` when libavfilter refuses the graph (no `palettegen` in this build).
    init(width: Int32, height: Int32, timeBase: AVRational, path: String) throws {
        self.path = path
        guard let g = avfilter_graph_alloc() else { throw MediaError(path: path, function: "avfilter_graph_alloc", message: "out of memory") }
        var owned: UnsafeMutablePointer<AVFilterGraph>? = g
        func create(_ filter: String, _ name: String, _ args: String?) throws -> UnsafeMutablePointer<AVFilterContext> {
            guard let f = avfilter_get_by_name(filter) else {
                throw MediaError(path: path, function: "avfilter_get_by_name", message: "this FFmpeg has no \(filter) filter (libavfilter)")
            }
            var ctx: UnsafeMutablePointer<AVFilterContext>? = nil
            try FF.check(avfilter_graph_create_filter(&ctx, f, name, args, nil, g), "avfilter_graph_create_filter(\(filter))", path: path)
            return ctx!
        }
        do {
            let src = try create("buffer", "in", "video_size=\(width)x\(height):pix_fmt=\(AV_PIX_FMT_BGRA.rawValue):time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=1/1")
            let split = try create("split", "split", "2")
            let gen = try create("palettegen", "palettegen", "stats_mode=full")
            let use = try create("paletteuse", "paletteuse", nil)
            let out = try create("buffersink", "out", nil)
            try FF.check(avfilter_link(src, 0, split, 0), "avfilter_link", path: path)
            try FF.check(avfilter_link(split, 0, use, 0), "avfilter_link", path: path)
            try FF.check(avfilter_link(split, 1, gen, 0), "avfilter_link", path: path)
            try FF.check(avfilter_link(gen, 0, use, 1), "avfilter_link", path: path)
            try FF.check(avfilter_link(use, 0, out, 0), "avfilter_link", path: path)
            try FF.check(avfilter_graph_config(g, nil), "avfilter_graph_config", path: path)
            source = src
            sink = out
        } catch {
            avfilter_graph_free(&owned)
            throw error
        }
        graph = g
    }

    deinit { avfilter_graph_free(&graph) }

    /// Feeds one BGRA frame (its `pts` set) and returns the `pal8` frames ready (none before `finish`).
    /// Wraps `av_buffersrc_add_frame_flags` and `av_buffersink_get_frame`.
    func push(_ frame: Frame) throws -> [Frame] {
        precondition(!finished, "PaletteFilter.push after finish")
        try FF.check(av_buffersrc_add_frame_flags(source, frame.ptr, 0), "av_buffersrc_add_frame_flags", path: path)
        return try drain()
    }

    /// Ends the input: the palette is made and every frame comes out, mapped to it. Wraps `av_buffersrc_close`.
    func finish() throws -> [Frame] {
        guard !finished else { return [] }
        finished = true
        try FF.check(av_buffersrc_close(source, FF.noPTS, 0), "av_buffersrc_close", path: path)
        return try drain()
    }

    private func drain() throws -> [Frame] {
        var out: [Frame] = []
        while true {
            let f = Frame()
            let rc = av_buffersink_get_frame(sink, f.ptr)
            if rc == FF.eagain || rc == FF.eof { return out }
            try FF.check(rc, "av_buffersink_get_frame", path: path)
            out.append(f)
        }
    }
}
