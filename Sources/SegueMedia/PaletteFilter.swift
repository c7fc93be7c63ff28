import CFFmpeg

/// An animated GIF's colours: libavfilter's `palettegen` (256 colours chosen from every frame of the clip,
/// `stats_mode=full`) and `paletteuse` (each frame mapped to them, its default Sierra-2-4A dithering), the graph
/// `buffer → split → [palettegen → paletteuse's palette input], [paletteuse] → buffersink`. Frames go in as BGRA
/// (`AV_PIX_FMT_BGRA`, the format both filters take, converted from the output's Y′CbCr by `MediaWriter` with the
/// BT.709 matrix so that no filter guesses it) and come out as `pal8`; since the palette needs every frame, they come
/// out at `finish`, having waited in the graph (about 4 bytes a pixel for each frame: GIFs are short). One owner:
/// the graph is freed in deinit.
final class PaletteFilter {
    private let graph: FilterGraph
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private let path: String
    private var finished = false

    /// Wraps `avfilter_graph_alloc`, `avfilter_graph_create_filter`, `avfilter_link`, `avfilter_graph_config` (`FilterGraph`).
    /// - Throws: `MediaError` when libavfilter refuses the graph (no `palettegen` in this build).
    init(width: Int32, height: Int32, timeBase: AVRational, path: String) throws {
        self.path = path
        graph = try FilterGraph(path: path)
        source = try graph.add("buffer", "in", "video_size=\(width)x\(height):pix_fmt=\(AV_PIX_FMT_BGRA.rawValue):time_base=\(timeBase.num)/\(timeBase.den):pixel_aspect=1/1")
        let split = try graph.add("split", "split", "2")
        let gen = try graph.add("palettegen", "palettegen", "stats_mode=full")
        let use = try graph.add("paletteuse", "paletteuse", nil)
        sink = try graph.add("buffersink", "out", nil)
        try graph.link(source, 0, split, 0)
        try graph.link(split, 0, use, 0)
        try graph.link(split, 1, gen, 0)
        try graph.link(gen, 0, use, 1)
        try graph.link(use, 0, sink, 0)
        try graph.configure()
    }

    /// Feeds one BGRA frame (its `pts` set) and returns the `pal8` frames ready (none before `finish`).
    /// Wraps `av_buffersrc_add_frame_flags` and `av_buffersink_get_frame`.
    func push(_ frame: Frame) throws -> [Frame] {
        precondition(!finished, "PaletteFilter.push after finish")
        try FF.check(av_buffersrc_add_frame_flags(source, frame.ptr, 0), "av_buffersrc_add_frame_flags", path: path)
        return try graph.readyFrames(sink)
    }

    /// Ends the input: the palette is made and every frame comes out, mapped to it. Wraps `av_buffersrc_close`.
    func finish() throws -> [Frame] {
        guard !finished else { return [] }
        finished = true
        try FF.check(av_buffersrc_close(source, FF.noPTS, 0), "av_buffersrc_close", path: path)
        return try graph.readyFrames(sink)
    }
}
