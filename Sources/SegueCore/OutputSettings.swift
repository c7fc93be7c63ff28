import Foundation

/// A clip's colour description as the user states it, replacing the stream's tags (some tools write BT.601 without
/// tags, some phones tag wrongly). Each field left nil keeps the tag, or the guess for an untagged clip.
public struct ColourOverride: Equatable, Sendable {
    public var matrix: YCbCrMatrix?
    public var range: ColourRange?
    public var transfer: TransferFunction?
    public var primaries: ColourPrimaries?
    public init(matrix: YCbCrMatrix? = nil, range: ColourRange? = nil, transfer: TransferFunction? = nil, primaries: ColourPrimaries? = nil) {
        self.matrix = matrix; self.range = range; self.transfer = transfer; self.primaries = primaries
    }

    /// `colour` with the stated fields replaced.
    public func applied(to colour: YCbCrColour) -> YCbCrColour {
        var c = colour
        if let m = matrix { c.matrix = m }
        if let r = range { c.range = r }
        if let t = transfer { c.transfer = t }
        if let p = primaries { c.primaries = p }
        return c
    }
}

/// Output encoding settings.
public struct OutputSettings: Equatable, Sendable {
    /// The output format (its row in `OutputFormat.all` says what each writes).
    public enum Codec: String, CaseIterable, Sendable, Codable {
        /// H.264 (libx264; HEVC Main 10 with libx265 for HDR) in MP4 with `+faststart`, AAC audio (`OutputFormat.mp4`).
        case h264
        /// Lossless FFV1 in Matroska, 32-bit float PCM audio: for exact comparisons (`OutputFormat.mkv`).
        case ffv1
        /// VP9 (libvpx-vp9) in WebM with Opus: for browsers; keeps alpha (`OutputFormat.webmVP9`).
        case vp9
        /// AV1 (libaom-av1) in WebM with Opus (`OutputFormat.webmAV1`).
        case av1
        /// ProRes 422 HQ, or 4444 with alpha (prores_ks), in QuickTime with 16-bit PCM: for editors (`OutputFormat.prores`).
        case prores
        /// An animated GIF, its palette made for the whole clip (libavfilter's palettegen and paletteuse) (`OutputFormat.gif`).
        case gif
        /// Image sequences, one file per frame (`-o frames/%05d.png`): PNG, TIFF (8-bit RGB or RGBA), OpenEXR
        /// (32-bit float linear light) (`OutputFormat.png`, `.tiff`, `.exr`).
        case png, tiff, exr
    }
    public var codec: Codec = .h264
    /// Whether the output's file name chooses the format when it is another format's (`-o clip.webm`: VP9): true
    /// unless the edit or the command line names a codec (`output.codec`, `--codec`).
    public var codecFromFileName = true
    /// libx264 constant rate factor (0–51); default 18.
    public var crf: Int = 18
    /// libx264 preset; default `medium`.
    public var preset: String = "medium"
    /// A libavcodec video encoder to use instead of libx264 for MP4 output (e.g. `libx265`, `h264_nvenc`);
    /// `crf` and `preset` are passed to it when it has those options. Nil: libx264.
    public var encoder: String?
    /// The curve that tone-maps HDR clips (HLG, PQ) into the output (`output.toneMap`, `--tone-map`); default BT.2390.
    public var toneMap: ToneMapCurve = .default
    /// What is written (`output.dynamicRange`, `--dynamic-range`): SDR (BT.709, 8-bit; the default), or HDR (BT.2020,
    /// HLG or PQ, 10-bit 4:2:0; libx265 for MP4 unless `encoder` names another 10-bit encoder).
    public var dynamicRange: DynamicRange = .sdr
    /// The loudness the mixed edit is normalised to (`output.loudness`, `output.truePeak`, `--loudness`, `--true-peak`,
    /// or a delivery preset's); nil: the audio as mixed.
    public var loudness: LoudnessTarget?
    /// Smart rendering (`output.smart`, `--smart`): stretches of direct frames of an H.264 or HEVC source are copied as
    /// the source's packets and only the rest is encoded, by an encoder set up to match the copied stream
    /// (docs/smart-rendering.md). MP4 output (`codec` h264) only; default false.
    public var smart = false
    /// Options added to the video encoder's (FFmpeg's names: `profile`, `level`, `x264-params`), over the format's own:
    /// what a smart render's encoded stretches are set up with to match the copied stream. Not in the edit file.
    public var encoderOptions: [String: String] = [:]
    /// The libx264 presets, fastest first.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
    public init() {}
}

/// Output audio format.
public struct AudioSettings: Equatable, Sendable {
    /// Samples per second (one of `aacSampleRates`).
    public var sampleRate: Int = 48000
    /// The sampling rates AAC (ISO/IEC 14496-3) defines, and so the ones FFmpeg's encoder takes.
    public static let aacSampleRates = [7350, 8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000]
    /// 1 (mono) … 8; the default layout for the count (2 = stereo, 6 = 5.1).
    public var channels: Int = 2
    /// AAC bit rate, bits per second.
    public var bitRate: Int = 192_000
    public init() {}
}

import Foundation
