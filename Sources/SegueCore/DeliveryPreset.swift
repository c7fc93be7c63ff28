/// An EBU R128 loudness normalisation of the whole mixed edit (`"output": {"loudness": -14, "truePeak": -1}`,
/// `--loudness`, `--true-peak`): the integrated loudness (ITU-R BS.1770-4, gated) the output is brought to by one gain,
/// and the true peak (4× oversampled, BS.1770-4 Annex 2) it must not exceed, held by a limiter after the gain.
public struct LoudnessTarget: Equatable, Sendable {
    /// Integrated loudness, LUFS (`integratedRange`).
    public var integrated: Double
    /// The highest true peak, dBTP (`truePeakRange`).
    public var truePeak: Double
    public init(integrated: Double, truePeak: Double = LoudnessTarget.defaultTruePeak) {
        self.integrated = integrated; self.truePeak = truePeak
    }
    /// −1 dBTP: EBU R128's maximum true peak, and what YouTube, Spotify and others ask for.
    public static let defaultTruePeak = -1.0
    /// The integrated loudness a target may have, LUFS: what libavfilter's `ebur128` measures and a gain can reach.
    public static let integratedRange: ClosedRange<Double> = -70 ... -5
    /// The true-peak limits a target may have, dBTP: libavfilter's `alimiter` limits down to 0.0625 (−24 dBFS).
    public static let truePeakRange: ClosedRange<Double> = -24 ... 0
    /// "−14 LUFS, true peak ≤ −1 dBTP".
    public var description: String { "\(Self.number(integrated)) LUFS, true peak ≤ \(Self.number(truePeak)) dBTP" }
    static func number(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}

/// A delivery preset (`--delivery NAME`, `"output": {"delivery": NAME}`): what a platform takes, as AVFoundation's
/// `AVAssetExportSession` presets are — one row of `all` each, setting the render size (its orientation fixed by the
/// row; the pictures fitted as the edit's `fit` says), the frame rate where the platform needs one, the output format
/// (`OutputSettings.Codec`, a row of `OutputFormat.all`), the encoder's quality (`crf`, `preset`), the audio (rate,
/// channels, bit rate; the codec is the format's) and the loudness target. A setting the edit or command line gives
/// explicitly overrides the preset's (`EditFile`, `Arguments`). docs/delivery.md lists the rows with the published
/// guidance each figure comes from, and says which figures are Segue's choice.
public struct DeliveryPreset: Equatable, Sendable {
    /// The row's name (`--delivery`, `output.delivery`).
    public let name: String
    /// In words, for `plan` and help.
    public let summary: String
    /// The render size; nil: the edit's own (its `renderSize`, else the default size).
    public let size: PixelSize?
    /// The frame rate; nil: the edit's own (its clips', or `frameRate`).
    public let frameRate: FrameRate?
    public let codec: OutputSettings.Codec
    /// The encoder's constant rate factor and preset (for the formats that take them, `OutputFormat.takesEncoderSettings`).
    public let crf: Int
    public let encoderPreset: String
    /// Audio: samples per second, channels, bit rate (bits per second; for a lossy audio codec).
    public let sampleRate: Int
    public let channels: Int
    public let audioBitRate: Int
    /// The loudness the mixed edit is normalised to; nil: left as mixed.
    public let loudness: LoudnessTarget?

    /// A platform's row: H.264 (x264 `medium`) and AAC at 48 kHz stereo, `audioKbps` kb/s, normalised to `lufs` LUFS
    /// integrated with the true peak at most −1 dBTP.
    static func h264(_ name: String, _ summary: String, _ size: PixelSize, _ frameRate: FrameRate?, crf: Int, audioKbps: Int,
                     lufs: Double = -14) -> DeliveryPreset {
        DeliveryPreset(name: name, summary: summary, size: size, frameRate: frameRate, codec: .h264, crf: crf, encoderPreset: "medium",
                       sampleRate: 48000, channels: 2, audioBitRate: audioKbps * 1000,
                       loudness: LoudnessTarget(integrated: lufs, truePeak: LoudnessTarget.defaultTruePeak))
    }

