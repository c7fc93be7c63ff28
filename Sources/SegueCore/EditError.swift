/// An error of Segue's: it knows the exit status the `segue` command ends with and whether a render farm should try
/// the same work again. Every error Segue throws conforms; each sets both where it is thrown.
///
/// Exit statuses (see `ExitStatus`): 2 when the user must change what they wrote (the edit, the command line, a plan
/// made from another edit), 1 when the work failed (a file, an encoder, the GPU, the scheduler, a comparison).
public protocol SegueError: Error, CustomStringConvertible, Sendable {
    /// The `segue` command's exit status for this error: `ExitStatus.failed` (1) or `ExitStatus.invalid` (2).
    var exitStatus: Int32 { get }
    /// Whether the same work may succeed when tried again, later or on another node (GPU/EGL start-up, output I/O
    /// such as `EIO` or `ENOSPC`): a chunk render then exits `ExitStatus.retry` (75) and a farm engine requeues it.
    var isRetryable: Bool { get }
}

extension SegueError {
    public var isRetryable: Bool { false }
}

/// The exit statuses of the `segue` command (BSD `sysexits.h` for 75).
public enum ExitStatus {
    /// The render (or comparison, or scheduler) failed.
    public static let failed: Int32 = 1
    /// The edit, the command line or the plan is invalid: change it and run again (never worth a retry).
    public static let invalid: Int32 = 2
    /// `farm status` only: work is still queued or running and nothing has failed.
    public static let pending: Int32 = 3
    /// A chunk render failed in a way worth retrying (`EX_TEMPFAIL`).
    public static let retry: Int32 = 75
    /// A render interrupted (Ctrl-C): 128 + SIGINT, as a shell reports a process SIGINT ended.
    public static let interrupted: Int32 = 130
}

/// An invalid edit: the user must change what they wrote. Exit status 2.
public struct EditError: SegueError, Equatable {
    /// Where: a field path such as `clips[2].transition.duration`, a file, or empty.
    public let field: String
    /// What is wrong and what to do, in words.
    public let message: String
    public init(_ field: String, _ message: String) { self.field = field; self.message = message }
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }
    public var exitStatus: Int32 { ExitStatus.invalid }
}

/// A mistake in how Segue was asked to do something, apart from the edit itself: an unknown or misplaced option, a
/// missing argument, an output name that does not suit the format, an output that would replace an input, a frame
/// outside the edit. Exit status 2.
public struct UsageError: SegueError, Equatable {
    /// What is wrong and what to do, in words.
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: Int32 { ExitStatus.invalid }
}
