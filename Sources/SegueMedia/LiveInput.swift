import CFFmpeg
import Foundation
import Synchronization
import SegueCore

/// What stops a blocking libavformat call of a live input: `stop()` (the take ends), or a deadline passing with no
/// packet (`--timeout`). Read by FFmpeg's interrupt callback (`AVIOInterruptCB`), which protocols and devices poll
/// while they wait (UDP every 100 ms, TCP/SRT/RTSP in their poll loops).
final class InterruptState: Sendable {
    let stopped = Atomic(false)
    /// `DispatchTime` uptime nanoseconds after which the call is interrupted; 0: none.
    let deadline = Atomic<UInt64>(0)

    func arm(seconds: Double) {
        deadline.store(DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9), ordering: .relaxed)
    }
    var timedOut: Bool {
        let d = deadline.load(ordering: .relaxed)
        return d != 0 && DispatchTime.now().uptimeNanoseconds > d
    }
    var shouldInterrupt: Bool { stopped.load(ordering: .relaxed) || timedOut }
}

/// One opened live source: its demuxer (`AVFormatContext`, closed in deinit), the best video and audio streams, and
/// blocking reads that `InterruptState` can stop. Paced sources (`CaptureSource.isPaced`) are read in real time at their timestamps.
final class LiveInput {
    let source: CaptureSource
    let ctx: UnsafeMutablePointer<AVFormatContext>
    let interrupt: InterruptState
    let videoIndex: Int32?
    let audioIndex: Int32?
    /// For pacing a generator: the first packet's time (µs) and when it was read.
    private var paceOrigin: (pts: Int64, wall: UInt64)?

    /// Opens `source` and reads its stream parameters (`avformat_find_stream_info`), giving up after `timeout` seconds
    /// without data or when `interrupt` is stopped.
    /// - Throws: `MediaError` naming the source: it cannot be opened, it sent nothing for `timeout` seconds (code
    ///   `AVERROR_EXIT`, `timedOut` true), it has neither video nor audio.
    init(_ source: CaptureSource, timeout: Double, interrupt: InterruptState) throws {
        _ = FF.setup
        _ = LiveInput.registerDevices
        self.source = source
        self.interrupt = interrupt
        guard let c = avformat_alloc_context() else { throw MediaError(path: source.spec, function: "avformat_alloc_context", message: "out of memory") }
        c.pointee.interrupt_callback = AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<InterruptState>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
        }, opaque: Unmanaged.passUnretained(interrupt).toOpaque())
        var format: UnsafePointer<AVInputFormat>? = nil
        if let name = source.format {
            format = av_find_input_format(name)
            guard format != nil else {
                avformat_free_context(c)
                throw MediaError(path: source.spec, function: "av_find_input_format", message: "this FFmpeg has no \(name) input device")
            }
        }
        var opts: OpaquePointer? = nil
        for (k, v) in source.options.sorted(by: { $0.key < $1.key }) { av_dict_set(&opts, k, v, 0) }
        defer { av_dict_free(&opts) }
        interrupt.arm(seconds: timeout)
        var ctxp: UnsafeMutablePointer<AVFormatContext>? = c
        let rc = FFmpegLog.reading(source.spec) { avformat_open_input(&ctxp, source.url, format, &opts) }
        guard rc >= 0, let opened = ctxp else {   // avformat_open_input freed the context
            throw LiveInput.failure(source, interrupt, "avformat_open_input", rc, timeout: timeout, what: "cannot open")
        }
        ctx = opened
        ctx.pointee.max_analyze_duration = 2_000_000
        let src = FFmpegLog.reading(source.spec) { avformat_find_stream_info(opened, nil) }
        if src < 0 {
            let e = LiveInput.failure(source, interrupt, "avformat_find_stream_info", src, timeout: timeout, what: "cannot read the stream's parameters")
            var p: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&p)
            throw e
        }
        let v = av_find_best_stream(ctx, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let a = av_find_best_stream(ctx, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        videoIndex = v >= 0 ? v : nil
        audioIndex = a >= 0 ? a : nil
        if videoIndex == nil && audioIndex == nil {
            var p: UnsafeMutablePointer<AVFormatContext>? = ctx
            avformat_close_input(&p)
            throw MediaError(path: source.spec, function: nil, message: "has neither video nor audio")
        }
        for i in 0..<Int32(ctx.pointee.nb_streams) where i != videoIndex && i != audioIndex { stream(i).pointee.discard = AVDISCARD_ALL }
    }

    private var closed = false
    deinit { close() }

    /// Closes the demuxer and its protocol (`avformat_close_input`) now rather than when the last reference goes: a
    /// network protocol's own threads (libsrt's garbage collector) must end before the process does. Only once no
    /// thread reads from it; any number of times.
    func close() {
        guard !closed else { return }
        closed = true
        var p: UnsafeMutablePointer<AVFormatContext>? = ctx
        avformat_close_input(&p)
    }

    static let registerDevices: Void = { avdevice_register_all() }()

    func stream(_ i: Int32) -> UnsafeMutablePointer<AVStream> { ctx.pointee.streams[Int(i)]! }

    /// The error for a failed open or read: a timeout or a stop says so in words.
    static func failure(_ source: CaptureSource, _ interrupt: InterruptState, _ function: String, _ rc: Int32, timeout: Double,
                        what: String) -> MediaError {
        if rc == segue_averror_exit() && interrupt.timedOut {
            return MediaError(path: source.spec, function: function, code: rc,
                              message: "sent nothing for \(LiveInput.seconds(timeout)) s (--timeout): is the source running and the address right?")
        }
        if rc == segue_averror_exit() && interrupt.stopped.load(ordering: .relaxed) {
            return MediaError(path: source.spec, function: function, code: rc, message: "stopped before the source sent anything")
        }
        return MediaError(path: source.spec, function: function, code: rc, message: "\(what): \(FF.message(rc))")
    }

    static func seconds(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(format: "%.1f", s) }

    /// Reads the next packet of the video or audio stream into `packet` (others are skipped), waiting at most until the
    /// interrupt's deadline. Returns 0, or a negative AVERROR (`AVERROR_EOF` at the source's end, `AVERROR_EXIT`
    /// when interrupted).
    func read(_ packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        while true {
            let rc = FFmpegLog.reading(source.spec) { av_read_frame(ctx, packet) }
            if rc < 0 { return rc }
            let i = packet.pointee.stream_index
            if i == videoIndex || i == audioIndex {
                if source.isPaced { pace(packet) }
                return 0
            }
            av_packet_unref(packet)
        }
    }

    /// Sleeps until a paced source's packet is due (its time since the first packet, in real time).
    private func pace(_ packet: UnsafeMutablePointer<AVPacket>) {
        let ts = packet.pointee.pts != FF.noPTS ? packet.pointee.pts : packet.pointee.dts
        guard ts != FF.noPTS else { return }
        let us = av_rescale_q(ts, stream(packet.pointee.stream_index).pointee.time_base, AVRational(num: 1, den: 1_000_000))
        let now = DispatchTime.now().uptimeNanoseconds
        guard let o = paceOrigin else { paceOrigin = (us, now); return }
        let due = o.wall + UInt64(max(0, us - o.pts)) * 1000
        while DispatchTime.now().uptimeNanoseconds < due && !interrupt.stopped.load(ordering: .relaxed) {
            usleep(UInt32(min(20_000, (due - min(due, DispatchTime.now().uptimeNanoseconds)) / 1000 + 1)))
        }
    }
}
