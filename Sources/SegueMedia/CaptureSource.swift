import SegueCore

/// Where `segue record` takes pictures and sound from: a libavdevice input device or a network stream, as given on
/// the command line.
///
/// | Given | FFmpeg input format | URL handed to it |
/// | --- | --- | --- |
/// | `v4l2:/dev/video0` | `video4linux2` (camera, capture card) | `/dev/video0` |
/// | `alsa:default`, `pulse:default` | `alsa`, `pulse` (microphone) | `default` |
/// | `x11grab::0.0` | `x11grab` (an X11 screen) | `:0.0` |
/// | `kmsgrab` (or `kmsgrab:DEVICE`) | `kmsgrab` (the console's screen, through DRM/KMS) | `-` (or DEVICE) |
/// | `lavfi:testsrc2` | `lavfi` (a libavfilter graph: demos and tests; paced to real time) | `testsrc2` |
/// | `http(s)://…` | probed (an HLS playlist, or a media file: paced to real time) | the URL |
/// | `rtsp://`, `srt://`, `udp://`, `rtp://`, `rtmp://`, `tcp://`, `http(s)://….m3u8` | probed by libavformat | the URL |
///
/// Listening instead of calling: `srt://:PORT?mode=listener`, `tcp://:PORT?listen=1` and `udp://` (which always
/// binds) say so in FFmpeg's own URL syntax; for RTSP and RTMP, whose demuxers take it as an option, Segue reads a
/// `listen=1` query parameter, removes it from the URL and sets `rtsp_flags=listen` / `listen=1` (a camera or encoder
/// that pushes its stream, RTSP `ANNOUNCE`/`RECORD` or RTMP publish, to the recording machine).
public struct CaptureSource: Sendable, Equatable, CustomStringConvertible {
    /// As given (`v4l2:/dev/video0`, `udp://127.0.0.1:1234`).
    public let spec: String
    /// FFmpeg's input format (`av_find_input_format`), or nil for a URL (libavformat probes it).
    public let format: String?
    /// What the input format opens.
    public let url: String
    /// Demuxer options Segue sets for this source (listen mode, UDP overruns).
    public let options: [String: String]

    /// Device prefixes and their FFmpeg input formats.
    static let devices: [String: String] = ["v4l2": "video4linux2", "alsa": "alsa", "pulse": "pulse", "x11grab": "x11grab",
                                            "kmsgrab": "kmsgrab", "lavfi": "lavfi"]
    /// URL schemes taken as network streams.
    static let schemes: Set<String> = ["rtsp", "rtsps", "srt", "udp", "rtp", "rtmp", "rtmps", "tcp", "http", "https"]

    /// Parses a source as given on the command line (see the table above).
    /// - Throws: `UsageError` for a source of no known kind.
    public init(_ spec: String) throws {
        self.spec = spec
        if let r = spec.range(of: "://") {
            let scheme = spec[..<r.lowerBound].lowercased()
            guard CaptureSource.schemes.contains(scheme) else {
                throw UsageError("\(spec): unknown stream type \(scheme):// (record takes \(CaptureSource.schemes.sorted().map { $0 + "://" }.joined(separator: ", ")))")
            }
            format = nil
            var url = spec
            var options: [String: String] = [:]
            if (scheme.hasPrefix("rtsp") || scheme.hasPrefix("rtmp")), let q = url.firstIndex(of: "?") {
                var kept: [Substring] = []
                for item in url[url.index(after: q)...].split(separator: "&") {
                    if item == "listen=1" || item == "listen" { options[scheme.hasPrefix("rtsp") ? "rtsp_flags" : "listen"] = scheme.hasPrefix("rtsp") ? "listen" : "1" }
                    else { kept.append(item) }
                }
                url = String(url[..<q]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
            }
            if scheme == "udp" || scheme == "rtp" { options["overrun_nonfatal"] = "1" }
            if scheme.hasPrefix("rtsp") && options["rtsp_flags"] == nil { options["rtsp_transport"] = "tcp" }
            self.url = url
            self.options = options
            return
        }
        let colon = spec.firstIndex(of: ":")
        let prefix = String(colon.map { spec[..<$0] } ?? spec[...])
        guard let f = CaptureSource.devices[prefix] else {
            throw UsageError("\(spec): not a source record knows: give v4l2:/dev/videoN, alsa:NAME, pulse:NAME, x11grab::DISPLAY, kmsgrab, lavfi:GRAPH or a stream URL (rtsp://, srt://, udp://, rtmp://, http(s)://…m3u8)")
        }
        format = f
        let rest = colon.map { String(spec[spec.index(after: $0)...]) } ?? ""
        if prefix == "kmsgrab" { url = rest.isEmpty ? "-" : rest } else {
            guard !rest.isEmpty else { throw UsageError("\(spec): say what to open after \(prefix): (e.g. \(prefix == "lavfi" ? "lavfi:testsrc2" : prefix == "x11grab" ? "x11grab::0.0" : prefix == "v4l2" ? "v4l2:/dev/video0" : prefix + ":default"))") }
            url = rest
        }
        options = [:]
    }

    /// A network stream (what `--reconnect` reopens).
    public var isNetwork: Bool { format == nil }
    /// Read at the pace of its timestamps rather than as fast as it comes: a libavfilter graph (which produces frames
    /// as fast as they are read) and HTTP(S) (a file or an HLS playlist a server hands over as fast as the network
    /// goes; a live playlist's segments come in bursts, which this smooths), so that they are recorded as a live
    /// source would be.
    public var isPaced: Bool {
        format == "lavfi" || spec.lowercased().hasPrefix("http://") || spec.lowercased().hasPrefix("https://")
    }
    public var description: String { spec }
}
