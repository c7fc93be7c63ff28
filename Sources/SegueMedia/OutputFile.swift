import CFFmpeg
import Foundation
import SegueCore

/// One output file: the one owner of what Segue writes through FFmpeg's muxers — a render's file (`MediaWriter`: its
/// video, a farm chunk, the audio pass), a stitched file and a take's rewrite with its index first (`StreamCopy`), a
/// take and its segments (`TakeSegmenter`), the recording's preview picture (`PreviewWriter`).
///
/// It holds the muxer (`AVFormatContext`, chosen by the container's FFmpeg name: `OutputFormat.container`) and its file
/// (`AVIOContext`), and the streams, each fed either by an `Encoder` (`addStream(_:)` with the encoder) or by copied
/// packets (`addStream(_:)` with `StreamParameters`); it writes the header with the container's options, the packets
/// interleaved in each stream's time base, and the trailer. Where the file goes is its `Placement`. Freed in deinit
/// (its file closed, an unfinished temporary file removed), whatever step failed.
final class OutputFile {
    /// Where the file is written.
    enum Placement {
        /// At `path` as it is: a temporary file its caller renames (`RenderJob.writeAtomically`), or the numbered
        /// pattern of an image sequence, whose files the muxer opens itself (`image2`).
        case asIs
        /// At `path`, which must not exist: a take, written where the user looks for it after a crash, never over
        /// another file (as `AVCaptureMovieFileOutput` refuses one).
        case new
        /// Through a hidden temporary file beside `path` (`TemporaryFiles.next`) that `finish` renames over it, so
        /// that a reader never sees half a file: the preview picture, a take rewritten with its index first.
        case replacing
    }

    /// The file's name (the one messages give).
    let path: String
    /// Where the muxer writes: `path`, or for `.replacing` the hidden temporary file.
    let writePath: String
    let placement: Placement
    let ctx: UnsafeMutablePointer<AVFormatContext>
    private var ioOpen = false
    private var finished = false
    private var renamed = false

    /// Makes the muxer of `container` (FFmpeg's name: `mp4`, `matroska`, `image2`, `mjpeg`, …) for `path`; the file
    /// is created by `writeHeader`.
    /// - Throws: `MediaError` when `placement` is `.new` and `path` exists, or FFmpeg has no such muxer.
    init(path: String, container: String, placement: Placement = .asIs) throws {
        _ = FF.setup
        self.path = path
        self.placement = placement
        if placement == .new && FileManager.default.fileExists(atPath: path) {
            throw MediaError(path: path, function: nil, message: "exists already: Segue never writes over it; choose another name or remove it")
        }
        if placement == .replacing {
            // What a process killed while writing it left behind goes first.
            TemporaryFiles.removeStale(of: path)
            writePath = TemporaryFiles.next(for: path)
        } else {
            writePath = path
        }
        var c: UnsafeMutablePointer<AVFormatContext>? = nil
        try FF.check(avformat_alloc_output_context2(&c, nil, container, writePath), "avformat_alloc_output_context2", path: path)
        ctx = c!
    }

    deinit {
        if ioOpen { avio_closep(&ctx.pointee.pb) }
        avformat_free_context(ctx)
        if placement == .replacing && !renamed { unlink(writePath) }
    }

