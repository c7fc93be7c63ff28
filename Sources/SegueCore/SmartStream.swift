/// What smart rendering (`OutputSettings.smart`) knows of a clip's video stream, read from its packets without decoding
/// (`SmartIndex.read` in SegueMedia): whether its packets may be copied at all, its frames' times, and the stretches
/// of packets a copy may take (`GOP`). The plan (`SmartPlan`) is a pure function of these and the frame plans.
public struct SmartStream: Equatable, Sendable {
    /// A stretch of packets from an IRAP picture (in decoding order: an IDR picture, or an HEVC CRA picture) to the
    /// packet before the next, whose pictures are exactly the display-order frames `frames`.
    ///
    /// A CRA picture's leading pictures that reference pictures before it (RASL, decoded just after it and shown
    /// before it) decode only when the GOP before is there too. When a copy starts at this GOP they are left out and
    /// the CRA picture is marked a broken link (BLA, ITU-T H.265 §8.1.3: its RASL pictures are not output, the picture
    /// order count starts again): the GOP then shows `startFrames`. An IDR picture's GOP has none (`startFrames` ==
    /// `frames`).
    public struct GOP: Equatable, Sendable {
        /// Display-order frame indices (0: the stream's first frame shown) of all its packets.
        public let frames: Range<Int>
        /// Decoding-order packet indices.
        public let packets: Range<Int>
        /// The RASL packets right after its first (decoding order), left out when a copy starts here.
        public let skippedAtStart: Int
        /// Display-order frames it shows when a copy starts here (without its RASL pictures).
        public let startFrames: Range<Int>
        public init(frames: Range<Int>, packets: Range<Int>, skippedAtStart: Int = 0, startFrames: Range<Int>? = nil) {
            self.frames = frames; self.packets = packets; self.skippedAtStart = skippedAtStart; self.startFrames = startFrames ?? frames
        }
        /// The packets a copy starting here leaves out (decoding order): its RASL pictures.
        public var skippedPackets: Range<Int> { (packets.lowerBound + 1)..<(packets.lowerBound + 1 + skippedAtStart) }
    }

    /// The file.
    public var path: String
    /// libavcodec's codec name (`h264`, `hevc`, …).
    public var codec: String
    /// Why none of the stream can be copied into the output ("vp9 is not copied", "4:2:2", "no avcC"), or nil.
    public var problem: String?
    /// The stream's parameter sets as the container stores them (H.264: the `avcC` record). Streams whose records
    /// differ are not copied into one output.
    public var parameterSets: [UInt8] = []
    /// Each frame's presentation time from the first frame's, in display order.
    public var frameTimes: [MediaTime] = []
    /// Each packet's presentation timestamp in the stream's time base, in decoding order (the file's order).
    public var packetPTS: [Int64] = []
    /// Each packet's display-order frame index, in decoding order.
    public var packetFrames: [Int] = []
    /// The stretches a copy may take, in order (each starts at an IRAP picture; a stretch whose frames are not a run,
    /// such as an H.264 open GOP's, is left out).
    public var gops: [GOP] = []
    /// Keyframes that are not IDR pictures (H.264 recovery points and open GOPs, HEVC CRA pictures); of them, HEVC CRA
    /// pictures are copy starts (`GOP`), the others are not.
    public var nonIDRKeyframes = 0

    /// The GOP whose first packet is `packet`, if one is.
    public func gop(startingAt packet: Int) -> GOP? { gops.first { $0.packets.lowerBound == packet } }

    /// The longest copy that starts at `gop` and shows only frames in `allowed` (display order): its packets in
    /// decoding order from the GOP's first (its RASL pictures left out) to the last packet whose frames, with all
    /// before it, are exactly a run of frames — what a decoder starting there shows, no frame left out, none outside.
    /// Crosses GOPs (a later CRA picture's RASL pictures decode after the GOP before). Nil when no packet can be
    /// copied (its first frame lies outside `allowed`).
    /// - Returns: the frames shown (display order) and the packets (decoding order).
    public func longestCopy(from gop: GOP, within allowed: Range<Int>) -> (frames: Range<Int>, packets: Range<Int>)? {
        let skip = gop.skippedPackets
        var lo = Int.max, hi = Int.min, count = 0
        var best: (frames: Range<Int>, packets: Range<Int>)?
        for i in gop.packets.lowerBound..<packetFrames.count where !skip.contains(i) {
            let f = packetFrames[i]
            guard allowed.contains(f) else { break }
            lo = min(lo, f); hi = max(hi, f); count += 1
            if hi - lo + 1 == count { best = (lo..<(hi + 1), gop.packets.lowerBound..<(i + 1)) }
        }
        return best
    }

    /// The packets (decoding order) a copy of `packets`, which start a GOP, writes: all but the RASL pictures of the
    /// GOP it starts at (`GOP.skippedPackets`).
    public func copied(_ packets: Range<Int>) -> [Int] {
        guard let skip = gop(startingAt: packets.lowerBound)?.skippedPackets, !skip.isEmpty else { return Array(packets) }
        return packets.filter { !skip.contains($0) }
    }
    /// The encoder of the other frames (libavcodec's name): libx264 for H.264, libx265 for HEVC.
    public var encoder = "libx264"
    /// What the encoder of the other frames is set up with to match the stream (FFmpeg's option names: `profile`,
    /// `level`, `x264-params` with a parameter-set id the stream does not use).
    public var encoderOptions: [String: String] = [:]

    public init(path: String, codec: String) { self.path = path; self.codec = codec }

    /// The display-order index of the frame a render shows at `sourceTime` (from the clip's first frame): the last
    /// frame at or before it, `slack` allowed (the frame rule of `VideoReader`); nil before the first frame.
    public func frameIndex(at sourceTime: MediaTime, slack: MediaTime) -> Int? {
        var lo = 0, hi = frameTimes.count
        // The first frame whose time lies after sourceTime + slack.
        let limit = sourceTime + slack
        while lo < hi {
            let mid = (lo + hi) / 2
            if limit < frameTimes[mid] { hi = mid } else { lo = mid + 1 }
        }
        return lo == 0 ? nil : lo - 1
    }
}
