import CFFmpeg
import Foundation
import SegueCore
import Synchronization

/// FFmpeg's own log lines (libavformat, libavcodec, libswscale, …), which it would print on standard error, routed to
/// a handler instead: the `segue` command shows them with `--verbose`; a library user decides. Without a handler they
/// are dropped (Segue reports what matters itself: a file it cannot read, damage it concealed).
///
/// Lines at `AV_LOG_WARNING` and more severe are delivered, one per call, without FFmpeg's `[h264 @ 0x…]` prefix,
/// tagged with what Segue knows about the context that logged: the file (the clip, the music, the output) a demuxer,
/// decoder or encoder works on, and the component's own name (`av_log`'s `AVClass.item_name`):
/// `[clip.mp4] h264: error while decoding MB 16 12, bytestream 150`. Wraps `av_log_set_callback`.
public enum FFmpegLog {
    /// The severity of a line (FFmpeg's `AV_LOG_*` levels that are delivered).
    public enum Level: String, Sendable {
        case fatal, error, warning
    }
    /// One log line.
    public struct Line: Sendable, CustomStringConvertible {
        public let level: Level
        /// The file the component that logged works on (its last path component), where Segue knows it.
        public let file: String?
        /// The component that logged (`h264`, `mov,mp4,m4a,3gp,3g2,mj2`, `swscaler`).
        public let component: String?
        /// FFmpeg's message, without its trailing newline.
        public let message: String
        public init(level: Level, file: String?, component: String?, message: String) {
            self.level = level; self.file = file; self.component = component; self.message = message
        }
        public var description: String {
            (file.map { "[\($0)] " } ?? "") + (component.map { "\($0): " } ?? "") + message
        }
    }

    private static let handler = Mutex<(@Sendable (Line) -> Void)?>(nil)
    /// Files by the token stored in a codec context's `opaque` (`register`).
    private static let files = Mutex<(next: Int, byToken: [Int: String])>((1, [:]))

    /// Sends FFmpeg's lines to `h` (nil: drop them). Process-wide: FFmpeg has one log callback.
    public static func setHandler(_ h: (@Sendable (Line) -> Void)?) {
        _ = FF.setup
        handler.withLock { $0 = h }
    }

    /// Installs the callback and the level (once, from `FF.setup`).
    static func install() {
        av_log_set_level(AV_LOG_WARNING)
        av_log_set_callback { avcl, level, fmt, args in
            guard level <= AV_LOG_WARNING, let fmt, let args else { return }
            let deliver = FFmpegLog.handler.withLock({ $0 })
            // Errors are read even without a handler: a picture size libavutil refused is remembered (`refusedPictureSize`).
            guard deliver != nil || level <= AV_LOG_ERROR else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            var printPrefix: Int32 = 0
            av_log_format_line2(avcl, level, fmt, args, &buffer, Int32(buffer.count), &printPrefix)
            let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !message.isEmpty else { return }
            if level <= AV_LOG_ERROR, let size = FFmpegLog.pictureSize(refusedIn: message) {
                Thread.current.threadDictionary[FFmpegLog.refusedSizeKey] = [size.width, size.height]
            }
            guard let deliver else { return }
            let (file, component) = FFmpegLog.describe(avcl)
            deliver(Line(level: level <= AV_LOG_FATAL ? .fatal : level <= AV_LOG_ERROR ? .error : .warning,
                         file: file, component: component, message: message))
        }
    }

    private static let refusedSizeKey = "segue.ffmpeg-log.refused-picture-size"

    /// The picture size in one of libavutil's refusals (`av_image_check_size2`: "Picture size 100000x100000 exceeds
    /// specified max pixel count 200000000, …" or "Picture size 100000x100000 is invalid"), or nil for other lines.
    static func pictureSize(refusedIn message: String) -> PixelSize? {
        guard message.hasPrefix("Picture size "), message.contains(" exceeds specified max pixel count") || message.hasSuffix(" is invalid") else { return nil }
        let dims = message.dropFirst("Picture size ".count).prefix { $0 != " " }.split(separator: "x")
        guard dims.count == 2, let w = Int(dims[0]), let h = Int(dims[1]) else { return nil }
        return PixelSize(width: w, height: h)
    }

