// Segue as a Swift library: build an edit in code, resolve it, render it (with progress and `Task` cancellation),
// render one frame, probe a file. The `segue` command is a client of this module.
//
// The edit model (`Edit`, `ClipSpec`, `Transition`, `MusicSpec`, `OutputSettings`, `MediaTime`, `FrameRate`,
// `PixelSize`, `Timeline`, `TimelineReport`, the errors `EditError`, `UsageError` and the `SegueError` protocol) comes
// from SegueCore and is re-exported: `import Segue` is all a client writes.
@_exported import SegueCore
@_exported import SegueEdit
import Foundation
import SegueGL
import SegueMedia
import SeguePipeline

/// Which renderer draws the frames: `.gpu` (headless EGL, OpenGL ES 3), `.cpu` (the pure-Swift reference), or `.auto`
/// (the GPU when an EGL context can be made, else the CPU).
public typealias Backend = SeguePipeline.Backend
/// How to pick the headless EGL display and device (`platform`, `device`: a render node path or an EGL device index).
public typealias EGLOptions = SegueGL.EGLOptions
/// Where a render is: frames encoded so far of `total`, frames per second, speed, elapsed and estimated seconds, and
/// `stage` ("render", then "done" once, at the end).
public typealias RenderProgress = SeguePipeline.RenderProgress
/// What a finished render wrote: the path, frames, audio samples, the renderer's name, the resolved timeline, and a
/// warning per damaged clip.
public typealias RenderResult = SeguePipeline.RenderResult
/// What Segue sees in a media file (`probe`): container, streams, sizes, rotation, frame rates, colour, HDR, audio.
public typealias ProbeReport = SegueMedia.ProbeReport
/// A file Segue cannot read or write, or an FFmpeg failure, with the library's message (exit status 1).
public typealias MediaError = SegueMedia.MediaError
/// An EGL or OpenGL ES failure, with the library's error name (exit status 1; retryable at start-up).
public typealias GPUError = SegueGL.GPUError
/// FFmpeg's own log lines, delivered to a handler (`FFmpegLog.setHandler`) instead of standard error.
public typealias FFmpegLog = SegueMedia.FFmpegLog
/// Removes the temporary files of renders in progress when the process is interrupted. A command-line program calls
/// `SignalCleanup.installHandlers()` once, at start: then SIGINT (Ctrl-C) and SIGTERM remove them and exit with status
/// 130 and 143, as the `segue` command does. A server that handles signals itself should not install them; it cancels
/// the render's `Task` instead, which removes the temporary file too.
public typealias SignalCleanup = SeguePipeline.SignalCleanup
/// A render stopped before its end (`ExportSession.stop()`; a cancelled task with `ExportOptions.keepPartial`): the
/// frame it stopped at, and the file the frames written were kept in (exit status 130).
public typealias RenderStopped = SeguePipeline.RenderStopped
/// Whether renders repeat byte for byte inside one process (on by default: a render gives the bytes a fresh `segue`
/// process gives, at some memory cost); set before the first render.
public typealias HeapPolicy = SegueMedia.HeapPolicy
/// Ends the process when a render's frame runs past `ExportOptions.frameTimeout` (a GL draw cannot be interrupted).
public typealias Watchdog = SeguePipeline.Watchdog

/// An edit read from its file for as long as it renders: a JSON edit file, an OpenTimelineIO timeline (`.otio`), or
/// an `.otioz` bundle whose media are extracted into a temporary folder the document owns (`EditDocument.open`).
public typealias EditDocument = SeguePipeline.EditDocument
/// An `.otioz` bundle extracted into a temporary folder, removed when it is released.
public typealias ExtractedBundle = SeguePipeline.ExtractedBundle

/// Writes `edit` as an OpenTimelineIO timeline at `path` (a `.otio` file: tracks, clips, gaps, transitions as
/// `SMPTE_Dissolve` or `Custom_Transition`, speeds as `LinearTimeWarp`; docs/otio.md), probing its clips under
/// `policy` first. Returns what OTIO could not hold (layer transforms, pan and zoom, colour overrides), one line each.
/// - Throws: `UsageError`, `EditError`, `MediaError`.
@discardableResult
public func exportOTIO(_ edit: Edit, to path: String, name: String = "", policy: InputPolicy = .default) async throws -> [String] {
    try await onOwnThread { try RenderJob.exportOTIO(edit, to: path, name: name, policy: policy).warnings }
}

