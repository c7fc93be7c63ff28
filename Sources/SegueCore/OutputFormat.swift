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
    /// The output's file-name extensions, lower case, without the dot; the first is the usual one. An extension may
    /// belong to several rows (`.mov`: H.264 and ProRes; `.webm`: VP9 and AV1): the first row in `all` is the one a
    /// file name alone chooses.
    public let extensions: [String]
    /// The extension of a farm chunk's video (`chunk_0007.mp4`).
    public let chunkExtension: String
    /// The extension of the farm's audio pass (`audio.m4a`): the same muxer, audio only.
    public let audioPassExtension: String
    /// The audio encoder (FFmpeg's name) and its sample format (an `AVSampleFormat` name: `fltp` planar float, `flt`
    /// interleaved float, `s16` 16-bit integers); empty for a format without audio (GIF, image sequences).
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
    /// The pixel format written per dynamic range (an `AVPixelFormat` name); the ranges the format writes.
    public let pixelFormats: [DynamicRange: String]
    /// The pixel format written when the output keeps alpha (`"background": "transparent"`: `FramePlan.keepsAlpha`),
    /// SDR only; nil for a format without alpha.
    public let alphaPixelFormat: String?
    /// Options every encode of this format gets (`avcodec_open2`), e.g. FFV1's version 3 and intra-only (`g=1`).
    public let encoderOptions: [String: String]
    /// Options that replace some of those when the output keeps alpha (ProRes: profile 4, 4444).
    public let alphaEncoderOptions: [String: String]
    /// The codec tag to write for a codec in this container (FFmpeg codec name → fourCC): HEVC in MP4 as `hvc1`,
    /// which Apple's players require.
    public let codecTags: [String: String]
    /// Frames a farm chunk draws past its end for the encoder's rate control only, by encoder and preset (the
    /// encoder's `rc-lookahead` for that preset; see `lookahead(for:)`).
    public let lookahead: [String: [String: Int64]]
    /// Whether a render farm may render it in chunks and stitch them (`segue farm`, `plan --chunks`).
    public let chunkable: Bool
    /// One file per frame (`image2`): the output's file name is a numbered pattern (`frames/%05d.png`,
    /// `ImageSequencePattern`), frames numbered from 1 as FFmpeg numbers them.
    public let isImageSequence: Bool
    /// GIF: the frames go through libavfilter's `palettegen` (one palette for the whole clip) and `paletteuse`.
    public let palette: Bool
    /// OpenEXR: the composite's R′G′B′ go through the BT.1886 EOTF (`L = V^2.4`) into linear-light floats.
    public let linearLight: Bool

    public init(codec: OutputSettings.Codec, name: String, container: String, containerName: String, extensions: [String],
                chunkExtension: String = "", audioPassExtension: String = "", audioCodec: String = "", audioSampleFormat: String = "",
                audioName: String = "", muxOptions: [String: String] = [:], takesEncoderSettings: Bool, defaultEncoders: [DynamicRange: String],
                pixelFormats: [DynamicRange: String], alphaPixelFormat: String? = nil, encoderOptions: [String: String] = [:],
                alphaEncoderOptions: [String: String] = [:], codecTags: [String: String] = [:], lookahead: [String: [String: Int64]] = [:],
                chunkable: Bool = false, isImageSequence: Bool = false, palette: Bool = false, linearLight: Bool = false) {
        self.codec = codec; self.name = name; self.container = container; self.containerName = containerName; self.extensions = extensions
        self.chunkExtension = chunkExtension; self.audioPassExtension = audioPassExtension; self.audioCodec = audioCodec
        self.audioSampleFormat = audioSampleFormat; self.audioName = audioName; self.muxOptions = muxOptions
        self.takesEncoderSettings = takesEncoderSettings; self.defaultEncoders = defaultEncoders; self.pixelFormats = pixelFormats
        self.alphaPixelFormat = alphaPixelFormat; self.encoderOptions = encoderOptions; self.alphaEncoderOptions = alphaEncoderOptions
        self.codecTags = codecTags; self.lookahead = lookahead; self.chunkable = chunkable; self.isImageSequence = isImageSequence
        self.palette = palette; self.linearLight = linearLight
    }

    /// Whether the format carries audio.
    public var hasAudio: Bool { !audioCodec.isEmpty }
    /// The dynamic ranges it writes.
    public var dynamicRanges: Set<DynamicRange> { Set(pixelFormats.keys) }

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
                                "slow": 25, "slower": 40, "veryslow": 40, "placebo": 60]],
        chunkable: true)

    /// Lossless FFV1 (version 3, intra-only) in Matroska with 32-bit float PCM: for exact comparisons; keeps alpha
    /// (yuva420p).
    public static let mkv = OutputFormat(
        codec: .ffv1, name: "lossless FFV1 in Matroska", container: "matroska", containerName: "Matroska",
        extensions: ["mkv"], chunkExtension: "mkv", audioPassExtension: "mka",
        audioCodec: "pcm_f32le", audioSampleFormat: "flt", audioName: "32-bit float PCM", muxOptions: [:],
        takesEncoderSettings: false,
        defaultEncoders: [.sdr: "ffv1", .hlg: "ffv1", .pq: "ffv1"],
        pixelFormats: [.sdr: "yuv420p", .hlg: "yuv420p10le", .pq: "yuv420p10le"], alphaPixelFormat: "yuva420p",
        encoderOptions: ["level": "3", "g": "1"], codecTags: [:], lookahead: [:], chunkable: true)

    /// VP9 (libvpx-vp9, constant quality: `crf`, bit rate 0) in WebM with Opus (libopus): what browsers play; keeps
    /// alpha (yuva420p, which the WebM muxer stores as VP9's alpha channel); HDR as 10-bit profile 2.
    public static let webmVP9 = OutputFormat(
        codec: .vp9, name: "VP9 in WebM", container: "webm", containerName: "WebM", extensions: ["webm"],
        audioCodec: "libopus", audioSampleFormat: "flt", audioName: "Opus", takesEncoderSettings: true,
        defaultEncoders: [.sdr: "libvpx-vp9", .hlg: "libvpx-vp9", .pq: "libvpx-vp9"],
        pixelFormats: [.sdr: "yuv420p", .hlg: "yuv420p10le", .pq: "yuv420p10le"], alphaPixelFormat: "yuva420p",
        encoderOptions: ["b": "0", "row-mt": "1", "deadline": "good", "cpu-used": "4"])

    /// AV1 (libaom-av1, constant quality) in WebM with Opus; HDR as 10-bit.
    public static let webmAV1 = OutputFormat(
        codec: .av1, name: "AV1 in WebM", container: "webm", containerName: "WebM", extensions: ["webm"],
        audioCodec: "libopus", audioSampleFormat: "flt", audioName: "Opus", takesEncoderSettings: true,
        defaultEncoders: [.sdr: "libaom-av1", .hlg: "libaom-av1", .pq: "libaom-av1"],
        pixelFormats: [.sdr: "yuv420p", .hlg: "yuv420p10le", .pq: "yuv420p10le"],
        encoderOptions: ["b": "0", "row-mt": "1", "cpu-used": "6"])

    /// ProRes 422 HQ (prores_ks profile 3, 10-bit 4:2:2), or 4444 with alpha (profile 4, 10-bit 4:4:4 and a 16-bit
    /// alpha channel), in QuickTime with 16-bit PCM: what editors take. The composite's 4:2:0 chroma is upsampled.
    public static let prores = OutputFormat(
        codec: .prores, name: "ProRes 422 HQ (4444 with alpha) in QuickTime", container: "mov", containerName: "QuickTime",
        extensions: ["mov"], audioCodec: "pcm_s16le", audioSampleFormat: "s16", audioName: "16-bit PCM", takesEncoderSettings: false,
        defaultEncoders: [.sdr: "prores_ks", .hlg: "prores_ks", .pq: "prores_ks"],
        pixelFormats: [.sdr: "yuv422p10le", .hlg: "yuv422p10le", .pq: "yuv422p10le"], alphaPixelFormat: "yuva444p10le",
        encoderOptions: ["profile": "3", "vendor": "apl0"], alphaEncoderOptions: ["profile": "4"])

    /// An animated GIF (no audio), its 256 colours chosen for the whole clip by libavfilter's `palettegen` and applied
    /// by `paletteuse` (its default dithering); the frames wait in the filter until the palette is made.
    public static let gif = OutputFormat(
        codec: .gif, name: "animated GIF", container: "gif", containerName: "GIF", extensions: ["gif"], takesEncoderSettings: false,
        defaultEncoders: [.sdr: "gif"], pixelFormats: [.sdr: "pal8"], palette: true)

    /// PNG image sequence (8-bit RGB, RGBA with alpha), one file per frame.
    public static let png = OutputFormat(
        codec: .png, name: "PNG image sequence", container: "image2", containerName: "an image sequence", extensions: ["png"],
        takesEncoderSettings: false, defaultEncoders: [.sdr: "png"], pixelFormats: [.sdr: "rgb24"], alphaPixelFormat: "rgba",
        isImageSequence: true)

    /// TIFF image sequence (8-bit RGB, RGBA with alpha).
    public static let tiff = OutputFormat(
        codec: .tiff, name: "TIFF image sequence", container: "image2", containerName: "an image sequence", extensions: ["tif", "tiff"],
        takesEncoderSettings: false, defaultEncoders: [.sdr: "tiff"], pixelFormats: [.sdr: "rgb24"], alphaPixelFormat: "rgba",
        isImageSequence: true)

    /// OpenEXR image sequence: 32-bit float RGB(A) in linear light (the BT.1886 EOTF of the composite's R′G′B′).
    public static let exr = OutputFormat(
        codec: .exr, name: "OpenEXR image sequence", container: "image2", containerName: "an image sequence", extensions: ["exr"],
        takesEncoderSettings: false, defaultEncoders: [.sdr: "exr"], pixelFormats: [.sdr: "gbrpf32le"], alphaPixelFormat: "gbrapf32le",
        isImageSequence: true, linearLight: true)

    /// Every output format, the default first (for an extension several rows have, the earlier row is the one a file
    /// name alone chooses).
    public static let all: [OutputFormat] = [.mp4, .mkv, .webmVP9, .webmAV1, .prores, .gif, .png, .tiff, .exr]

    /// The row of `codec`.
    public static func of(_ codec: OutputSettings.Codec) -> OutputFormat {
        all.first { $0.codec == codec }!
    }

    /// The format whose output may have the file name `path` (by its extension; an image sequence's name is a
    /// numbered pattern, `frames/%05d.png`), or nil.
    public static func forFileName(_ path: String) -> OutputFormat? { all.first { $0.accepts(fileName: path) } }

    /// `path`'s extension, lower case, without the dot ("" when none).
    public static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Whether `path` has one of this format's extensions (and, for an image sequence, is a numbered pattern: a single
    /// file is never one; other formats take patterns too, as `segue record` names its segments `take_%03d.mp4`).
    public func accepts(fileName path: String) -> Bool {
        extensions.contains(OutputFormat.fileExtension(path)) && (!isImageSequence || ImageSequencePattern(path: path) != nil)
    }

    /// The extensions for messages: ".mp4 (or .m4v, .mov)"; for an image sequence, a pattern: "frames/%05d.png".
    public var extensionsInWords: String {
        if isImageSequence { return "numbered pattern such as frames/%05d.\(extensions[0])" }
        return "." + extensions[0] + (extensions.count > 1 ? " (or " + extensions.dropFirst().map { "." + $0 }.joined(separator: ", ") + ")" : "")
    }

    /// The format a file name chooses when the edit names none (`OutputSettings.codecFromFileName`): the first row
    /// that accepts it, nil when none does.
    public static func chosen(byFileName path: String) -> OutputFormat? { forFileName(path) }

    /// The video encoder `settings` ask for: the named one where the format takes one, else the row's for the range.
    public func videoEncoder(_ settings: OutputSettings) -> String {
        (takesEncoderSettings ? settings.encoder : nil) ?? defaultEncoders[settings.dynamicRange]!
    }

    /// The pixel format written for `range` (nil where the format does not write that range), or with alpha.
    public func pixelFormat(_ range: DynamicRange, alpha: Bool = false) -> String? { alpha ? alphaPixelFormat : pixelFormats[range] }

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