    /// Whether the muxer of `container` wants the codecs' headers out of band (`AVFMT_GLOBALHEADER`: MP4, Matroska,
    /// WebM, QuickTime): its encoders then get `AV_CODEC_FLAG_GLOBAL_HEADER` (`VideoEncoding.globalHeader`).
    static func wantsGlobalHeader(_ container: String) -> Bool {
        guard let f = av_guess_format(container, nil, nil) else { return false }
        return f.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// Whether the muxer opens its own files (`AVFMT_NOFILE`: `image2`, a file per frame).
    var muxerOpensFiles: Bool { ctx.pointee.oformat.pointee.flags & AVFMT_NOFILE != 0 }

    /// Stream `i`.
    func stream(_ i: Int) -> UnsafeMutablePointer<AVStream> { ctx.pointee.streams[i]! }

    /// A new stream for `encoder`'s packets (the encoder open): its codec parameters (the codec tag it was given, such
    /// as `hvc1`, kept), its time base and, for video, its frame rate. Returns the stream's index.
    func addStream(_ encoder: Encoder) throws -> Int {
        let st = try newStream()
        try FF.check(avcodec_parameters_from_context(st.pointee.codecpar, encoder.ctx), "avcodec_parameters_from_context", path: path)
        st.pointee.time_base = encoder.ctx.pointee.time_base
        if encoder.ctx.pointee.codec_type == AVMEDIA_TYPE_VIDEO { st.pointee.avg_frame_rate = encoder.ctx.pointee.framerate }
        return Int(st.pointee.index)
    }

    /// A new stream for copied packets: `copied`'s codec parameters, time base, frame rate and display matrix. The
    /// codec tag is kept only where the container lists it for the codec (`hvc1` rather than `hev1` in MP4); another
    /// (an MPEG-TS stream's) is left for the muxer to choose. Returns the stream's index.
    func addStream(_ copied: StreamParameters) throws -> Int {
        let st = try newStream()
        try FF.check(avcodec_parameters_copy(st.pointee.codecpar, copied.codec.ptr), "avcodec_parameters_copy", path: path)
        let par = st.pointee.codecpar.pointee
        if let tags = ctx.pointee.oformat.pointee.codec_tag, av_codec_get_id(tags, par.codec_tag) == par.codec_id {} else {
            st.pointee.codecpar.pointee.codec_tag = 0
        }
        st.pointee.time_base = copied.timeBase
        st.pointee.avg_frame_rate = copied.frameRate
        if let m = copied.displayMatrix {
            let bytes = 9 * MemoryLayout<Int32>.size
            guard let sd = av_stream_new_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, bytes) else {
                throw MediaError(path: path, function: "av_stream_new_side_data", message: "out of memory for the display matrix")
            }
            m.withUnsafeBytes { UnsafeMutableRawPointer(sd).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        }
        return Int(st.pointee.index)
    }

    private func newStream() throws -> UnsafeMutablePointer<AVStream> {
        guard let st = avformat_new_stream(ctx, nil) else { throw MediaError(path: path, function: "avformat_new_stream", message: "out of memory") }
        return st
    }

    /// Creates the file (unless the muxer opens its own) and writes the header with the container's `options`
    /// (FFmpeg's names: MP4's `movflags`, …). The muxer may then change the streams' time bases.
    /// - Throws: `MediaError` (the file cannot be created, the muxer refuses a stream or an option).
    func writeHeader(options: [String: String]) throws {
        if !muxerOpensFiles {
            var pb: UnsafeMutablePointer<AVIOContext>? = nil
            let rc = avio_open(&pb, writePath, AVIO_FLAG_WRITE)
            if rc < 0 { throw MediaError(path: path, function: "avio_open", code: rc, message: "cannot create the output file: \(FF.message(rc))", outputIO: true) }
            ctx.pointee.pb = pb
            ioOpen = true
        }
        var opts: OpaquePointer? = nil
        for (k, v) in options.sorted(by: { $0.key < $1.key }) { av_dict_set(&opts, k, v, 0) }
        let rc = avformat_write_header(ctx, &opts)
        av_dict_free(&opts)
        try FF.check(rc, "avformat_write_header", path: path)
    }

    /// Writes `packet`, its timestamps in `timeBase`, to stream `i`: rescaled into the stream's time base (the one the
    /// muxer chose) and interleaved with the other streams' packets (`av_interleaved_write_frame`, which takes the
    /// packet's data).
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream i: Int, from timeBase: AVRational) throws {
        av_packet_rescale_ts(packet, timeBase, stream(i).pointee.time_base)
        packet.pointee.stream_index = Int32(i)
        packet.pointee.pos = -1
        try FF.check(av_interleaved_write_frame(ctx, packet), "av_interleaved_write_frame", path: path, outputIO: true)
    }

    /// Writes what the muxer still holds and the trailer (MP4's index, moved to the front for `+faststart`), closes the
    /// file and, for `.replacing`, renames it over `path`. Once; later calls return.
    func finish() throws {
        guard !finished else { return }
        finished = true
        try FF.check(av_write_trailer(ctx), "av_write_trailer", path: path, outputIO: true)
        if ioOpen {
            ioOpen = false
            try FF.check(avio_closep(&ctx.pointee.pb), "avio_closep", path: path, outputIO: true)
        }
        if placement == .replacing {
            guard rename(writePath, path) == 0 else {
                throw MediaError(path: path, function: "rename", code: -errno, message: "cannot move the finished file into place: \(String(cString: strerror(errno)))", outputIO: true)
            }
            renamed = true
        }
    }

    /// Bytes written so far while the file is open, else the file's size.
    var size: Int64 {
        if ioOpen, let pb = ctx.pointee.pb { return avio_tell(pb) }
        return OutputFile.fileSize(path) ?? 0
    }

    /// The size of the file at `path` in bytes, nil when there is none.
    static func fileSize(_ path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }
}

/// What a stream of copied packets is written as (`OutputFile.addStream`): codec parameters, time base, frame rate and
/// the display matrix to keep (a phone clip's rotation). The parameters are the stream's own copy, so the file they
/// came from may be closed (a take's source reopened by `--reconnect`) while later files are made from them.
struct StreamParameters {
    let codec: CodecParameters
    var timeBase: AVRational
    var frameRate: AVRational
    var displayMatrix: [Int32]?

    /// A demuxed stream's, its display matrix included.
    init(copying stream: UnsafeMutablePointer<AVStream>, path: String) throws {
        codec = try CodecParameters(path: path)
        try FF.check(avcodec_parameters_copy(codec.ptr, stream.pointee.codecpar), "avcodec_parameters_copy", path: path)
        timeBase = stream.pointee.time_base
        frameRate = stream.pointee.avg_frame_rate
        displayMatrix = segue_stream_display_matrix(stream).map { Array(UnsafeBufferPointer(start: $0, count: 9)) }
    }

    /// What `encoder` writes (taken once, the encoder open): its parameters, time base and frame rate.
    init(encoder: Encoder) throws {
        codec = try CodecParameters(path: encoder.path)
        try FF.check(avcodec_parameters_from_context(codec.ptr, encoder.ctx), "avcodec_parameters_from_context", path: encoder.path)
        timeBase = encoder.ctx.pointee.time_base
        frameRate = encoder.ctx.pointee.framerate
    }
}

/// Owner of an `AVCodecParameters` (`avcodec_parameters_alloc`, freed in deinit).
final class CodecParameters {
    let ptr: UnsafeMutablePointer<AVCodecParameters>
    init(path: String) throws {
        guard let p = avcodec_parameters_alloc() else { throw MediaError(path: path, function: "avcodec_parameters_alloc", message: "out of memory") }
        ptr = p
    }
    deinit { var p: UnsafeMutablePointer<AVCodecParameters>? = ptr; avcodec_parameters_free(&p) }
}
