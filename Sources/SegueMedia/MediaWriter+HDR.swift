import CFFmpeg
import SegueCore

/// The output's colour description and, for PQ, its static HDR metadata.
///
/// PQ output carries SMPTE ST 2086 mastering display metadata (BT.2020 primaries, D65, 0.0001 cd/m² to the larger of
/// `peak` and 1000 cd/m², BT.2100's reference display) and CTA-861.3 content light levels (MaxCLL = `peak`,
/// MaxFALL = 0, "unknown"): as x265 SEI in the HEVC stream
/// (`x265-params`), and as stream side data that the MP4 and Matroska muxers write into their boxes/elements.
/// `peak` is the brightest the sources can be (HLG: 1000 cd/m², a PQ clip: its own MaxCLL or mastering peak, SDR
/// white: 203 cd/m²), not a measurement: MaxFALL would need every frame before the first is written.
extension MediaWriter {
    /// Darkest luminance of the mastering display written for PQ output, cd/m² (the smallest HDR10 can state).
    static let masteringMinimum = 0.0001
    /// The mastering display's peak for content as bright as `peak`: at least BT.2100's 1000 cd/m² reference display.
    public static func masteringPeak(_ peak: Double) -> Double { max(peak, HLG.nominalPeak) }

    /// x265's HDR10 options: `master-display` in its units (chromaticities × 50000, luminance × 10000, G B R order)
    /// and `max-cll` "MaxCLL,MaxFALL".
    static func x265HDR10Parameters(peak: Double) -> String {
        let c = ColourPrimaries.bt2020.chromaticities
        func xy(_ p: (Double, Double)) -> String { "(\(Int((p.0 * 50000).rounded())),\(Int((p.1 * 50000).rounded())))" }
        let display = "G\(xy(c.g))B\(xy(c.b))R\(xy(c.r))WP\(xy(c.white))L(\(Int((masteringPeak(peak) * 10000).rounded())),\(Int((masteringMinimum * 10000).rounded())))"
        return "hdr10=1:repeat-headers=1:master-display=\(display):max-cll=\(Int(peak.rounded())),0"
    }

    /// Adds `AV_PKT_DATA_MASTERING_DISPLAY_METADATA` and `AV_PKT_DATA_CONTENT_LIGHT_LEVEL` to the stream (before the
    /// header is written). Wraps `av_stream_new_side_data`.
    static func addHDR10SideData(to st: UnsafeMutablePointer<AVStream>, peak: Double, path: String) throws {
        let c = ColourPrimaries.bt2020.chromaticities
        func q(_ v: Double, _ den: Int32) -> AVRational { AVRational(num: Int32((v * Double(den)).rounded()), den: den) }
        guard let md = av_stream_new_side_data(st, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, MemoryLayout<AVMasteringDisplayMetadata>.size) else {
            throw MediaError(path: path, function: "av_stream_new_side_data", message: "out of memory for the mastering display metadata")
        }
        md.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) { m in
            m.pointee.display_primaries = ((q(c.r.0, 50000), q(c.r.1, 50000)), (q(c.g.0, 50000), q(c.g.1, 50000)), (q(c.b.0, 50000), q(c.b.1, 50000)))
            m.pointee.white_point = (q(c.white.0, 50000), q(c.white.1, 50000))
            m.pointee.max_luminance = q(masteringPeak(peak), 10000)
            m.pointee.min_luminance = q(masteringMinimum, 10000)
            m.pointee.has_primaries = 1
            m.pointee.has_luminance = 1
        }
        guard let cl = av_stream_new_side_data(st, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, MemoryLayout<AVContentLightMetadata>.size) else {
            throw MediaError(path: path, function: "av_stream_new_side_data", message: "out of memory for the content light level")
        }
        cl.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) { m in
            m.pointee.MaxCLL = UInt32(peak.rounded())
            m.pointee.MaxFALL = 0
        }
    }
}