/// What `segue record` writes, beside the output-format table: a take is a row of `OutputFormat.all` (its container,
/// the video encoder and pixel format for SDR that a re-encoded take gets, the audio encoder and sample format, and
/// `muxOptions` for the finished take, rewritten with its index first), so that a container or codec both commands
/// write is one row; this adds what only recording has: the fragmented muxing while a take is written, and the
/// preview picture, a format the render does not write.
public struct RecordingFormat: Sendable {
    /// The take's row in the output-format table.
    public let take: OutputFormat
    /// The muxer's options while the take is written (FFmpeg's names): fragmented MP4, a fragment at each video
    /// keyframe and at least every `frag_duration` µs, each flushed to the file when complete, the index with the
    /// first fragment (`delay_moov`: the codecs' configuration and the audio's edit list are known by then).
    public let fragmentedMuxOptions: [String: String]
    /// The preview picture (`--preview`): its encoder and muxer (FFmpeg's names), pixel format, fixed quantiser
    /// (`qscale`, 2 best … 31 worst) and file-name extensions (lower case, without the dot).
    public let previewEncoder: String
    public let previewContainer: String
    public let previewPixelFormat: String
    public let previewQuantiser: Int
    public let previewExtensions: [String]

    /// Takes in MP4 (`OutputFormat.mp4`: H.264 from libx264 when re-encoded, AAC, `+faststart` when finished), the
    /// preview a baseline JPEG (libavcodec's `mjpeg`, full-range 4:2:0, the raw `mjpeg` muxer: the file is the picture).
    public static let mp4 = RecordingFormat(
        take: .mp4,
        fragmentedMuxOptions: ["movflags": "+frag_keyframe+empty_moov+delay_moov+default_base_moof", "frag_duration": "2000000",
                               "flush_packets": "1"],
        previewEncoder: "mjpeg", previewContainer: "mjpeg", previewPixelFormat: "yuvj420p", previewQuantiser: 4,
        previewExtensions: ["jpg", "jpeg"])
}

extension OutputFormat {
    /// The muxer's options for a render that keeps what it wrote when it is interrupted (`RenderOptions.keepPartial`,
    /// `--keep-partial`): fragmented MP4 as a take is written (`RecordingFormat.fragmentedMuxOptions`: a file that plays
    /// up to its last complete fragment however the process ends), for the rows in MP4 or QuickTime; nil for the others.
    public var fragmentedMuxOptions: [String: String]? {
        ["mp4", "mov"].contains(container) ? RecordingFormat.mp4.fragmentedMuxOptions : nil
    }
}

extension OutputSettings {
    /// The row of `codec` in the output-format table.
    public var format: OutputFormat { OutputFormat.of(codec) }
}
