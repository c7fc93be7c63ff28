import SegueCore

/// A render stopped before its end because `RenderOptions.isCancelled` said so: Ctrl-C in `segue render`,
/// `ExportSession.stop()`, or a cancelled `Task` with `keepPartial`. With `RenderOptions.keepPartial` the frames
/// written are kept, a playable file (fragmented MP4) at the output path; without it nothing is kept (the temporary
/// file removed, an existing file at the output path untouched). Exit status 130 (`ExitStatus.interrupted`).
public struct RenderStopped: SegueError {
    /// The frame the render stopped at (frames drawn before it, from the render's first), of `total`; with `kept`,
    /// the frames the kept file holds.
    public let frame: Int64, total: Int64
    /// The file the frames written were kept in, or nil.
    public let kept: String?
    public init(frame: Int64, total: Int64, kept: String?) { self.frame = frame; self.total = total; self.kept = kept }
    public var description: String {
        if let kept {
            return "render interrupted at frame \(frame) of \(total); kept the \(frame) frame\(frame == 1 ? "" : "s") written in \(kept) (fragmented MP4)"
        }
        return "render interrupted at frame \(frame) of \(total); nothing kept (--keep-partial keeps the frames written, as fragmented MP4)"
    }
    public var exitStatus: Int32 { ExitStatus.interrupted }
}
