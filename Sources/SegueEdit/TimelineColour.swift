import SegueCore

extension Timeline {
    /// The brightest the output can be, cd/m², for PQ output's static metadata: the largest of the clips' peaks
    /// (HLG: 1000; PQ: its MaxCLL or mastering peak, else 1000; SDR: white, 203 in an HDR edit), as they come out
    /// (a PQ clip is not tone-mapped into PQ output).
    public var contentPeak: Double {
        placements.map { p -> Double in
            switch p.source.colour?.transfer ?? .sdr {
            case .sdr: return hdrReferenceWhite
            case .hlg: return HLG.nominalPeak
            case .pq: return p.source.colour?.peakLuminance ?? HLG.nominalPeak
            }
        }.max() ?? HLG.nominalPeak
    }

    /// The output in words, for `--verbose`: "SDR: BT.709, 8-bit 4:2:0", "HDR (HLG): BT.2020, 10-bit 4:2:0".
    public var outputDescription: String {
        switch output.dynamicRange {
        case .sdr: return "SDR: BT.709 limited range, 8-bit 4:2:0"
        case .hlg: return "HDR (HLG): BT.2020 limited range, 10-bit 4:2:0, ARIB STD-B67 tagged"
        case .pq: return String(format: "HDR (PQ): BT.2020 limited range, 10-bit 4:2:0, SMPTE ST 2084 tagged, mastering display 0.0001–%.0f cd/m², MaxCLL %.0f cd/m²",
                                max(contentPeak, HLG.nominalPeak), contentPeak)
        }
    }
}
