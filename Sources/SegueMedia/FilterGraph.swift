import CFFmpeg
import SegueCore

/// One libavfilter graph (`AVFilterGraph`), the owner of every filter in it: built as a chain with `add` and `link`,
/// then `configure`d; freed in `deinit` (with its filters). Errors are `MediaError`s naming the call and the file.
/// Used by the deinterlacer (`bwdif`) and the time-stretcher (`atempo`).
final class FilterGraph {
    private(set) var graph: UnsafeMutablePointer<AVFilterGraph>?
    let path: String?

    /// Wraps `avfilter_graph_alloc`.
    init(path: String?) throws {
        guard let g = avfilter_graph_alloc() else { throw MediaError(path: path, function: "avfilter_graph_alloc", message: "out of memory") }
        graph = g
        self.path = path
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

    /// Wraps `avfilter_graph_config`.
    func configure() throws { try FF.check(avfilter_graph_config(graph, nil), "avfilter_graph_config", path: path) }
}
