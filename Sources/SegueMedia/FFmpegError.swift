import CFFmpeg

/// A failure reported by libavformat/libavcodec/libswscale/libswresample, or a media file Segue cannot use.
public struct MediaError: Error, CustomStringConvertible {
    /// The file concerned, if any.
    public let path: String?
    /// The FFmpeg function that failed (e.g. `avcodec_send_packet`), or nil for Segue's own checks.
    public let function: String?
    /// FFmpeg's numeric code (negative AVERROR), or 0.
    public let code: Int32
    /// The library's message (`av_strerror`) or Segue's explanation, in words.
    public let message: String

    public init(path: String?, function: String?, code: Int32 = 0, message: String) {
        self.path = path; self.function = function; self.code = code; self.message = message
    }

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
    static func check(_ code: Int32, _ function: String, path: String? = nil) throws -> Int32 {
        if code < 0 { throw MediaError(path: path, function: function, code: code, message: message(code)) }
        return code
    }
    static let eagain = segue_averror_eagain()
    static let eof = segue_averror_eof()
    static let noPTS = segue_nopts_value()

    /// Quiets FFmpeg's own logging to errors only (Segue reports problems itself), and applies `HeapPolicy`. Runs once,
    /// before the first file is opened.
    static let setup: Void = {
        av_log_set_level(AV_LOG_ERROR)
        if HeapPolicy.zeroFilledAllocations { segue_malloc_perturb(0xff) }
    }()




}

extension AVRational {
    var isValid: Bool { num > 0 && den > 0 }
    var double: Double { Double(num) / Double(den) }
}
