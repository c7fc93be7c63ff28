import CFFmpeg
import Foundation
import SegueCore

/// Tells a file that is not media at all (a mistake in the edit: exit status 2) from a media file that cannot be read
/// (damaged, truncated: a failed render, 1).
public enum NotMedia {
    /// What the regular file at `path` is when it is not a media file, in words for "PATH is …, not a media file":
    /// "empty (0 bytes)", "a text file", or "in no format FFmpeg reads". Nil when it may be media: no demuxer's own
    /// probe recognises its first mebibyte (`av_probe_input_format3` on its content alone, its name not consulted: a
    /// shopping list called holiday.mp4 is a text file) with more than `AVPROBE_SCORE_RETRY` (25 of 100, FFmpeg's
    /// threshold for a guess it does not retry), else nil — an MP4 cut before its index is still recognised by its
    /// `ftyp` box. Nil too for a file that cannot be read (its opener says why).
    public static func kind(ofFileAt path: String) -> String? {
        _ = FF.setup
        var st = stat()
        guard stat(path, &st) == 0, InputPolicy.nonRegularKind(st.st_mode) == nil else { return nil }
        if st.st_size == 0 { return "empty (0 bytes)" }
        guard let h = FileHandle(forReadingAtPath: path), let head = try? h.read(upToCount: 1 << 20), !head.isEmpty else { return nil }
        try? h.close()
        // The probes may read AVPROBE_PADDING_SIZE bytes past the end: zeros.
        var buffer = [UInt8](head) + [UInt8](repeating: 0, count: Int(AVPROBE_PADDING_SIZE))
        var score: Int32 = 0
        let format = buffer.withUnsafeMutableBufferPointer { b -> UnsafePointer<AVInputFormat>? in
            "".withCString { name in
                var pd = AVProbeData(filename: name, buf: b.baseAddress, buf_size: Int32(head.count), mime_type: nil)
                return av_probe_input_format3(&pd, 1, &score)
            }
        }
        let retryScore: Int32 = 25   // AVPROBE_SCORE_RETRY, AVPROBE_SCORE_MAX / 4 (a macro Swift does not import)
        if format != nil, score > retryScore { return nil }
        return isText(head) ? "a text file" : "in no format FFmpeg reads"
    }

    /// Whether `data` reads as text: UTF-8 without NUL or other control characters but tab, line feed, carriage return
    /// and form feed (a truncated last character allowed).
    static func isText(_ data: Data) -> Bool {
        let sample = data.prefix(4096)
        guard !sample.contains(where: { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) }) else { return false }
        for cut in 0...min(3, sample.count - 1) where String(data: sample.dropLast(cut), encoding: .utf8) != nil { return true }
        return false
    }
}
