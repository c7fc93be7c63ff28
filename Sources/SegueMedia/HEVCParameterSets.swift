/// HEVC parameter sets as MP4 stores them (ISO/IEC 14496-15 §8.3.3, `HEVCDecoderConfigurationRecord`, "hvcC"): what
/// smart rendering puts in front of a copied stretch's IRAP pictures, since x265 numbers its own VPS, SPS and PPS 0
/// as the copied stream's are (the output carries parameter sets in band: an `hev1` sample entry).
public struct HEVCConfiguration: Equatable, Sendable {
    /// Bytes of each NAL unit's length prefix in the samples (1, 2 or 4).
    public var lengthSize: Int
    /// The record's VPS, SPS and PPS NAL units (header included), in its order.
    public var parameterSets: [[UInt8]]

    /// Parses an `hvcC` record; nil when `bytes` is not one.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 23, bytes[0] == 1 else { return nil }
        lengthSize = Int(bytes[21] & 3) + 1
        var i = 23, sets: [[UInt8]] = []
        for _ in 0..<Int(bytes[22]) {
            guard i + 3 <= bytes.count else { return nil }
            let type = bytes[i] & 0x3F
            let count = Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            i += 3
            for _ in 0..<count {
                guard i + 2 <= bytes.count else { return nil }
                let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                i += 2
                guard i + n <= bytes.count else { return nil }
                if (32...34).contains(type) { sets.append(Array(bytes[i..<(i + n)])) }
                i += n
            }
        }
        parameterSets = sets
    }

    /// The parameter sets as length-prefixed NAL units (`lengthSize` bytes each), to go in front of a sample.
    public var inBand: [UInt8] {
        parameterSets.flatMap { nal in (0..<lengthSize).reversed().map { UInt8((nal.count >> (8 * $0)) & 255) } + nal }
    }

    /// Whether a NAL unit whose first byte is `header` is an IDR picture's slice (IDR_W_RADL 19, IDR_N_LP 20).
    public static func isIDR(_ header: UInt8) -> Bool { (19...20).contains((header >> 1) & 0x3F) }

    /// Whether it is a CRA picture's slice (CRA_NUT 21).
    public static func isCRA(_ header: UInt8) -> Bool { (header >> 1) & 0x3F == 21 }

    /// Whether it is a RASL picture's slice (RASL_N 8, RASL_R 9): a leading picture that may reference pictures before
    /// its CRA picture.
    public static func isRASL(_ header: UInt8) -> Bool { (8...9).contains((header >> 1) & 0x3F) }

    /// `sample` (length-prefixed NAL units, `lengthSize` bytes each) with each CRA slice made a BLA_W_RADL slice
    /// (type 17): the same slice syntax (ITU-T H.265 §7.3.6.1 reads the same fields for every IRAP type), decoded as
    /// a random access point whose RASL pictures are not output and whose picture order count starts again.
    public static func brokenLink(_ sample: UnsafeMutableBufferPointer<UInt8>, lengthSize: Int) {
        var i = 0
        while i + lengthSize < sample.count {
            var n = 0
            for k in 0..<lengthSize { n = n << 8 | Int(sample[i + k]) }
            let h = i + lengthSize
            if isCRA(sample[h]) { sample[h] = (sample[h] & 0x81) | (17 << 1) }
            i = h + n
        }
    }
}