    /// YouTube, 1080p: YouTube's "Recommended upload encoding settings" (H.264 High, progressive, the source's frame
    /// rate, AAC-LC 48 kHz stereo at 384 kb/s). Loudness −14 LUFS / −1 dBTP: YouTube's playback reference as measured
    /// and widely cited (YouTube publishes no target: a choice).
    public static let youtube1080p = h264("youtube-1080p", "YouTube 1080p: 1920x1080, the edit's rate, H.264 crf 18, AAC 384 kb/s, -14 LUFS",
        PixelSize(width: 1920, height: 1080), nil, crf: 18, audioKbps: 384)
    /// YouTube, 2160p (4K UHD): as `youtube1080p` at 3840×2160.
    public static let youtube4k = h264("youtube-4k", "YouTube 4K: 3840x2160, the edit's rate, H.264 crf 18, AAC 384 kb/s, -14 LUFS",
        PixelSize(width: 3840, height: 2160), nil, crf: 18, audioKbps: 384)
    /// Instagram Reels: 9:16 portrait 1080×1920 at 30 fps, H.264, AAC 48 kHz stereo 128 kb/s (Meta's "Reels
    /// specifications"). Loudness −14 LUFS / −1 dBTP: Meta publishes none (a choice, as for the other platforms).
    public static let instagramReel = h264("instagram-reel", "Instagram Reel: 1080x1920 portrait, 30 fps, H.264 crf 20, AAC 128 kb/s, -14 LUFS",
        PixelSize(width: 1080, height: 1920), FrameRate(30), crf: 20, audioKbps: 128)
    /// TikTok: 9:16 portrait 1080×1920 at 30 fps, H.264 in MP4, AAC (TikTok's "Video specifications" for uploads and
    /// ads). Loudness −14 LUFS / −1 dBTP (a choice).
    public static let tiktok = h264("tiktok", "TikTok: 1080x1920 portrait, 30 fps, H.264 crf 20, AAC 128 kb/s, -14 LUFS",
        PixelSize(width: 1080, height: 1920), FrameRate(30), crf: 20, audioKbps: 128)
    /// The web, 720p: 1280×720 H.264 (what every browser plays) at the edit's rate, crf 23 (x264's default: small
    /// files), AAC 128 kb/s, −14 LUFS / −1 dBTP (a choice: what the platforms above play at).
    public static let web720p = h264("web-720p", "the web, 720p: 1280x720, the edit's rate, H.264 crf 23, AAC 128 kb/s, -14 LUFS",
        PixelSize(width: 1280, height: 720), nil, crf: 23, audioKbps: 128)
    /// Broadcast by EBU R128 (2020) and EBU Tech 3343: −23 LUFS (±0.5 LU), true peak ≤ −1 dBTP, 48 kHz audio; HD
    /// 1920×1080 at 25 fps (EBU's 50 Hz countries; progressive: a choice), H.264 at crf 12 (high quality: a choice;
    /// broadcasters' own mezzanine formats, e.g. AS-11's AVC-Intra in MXF, are not written), AAC 320 kb/s stereo.
    public static let broadcastEBUR128 = h264("broadcast-ebu-r128", "broadcast, EBU R128: 1920x1080, 25 fps, H.264 crf 12, AAC 320 kb/s 48 kHz, -23 LUFS",
        PixelSize(width: 1920, height: 1080), FrameRate(25), crf: 12, audioKbps: 320, lufs: -23)
    /// A master for further editing: ProRes 422 HQ (prores_ks) in QuickTime with 16-bit PCM at 48 kHz, the edit's size
    /// and rate, the audio as mixed (no loudness change).
    public static let proresMaster = DeliveryPreset(
        name: "prores-master", summary: "a master: ProRes 422 HQ in QuickTime, the edit's size and rate, 16-bit PCM 48 kHz, loudness as mixed",
        size: nil, frameRate: nil, codec: .prores, crf: OutputSettings().crf, encoderPreset: OutputSettings().preset,
        sampleRate: 48000, channels: 2, audioBitRate: AudioSettings().bitRate, loudness: nil)

    /// Every delivery preset, in the order help lists them.
    public static let all: [DeliveryPreset] = [.youtube1080p, .youtube4k, .instagramReel, .tiktok, .web720p, .broadcastEBUR128, .proresMaster]

    /// The preset named `name`, nil for none.
    public static func named(_ name: String) -> DeliveryPreset? { all.first { $0.name == name } }

    /// The names, for messages: "youtube-1080p, youtube-4k, … or prores-master".
    public static var namesInWords: String {
        let names = all.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// `output` and `audio` with the preset's settings, each only where `keep` does not say the edit gave it
    /// explicitly (`Explicit`).
    public func apply(to output: inout OutputSettings, audio: inout AudioSettings, keeping keep: Explicit = Explicit()) {
        if !keep.codec { output.codec = codec; output.codecFromFileName = false }
        if !keep.crf { output.crf = crf }
        if !keep.preset { output.preset = encoderPreset }
        if !keep.loudness { output.loudness = loudness }
        if !keep.sampleRate { audio.sampleRate = sampleRate }
        if !keep.channels { audio.channels = channels }
        if !keep.bitRate { audio.bitRate = audioBitRate }
    }

    /// Which output settings an edit gave itself, so that a preset applied after them keeps them.
    public struct Explicit: Equatable, Sendable {
        public var codec = false, crf = false, preset = false, loudness = false, sampleRate = false, channels = false, bitRate = false
        public init() {}
        /// Those of `output` and `audio` that are not the defaults (a codec named, a crf other than 18, …): what an
        /// edit file read before a command line's `--delivery` set itself.
        public init(differingFromDefaults output: OutputSettings, audio: AudioSettings) {
            let o = OutputSettings(), a = AudioSettings()
            codec = !output.codecFromFileName; crf = output.crf != o.crf; preset = output.preset != o.preset
            loudness = output.loudness != o.loudness
            sampleRate = audio.sampleRate != a.sampleRate; channels = audio.channels != a.channels; bitRate = audio.bitRate != a.bitRate
        }
    }
}