/// How a render (or a frame) is made. `Sendable`: it may be built on one task and used on another.
public struct ExportOptions: Sendable {
    /// The renderer (default `.auto`).
    public var backend: Backend = .auto
    /// The EGL platform and GPU device (default: the first headless display that works).
    public var gpu = EGLOptions()
    /// Include the audio mix (default true); false writes video only.
    public var audio = true
    /// Decode with an FFmpeg hwaccel where the machine has one (`.cuda`: NVDEC), else in software (default `.none`).
    public var hardwareDecoding: HardwareDecoding = .none
    /// Log what was chosen and why (render size, frame rate, each clip, the renderer), through `log`.
    public var verbose = false
    /// Where messages go, one line each: warnings (a clip's concealed damage, a fallback to the CPU) and, with
    /// `verbose`, what was chosen. Default: nowhere (a server decides); the `segue` command passes standard error.
    public var log: @Sendable (String) -> Void = { _ in }
    /// What the edit may read and how much it may ask for (`InputPolicy`: plain local files only, indirect inputs
    /// such as HLS playlists refused, an optional root folder for inputs and one for outputs, resource limits).
    /// Default: `InputPolicy.default`. See docs/untrusted-edits.md.
    public var inputPolicy = InputPolicy.default
    /// Seconds a frame may take before the watchdog ends the process (exit status 1, the temporary file removed, a
    /// message on standard error naming the clip or shader): a GL draw cannot be interrupted, so a process that must
    /// survive a hostile shader renders in a child process (the `segue` command). Also bounds the pre-flight each
    /// gl-transitions shader gets before the render starts. Default 120; nil: no watchdog.
    public var frameTimeout: Double? = 120
    /// Keep what was written when the export is stopped (`ExportSession.stop()`, the task cancelled): the file is
    /// written as fragmented MP4, which plays up to its last complete fragment however the process ends, and a stopped
    /// export finishes it with the frames drawn and moves it into place, then throws `RenderStopped` naming it.
    /// MP4 and QuickTime outputs only. Default false: a stopped export keeps nothing.
    public var keepPartial = false
    /// The defaults: `.auto`, audio on, software decoding, quiet, `InputPolicy.default`, a 120 s frame timeout.
    public init() {}

    var renderOptions: RenderOptions {
        var o = RenderOptions()
        o.backend = backend
        o.egl = gpu
        o.audio = audio
        o.hardwareDecoding = hardwareDecoding
        o.verbose = verbose
        o.log = log
        o.inputPolicy = inputPolicy
        o.frameTimeout = frameTimeout
        o.keepPartial = keepPartial
        return o
    }
}

/// Opens and probes every clip (and the music) of `edit` under `policy` and resolves it: the render size, frame rate,
/// each clip's place on the timeline, every transition's frames (`TimelineReport(timeline)` says it in words or JSON).
/// Nothing is rendered.
/// - Throws: `EditError` (invalid edit, or a path `policy` refuses: names the clip and field), `InputRefused` and
///   `LimitExceeded` (the policy refuses a file or the edit's size), `MediaError` (a clip cannot be read, or is Dolby
///   Vision without a compatible base layer).
public func resolve(_ edit: Edit, policy: InputPolicy = .default) async throws -> Timeline {
    try await onOwnThread { try RenderJob.resolve(edit, policy: policy) }
}

/// `edit` resolved and saved in it (what `segue resolve` writes): every media file probed under `options.inputPolicy`,
/// and what a render decides before its first frame recorded in `Edit.resolution` — the render size, rate and length,
/// the output settings, `options`' audio choice, input policy and frame timeout, each media file's facts and
/// fingerprint. `EditFileWriter.data(_:)` writes it as an edit file; `ExportSession` (and `segue render`) renders it
/// from the recorded facts, without probing again, to the bytes the edit as written gives, refusing a media file that
/// changed since (`StaleResolvedEdit`, exit status 2). An edit resolved already is returned as it is. Nothing is
/// rendered.
/// - Throws: what `resolve(_:policy:)` throws.
public func resolveEdit(_ edit: Edit, options: ExportOptions = ExportOptions()) async throws -> Edit {
    try await onOwnThread { try RenderJob.resolvedEdit(edit, options: options.renderOptions).edit }
}