    /// The last picture size libavutil refused on this thread since the last call (its log line, read whether or not
    /// a handler is set), and forgets it. Decoders and `avformat_find_stream_info` log on the calling thread when they
    /// run with one thread.
    static func takeRefusedPictureSize() -> PixelSize? {
        let d = Thread.current.threadDictionary
        defer { d.removeObject(forKey: refusedSizeKey) }
        guard let v = d[refusedSizeKey] as? [Int], v.count == 2 else { return nil }
        return PixelSize(width: v[0], height: v[1])
    }

    /// A token for `path`, to be stored in a codec context's `opaque` (FFmpeg copies it into the contexts of its
    /// decoding threads, which log too); `unregister` it once the context is freed.
    static func register(_ path: String) -> UnsafeMutableRawPointer? {
        let name = displayName(path)
        let token = files.withLock { f -> Int in
            let t = f.next
            f.next += 1
            f.byToken[t] = name
            return t
        }
        return UnsafeMutableRawPointer(bitPattern: token)
    }

    static func unregister(_ token: UnsafeMutableRawPointer?) {
        guard let token else { return }
        _ = files.withLock { $0.byToken.removeValue(forKey: Int(bitPattern: token)) }
    }

    /// The thread's current file for contexts Segue did not register (a demuxer's parser, the probe's decoders):
    /// set by `reading` around the calls that read a file.
    private static let threadFileKey = "segue.ffmpeg-log.file"

    /// Runs `body` with `path` as the file FFmpeg's lines from this thread are about, unless their context says.
    static func reading<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
        let d = Thread.current.threadDictionary
        let old = d[threadFileKey]
        d[threadFileKey] = displayName(path)
        defer { d[threadFileKey] = old }
        return try body()
    }

    /// The file's name as the user knows it: the last path component, and for Segue's hidden temporary output
    /// (`.out.mp4.segue-PID-N.tmp`, `RenderJob.writeAtomically`) the destination's.
    static func displayName(_ path: String) -> String {
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasPrefix("."), name.hasSuffix(".tmp"), let r = name.range(of: ".segue-", options: .backwards) else { return name }
        return String(name[name.index(after: name.startIndex)..<r.lowerBound])
    }

    /// The file and component name of the context `avcl` (its first member is its `AVClass`).
    static func describe(_ avcl: UnsafeMutableRawPointer?) -> (file: String?, component: String?) {
        let threadFile = Thread.current.threadDictionary[threadFileKey] as? String
        guard let avcl, let cls = avcl.assumingMemoryBound(to: UnsafePointer<AVClass>?.self).pointee else { return (threadFile, nil) }
        // A context without a codec (a demuxer's parser) calls itself "NULL".
        let component = cls.pointee.item_name.flatMap { $0(avcl) }.map { String(cString: $0) }.flatMap { $0 == "NULL" ? nil : $0 }
        if cls == avcodec_get_class() {
            let opaque = avcl.assumingMemoryBound(to: AVCodecContext.self).pointee.opaque
            if let opaque, let name = files.withLock({ $0.byToken[Int(bitPattern: opaque)] }) { return (name, component) }
        } else if cls == avformat_get_class(), let url = avcl.assumingMemoryBound(to: AVFormatContext.self).pointee.url {
            return (displayName(String(cString: url)), component)
        }
        return (threadFile, component)
    }
}

extension FFmpegLog {
    /// FFmpeg's lines once each (a decoder may complain of every frame in the same words): the first time a line
    /// comes, `first` says to show it; the same line again (the same file, component and message) is only counted,
    /// and `repeats` says how often each came. What `segue --verbose` prints through. Thread-safe: FFmpeg logs from
    /// its decoding threads.
    public final class Once: Sendable {
        private let seen = Mutex<(order: [String], counts: [String: Int])>(([], [:]))

        public init() {}

        /// Whether `line` came for the first time; counts it either way.
        public func first(_ line: Line) -> Bool {
            let text = line.description
            return seen.withLock { s in
                let n = s.counts[text, default: 0]
                s.counts[text] = n + 1
                if n == 0 { s.order.append(text) }
                return n == 0
            }
        }

        /// The lines that came more than once, in the order they first came, each with how many times it came.
        public func repeats() -> [(line: String, count: Int)] {
            seen.withLock { s in s.order.compactMap { t in s.counts[t].flatMap { $0 > 1 ? (t, $0) : nil } } }
        }
    }
}
