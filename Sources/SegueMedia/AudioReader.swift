import CFFmpeg
import SegueCore

/// Reads one audio stream of a clip as interleaved 32-bit float at `sampleRate` with `channels` channels in
/// FFmpeg's default layout for that count, sequentially from a source time. libswresample does the rate
/// conversion and the rematrixing, with FFmpeg's matrices except for mono (see `rematrix`).
///
/// Source time is measured from the clip's first *video* frame, so audio stays in step with the pictures:
/// sample `k` returned is the audio at source time `start + k / sampleRate`. Where the stream has no audio
/// there (before its first packet, after its end) the reader returns silence.
///
/// Joins: the resampler is never started or ended inside the stream. The reader decodes from at least 0.5 s
/// before `start` (from the file's beginning when `start` is earlier) and drops the converted samples before it,
/// so the filter has history at the in point; it reads on past the clip's out point for the same reason. Only at
/// the stream's own ends does the filter see silence: before the first sample (libswresample's zero history),
/// and after the last one, where the reader feeds the resampler silence (`swr_inject_silence`) before flushing
/// it instead of letting it mirror the last samples (`resample_flush`'s reflection, which bent a 1 kHz tone
/// ending at a zero crossing to −0.46 of its amplitude on the last output samples of an 8 kHz clip), and keeps
/// `ceil(n × sampleRate / inputRate)` output samples for `n` decoded input samples.
///
/// Placement: libswresample's first output sample is at the time of its first input sample (its filter starts
/// with half a filter length of zero history and holds output back rather than delaying it: `swr_get_delay`
/// counts the held input), so output sample `k` after the first decoded frame is at that frame's PTS
/// `+ k / sampleRate`; the samples before `start` are dropped by that count (`round((start − PTS) × sampleRate)`).
public final class AudioReader {
    public let path: String
    public let sampleRate: Int32
    public let channels: Int
    /// The audio track read: an index among the file's audio streams (0 = the first audio stream).
    public let track: Int
    let file: InputFile
    let streamIndex: Int32
    let timeBase: AVRational
    let decoder: Decoder
    let resampler: OpaquePointer
    let inputRate: Int64
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
    /// Decoded input samples given to the resampler, and converted samples it returned (before `skip`).
    var inputSamples: Int64 = 0
    var outputSamples: Int64 = 0
    let startTime: MediaTime

    /// Opens audio track `track` of `path` (an index among its audio streams; nil: the first stream flagged
    /// default, else the first), positioned at `start` seconds after `videoOrigin` (the absolute time of the
    /// clip's first video frame). Throws `MediaError` (also for a track the file does not have); returns nil if
    /// the file has no audio. The file is opened under `policy` (`InputRefused` when it refuses it).
    public init?(path: String, videoOrigin: MediaTime, start: MediaTime, sampleRate: Int32 = 48000, channels: Int = 2,
                 track: Int? = nil, policy: InputPolicy = .default) throws {
        _ = FF.setup
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
        file = try InputFile(path: path, policy: policy)
        let streams = file.audioStreams
        guard let chosen = track ?? file.defaultAudioTrack else { return nil }
        guard streams.indices.contains(chosen) else {
            throw MediaError(path: path, function: nil, message: "has \(streams.count) audio stream(s), no audio track \(chosen)")
        }
        self.track = chosen
        let ai = streams[chosen]
        streamIndex = ai
        let st = file.stream(ai)
        timeBase = st.pointee.time_base
        decoder = try Decoder(stream: st, path: path, threads: 1)
        for i in 0..<Int32(file.ctx.pointee.nb_streams) where i != ai { file.stream(i).pointee.discard = AVDISCARD_ALL }
        startTime = videoOrigin + start
        inputRate = Int64(decoder.ctx.pointee.sample_rate)
        resampler = try AudioReader.resampler(from: decoder.ctx, rate: sampleRate, channels: channels, path: path)
        // Seek a little before the start; the exact position is fixed by sample counting from the first frame's PTS.
        if MediaTime(value: 1, timescale: 2) < start {
            let target = (startTime - MediaTime(value: 1, timescale: 2)).floored(toUnitsOf: Int64(timeBase.den), per: Int64(timeBase.num))
            if av_seek_frame(file.ctx, ai, target, AVSEEK_FLAG_BACKWARD) >= 0 { avcodec_flush_buffers(decoder.ctx) }
        }
    }

