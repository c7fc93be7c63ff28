/// H.264 parameter sets as MP4 stores them (ISO/IEC 14496-15 §5.3.3, `AVCDecoderConfigurationRecord`, "avcC"), and the
/// few fields of NAL units smart rendering reads (ITU-T H.264 §7.3): NAL unit types, and the ids of sequence and
/// picture parameter sets.
public struct AVCConfiguration: Equatable, Sendable {
    /// configurationVersion (1), AVCProfileIndication, profile_compatibility, AVCLevelIndication.
    public var profile: UInt8, compatibility: UInt8, level: UInt8
    /// Bytes of each NAL unit's length prefix in the samples (1, 2 or 4).
    public var lengthSize: Int
    /// Sequence and picture parameter set NAL units (header byte included).
    public var sps: [[UInt8]], pps: [[UInt8]]
    /// What follows the PPS list (High profiles: chroma_format, bit depths, SPS extensions), kept as it is.
    public var trailer: [UInt8]

    /// Parses an `avcC` record; nil when `bytes` is not one (Annex B extradata, truncated).
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 7, bytes[0] == 1 else { return nil }
        profile = bytes[1]; compatibility = bytes[2]; level = bytes[3]
        lengthSize = Int(bytes[4] & 3) + 1
        var i = 5
        func units(_ count: Int) -> [[UInt8]]? {
            var out: [[UInt8]] = []
            for _ in 0..<count {
                guard i + 2 <= bytes.count else { return nil }
                let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard i + 2 + n <= bytes.count else { return nil }
                out.append(Array(bytes[(i + 2)..<(i + 2 + n)]))
                i += 2 + n
            }
            return out
        }
        let spsCount = Int(bytes[i] & 31); i += 1
        guard let s = units(spsCount) else { return nil }
        sps = s
        guard i < bytes.count else { return nil }
        let ppsCount = Int(bytes[i]); i += 1
        guard let p = units(ppsCount) else { return nil }
        pps = p
        trailer = Array(bytes[i...])
    }

    /// The record's bytes.
    public var bytes: [UInt8] {
        var out: [UInt8] = [1, profile, compatibility, level, 0xFC | UInt8(lengthSize - 1), 0xE0 | UInt8(sps.count)]
        for s in sps { out += [UInt8(s.count >> 8), UInt8(s.count & 255)] + s }
        out.append(UInt8(pps.count))
        for p in pps { out += [UInt8(p.count >> 8), UInt8(p.count & 255)] + p }
        return out + trailer
    }

    /// The ids of the sequence parameter sets (`seq_parameter_set_id`).
    public var spsIDs: [Int] { sps.compactMap { AVCConfiguration.spsID($0) } }
    /// The ids of the picture parameter sets (`pic_parameter_set_id`).
    public var ppsIDs: [Int] { pps.compactMap { AVCConfiguration.ppsID($0) } }

    /// This record with `other`'s parameter sets added after its own (the header, length size and trailer are this
    /// one's): what a stream holding packets that use either reads.
    public func adding(_ other: AVCConfiguration) -> AVCConfiguration {
        var c = self
        c.sps += other.sps
        c.pps += other.pps
        return c
    }

    /// `self` with the SPS and PPS of `other` it does not hold (byte for byte) added after its own (as `adding`); nil
    /// when one of them has the id of another set of `self` (a decoder could not tell the two apart).
    public func merging(_ other: AVCConfiguration) -> AVCConfiguration? {
        var c = self
        for s in other.sps where !c.sps.contains(s) {
            if let id = AVCConfiguration.spsID(s), c.spsIDs.contains(id) { return nil }
            c.sps.append(s)
        }
        for p in other.pps where !c.pps.contains(p) {
            if let id = AVCConfiguration.ppsID(p), c.ppsIDs.contains(id) { return nil }
            c.pps.append(p)
        }
        return c
    }

    /// `seq_parameter_set_id` of an SPS NAL unit: after the header, profile_idc, the constraint flags and level_idc.
    public static func spsID(_ nal: [UInt8]) -> Int? {
        var r = BitReader(rbsp(nal, from: 4))
        return r.ue()
    }

    /// `pic_parameter_set_id` of a PPS NAL unit (the first field after the header).
    public static func ppsID(_ nal: [UInt8]) -> Int? {
        var r = BitReader(rbsp(nal, from: 1))
        return r.ue()
    }

    /// The first byte of each NAL unit (H.264: its type is the low 5 bits; HEVC: bits 1–6) in a sample of
    /// length-prefixed NAL units (`lengthSize` bytes each); nil when the lengths do not add up to the sample.
    public static func nalHeaders(_ sample: UnsafeBufferPointer<UInt8>, lengthSize: Int) -> [UInt8]? {
        var i = 0, types: [UInt8] = []
        while i < sample.count {
            guard i + lengthSize <= sample.count else { return nil }
            var n = 0
            for k in 0..<lengthSize { n = n << 8 | Int(sample[i + k]) }
            i += lengthSize
            guard n > 0, i + n <= sample.count else { return nil }
            types.append(sample[i])
            i += n
        }
        return types
    }

    /// The bytes of `nal` from `start` with the emulation prevention bytes (00 00 03) removed.
    static func rbsp(_ nal: [UInt8], from start: Int) -> [UInt8] {
        var out: [UInt8] = [], zeros = 0
        for b in nal.dropFirst(start) {
            if zeros >= 2 && b == 3 { zeros = 0; continue }
            out.append(b)
            zeros = b == 0 ? zeros + 1 : 0
        }
        return out
    }
}

/// Reads Exp-Golomb codes from RBSP bytes, most significant bit first.
struct BitReader {
    let bytes: [UInt8]
    var bit = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    mutating func read() -> Int? {
        guard bit < bytes.count * 8 else { return nil }
        defer { bit += 1 }
        return Int(bytes[bit / 8] >> (7 - UInt8(bit % 8)) & 1)
    }
    /// An unsigned Exp-Golomb code, ue(v).
    mutating func ue() -> Int? {
        var zeros = 0
        while let b = read(), b == 0 { zeros += 1; if zeros > 31 { return nil } }
        var v = 0
        for _ in 0..<zeros { guard let b = read() else { return nil }; v = v << 1 | b }
        return (1 << zeros) - 1 + v
    }
}
