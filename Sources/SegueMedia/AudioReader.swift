import CFFmpeg
import SegueCore

/// Reads a clip's first audio stream as interleaved 32-bit float at `sampleRate` with `channels` channels in
/// FFmpeg's default layout for that count (libswresample converts from any layout and rate, downmixing 5.1 and
/// duplicating mono), sequentially from a source time.
///
/// Source time is measured from the clip's first *video* frame, so audio stays in step with the pictures:
/// sample `k` returned is the audio at source time `start + k / sampleRate`. Where the stream has no audio
/// there (before its first packet, after its end) the reader returns silence.
public final class AudioReader {
    public let path: String
    public let sampleRate: Int32
    public let channels: Int
    let file: InputFile
    let streamIndex: Int32
    let timeBase: AVRational
    let decoder: Decoder
    let resampler: OpaquePointer
    let packet = Packet()
    let frame = Frame()
    var ended = false
    var drained = false
    /// Converted samples not yet returned, interleaved.
    var buffer: [Float] = []
    /// Output samples still to drop (positive) or silence still to insert (negative) to reach the start.
    var skip: Int64 = 0
    var started = false
    var failures = 0
    let startTime: MediaTime

    /// Opens the best audio stream of `path`, positioned at `start` seconds after `videoOrigin`
    /// (the absolute time of the clip's first video frame). Throws `MediaError`; returns nil if the file has no audio.
    public init?(path: String, videoOrigin: MediaTime, start: MediaTime, sampleRate: Int32 = 48000, channels: Int = 2) throws {
        _ = FF.setup
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        file = try InputFile(path: path)
        guard let ai = file.bestStream(AVMEDIA_TYPE_AUDIO) else { return nil }
        streamIndex = ai
        let st = file.stream(ai)
        timeBase = st.pointee.time_base
        decoder = try Decoder(stream: st, path: path, threads: 1)
        for i in 0..<Int32(file.ctx.pointee.nb_streams) where i != ai { file.stream(i).pointee.discard = AVDISCARD_ALL }
        startTime = videoOrigin + start
        var swr: OpaquePointer? = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        var inLayout = AVChannelLayout()
        if decoder.ctx.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || decoder.ctx.pointee.ch_layout.nb_channels == 0 {
            av_channel_layout_default(&inLayout, max(1, decoder.ctx.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inLayout, &decoder.ctx.pointee.ch_layout)
        }
        try FF.check(swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLT, sampleRate,
                                         &inLayout, decoder.ctx.pointee.sample_fmt, decoder.ctx.pointee.sample_rate, 0, nil),
                     "swr_alloc_set_opts2", path: path)
        av_channel_layout_uninit(&inLayout)
        av_channel_layout_uninit(&outLayout)
        guard let r = swr else { throw MediaError(path: path, function: "swr_alloc_set_opts2", message: "out of memory") }
        resampler = r
        try FF.check(swr_init(r), "swr_init", path: path)
        // Seek a little before the start; the exact position is fixed by sample counting from the first frame's PTS.
        if MediaTime(value: 1, timescale: 2) < start {
            let target = (startTime - MediaTime(value: 1, timescale: 2)).floored(toUnitsOf: Int64(timeBase.den), per: Int64(timeBase.num))
            if av_seek_frame(file.ctx, ai, target, AVSEEK_FLAG_BACKWARD) >= 0 { avcodec_flush_buffers(decoder.ctx) }
        }
    }
    deinit {
        var r: OpaquePointer? = resampler
        swr_free(&r)
    }

    /// The next `count` samples, interleaved (`channels × count` floats), silence past the end.
    public func read(_ count: Int) throws -> [Float] {
        var out = try readAvailable(count)
        if out.count < count * channels { out += [Float](repeating: 0, count: count * channels - out.count) }
        return out
    }

    /// Up to `count` samples, interleaved; fewer only at the end of the stream (empty once it has ended).
    public func readAvailable(_ count: Int) throws -> [Float] {
        while buffer.count < count * channels && !drained {
            try decodeMore()
        }
        let n = min(buffer.count, count * channels)
        let out = Array(buffer[0..<n])
        buffer.removeFirst(n)
        return out
    }

    func decodeMore() throws {
        let rc = avcodec_receive_frame(decoder.ctx, frame.ptr)
        if rc == 0 {
            defer { av_frame_unref(frame.ptr) }
            if !started {
                started = true
                var pts = frame.ptr.pointee.best_effort_timestamp
                if pts == FF.noPTS { pts = frame.ptr.pointee.pts }
                let t = pts == FF.noPTS ? startTime : MediaTime(value: pts * Int64(timeBase.num), timescale: Int64(timeBase.den))
                // Samples of output between the first decoded sample and the wanted start.
                skip = (startTime - t).rounded(toUnitsOf: Int64(sampleRate))
                if skip < 0 { buffer += [Float](repeating: 0, count: Int(-skip) * channels); skip = 0 }
            }
            try convert(frame.ptr.pointee.extended_data.map { UnsafeMutablePointer<UnsafePointer<UInt8>?>(OpaquePointer($0)) }, count: frame.ptr.pointee.nb_samples)
            return
        }
        if rc == FF.eof {
            // Flush the resampler.
            try convert(nil, count: 0)
            drained = true
            return
        }
        if rc != FF.eagain {
            // Undecodable audio: skip it (silence is better than a failed render); give up after many in a row.
            failures += 1
            if failures > 1000 { drained = true }
            return
        }
        failures = 0
        if ended { drained = true; return }
        while true {
            if av_read_frame(file.ctx, packet.ptr) < 0 { ended = true; avcodec_send_packet(decoder.ctx, nil); return }
            defer { av_packet_unref(packet.ptr) }
            if packet.ptr.pointee.stream_index != streamIndex { continue }
            _ = avcodec_send_packet(decoder.ctx, packet.ptr)  // a corrupt packet is skipped
            return
        }
    }

    func convert(_ input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32) throws {
        let capacity = Int(swr_get_out_samples(resampler, count)) + 32
        var out = [Float](repeating: 0, count: capacity * channels)
        let got: Int32 = try out.withUnsafeMutableBytes { raw in
            var ptr: UnsafeMutablePointer<UInt8>? = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return try withUnsafeMutablePointer(to: &ptr) { pp in
                try FF.check(swr_convert(resampler, pp, Int32(capacity), input, count), "swr_convert", path: path)
            }
        }
        var produced = Int(got)
        var offset = 0
        if skip > 0 {
            let drop = min(Int64(produced), skip)
            skip -= drop
            offset = Int(drop)
            produced -= Int(drop)
        }
        if produced > 0 { buffer += out[(offset * channels)..<((offset + produced) * channels)] }
    }
}

/// The length of a media file as its container reports it (`AVFormatContext.duration`); nil if unknown.
/// Throws `MediaError` if the file cannot be opened.
public func mediaDuration(path: String) throws -> MediaTime? {
    let file = try InputFile(path: path)
    let d = file.ctx.pointee.duration
    return d > 0 ? MediaTime(value: d, timescale: 1_000_000) : nil
}
