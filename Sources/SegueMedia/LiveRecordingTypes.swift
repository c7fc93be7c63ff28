import Foundation
import SegueCore

/// How a take is recorded (`segue record`'s options; `CaptureSession`'s settings).
public struct RecordingSettings: Sendable {
    /// Stop after this many seconds of recording (nil: until stopped or the source ends).
    public var duration: Double?
    /// Start a new file at the first video keyframe at or after every this many seconds (the output name then holds
    /// a `%d` pattern: `take_%03d.mp4`).
    public var segment: Double?
    /// A source that sends nothing for this many seconds is given up (default 10).
    public var timeout: Double = 10
    /// Reopen a network source that fails or ends, and go on with the same take (until `timeout` passes without data).
    public var reconnect = false
    /// The encoder settings of what is re-encoded.
    public var preset: LivePreset = .medium
    /// A constant output frame rate (`--fps`): each output frame shows the latest source frame at its time
    /// (frames repeated or skipped); nil keeps the source's timestamps. Re-encodes the video.
    public var frameRate: FrameRate?
    /// Rewrite this JPEG with the latest frame once a second.
    public var preview: String?
    /// Rewrite each finished file as a plain MP4 with the index first (`+faststart`) when the disk has room for the
    /// copy (default true); false keeps every file fragmented.
    public var faststart = true
    public init() {}
}

/// Where a take is, about twice a second while recording, then once with `stage` "done".
public struct RecordingProgress: Sendable, Codable {
    /// Seconds recorded (the latest frame's time in the take).
    public let seconds: Double
    /// Bytes written, every file of the take together.
    public let bytes: Int64
    /// Video frames written.
    public let frames: Int64
    /// Frames lost: missing in the source's timestamps, dropped to keep up, undecodable, or with timestamps going back.
    public let dropped: Int64
    /// Frames that arrived more than half a second later than the stream's timing says.
    public let late: Int64
    /// The file being written (0, 1, … with `--segment`).
    public let file: Int
    /// Wall-clock seconds since the take started.
    public let elapsed: Double
    /// True while processing is behind the source (frames are then dropped).
    public let behind: Bool
    /// "record", then "done".
    public let stage: String
}

/// Why a take ended.
public enum RecordingEnd: String, Sendable {
    /// `duration` was reached.
    case duration
    /// `stop()` (SIGINT, SIGTERM, the library's stop).
    case stopped
    /// The source ended its stream (end of file, the sender closed the connection).
    case sourceEnded
    /// The source sent nothing for `timeout` seconds in the middle of the take (the take so far is kept).
    case sourceSilent
}

/// What a finished take wrote.
public struct RecordingResult: Sendable {
    /// The files, in order.
    public let files: [String]
    /// Files left as fragmented MP4 (no room on the disk for the rewrite with the index first).
    public let fragmented: [String]
    /// Seconds recorded.
    public let seconds: Double
    public let videoFrames: Int64
    public let audioPackets: Int64
    /// Frames missing in the source's timestamps (lost before they reached Segue).
    public let sourceGaps: Int64
    /// Frames dropped because processing was behind.
    public let droppedBehind: Int64
    /// Packets the decoder rejected, and frames whose timestamps went back.
    public let droppedInvalid: Int64
    /// Frames that arrived late (see `RecordingProgress.late`).
    public let late: Int64
    /// Timestamp jumps and wraps smoothed over.
    public let timestampJumps: Int
    /// Times a network source was reopened (`reconnect`).
    public let reconnects: Int
    /// Whether video and audio were copied as the source sent them (no re-encoding).
    public let videoCopied: Bool
    public let audioCopied: Bool
    public let ended: RecordingEnd
    /// Why, in words (the source's error for `.sourceSilent` / `.sourceEnded`).
    public let endReason: String
    /// Frames lost in all.
    public var dropped: Int64 { sourceGaps + droppedBehind + droppedInvalid }
}

/// Draws each recorded frame on the way to the encoder (`--square`, `--size`, `--fps`): SeguePipeline gives one that
/// uses the renderers (`render`'s rotate, crop and scale). Called on the recording's thread only.
public protocol LiveVideoProcessor: AnyObject {
    /// The output picture size for a source described by `info` (its coded size, sample aspect, orientation).
    func outputSize(for info: SourceInfo) throws -> PixelSize
    /// Draws `picture` (a frame of the source) into an 8-bit 4:2:0 picture of `size` (BT.709, limited range).
    func process(_ picture: VideoPicture, info: SourceInfo, size: PixelSize) throws -> YUV420Image
    /// Frees what drawing holds (a GL context), on the recording's thread, once the take has ended: before `run()`
    /// returns, so that nothing is torn down by another thread while the process exits.
    func finish()
}
