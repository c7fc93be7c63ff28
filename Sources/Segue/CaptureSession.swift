import Foundation
import Synchronization
import SegueCore
import SegueMedia
import SeguePipeline

/// Where a take is: seconds recorded, bytes written, frames, dropped and late frames, the file being written.
public typealias RecordingProgress = SegueMedia.RecordingProgress
/// What a finished take wrote: its files, seconds, frames, what was dropped, whether it was copied, why it ended.
public typealias RecordingResult = SegueMedia.RecordingResult
/// Why a take ended: its duration, `stop()`, the source's end, or the source falling silent for `timeout` seconds.
public typealias RecordingEnd = SegueMedia.RecordingEnd
/// `high`, `medium`, `low`: libx264's veryfast, superfast, ultrafast at a bit rate scaled from 8, 5 and 2.5 Mb/s at
/// 1080p30 (the seeds' `sessionPreset`).
public typealias LivePreset = SegueMedia.LivePreset

/// How a `CaptureSession` records (the `segue record` options).
public struct CaptureOptions: Sendable {
    /// Stop after this many seconds (nil: until `stop()` or the source ends).
    public var duration: Double?
    /// A new file at the first keyframe at or after every this many seconds; the output name holds a `%d` pattern.
    public var segment: Double?
    /// A square of the source's short side after rotation, cropped from the middle (re-encodes).
    public var square = false
    /// Scale and crop to fill this size (re-encodes).
    public var size: PixelSize?
    /// A constant output frame rate (re-encodes).
    public var frameRate: FrameRate?
    /// Encoder settings of what is re-encoded (default `.medium`).
    public var preset: LivePreset = .medium
    /// A JPEG rewritten with the latest frame once a second.
    public var preview: String?
    /// Reopen a network source that fails and go on with the same take.
    public var reconnect = false
    /// Give up a source that sends nothing for this many seconds (default 10).
    public var timeout: Double = 10
    /// Rewrite each finished file with its index first (`+faststart`) when the disk has room (default true).
    public var faststart = true
    /// The renderer and GPU that draw processed frames.
    public var backend: Backend = .auto
    public var gpu = EGLOptions()
    /// Log what was chosen (copy or re-encode, the renderer).
    public var verbose = false
    /// Where messages go, one line each (default: nowhere).
    public var log: @Sendable (String) -> Void = { _ in }
    public init() {}

    var recordOptions: RecordOptions {
        var o = RecordOptions()
        o.recording.duration = duration
        o.recording.segment = segment
        o.recording.frameRate = frameRate
        o.recording.preset = preset
        o.recording.preview = preview
        o.recording.reconnect = reconnect
        o.recording.timeout = timeout
        o.recording.faststart = faststart
        o.square = square
        o.size = size
        o.render.backend = backend
        o.render.egl = gpu
        o.render.verbose = verbose
        o.render.log = log
        return o
    }
}

/// Records cameras, microphones, screens and live streams into crash-safe MP4 takes, as `AVCaptureSession` with an
/// `AVCaptureMovieFileOutput` does: create it, `start()` it (it returns when the take ends), `stop()` it from
/// anywhere, read `progress` meanwhile.
///
/// ```swift
/// let session = CaptureSession(sources: ["srt://127.0.0.1:9000"], outputPath: "take.mp4")
/// let take = Task { try await session.start() }
/// for await p in session.progress { print(p.seconds, p.bytes) }   // ends with the take
/// session.stop()                                                   // or cancel `take`, or a duration
/// let result = try await take.value
/// ```
///
/// Sources are those of `segue record` (`CaptureSource`). The take is written as fragmented MP4 as it comes (a crash
/// keeps all but the last two seconds), and rewritten with its index first when it ends normally. Cancelling the
/// task that runs `start()` stops the take like `stop()`: it is finished, not thrown away. One session records once.
public final class CaptureSession: Sendable {
    public let sources: [String]
    /// The take's file (`.mp4`), with a `%d` pattern when `options.segment` is set.
    public let outputPath: String
    public let options: CaptureOptions
    /// Progress about twice a second, then one value with `stage` "done". Ends when the take ends. One reader.
    public let progress: AsyncStream<RecordingProgress>
    private let continuation: AsyncStream<RecordingProgress>.Continuation
    private let state = Mutex<(started: Bool, stopped: Bool, recording: LiveRecording?)>((false, false, nil))

    public init(sources: [String], outputPath: String, options: CaptureOptions = CaptureOptions()) {
        self.sources = sources
        self.outputPath = outputPath
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(of: RecordingProgress.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Opens the sources and records until the take ends (`duration`, `stop()`, the task's cancellation, the source's
    /// end or silence). Returns what was written; `result.ended` says why it ended.
    /// - Throws: `UsageError` (a source or option that cannot be, an output that exists; exit status 2 in the command),
    ///   `MediaError` (a source that cannot be opened or sends nothing for `timeout` seconds; the output cannot be
    ///   written), `GPUError`; `UsageError` when the session was started before.
    public func start() async throws -> RecordingResult {
        try await start(progress: nil)
    }

    /// `start()`, with `handler` also called with each progress value on the recording's thread, as it comes.
    public func start(progress handler: (@Sendable (RecordingProgress) -> Void)?) async throws -> RecordingResult {
        let first = state.withLock { s -> Bool in defer { s.started = true }; return !s.started }
        guard first else { throw UsageError("this CaptureSession was started already; make another") }
        defer { continuation.finish() }
        let progress = continuation
        let recording = try RecordJob.makeRecording(sources: sources, output: outputPath, options: options.recordOptions) { p in
            handler?(p)
            progress.yield(p)
        }
        let stopNow = state.withLock { s -> Bool in s.recording = recording; return s.stopped }
        if stopNow { recording.stop() }
        return try await withTaskCancellationHandler {
            try await onOwnThread { try recording.run() }
        } onCancel: {
            recording.stop()
        }
    }

    /// Ends the take: what the sources sent is written and the files are finished; `start()` then returns. From any
    /// thread or task; before `start()` it makes `start()` end at once.
    public func stop() {
        let r = state.withLock { s -> LiveRecording? in s.stopped = true; return s.recording }
        r?.stop()
    }
}
