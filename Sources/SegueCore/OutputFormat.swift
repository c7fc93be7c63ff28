/// Everything that differs between Segue's output formats, one row each: the container and its file names, the
/// video encoder and pixel format for each dynamic range, the audio, the muxer's options, whether the encoder
/// settings (`crf`, `preset`, `encoder`) apply, and the lookahead a farm chunk gives the encoder. A new format is one
/// more row in `all` and one case of `OutputSettings.Codec`; nothing else branches on the format.
///
/// Names are FFmpeg's (muxers `mp4`/`matroska`, encoders, `AVPixelFormat` and `AVSampleFormat` names), so that
/// `SegueMedia` looks each up in libavformat/libavcodec as it is.
public struct OutputFormat: Sendable, Equatable {
    /// The row's key (`output.codec` in an edit file, `--codec`).
    public let codec: OutputSettings.Codec
    /// In words, for messages: "H.264 (HEVC for HDR) in MP4".
    public let name: String
    /// FFmpeg's muxer (`avformat_alloc_output_context2`'s format name).
    public let container: String
    /// The container in words ("MP4", "Matroska").
    public let containerName: String
    /// The output's file-name extensions, lower case, without the dot; the first is the usual one.
    public let extensions: [String]
    /// The extension of a farm chunk's video (`chunk_0007.mp4`).
    public let chunkExtension: String
    /// The extension of the farm's audio pass (`audio.m4a`): the same muxer, audio only.
    public let audioPassExtension: String
    /// The audio encoder (FFmpeg's name) and its sample format (an `AVSampleFormat` name: `fltp` planar float, `flt`
    /// interleaved float).
    public let audioCodec: String
    public let audioSampleFormat: String
    /// The audio in words ("AAC", "32-bit float PCM").
    public let audioName: String
    /// Options given to the muxer (`avformat_write_header`), e.g. MP4's `movflags=+faststart` (the index first).
    public let muxOptions: [String: String]
    /// Whether `crf`, `preset` and a named `encoder` apply (lossy encoders); false: the row's encoder, lossless.
    public let takesEncoderSettings: Bool
    /// The video encoder used when none is named, per dynamic range (libx264 for SDR, libx265 for HDR's 10 bits).
    public let defaultEncoders: [DynamicRange: String]
    /// The pixel format written per dynamic range (an `AVPixelFormat` name).
    public let pixelFormats: [DynamicRange: String]
    /// Options every encode of this format gets (`avcodec_open2`), e.g. FFV1's version 3 and intra-only (`g=1`).
    public let encoderOptions: [String: String]
    /// The codec tag to write for a codec in this container (FFmpeg codec name → fourCC): HEVC in MP4 as `hvc1`,
    /// which Apple's players require.
    public let codecTags: [String: String]
    /// Frames a farm chunk draws past its end for the encoder's rate control only, by encoder and preset (the
    /// encoder's `rc-lookahead` for that preset; see `lookahead(for:)`).
    public let lookahead: [String: [String: Int64]]

    /// H.264 (libx264) in MP4 with AAC; HDR output as HEVC Main 10 (libx265). The default.
    public static let mp4 = OutputFormat(
        codec: .h264, name: "H.264 (HEVC Main 10 for HDR) in MP4", container: "mp4", containerName: "MP4",
        extensions: ["mp4", "m4v", "mov"], chunkExtension: "mp4", audioPassExtension: "m4a",
        audioCodec: "aac", audioSampleFormat: "fltp", audioName: "AAC", muxOptions: ["movflags": "+faststart"],
        takesEncoderSettings: true,
        defaultEncoders: [.sdr: "libx264", .hlg: "libx265", .pq: "libx265"],
        pixelFormats: [.sdr: "yuv420p", .hlg: "yuv420p10le", .pq: "yuv420p10le"],
        encoderOptions: [:], codecTags: ["hevc": "hvc1"],
        // x264's presets (`x264 --fullhelp`: rc-lookahead 0, 0, 10, 20, 30, 40, 50, 60, 60, 60) and x265's
        // (x265 documentation, "Preset Options": 5, 10, 15, 15, 15, 20, 25, 40, 40, 60).
        lookahead: ["libx264": ["ultrafast": 0, "superfast": 0, "veryfast": 10, "faster": 20, "fast": 30, "medium": 40,
                                "slow": 50, "slower": 60, "veryslow": 60, "placebo": 60],
                    "libx265": ["ultrafast": 5, "superfast": 10, "veryfast": 15, "faster": 15, "fast": 15, "medium": 20,
                                "slow": 25, "slower": 40, "veryslow": 40, "placebo": 60]])

