/// A stream's Dolby Vision configuration record (`dvcC`/`dvvC` box in MP4, FFmpeg's `AVDOVIDecoderConfigurationRecord`,
/// stream side data `AV_PKT_DATA_DOVI_CONF`), and what Segue can show of such a stream.
///
/// Segue does not apply Dolby Vision's RPU metadata (FFmpeg 5.1 does not either): it shows the base layer. That is
/// right exactly when the base layer is a picture of its own, which `compatibilityID` says (`dv_bl_signal_compatibility_id`,
/// Dolby's "Dolby Vision Profiles and Levels" and "Dolby Vision Streams Within the ISO Base Media File Format" v2.1.2,
/// which FFmpeg's `dovi_meta.h` follows): 1 HDR10 (BT.2020 PQ), 2 SDR (BT.709),
/// 4 HLG (BT.2020), 6 HDR10 (profile 7's Blu-ray base layer). 0 means none: profile 5's base layer is IPTPQc2, a
/// colour space only the RPU turns into a picture; decoded as Y′CbCr it shows wrong (green and purple) colours.
public struct DolbyVisionConfiguration: Equatable, Sendable, Codable {
    public var versionMajor: Int
    public var versionMinor: Int
    /// `dv_profile`: 4, 5, 7, 8, 9, 10, …
    public var profile: Int
    public var level: Int
    public var rpuPresent: Bool
    public var enhancementLayerPresent: Bool
    public var baseLayerPresent: Bool
    /// `dv_bl_signal_compatibility_id`.
    public var compatibilityID: Int

    public init(versionMajor: Int = 1, versionMinor: Int = 0, profile: Int, level: Int = 0, rpuPresent: Bool = true,
                enhancementLayerPresent: Bool = false, baseLayerPresent: Bool = true, compatibilityID: Int) {
        self.versionMajor = versionMajor; self.versionMinor = versionMinor; self.profile = profile; self.level = level
        self.rpuPresent = rpuPresent; self.enhancementLayerPresent = enhancementLayerPresent
        self.baseLayerPresent = baseLayerPresent; self.compatibilityID = compatibilityID
    }

    /// What Segue does with the stream.
    public enum Decision: Equatable, Sendable {
        /// Show the base layer, which is a picture in this dynamic range (its own colour tags describe it).
        case baseLayer(TransferFunction)
        /// The stream cannot be shown correctly; the reason, in words.
        case unsupported(String)
    }

    public var decision: Decision {
        guard baseLayerPresent else {
            return .unsupported("its Dolby Vision profile \(profile) stream has no base layer, only an enhancement layer")
        }
        switch compatibilityID {
        case 1, 6: return .baseLayer(.pq)
        case 2: return .baseLayer(.sdr)
        case 4: return .baseLayer(.hlg)
        case 0:
            return .unsupported("Dolby Vision profile \(profile) has no backward-compatible base layer: its pictures are "
                                + "IPTPQc2, which only Dolby Vision's RPU metadata turns into colours (FFmpeg 5.1 does not apply it), "
                                + "so they would show with wrong colours; convert the clip first (e.g. to HDR10 or SDR with a Dolby Vision-aware tool)")
        default:
            return .unsupported("Dolby Vision profile \(profile) with base-layer compatibility id \(compatibilityID), which Segue does not know")
        }
    }

    /// "8.4": profile and compatibility id, as Dolby writes it.
    public var name: String { "\(profile).\(compatibilityID)" }

    /// One line for `probe` and `--verbose`: "Dolby Vision profile 8.4 (level 2, RPU): shows the HLG base layer (the
    /// RPU is not applied)", or why it cannot be shown.
    public var summary: String {
        var s = "Dolby Vision profile \(name) (level \(level)\(rpuPresent ? ", RPU" : "")\(enhancementLayerPresent ? ", enhancement layer" : ""))"
        switch decision {
        case .baseLayer(let t):
            let what = t == .sdr ? "SDR" : t == .hlg ? "HLG" : "HDR10 (PQ)"
            s += ": shows the \(what) base layer (the RPU\(enhancementLayerPresent ? " and the enhancement layer are" : " is") not applied)"
        case .unsupported(let why):
            s += ": cannot be shown: \(why)"
        }
        return s
    }
}
