import CFFmpeg
import Foundation
import SegueCore

/// What a take's stream is written as: the codec parameters and time base of a copied input stream or of an encoder,
/// and the display matrix to keep (a copied stream's rotation).
struct TakeStream {
    let parameters: UnsafeMutablePointer<AVCodecParameters>
    let timeBase: AVRational
    let frameRate: AVRational
    let displayMatrix: [Int32]?
}

/// One recorded file, written as fragmented MP4 as the packets come (`movflags=+frag_keyframe+empty_moov+
/// default_base_moof`, `frag_duration` 2 s: a fragment at each video keyframe and at least every 2 s of media, each
/// flushed to the file when it is complete), so that a process killed mid-take (`kill -9`, power loss) leaves a
/// file that plays up to its last complete fragment; as `AVCaptureMovieFileOutput.movieFragmentInterval`.
///
/// Written straight to its final name (a crashed take must be where the user looks for it); a name that exists is
/// refused, as `AVCaptureMovieFileOutput` refuses one. `finish` writes the trailer; `makeFaststart` then rewrites it
/// as a plain MP4 with the index first (`+faststart`).
final class TakeFile {
    let path: String
    let output: OutputFile
    var streams: [UnsafeMutablePointer<AVStream>] = []
    var packets: Int64 = 0
    var finished = false

    /// Longest a fragment may last, in µs (`frag_duration`).
    static let fragmentMicroseconds = 2_000_000