/// A file a resolved edit reads changed (or went) since it was resolved (exit status 2).
public typealias StaleResolvedEdit = SeguePipeline.StaleResolvedEdit

/// What Segue sees in the media file at `path` (`segue probe`), opened under `policy`.
/// - Parameter toneMap: the curve an HDR file would be tone-mapped with in an SDR edit (reported, not applied).
/// - Throws: `MediaError` (the file is missing or cannot be read; names it), `InputRefused` (`policy` refuses it: a
///   FIFO, a file outside the root, an HLS playlist named like a video, which it names), `LimitExceeded`.
public func probe(_ path: String, toneMap: ToneMapCurve = .default, policy: InputPolicy = .default) async throws -> ProbeReport {
    try await onOwnThread {
        var st = stat()
        guard InputPolicy.urlScheme(of: path) != nil || stat(path, &st) == 0 else {
            // A numbered picture pattern (`frames/img_%04d.png`): the image sequence, at 24 fps.
            if ImageSequencePattern(path: path) != nil {
                return try ProbeReport(path: path, toneMap: toneMap, sequence: ImageSequence(), policy: policy)
            }
            throw MediaError(path: path, function: nil, message: "file not found")
        }
        return try ProbeReport(path: path, toneMap: toneMap, policy: policy)
    }
}

/// One output frame, rendered on its own (`renderFrame`).
public struct RenderedFrame: Sendable {
    /// The picture: RGBA, 8 bits a channel, R′G′B′ (BT.709, full range; SDR even for an HDR edit: a preview's
    /// colours), `timeline.renderSize` pixels, rows top to bottom.
    public let image: RGBAImage
    /// Its frame number, counted from 0 at `1 / frameRate` steps.
    public let frame: Int64
    /// The resolved edit.
    public let timeline: Timeline
    /// Source frames decoded to make it (each clip visible then, from the keyframe before its picture).
    public let decodedFrames: Int
    /// The renderer that drew it ("gpu (llvmpipe …)" or "cpu (Segue reference)").
    public let renderer: String
}

/// Where a frame is on the edit's timeline.
public enum FramePosition: Sendable {
    /// Frame `n`, counted from 0.
    case frame(Int64)
    /// The frame that shows this time: frame `floor(time × frameRate)`.
    case time(MediaTime)
}

/// Renders one output frame of `edit`, without rendering the others: opens only the clips visible then, each from the
/// keyframe before the picture it needs (`segue frame`).
/// - Throws: `EditError`, `MediaError`, `GPUError`, `UsageError` (the frame is outside the edit), `CancellationError`.
public func renderFrame(_ edit: Edit, _ position: FramePosition, options: ExportOptions = ExportOptions()) async throws -> RenderedFrame {
    try Task.checkCancellation()
    return try await onOwnThread {
        let watchdog = options.frameTimeout.map { Watchdog(seconds: $0) }
        let timeline = try RenderJob.resolve(edit, policy: options.inputPolicy, watchdog: watchdog)
        let n: Int64
        switch position {
        case .frame(let f): n = f
        case .time(let t):
            n = t.floored(toUnitsOf: Int64(timeline.frameRate.numerator), per: Int64(timeline.frameRate.denominator))
            guard MediaTime.zero <= t && t < timeline.duration else {
                throw UsageError(String(format: "%.3f s is outside the edit (0 to %.3f s: frames 0…%lld)", t.seconds, timeline.duration.seconds, timeline.frameCount - 1))
            }
        }
        let renderer = try RenderJob.makeRenderer(options.renderOptions, for: timeline)
        let (images, decoded) = try RenderJob.renderFrames(timeline, frames: [n], renderer: renderer, watchdog: watchdog)
        return RenderedFrame(image: images[0], frame: n, timeline: timeline, decodedFrames: decoded, renderer: renderer.name)
    }
}

/// Writes `image` as an 8-bit RGBA PNG at `path` (through a temporary file, renamed into place).
/// - Throws: `MediaError`.
public func writePNG(_ image: RGBAImage, to path: String) throws {
    try StillImage.writePNG(image, to: path)
}
