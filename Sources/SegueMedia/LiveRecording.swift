import CFFmpeg
import Foundation
import Synchronization
import SegueCore

/// Records live sources into a take: `segue record`'s engine, `CaptureSession`'s underneath.
///
/// Each source is read on a thread of its own (blocking libavformat reads, stopped by `stop()` or `--timeout`
/// through FFmpeg's interrupt callback); the recording's thread takes their packets in arrival order and
/// - joins the stream at its first video keyframe (no undecodable frames first): that keyframe is time 0 of the take,
///   audio before it is dropped, audio of the same source keeps its offset from the video (A/V sync from the
///   source's timestamps); a second source (a microphone beside a camera) is placed by when its first packet came;
/// - keeps the timestamps continuous over jumps and wraps (`InputClock`), counts frames missing from the
///   timestamps, late, undecodable, or dropped to keep up;
/// - copies video (H.264, HEVC, AV1, VP9) and audio (AAC, MP3, Opus, FLAC, ALAC, AC-3) as they come when nothing is
///   asked of them, else decodes and re-encodes (libx264 at `--preset`, AAC), drawing each frame through the
///   `LiveVideoProcessor` (`--square`, `--size`) or only converting it to 4:2:0;
/// - writes crash-safe fragmented MP4, split at keyframes with `--segment` (`TakeSegmenter`), and a JPEG preview once
///   a second (`PreviewWriter`), in the formats `RecordingFormat` names, through the one output owner (`OutputFile`,
///   `Encoder`) that renders use too.
///
/// `run()` blocks until the take ends: `duration`, `stop()`, the source's end, or `timeout` seconds without data.
public final class LiveRecording: @unchecked Sendable {
    // @unchecked Sendable: `stop()` (any thread) touches only `stopRequested` and the `InterruptState`s, which are
    // atomic; everything else is used on the thread that calls `run()` (and each reader thread its own input).
    public let sources: [CaptureSource]
    public let output: String
    public let settings: RecordingSettings
    /// What the take and its preview are written as.
    let format: RecordingFormat
    let processor: LiveVideoProcessor?
    let log: @Sendable (String) -> Void
    let progress: (@Sendable (RecordingProgress) -> Void)?
    let interrupts: [InterruptState]
    let stopRequested = Atomic(false)
    let queue = LiveEventQueue()
    /// The reader threads still running (`startReader` enters, each leaves when its loop returns).
    let readers = DispatchGroup()