    /// Creates `path` (which must not exist) with one stream per `TakeStream`, and writes the header.
    /// - Throws: `MediaError` (the file exists, cannot be created, or the muxer refuses a stream).
    init(path: String, streams templates: [TakeStream]) throws {
        self.path = path
        if FileManager.default.fileExists(atPath: path) {
            throw MediaError(path: path, function: nil, message: "exists already: a take is never written over another file; choose another name or remove it")
        }
        var c: UnsafeMutablePointer<AVFormatContext>? = nil
        try FF.check(avformat_alloc_output_context2(&c, nil, "mp4", path), "avformat_alloc_output_context2", path: path)
        output = OutputFile(c!)
        for t in templates {
            guard let st = avformat_new_stream(output.ctx, nil) else { throw MediaError(path: path, function: "avformat_new_stream", message: "out of memory") }
            try FF.check(avcodec_parameters_copy(st.pointee.codecpar, t.parameters), "avcodec_parameters_copy", path: path)
            // A tag the MP4 muxer does not list for the codec (a TS stream's) is left for it to choose.
            let par = st.pointee.codecpar.pointee
            if let tags = output.ctx.pointee.oformat.pointee.codec_tag, av_codec_get_id(tags, par.codec_tag) == par.codec_id {} else {
                st.pointee.codecpar.pointee.codec_tag = 0
            }
            st.pointee.time_base = t.timeBase
            st.pointee.avg_frame_rate = t.frameRate
            if let m = t.displayMatrix, let sd = av_stream_new_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, 9 * MemoryLayout<Int32>.size) {
                m.withUnsafeBytes { sd.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 9 * MemoryLayout<Int32>.size) }
            }
            streams.append(st)
        }
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        let rc = avio_open(&pb, path, AVIO_FLAG_WRITE)
        if rc < 0 { throw MediaError(path: path, function: "avio_open", code: rc, message: "cannot create the take: \(FF.message(rc))", outputIO: true) }
        output.ctx.pointee.pb = pb
        output.ioOpen = true
        var opts: OpaquePointer? = nil
        av_dict_set(&opts, "movflags", "+frag_keyframe+empty_moov+delay_moov+default_base_moof", 0)
        av_dict_set(&opts, "frag_duration", String(TakeFile.fragmentMicroseconds), 0)
        // Each complete fragment goes to the file at once (not when libavformat's buffer fills).
        av_dict_set(&opts, "flush_packets", "1", 0)
        let hrc = avformat_write_header(output.ctx, &opts)
        av_dict_free(&opts)
        try FF.check(hrc, "avformat_write_header", path: path, outputIO: true)
    }

    /// The time base the muxer chose for stream `i` (packets must be rescaled into it).
    func timeBase(_ i: Int) -> AVRational { streams[i].pointee.time_base }

    /// Writes `packet` (timestamps in `from`, relative to the file's start) to stream `i`.
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream i: Int, from tb: AVRational) throws {
        av_packet_rescale_ts(packet, tb, streams[i].pointee.time_base)
        packet.pointee.stream_index = Int32(i)
        packet.pointee.pos = -1
        try FF.check(av_interleaved_write_frame(output.ctx, packet), "av_interleaved_write_frame", path: path, outputIO: true)
        packets += 1
    }

    /// Writes the last fragment and the trailer, and closes the file.
    func finish() throws {
        guard !finished else { return }
        finished = true
        try FF.check(av_write_trailer(output.ctx), "av_write_trailer", path: path, outputIO: true)
        try FF.check(avio_closep(&output.ctx.pointee.pb), "avio_closep", path: path, outputIO: true)
        output.ioOpen = false
    }

    /// Bytes written so far.
    var size: Int64 {
        guard output.ioOpen, let pb = output.ctx.pointee.pb else { return TakeFile.fileSize(path) ?? 0 }
        return avio_tell(pb)
    }

    static func fileSize(_ path: String) -> Int64? {
        var st = stat()
        return stat(path, &st) == 0 ? Int64(st.st_size) : nil
    }

    /// Rewrites the finished fragmented take at `path` as a plain MP4 with its index first (`+faststart`), by stream
    /// copy into a hidden temporary file beside it that is renamed over it, when the disk has room for the copy
    /// (its size again, plus 16 MiB); otherwise the take stays fragmented (it plays as it is). Returns true when
    /// rewritten.
    /// - Throws: `MediaError` when the copy fails (the fragmented take is kept).
    static func makeFaststart(_ path: String) throws -> Bool {
        guard let size = fileSize(path) else { return false }
        let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var fs = statvfs()
        guard statvfs(dir.isEmpty ? "." : dir, &fs) == 0, Int64(fs.f_bavail) * Int64(fs.f_frsize) > size + (16 << 20) else { return false }
        let temp = (dir.isEmpty ? "" : dir + "/") + ".\(URL(fileURLWithPath: path).lastPathComponent).segue-\(getpid()).faststart.tmp"
        do {
            try remux(path, to: temp)
            guard rename(temp, path) == 0 else {
                throw MediaError(path: path, function: "rename", code: -errno, message: "cannot move the rewritten take into place", outputIO: true)
            }
            return true
        } catch {
            unlink(temp)
            throw error
        }
    }

    /// Copies every packet of `source` into a plain MP4 at `path` with `+faststart`, timestamps and the display matrix
    /// as they are.
    static func remux(_ source: String, to path: String) throws {
        let input = try InputFile(path: source, policy: .default)   // the take Segue itself just wrote
        var c: UnsafeMutablePointer<AVFormatContext>? = nil
        try FF.check(avformat_alloc_output_context2(&c, nil, "mp4", path), "avformat_alloc_output_context2", path: path)
        let out = OutputFile(c!)
        let n = Int(input.ctx.pointee.nb_streams)
        for i in 0..<n {
            let st = try out.addStream(copying: input.stream(Int32(i)), path: path)
            if let m = segue_stream_display_matrix(input.stream(Int32(i))),
               let sd = av_stream_new_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, 9 * MemoryLayout<Int32>.size) {
                UnsafeMutableRawPointer(sd).copyMemory(from: m, byteCount: 9 * MemoryLayout<Int32>.size)
            }
        }
        var pb: UnsafeMutablePointer<AVIOContext>? = nil
        let rc = avio_open(&pb, path, AVIO_FLAG_WRITE)
        if rc < 0 { throw MediaError(path: path, function: "avio_open", code: rc, message: "cannot create: \(FF.message(rc))", outputIO: true) }
        out.ctx.pointee.pb = pb
        out.ioOpen = true
        var opts: OpaquePointer? = nil
        av_dict_set(&opts, "movflags", "+faststart", 0)
        let hrc = avformat_write_header(out.ctx, &opts)
        av_dict_free(&opts)
        try FF.check(hrc, "avformat_write_header", path: path, outputIO: true)
        let pkt = Packet()
        while true {
            let r = input.readPacket(pkt.ptr)
            if r == FF.eof { break }
            try FF.check(r, "av_read_frame", path: source)
            let i = Int32(pkt.ptr.pointee.stream_index)
            av_packet_rescale_ts(pkt.ptr, input.stream(i).pointee.time_base, out.ctx.pointee.streams[Int(i)]!.pointee.time_base)
            pkt.ptr.pointee.pos = -1
            try FF.check(av_interleaved_write_frame(out.ctx, pkt.ptr), "av_interleaved_write_frame", path: path, outputIO: true)
        }
        try FF.check(av_write_trailer(out.ctx), "av_write_trailer", path: path, outputIO: true)
        try FF.check(avio_closep(&out.ctx.pointee.pb), "avio_closep", path: path, outputIO: true)
        out.ioOpen = false
    }
}