    /// A started libswresample context from `dec`'s samples (its rate, format and layout) to interleaved float at
    /// `rate` Hz in `channels` channels (FFmpeg's default layout for that count), with Segue's rematrixing
    /// (`rematrix`); the caller owns it (`swr_free`). Used by the render's `AudioReader` and recording's
    /// `LiveResampler`, so a take and a render mix a source alike.
    /// - Throws: `MediaError` naming the libswresample function and `path`.
    static func resampler(from dec: UnsafeMutablePointer<AVCodecContext>, rate: Int32, channels: Int, path: String) throws -> OpaquePointer {
        var swr: OpaquePointer? = nil
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&outLayout, Int32(channels))
        defer { av_channel_layout_uninit(&outLayout) }
        var inLayout = AVChannelLayout()
        defer { av_channel_layout_uninit(&inLayout) }
        let inChannels = dec.pointee.ch_layout.nb_channels
        if dec.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || inChannels <= 1 {
            // Unordered channels get the default layout for their count; any single channel is mono (FC).
            av_channel_layout_default(&inLayout, max(1, inChannels))
        } else {
            av_channel_layout_copy(&inLayout, &dec.pointee.ch_layout)
        }
        try FF.check(swr_alloc_set_opts2(&swr, &outLayout, AV_SAMPLE_FMT_FLT, rate, &inLayout, dec.pointee.sample_fmt, dec.pointee.sample_rate, 0, nil),
                     "swr_alloc_set_opts2", path: path)
        guard let r = swr else { throw MediaError(path: path, function: "swr_alloc_set_opts2", message: "out of memory") }
        do {
            if let matrix = try rematrix(from: &inLayout, to: &outLayout, path: path) {
                try FF.check(swr_set_matrix(r, matrix, 1), "swr_set_matrix", path: path)
            }
            try FF.check(swr_init(r), "swr_init", path: path)
        } catch {
            swr_free(&swr)
            throw error
        }
        return r
    }

    /// The rematrixing Segue uses instead of libswresample's default, or nil to keep the default.
    ///
    /// Mono goes at full level into the front left and right channels of an output without a centre channel
    /// (stereo: `L = R = M`), as AVFoundation and players play a mono file; libswresample's own matrix
    /// (`swr_build_matrix2`) puts it there at −3 dB (`M_SQRT1_2`, fixed for an input without left and right, so
    /// `center_mix_level` cannot change it). Every other case keeps FFmpeg's matrix: mono into the centre of a layout
    /// that has one; 5.1 into stereo as `L = FL + 0.707·FC + 0.707·(BL or SL)` (R likewise), LFE dropped, not
    /// normalised (float output), following ITU-R BS.775.
    /// - Returns: an output-channels × 1 matrix (stride 1) for a mono input, else nil.
    static func rematrix(from input: inout AVChannelLayout, to output: inout AVChannelLayout, path: String) throws -> [Double]? {
        guard input.nb_channels == 1,
              av_channel_layout_index_from_channel(&output, AV_CHAN_FRONT_CENTER) < 0,
              av_channel_layout_index_from_channel(&output, AV_CHAN_FRONT_LEFT) >= 0 else { return nil }
        // swr_build_matrix2 may write past nb_out × nb_in entries (valgrind saw a write one double past a stereo
        // output's two): let it fill a full SWR_CH_MAX × SWR_CH_MAX table, then take column 0 (the mono input).
        let maxChannels = 64
        var table = [Double](repeating: 0, count: maxChannels * maxChannels)
        try FF.check(swr_build_matrix2(&input, &output, 0.5.squareRoot(), 0.5.squareRoot(), 0, 1, 1, &table, maxChannels,
                                       AV_MATRIX_ENCODING_NONE, nil), "swr_build_matrix2", path: path)
        var matrix = (0..<Int(output.nb_channels)).map { table[maxChannels * $0] }
        for ch in [AV_CHAN_FRONT_LEFT, AV_CHAN_FRONT_RIGHT] {
            let k = av_channel_layout_index_from_channel(&output, ch)
            if k >= 0 { matrix[Int(k)] = 1 }
        }
        return matrix
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
            // The stream ends: silence after its last sample, then flush the resampler.
            try FF.check(swr_inject_silence(resampler, Int32(max(1024, inputRate / 20))), "swr_inject_silence", path: path)
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
            if file.readPacket(packet.ptr) < 0 { ended = true; avcodec_send_packet(decoder.ctx, nil); return }
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
        if input != nil { inputSamples += Int64(count) }
        // Keep the samples up to the end of the decoded input (the rest is the filter's tail into the silence).
        let end = (inputSamples * Int64(sampleRate) + inputRate - 1) / inputRate
        var produced = Int(max(0, min(Int64(got), end - outputSamples)))
        outputSamples += Int64(produced)
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
/// Throws `MediaError` if the file cannot be opened, `InputRefused` if `policy` refuses it.
public func mediaDuration(path: String, policy: InputPolicy = .default) throws -> MediaTime? {
    let file = try InputFile(path: path, policy: policy)
    let d = file.ctx.pointee.duration
    return d > 0 ? MediaTime(value: d, timescale: 1_000_000) : nil
}

/// What an audio track's item needs to know about its file: for a file with video, `probeSource`'s description (so
/// that `start` counts from its first video frame, as the same clip's audio on a video track does); for an
/// audio-only file (M4A, MP3, WAV, …), its audio: duration from the first audio sample, the audio streams, and the
/// first sample's time as the origin. Throws `MediaError` (unreadable, or no audio stream: "has no audio stream").
public func probeAudioSource(path: String, policy: InputPolicy = .default) throws -> SourceInfo {
    let file = try InputFile(path: path, policy: policy)
    guard !file.audioStreams.isEmpty else {
        throw MediaError(path: path, function: nil, message: file.bestStream(AVMEDIA_TYPE_VIDEO) == nil ? "has no audio stream"
                         : "has no audio stream: it is a picture or a silent video, which goes on a video track (\"clips\" or \"tracks\"), not an audio track")
    }
    if file.bestStream(AVMEDIA_TYPE_VIDEO) != nil, let info = try? probeSource(path: path, policy: policy) { return info }
    let track = file.defaultAudioTrack ?? 0
    let st = file.stream(file.audioStreams[track])
    let tb = st.pointee.time_base
    let start = st.pointee.start_time != FF.noPTS ? MediaTime(value: st.pointee.start_time * Int64(tb.num), timescale: Int64(tb.den)) : .zero
    var duration: MediaTime
    if st.pointee.duration > 0 && st.pointee.duration != FF.noPTS {
        duration = MediaTime(value: st.pointee.duration * Int64(tb.num), timescale: Int64(tb.den))
    } else if file.ctx.pointee.duration > 0 {
        duration = MediaTime(value: file.ctx.pointee.duration, timescale: 1_000_000)
    } else {
        throw MediaError(path: path, function: nil, message: "the audio's length is unknown (the file says none)")
    }
    var info = SourceInfo(codedSize: PixelSize(width: 0, height: 0), nominalFrameRate: nil, duration: duration, hasAudio: true)
    info.audioTrackCount = file.audioStreams.count
    info.defaultAudioTrack = file.defaultAudioTrack
    info.firstFrameTime = start
    return info
}
