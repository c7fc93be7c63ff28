import CFFmpeg
import SegueCore

/// A chain of libavfilter audio filters in a graph of its own: `abuffer → filters… → abuffersink`, interleaved 32-bit
/// float (`flt`) at one rate and channel count (the default layout for the count) in and out. Used by the
/// time-stretcher (`TempoFilter`: `atempo`) and loudness normalisation (`LoudnessMeter`: `ebur128`;
/// `LoudnessNormaliser`: `volume`, `alimiter`). The graph is one C handle (`FilterGraph`), freed with it.
final class AudioFilterChain {
    let graph: FilterGraph
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    let channels: Int, sampleRate: Int32
    private var pts: Int64 = 0
    private let path: String?
    /// The metadata (`AVFrame.metadata`) of the frames that came out so far, each key's latest value: what a filter
    /// such as `ebur128=metadata=1` reports (`lavfi.r128.I`).
    private(set) var metadata: [String: String] = [:]

    /// `filters`: (filter name, its options, the name it is given in the graph), in order. Throws `MediaError` (a
    /// filter this FFmpeg lacks, options libavfilter refuses).
    init(sampleRate: Int32, channels: Int, filters: [(filter: String, args: String?, name: String)], path: String?) throws {
        self.channels = channels; self.sampleRate = sampleRate; self.path = path
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        defer { av_channel_layout_uninit(&layout) }
        var name = [CChar](repeating: 0, count: 64)
        av_channel_layout_describe(&layout, &name, 64)
        let layoutName = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let graph = try FilterGraph(path: path)
        self.graph = graph
        source = try graph.add("abuffer", "in", "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layoutName):time_base=1/\(sampleRate)")
        let middle = try filters.map { try graph.add($0.filter, $0.name, $0.args) }
        // The sink takes interleaved float only, so that what comes out is what went in.
        let format = try graph.add("aformat", "format", "sample_fmts=flt:sample_rates=\(sampleRate):channel_layouts=\(layoutName)")
        sink = try graph.add("abuffersink", "out", nil)
        try graph.chain([source] + middle + [format, sink])
        try graph.configure()
    }

    /// Feeds interleaved samples (or, with `nil`, the end of the stream) and returns what the chain gives back.
    /// Wraps `av_buffersrc_add_frame_flags`, `av_buffersrc_close`, `av_buffersink_get_frame`.
    func process(_ samples: [Float]?) throws -> [Float] {
        if let samples {
            let n = samples.count / channels
            if n > 0 {
                let frame = Frame()
                frame.ptr.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
                frame.ptr.pointee.sample_rate = sampleRate
                frame.ptr.pointee.nb_samples = Int32(n)
                av_channel_layout_default(&frame.ptr.pointee.ch_layout, Int32(channels))
                try FF.check(av_frame_get_buffer(frame.ptr, 0), "av_frame_get_buffer", path: path)
                samples.withUnsafeBytes { src in
                    frame.ptr.pointee.data.0!.update(from: src.baseAddress!.assumingMemoryBound(to: UInt8.self), count: src.count)
                }
                frame.ptr.pointee.pts = pts
                pts += Int64(n)
                try FF.check(av_buffersrc_add_frame_flags(source, frame.ptr, 0), "av_buffersrc_add_frame_flags", path: path)
            }
        } else {
            try FF.check(av_buffersrc_close(source, pts, 0), "av_buffersrc_close", path: path)
        }
        var out: [Float] = []
        for f in try graph.readyFrames(sink) {
            let count = Int(f.ptr.pointee.nb_samples) * channels
            out += UnsafeBufferPointer(start: UnsafeRawPointer(f.ptr.pointee.data.0!).assumingMemoryBound(to: Float.self), count: count)
            var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
            while let e = av_dict_get(f.ptr.pointee.metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
                metadata[String(cString: e.pointee.key)] = String(cString: e.pointee.value)
                entry = e
            }
        }
        return out
    }
}
