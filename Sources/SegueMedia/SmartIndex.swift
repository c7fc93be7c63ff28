import CFFmpeg
import SegueCore

/// Reads what smart rendering needs of a video file (`SmartStream`) from its packets, without decoding: the codec,
/// the stream's format and colour tags, its parameter sets, every frame's time and where decoding may start.
public enum SmartIndex {
    /// The smart-rendering facts of `path`'s video stream. A stream that cannot be copied at all comes back with its
    /// `problem` set (and no GOPs); only a file that cannot be read throws.
    /// - Throws: `MediaError` (the file cannot be opened or read, or has no video stream).
    public static func read(path: String, policy: InputPolicy) throws -> SmartStream {
        let file = try InputFile(path: path, policy: policy)
        guard let vi = file.bestStream(AVMEDIA_TYPE_VIDEO) else { throw MediaError(path: path, function: nil, message: "no video stream") }
        let st = file.stream(vi)
        let par = st.pointee.codecpar.pointee
        var s = SmartStream(path: path, codec: String(cString: avcodec_get_name(par.codec_id)))
        s.problem = problem(with: par)
        let extradata = par.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(par.extradata_size))) } ?? []
        s.parameterSets = extradata
        let hevc = par.codec_id == AV_CODEC_ID_HEVC
        let config = hevc ? nil : AVCConfiguration(extradata)
        let lengthSize = hevc ? HEVCConfiguration(extradata)?.lengthSize : config?.lengthSize
        if s.problem == nil {
            if lengthSize == nil { s.problem = "its parameter sets are not stored as \(hevc ? "hvcC" : "avcC") (an Annex B stream)" }
            else if lengthSize != 4 { s.problem = "its NAL units have \(lengthSize!)-byte lengths (4 are copied)" }
        }
        if hevc, s.problem == nil {
            // x265 numbers its parameter sets 0 as the stream does: the output carries them in band (hev1). No level:
            // x265 with a level and CRF turns on VBV, whose output is not deterministic; it chooses its own.
            s.encoder = "libx265"
            s.encoderOptions = ["profile": "main", "x265-params": "repeat-headers=1"]
        } else if let c = config, s.problem == nil {
            let used = c.spsIDs + c.ppsIDs
            let id = (used.max() ?? -1) + 1
            if id > 31 { s.problem = "its parameter sets use every id" } else {
                s.encoderOptions = ["profile": profileOption(par.profile) ?? "high", "level": "\(par.level / 10).\(par.level % 10)",
                                    "x264-params": "sps-id=\(id)"]
            }
        }
        if s.problem == nil && isUntaggedBT709(par) { s.encoderOptions.merge(untaggedOptions) { a, _ in a } }
        // Every packet: its pts, whether it is a keyframe, an IDR picture, a copy start (IDR, or HEVC CRA) and a RASL picture.
        var packets: [(pts: Int64, key: Bool, idr: Bool, start: Bool, rasl: Bool)] = []
        try file.forEachPacket { p in
            guard p.stream_index == vi else { return }
            guard p.pts != FF.noPTS else { s.problem = s.problem ?? "a packet has no timestamp"; return }
            if p.flags & AV_PKT_FLAG_DISCARD != 0 { s.problem = s.problem ?? "its edit list hides some of its frames" }
            let key = p.flags & AV_PKT_FLAG_KEY != 0
            var idr = false, start = false, rasl = false
            if let n = lengthSize, let data = p.data,
               let headers = AVCConfiguration.nalHeaders(UnsafeBufferPointer(start: data, count: Int(p.size)), lengthSize: n) {
                idr = key && headers.contains { hevc ? HEVCConfiguration.isIDR($0) : $0 & 0x1F == 5 }
                start = idr || (hevc && key && headers.contains(where: HEVCConfiguration.isCRA))
                rasl = hevc && headers.contains(where: HEVCConfiguration.isRASL)
            }
            packets.append((p.pts, key, idr, start, rasl))
        }
        let sorted = packets.map(\.pts).sorted()
        guard let first = sorted.first else { s.problem = s.problem ?? "no video packets"; return s }
        if Set(sorted).count != sorted.count { s.problem = s.problem ?? "two packets have the same timestamp" }
        let tb = st.pointee.time_base
        s.packetPTS = packets.map(\.pts)
        s.frameTimes = sorted.map { MediaTime(value: ($0 - first) * Int64(tb.num), timescale: Int64(tb.den)) }
        s.nonIDRKeyframes = packets.filter { $0.key && !$0.idr }.count
        guard s.problem == nil else { return s }
        var displayIndex: [Int64: Int] = [:]
        for (k, pts) in sorted.enumerated() { displayIndex[pts] = k }
        s.packetFrames = packets.map { displayIndex[$0.pts]! }
        // Stretches from each copy start to the packet before the next; kept when their frames are exactly a run, with
        // and without the RASL pictures right after the start (the only ones there may be).
        var starts = packets.indices.filter { packets[$0].start }
        starts.append(packets.count)
        for (a, b) in zip(starts, starts.dropFirst()) {
            let skipped = packets[(a + 1)..<b].prefix { $0.rasl }.count
            guard !packets[(a + 1 + skipped)..<b].contains(where: \.rasl) else { continue }
            guard let all = run(Array(s.packetFrames[a..<b])),
                  let alone = run([s.packetFrames[a]] + s.packetFrames[(a + 1 + skipped)..<b]) else { continue }
            s.gops.append(SmartStream.GOP(frames: all, packets: a..<b, skippedAtStart: skipped, startFrames: alone))
        }
        return s
    }

    /// The frames `shown` as a range when they are exactly one (each once), else nil.
    static func run(_ shown: [Int]) -> Range<Int>? {
        guard let lo = shown.min(), let hi = shown.max(), hi - lo + 1 == shown.count, Set(shown).count == shown.count else { return nil }
        return lo..<(hi + 1)
    }

    /// Why a stream with these parameters is not copied, or nil: H.264 (Baseline, Main, High) or HEVC (Main), 8-bit 4:2:0 at square pixels, tagged
    /// BT.709 limited range (what the output's encoder writes), progressive.
    static func problem(with par: AVCodecParameters) -> String? {
        guard par.codec_id == AV_CODEC_ID_H264 || par.codec_id == AV_CODEC_ID_HEVC else {
            return "\(String(cString: avcodec_get_name(par.codec_id))) is not copied (H.264 and HEVC are)"
        }
        let format = AVPixelFormat(rawValue: par.format)
        guard format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            return "its pixel format \(name) is not encodable here to match (8-bit 4:2:0 is)"
        }
        guard par.codec_id == AV_CODEC_ID_HEVC ? par.profile == 1 : profileOption(par.profile) != nil else {   // FF_PROFILE_HEVC_MAIN
            return "its profile (\(par.profile)) is not encodable here to match"
        }
        if par.sample_aspect_ratio.num != 0 && par.sample_aspect_ratio.num != par.sample_aspect_ratio.den { return "its pixels are not square" }
        guard isBT709(par) || isUntaggedBT709(par) else {
            return "its colour tags are not BT.709 limited range (nor untagged at 720 lines or more, which is read as that)"
        }
        if par.field_order != AV_FIELD_PROGRESSIVE && par.field_order != AV_FIELD_UNKNOWN { return "it is interlaced" }
        return nil
    }

    /// Whether the stream is tagged BT.709 (primaries, transfer, matrix) limited range: what the output's encoded
    /// frames are tagged.
    static func isBT709(_ par: AVCodecParameters) -> Bool {
        par.color_primaries == AVCOL_PRI_BT709 && par.color_trc == AVCOL_TRC_BT709 && par.color_space == AVCOL_SPC_BT709
            && par.color_range == AVCOL_RANGE_MPEG
    }

    /// Whether the stream says nothing of its colour (primaries, transfer and matrix unspecified; the range
    /// unspecified or limited, not a yuvj* format) at 720 lines or more, which Segue reads as BT.709 limited range
    /// (`DecodedPicture.colour`): its stretches are encoded untagged as well (`untaggedOptions`), so that a player
    /// guesses the same for the copied and the encoded frames.
    static func isUntaggedBT709(_ par: AVCodecParameters) -> Bool {
        par.color_primaries == AVCOL_PRI_UNSPECIFIED && par.color_trc == AVCOL_TRC_UNSPECIFIED && par.color_space == AVCOL_SPC_UNSPECIFIED
            && par.color_range != AVCOL_RANGE_JPEG && AVPixelFormat(rawValue: par.format) == AV_PIX_FMT_YUV420P
            && YCbCrMatrix.unspecified(height: Int(par.height)) == .bt709
    }

    /// FFmpeg's options that leave an encoder's colour description out (the stream's VUI says nothing).
    static let untaggedOptions = ["color_primaries": "unspecified", "color_trc": "unspecified", "colorspace": "unspecified",
                                  "color_range": "unspecified"]

    /// libx264's `profile` option for an H.264 profile libx264 encodes in 8-bit 4:2:0 (Baseline, Main, High), or nil.
    static func profileOption(_ profile: Int32) -> String? {
        switch profile {
        case 66, 66 | (1 << 9): return "baseline"   // FF_PROFILE_H264_BASELINE, _CONSTRAINED_BASELINE
        case 77: return "main"
        case 100: return "high"
        default: return nil
        }
    }
}
