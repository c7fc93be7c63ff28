import CFFmpeg
import Foundation
import SegueCore

/// The FFmpeg and libx264 this process runs with, read from the libraries at run time (not the headers Segue was
/// built against): what `segue --version` prints.
public enum FFmpegVersions {
    /// FFmpeg's release (`av_version_info`, e.g. "5.1.6-0+deb12u1") and the versions of the libavcodec, libavformat
    /// and libavutil loaded (`avcodec_version()` …, major.minor.micro), e.g.
    /// "5.1.6-0+deb12u1 (libavcodec 59.37.100, libavformat 59.27.100, libavutil 57.28.100)".
    public static var ffmpeg: String {
        func dotted(_ v: UInt32) -> String { "\(v >> 16).\((v >> 8) & 0xff).\(v & 0xff)" }
        return String(cString: av_version_info()) + " (libavcodec \(dotted(avcodec_version())), libavformat \(dotted(avformat_version())), "
            + "libavutil \(dotted(avutil_version())))"
    }

    /// The libx264 that libavcodec's `libx264` encoder loads, as x264 names itself in the SEI message it writes into
    /// its first frame ("core 164 r3095 baee400": the API build and the revision): one black 16×16 frame is encoded
    /// (preset ultrafast, about a millisecond) and its packet searched for "x264 - ".
    /// - Throws: `MediaError` when this FFmpeg has no libx264, the encoder fails, or its output names no version.
    public static func x264() throws -> String {
        _ = FF.setup
        let what = "libx264 version"
        let encoder = try Encoder(video: VideoEncoding(codec: "libx264", size: PixelSize(width: 16, height: 16), pixelFormat: AV_PIX_FMT_YUV420P,
                                                      timeBase: AVRational(num: 1, den: 25), options: [("preset", "ultrafast"), ("threads", "1")]),
                                  path: what)
        let frame = try Frame.allocated(width: 16, height: 16, format: AV_PIX_FMT_YUV420P)
        frame.ptr.pointee.pts = 0
        try encoder.send(frame.ptr)
        try encoder.send(nil)
        var version: String?
        try encoder.receivePackets { p in
            if version == nil, let data = p.pointee.data {
                version = x264Version(in: Data(bytes: data, count: Int(p.pointee.size)))
            }
        }
        guard let version else { throw MediaError(path: nil, function: nil, message: "libx264's first frame names no version") }
        return version
    }

    /// "core 164 r3095 baee400" from the "x264 - core 164 r3095 baee400 - H.264/MPEG-4 AVC codec - …" x264 writes
    /// (its user-data-unregistered SEI), or nil where `data` holds none.
    static func x264Version(in data: Data) -> String? {
        guard let start = data.range(of: Data("x264 - ".utf8)) else { return nil }
        let rest = data[start.upperBound...]
        let end = rest.range(of: Data(" - ".utf8))?.lowerBound ?? rest.prefix(64).endIndex
        let text = String(decoding: rest[..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