    /// Lossless FFV1 (version 3, intra-only) in Matroska with 32-bit float PCM: for exact comparisons.
    public static let mkv = OutputFormat(
        codec: .ffv1, name: "lossless FFV1 in Matroska", container: "matroska", containerName: "Matroska",
        extensions: ["mkv"], chunkExtension: "mkv", audioPassExtension: "mka",
        audioCodec: "pcm_f32le", audioSampleFormat: "flt", audioName: "32-bit float PCM", muxOptions: [:],
        takesEncoderSettings: false,
        defaultEncoders: [.sdr: "ffv1", .hlg: "ffv1", .pq: "ffv1"],
        pixelFormats: [.sdr: "yuv420p", .hlg: "yuv420p10le", .pq: "yuv420p10le"],
        encoderOptions: ["level": "3", "g": "1"], codecTags: [:], lookahead: [:])

    /// Every output format, the default first.
    public static let all: [OutputFormat] = [.mp4, .mkv]

    /// The row of `codec`.
    public static func of(_ codec: OutputSettings.Codec) -> OutputFormat {
        all.first { $0.codec == codec }!
    }

    /// The format whose output may have the file name `path` (by its extension), or nil.
    public static func forFileName(_ path: String) -> OutputFormat? {
        let ext = fileExtension(path)
        return all.first { $0.extensions.contains(ext) }
    }

    /// `path`'s extension, lower case, without the dot ("" when none).
    public static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Whether `path` has one of this format's extensions.
    public func accepts(fileName path: String) -> Bool { extensions.contains(OutputFormat.fileExtension(path)) }

    /// The extensions for messages: ".mp4 (or .m4v, .mov)".
    public var extensionsInWords: String {
        "." + extensions[0] + (extensions.count > 1 ? " (or " + extensions.dropFirst().map { "." + $0 }.joined(separator: ", ") + ")" : "")
    }

    /// The video encoder `settings` ask for: the named one where the format takes one, else the row's for the range.
    public func videoEncoder(_ settings: OutputSettings) -> String {
        (takesEncoderSettings ? settings.encoder : nil) ?? defaultEncoders[settings.dynamicRange]!
    }

    /// The pixel format written for `range`.
    public func pixelFormat(_ range: DynamicRange) -> String { pixelFormats[range]! }

    /// Frames past a chunk's end to feed the encoder of `settings` as lookahead: its `rc-lookahead` for the preset
    /// (x264's macroblock tree gives a frame bits by how much later frames refer to it; cut off at a chunk's end, the
    /// last frames came out up to 3 dB worse than in a single pass). None for lossless output (`crf` 0), for encoders
    /// without a table, and for formats without encoder settings.
    public func lookahead(for settings: OutputSettings) -> Int64 {
        guard takesEncoderSettings, settings.crf > 0, let byPreset = lookahead[videoEncoder(settings)] else { return 0 }
        return byPreset[settings.preset] ?? byPreset["medium"] ?? 0
    }

    /// The `--codec` values, for messages: "h264 or ffv1".
    public static var codecNames: String {
        let names = all.map(\.codec.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

extension OutputSettings {
    /// The row of `codec` in the output-format table.
    public var format: OutputFormat { OutputFormat.of(codec) }
}
