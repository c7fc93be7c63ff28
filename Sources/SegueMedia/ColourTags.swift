import CFFmpeg
import SegueCore

/// FFmpeg's colour tags (`AVColorSpace`, `AVColorPrimaries`, `AVColorTransferCharacteristic`, libswscale's `SWS_CS_*`)
/// and Segue's colour types, in one table each, read in both directions: what a decoded frame's tags mean
/// (ITU-T H.273's code points as FFmpeg names them) and what the output is tagged with. Where several tags mean the
/// same to Segue, the first is the one written.
enum ColourTags {
    /// `colorspace` tags, the matrix each names, and libswscale's name for it.
    static let matrices: [(tag: AVColorSpace, matrix: YCbCrMatrix, sws: Int32)] = [
        (AVCOL_SPC_BT709, .bt709, SWS_CS_ITU709),
        (AVCOL_SPC_BT470BG, .bt601, SWS_CS_ITU601), (AVCOL_SPC_SMPTE170M, .bt601, SWS_CS_ITU601),
        (AVCOL_SPC_SMPTE240M, .smpte240m, SWS_CS_SMPTE240M),
        (AVCOL_SPC_FCC, .fcc, SWS_CS_FCC),
        (AVCOL_SPC_BT2020_NCL, .bt2020, SWS_CS_BT2020), (AVCOL_SPC_BT2020_CL, .bt2020, SWS_CS_BT2020),
    ]
    /// `color_primaries` tags and the primaries each names (BT.601's 625- and 525-line sets and SMPTE 240M are
    /// shown as BT.709, as players do: `ColourPrimaries.bt601`).
    static let primaries: [(tag: AVColorPrimaries, primaries: ColourPrimaries)] = [
        (AVCOL_PRI_BT709, .bt709),
        (AVCOL_PRI_BT470BG, .bt601), (AVCOL_PRI_SMPTE170M, .bt601), (AVCOL_PRI_SMPTE240M, .bt601),
        (AVCOL_PRI_BT2020, .bt2020),
    ]
    /// `color_trc` tags of the HDR transfers, and the SDR tag written (every other specified tag reads as SDR).
    static let transfers: [(tag: AVColorTransferCharacteristic, transfer: TransferFunction)] = [
        (AVCOL_TRC_BT709, .sdr), (AVCOL_TRC_ARIB_STD_B67, .hlg), (AVCOL_TRC_SMPTE2084, .pq),
    ]

    /// The matrix a `colorspace` tag names; nil when unspecified (or one Segue does not know).
    static func matrix(_ c: AVColorSpace) -> YCbCrMatrix? { matrices.first { $0.tag == c }?.matrix }
    /// The primaries a `color_primaries` tag names; nil when unspecified.
    static func primaries(_ p: AVColorPrimaries) -> ColourPrimaries? { primaries.first { $0.tag == p }?.primaries }
    /// The transfer a `color_trc` tag names; nil when unspecified.
    static func transfer(_ t: AVColorTransferCharacteristic) -> TransferFunction? {
        if [AVCOL_TRC_UNSPECIFIED, AVCOL_TRC_RESERVED, AVCOL_TRC_RESERVED0].contains(t) { return nil }
        return transfers.first { $0.tag == t }?.transfer ?? .sdr
    }

    static func tag(_ m: YCbCrMatrix) -> AVColorSpace { matrices.first { $0.matrix == m }!.tag }
    static func tag(_ p: ColourPrimaries) -> AVColorPrimaries { primaries.first { $0.primaries == p }!.tag }
    static func tag(_ t: TransferFunction) -> AVColorTransferCharacteristic { transfers.first { $0.transfer == t }!.tag }
    /// libswscale's `SWS_CS_*` for a matrix.
    static func sws(_ m: YCbCrMatrix) -> Int32 { matrices.first { $0.matrix == m }!.sws }

    /// The output's tags for `range`: its primaries, transfer and matrix (`OutputYCbCr`: BT.709 for SDR, BT.2020
    /// non-constant luminance for HLG and PQ).
    static func output(_ range: DynamicRange) -> (primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic, matrix: AVColorSpace) {
        (tag(range.primaries), tag(range.transfer), tag(OutputYCbCr(range).matrix))
    }
}