    /// Checks the sources, the output name and the settings; opens nothing.
    /// - Parameters:
    ///   - output: an `.mp4` (`.m4v`, `.mov`) name, with one `%d` pattern (`take_%03d.mp4`) when `settings.segment` is set.
    ///   - processor: draws each frame (`--square`, `--size`, `--fps`); nil keeps the frames as they are.
    /// - Throws: `UsageError` (no source, a bad name, a name that exists, settings out of range).
    public init(sources: [CaptureSource], output: String, settings: RecordingSettings, processor: LiveVideoProcessor? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }, progress: (@Sendable (RecordingProgress) -> Void)? = nil) throws {
        guard !sources.isEmpty else { throw UsageError("give a source to record (v4l2:/dev/video0, alsa:default, a stream URL, …)") }
        let format = RecordingFormat.mp4, take = format.take
        guard take.accepts(fileName: output) else {
            throw UsageError("a take is written as \(take.containerName): give -o a .\(take.extensions[0]) name (got \(output))")
        }
        if let s = settings.segment {
            guard s > 0, s.isFinite else { throw UsageError("--segment must be a number of seconds > 0") }
            guard TakeSegmenter.isPattern(output) else {
                throw UsageError("--segment writes several files: give -o a name with one %d pattern, e.g. take_%03d.mp4 (got \(output))")
            }
        } else if output.contains("%") {
            throw UsageError("a %d pattern in the output name needs --segment SECONDS (got \(output))")
        }
        if let d = settings.duration { guard d > 0, d.isFinite else { throw UsageError("--duration must be a number of seconds > 0") } }
        guard settings.timeout > 0, settings.timeout.isFinite else { throw UsageError("--timeout must be a number of seconds > 0") }
        let first = settings.segment == nil ? output : TakeSegmenter.format(output, 0)
        if FileManager.default.fileExists(atPath: first) {
            throw UsageError("\(first) exists already: a take is never written over another file; choose another name or remove it")
        }
        let dir = URL(fileURLWithPath: first).deletingLastPathComponent().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw UsageError("the output folder \(dir) does not exist")
        }
        if let p = settings.preview, !format.previewExtensions.contains(OutputFormat.fileExtension(p)) {
            throw UsageError("the preview is a JPEG: give --preview a .\(format.previewExtensions[0]) name (got \(p))")
        }
        self.sources = sources
        self.output = output
        self.settings = settings
        self.format = format
        self.processor = processor
        self.log = log
        self.progress = progress
        interrupts = sources.map { _ in InterruptState() }
    }

    /// Ends the take: the sources stop, what they sent is written, the files are finished. From any thread, any
    /// number of times (a signal handler's dispatch source, another task).
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        for i in interrupts { i.stopped.store(true, ordering: .relaxed) }
    }

    /// Opens the sources and records until the take ends; returns what was written.
    /// - Throws: `MediaError` (a source cannot be opened or sends nothing for `timeout` seconds before the take
    ///   starts, nothing could be recorded, the output cannot be written), `UsageError` (two video sources),
    ///   what the processor throws (`GPUError`). A take that has started is finished before an error is thrown.
    public func run() throws -> RecordingResult {
        var inputs: [LiveInput] = []
        for (k, s) in sources.enumerated() {
            if stopRequested.load(ordering: .relaxed) { throw MediaError(path: s.spec, function: nil, message: "stopped before recording started") }
            inputs.append(try LiveInput(s, timeout: settings.timeout, interrupt: interrupts[k]))
        }
        let withVideo = inputs.indices.filter { inputs[$0].videoIndex != nil }
        guard withVideo.count <= 1 else {
            throw UsageError("give one video source (\(withVideo.map { sources[$0].spec }.joined(separator: " and ")) both have video) and, beside it, an audio source")
        }
        let videoInput = withVideo.first
        // A separate audio source (a microphone) wins over the camera's own sound.
        let audioInput = inputs.indices.first { inputs[$0].videoIndex == nil && inputs[$0].audioIndex != nil }
            ?? videoInput.flatMap { inputs[$0].audioIndex != nil ? $0 : nil }
        let take = try LiveTake(recording: self, inputs: inputs, videoInput: videoInput, audioInput: audioInput)
        for k in inputs.indices where k == videoInput || k == audioInput { startReader(k, inputs[k]) }
        let result = Result { try take.record() }
        // The processor's renderer (an EGL display and context) is freed here, on the thread that drew with it: left
        // to whichever thread last releases the recording, eglTerminate raced libEGL's own exit handlers (a heap
        // corruption seen about one exit in 15 under load).
        processor?.finish()
        // The readers end (stopped through the interrupt callback) before the sources are closed, and the sources are
        // closed before this returns: a process that exits right after must not leave a protocol's threads running
        // (libsrt's garbage collector crashes an exiting process). A reader stuck in a read that never polls the
        // interrupt is not waited for more than a few seconds; its source is then left to the reader.
        stop()
        if readers.wait(timeout: .now() + 5) == .success {
            var reopened: [LiveInput] = []
            while let event = queue.pop(timeout: 0) { if case .reopened(_, let box) = event { reopened.append(box.input) } }
            for input in inputs + take.inputs + reopened { input.close() }
        }
        return try result.get()
    }

    /// Reads input `k` on a thread of its own into `queue` until it ends or the recording stops; with `reconnect`, a
    /// network source that fails or ends is reopened until `timeout` seconds have passed without a packet.
    func startReader(_ k: Int, _ first: LiveInput) {
        let box = LiveInputBox(first)
        readers.enter()
        let t = Thread { [self] in
            read(k, box)
            readers.leave()
        }
        t.name = "segue-record-\(k)"
        t.start()
    }

    /// Reader `k`'s loop (see `startReader`); returns when the source has ended for good or the recording stops.
    private func read(_ k: Int, _ box: LiveInputBox) {
        var input = box.input
        var lastPacket = DispatchTime.now().uptimeNanoseconds
        let interrupt = interrupts[k]
        reading: while !stopRequested.load(ordering: .relaxed) {
            interrupt.arm(seconds: settings.timeout)
            let p = Packet()
            let rc = input.read(p.ptr)
            if rc >= 0 {
                lastPacket = DispatchTime.now().uptimeNanoseconds
                queue.push(.packet(input: k, p, arrival: lastPacket))
                continue
            }
            if stopRequested.load(ordering: .relaxed) { break }
            let timedOut = rc == segue_averror_exit() && interrupt.timedOut
            let error: MediaError? = rc == FF.eof ? nil : LiveInput.failure(sources[k], interrupt, "av_read_frame", rc, timeout: settings.timeout, what: "read failed")
            if settings.reconnect && sources[k].isNetwork {
                log("segue: \(sources[k].spec): \(error.map { $0.message } ?? "the stream ended"); reconnecting")
                let deadline = lastPacket + UInt64(settings.timeout * 1e9)
                while !stopRequested.load(ordering: .relaxed) && DispatchTime.now().uptimeNanoseconds < deadline {
                    let left = Double(deadline - min(deadline, DispatchTime.now().uptimeNanoseconds)) / 1e9
                    if let again = try? LiveInput(sources[k], timeout: max(0.5, left), interrupt: interrupt) {
                        input = again
                        queue.push(.reopened(input: k, LiveInputBox(again)))
                        continue reading
                    }
                    usleep(300_000)
                }
                if stopRequested.load(ordering: .relaxed) { break }
                queue.push(.ended(input: k, error ?? MediaError(path: sources[k].spec, function: nil, message: "could not reconnect"), timedOut: true))
                return
            }
            queue.push(.ended(input: k, error, timedOut: timedOut))
            return
        }
        queue.push(.ended(input: k, nil, timedOut: false))
    }
}
