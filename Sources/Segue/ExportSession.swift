import Foundation
import Synchronization
import SegueCore
import SegueEdit
import SeguePipeline

/// Renders an edit to a file, as `AVAssetExportSession` exports a composition: create it, start `export()`, read
/// `progress` while it runs, cancel its `Task` to stop it.
///
/// ```swift
/// let session = ExportSession(edit: edit, outputPath: "out.mp4")
/// let render = Task { try await session.export() }
/// for await p in session.progress { print("\(p.frame)/\(p.total)") }
/// let result = try await render.value
/// ```
///
/// An edit as written is resolved once into the form `segue resolve` saves (`resolveEdit`: its media probed, what the
/// render decides before frame 0 recorded in `Edit.resolution`) and rendered from it, as `segue render` renders;
/// an edit resolved already (`segue resolve`'s file, opened with `EditDocument`) renders from its recorded facts with
/// the audio choice it was resolved with, under `options.inputPolicy` (a file never loosens the caller's policy),
/// refusing a media file that changed since.
///
/// The render runs on a thread of its own (decoding, the GPU's context and encoding block). The output is written to
/// a hidden temporary file beside `outputPath` and renamed into place only when it succeeds: a failed or cancelled
/// export leaves no file behind and an existing file at `outputPath` untouched. Two exports of the same edit with
/// the same options give the same bytes, in one process too. One session exports once.
public final class ExportSession: Sendable {
    /// What is rendered.
    public let edit: Edit
    /// Where: a name of the edit's output format (`OutputFormat`: `.mp4`, `.m4v` or `.mov` for `OutputSettings.Codec.h264`,
    /// `.mkv` for `.ffv1`, `.webm` for `.vp9` and `.av1`, `.mov` for `.prores`, `.gif`, a numbered pattern such as
    /// `frames/%05d.png` for an image sequence); when the edit names no codec (`OutputSettings.codecFromFileName`), the
    /// name chooses the format.
    public let outputPath: String
    /// How: the renderer, the GPU, audio, where messages go.
    public let options: ExportOptions
    /// Where the render is: one value at most every 0.25 s while frames are encoded (`frame` never decreases), then
    /// one with `stage` "done" and `frame == total`. Ends when the export ends, however it ends. One reader.
    public let progress: AsyncStream<RenderProgress>
    private let continuation: AsyncStream<RenderProgress>.Continuation
    private let started = Mutex(false)
    /// Set by `stop()`.
    private let stopped = Atomic(false)

    /// A session that will render `edit` to `outputPath` (nothing is opened until `export()`).
    public init(edit: Edit, outputPath: String, options: ExportOptions = ExportOptions()) {
        self.edit = edit
        self.outputPath = outputPath
        self.options = options
        (progress, continuation) = AsyncStream.makeStream(of: RenderProgress.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Probes every clip, resolves the edit, renders and encodes every frame, and moves the file into place.
    /// Cancelling the calling `Task` stops the render before its next frame, removes the temporary file and throws
    /// `CancellationError`; `stop()` does the same but throws `RenderStopped` (the frame it stopped at). With
    /// `ExportOptions.keepPartial`, either keeps the frames written and throws `RenderStopped` naming the file.
    /// - Returns: what was written.
    /// - Throws: `EditError` or `UsageError` (the edit, the output name: exit status 2 in the command), `MediaError`
    ///   or `GPUError` (1), `CancellationError`, `RenderStopped` (130); `UsageError` when the session was exported before.
    @discardableResult
    public func export() async throws -> RenderResult {
        try await export(progress: nil)
    }

    /// `export()`, with `progress` also called with each value `progress` (the stream) gets, on the render's thread,
    /// as it happens: for a caller that would rather not read the stream from another task.
    @discardableResult
    public func export(progress handler: (@Sendable (RenderProgress) -> Void)?) async throws -> RenderResult {
        let first = started.withLock { s -> Bool in defer { s = true }; return !s }
        guard first else { throw UsageError("this ExportSession was exported already; make another") }
        defer { continuation.finish() }
        try Task.checkCancellation()
        let cancelled = Atomic(false)
        var o = options.renderOptions
        let progress = continuation
        o.progress = { p in
            handler?(p)
            progress.yield(p)
        }
        o.isCancelled = { [self] in cancelled.load(ordering: .relaxed) || stopped.load(ordering: .relaxed) }
        let renderOptions = o, edit = edit, path = outputPath
        do {
            return try await withTaskCancellationHandler {
                try await onOwnThread { try RenderJob.render(edit, to: path, options: renderOptions) }
            } onCancel: {
                cancelled.store(true, ordering: .relaxed)
            }
        } catch let e as RenderStopped where e.kept == nil && !stopped.load(ordering: .relaxed) {
            throw CancellationError()   // the task was cancelled: what a cancelled task throws
        }
    }

    /// Stops the export before its next frame (from any thread, at any time; before `export()` starts, at its
    /// start): `export()` then throws `RenderStopped`, having kept the frames written with
    /// `ExportOptions.keepPartial`, nothing without. What `segue render` does on Ctrl-C.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
