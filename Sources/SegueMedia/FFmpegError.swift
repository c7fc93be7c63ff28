import CFFmpeg
import Foundation
import SegueCore

/// A failure reported by libavformat/libavcodec/libswscale/libswresample, or a media file Segue cannot use.
/// Exit status 1; retryable when it is I/O on the output (set where it is thrown: `avio_open`, writing packets, the
/// trailer, the rename into place) or an errno a retry may clear (`EIO`, `ENOSPC`, `ESTALE`, `ETIMEDOUT`, `EAGAIN`,
/// `EDQUOT`, `ENOMEM`).
public struct MediaError: SegueError {
    /// The file concerned, if any.
    public let path: String?
    /// The FFmpeg function that failed (e.g. `avcodec_send_packet`), or nil for Segue's own checks.
    public let function: String?
    /// FFmpeg's numeric code (negative AVERROR), or 0.
    public let code: Int32
    /// The library's message (`av_strerror`) or Segue's explanation, in words.
    public let message: String
    /// Whether trying again (later, on another node) may succeed: output I/O, or one of `transientErrnos`.
    public let isRetryable: Bool
    public var exitStatus: Int32 { ExitStatus.failed }

    /// - Parameter outputIO: true where the failing call wrote the output (a full disk, a network filesystem that
    ///   went away): worth a retry elsewhere.
    public init(path: String?, function: String?, code: Int32 = 0, message: String, outputIO: Bool = false) {
        self.path = path; self.function = function; self.code = code; self.message = message
        isRetryable = outputIO || MediaError.transientErrnos.contains(-code)
    }

    /// The same error about another file (the destination instead of its hidden temporary file).
    public func about(_ otherPath: String) -> MediaError {
        MediaError(path: otherPath, function: function, code: code, message: message, outputIO: isRetryable)
    }

    /// Errors a retry may clear (as negative AVERROR codes they are `-errno`).
    static let transientErrnos: Set<Int32> = [EIO, ENOSPC, ESTALE, ETIMEDOUT, EAGAIN, EDQUOT, ENOMEM]

    public var description: String {
        var s = ""
        if let p = path { s += "\(p): " }
        s += message
        if let f = function { s += " (\(f))" }
        return s
    }
}

/// Turns FFmpeg's error codes into words.
enum FF {
    static func message(_ code: Int32) -> String {
        var buf = [CChar](repeating: 0, count: 256)
        return String(cString: segue_err2str(code, &buf, 256))
    }
    /// Throws `MediaError` when `code < 0`; returns `code` otherwise. The one checked choke point for FFmpeg calls.
    @discardableResult
    /// `outputIO`: the call writes the output file (its failure is worth a retry, `MediaError.isRetryable`).
    static func check(_ code: Int32, _ function: String, path: String? = nil, outputIO: Bool = false) throws -> Int32 {
        if code < 0 { throw MediaError(path: path, function: function, code: code, message: message(code), outputIO: outputIO) }
        return code
    }
    static let eagain = segue_averror_eagain()
    /// libavcodec's `max_pixels` for a picture limit of `pixels`: the option's range is 0…INT_MAX, and a larger value
    /// (a policy without a limit, `InputFile.ownFiles`) is refused by `av_dict_set`'s consumer with "out of range",
    /// failing the decoder's open — clamped to INT_MAX (2.1 gigapixels, past any picture libavutil allocates).
    static func maxPixels(_ pixels: Int) -> Int64 { Int64(min(max(pixels, 0), Int(Int32.max))) }

    /// Takes every packet the encoder `ctx` has ready (`avcodec_receive_packet` until EAGAIN or EOF) into `packet`,
    /// calls `emit` with each and unreferences it after. Throws `MediaError` for an encoder error, or what `emit` throws.
    static func receivePackets(_ ctx: UnsafeMutablePointer<AVCodecContext>, into packet: UnsafeMutablePointer<AVPacket>, path: String?,
                               _ emit: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        while true {
            let rc = avcodec_receive_packet(ctx, packet)
            if rc == eagain || rc == eof { return }
            try check(rc, "avcodec_receive_packet", path: path)
            defer { av_packet_unref(packet) }
            try emit(packet)
        }
    }
    static let eof = segue_averror_eof()
    static let noPTS = segue_nopts_value()

    /// Routes FFmpeg's own log lines to `FFmpegLog` (never onto standard error) and applies `HeapPolicy`. Runs once,
    /// before the first file is opened.
    static let setup: Void = {
        FFmpegLog.install()
        if HeapPolicy.zeroFilledAllocations { segue_malloc_perturb(0xff) }
    }()
}

extension AVRational {
    var isValid: Bool { num > 0 && den > 0 }
    var double: Double { Double(num) / Double(den) }
}
