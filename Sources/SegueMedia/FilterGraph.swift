import CFFmpeg
import SegueCore

/// One libavfilter graph (`AVFilterGraph`), the owner of every filter in it: built as a chain with `add` and `link`,
/// then `configure`d; freed in `deinit` (with its filters). Errors are `MediaError`s naming the call and the file.
/// Used by the deinterlacer (`bwdif`), the time-stretcher (`atempo`), GIF palettes (`PaletteFilter`) and
/// `PictureTurner`.
final class FilterGraph {
    private(set) var graph: UnsafeMutablePointer<AVFilterGraph>?
    let path: String?

    /// Wraps `avfilter_graph_alloc`. `threads`: the graph's `nb_threads` (nil: libavfilter's default).
    init(path: String?, threads: Int32? = nil) throws {
        guard let g = avfilter_graph_alloc() else { throw MediaError(path: path, function: "avfilter_graph_alloc", message: "out of memory") }
        graph = g
        self.path = path
        if let threads { g.pointee.nb_threads = threads }
    }
    deinit { avfilter_graph_free(&graph) }

    /// Adds filter `filter` named `name` with `args`. Wraps `avfilter_get_by_name`, `avfilter_graph_create_filter`.
    /// Throws `MediaError` when this FFmpeg has no such filter or refuses the arguments.
    func add(_ filter: String, _ name: String, _ args: String?) throws -> UnsafeMutablePointer<AVFilterContext> {
        guard let f = avfilter_get_by_name(filter) else {
            throw MediaError(path: path, function: "avfilter_get_by_name", message: "this FFmpeg has no \(filter) filter (libavfilter)")
        }
        var ctx: UnsafeMutablePointer<AVFilterContext>? = nil
        try FF.check(avfilter_graph_create_filter(&ctx, f, name, args, nil, graph), "avfilter_graph_create_filter(\(filter))", path: path)
        return ctx!
    }

    /// Links each filter's output 0 to the next one's input 0, in order. Wraps `avfilter_link`.
    func chain(_ filters: [UnsafeMutablePointer<AVFilterContext>]) throws {
        for (a, b) in zip(filters, filters.dropFirst()) { try FF.check(avfilter_link(a, 0, b, 0), "avfilter_link", path: path) }
    }

    /// Links output `output` of `a` to input `input` of `b` (a graph that is not a chain). Wraps `avfilter_link`.
    func link(_ a: UnsafeMutablePointer<AVFilterContext>, _ output: UInt32, _ b: UnsafeMutablePointer<AVFilterContext>, _ input: UInt32) throws {
        try FF.check(avfilter_link(a, output, b, input), "avfilter_link", path: path)
    }

    /// Wraps `avfilter_graph_config`.
    func configure() throws { try FF.check(avfilter_graph_config(graph, nil), "avfilter_graph_config", path: path) }

    /// Every frame `sink` (a `buffersink` or `abuffersink` of this graph) has ready now, in order; none when it needs
    /// more input or has ended. Wraps `av_buffersink_get_frame`.
    func readyFrames(_ sink: UnsafeMutablePointer<AVFilterContext>) throws -> [Frame] {
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
