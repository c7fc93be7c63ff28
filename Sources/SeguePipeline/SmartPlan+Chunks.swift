import SegueCore

/// Where a smart render may be cut into chunks (`segue farm`, `--cache`, `--chunks`: docs/farms.md) so that every
/// chunk is a smart render of its own and the chunks joined are the one-pass smart render's packets: at the start of
/// each copied stretch, at each GOP inside it that decodes on its own (from an IDR picture, or an HEVC CRA picture
/// without RASL pictures) and whose packets to the copy's end show the frames after those before it, and at the end
/// of each copied stretch (where a run of encoded frames starts). A run of encoded frames is cut only where no such point
/// lies within half a chunk (`chunkRanges`): the one-pass render encodes it with one encoder, from one IDR picture.
extension SmartPlan {
    /// One piece of a smart render's output, in output frames from the chunk's (or render's) first.
    public enum Piece: Equatable, Sendable {
        /// Output frames `frames` copied from `path`'s packets `packets` (decoding order), its frames `sourceFrames`.
        case copied(frames: Range<Int64>, path: String, sourceFrames: Range<Int>, packets: Range<Int>)
        /// Output frames `frames` encoded by one encoder (consecutive encoded stretches, whatever their reasons);
        /// `lookahead`: the frames of the run that follow them in another chunk (0: the run ends with them), which the
        /// encoder is fed as lookahead as a normal chunk's is (up to the format's `lookahead`), not written.
        case encoded(frames: Range<Int64>, lookahead: Int64 = 0)

        public var frames: Range<Int64> {
            switch self { case .copied(let f, _, _, _), .encoded(let f, _): return f }
        }
    }

    /// The copied stretches cut where they may be, and the maximal runs of encoded frames, in output order.
    var finestPieces: [Piece] {
        var out: [Piece] = []
        for s in stretches {
            switch s.kind {
            case .encoded:
                if case .encoded(let f, _)? = out.last, f.upperBound == s.frames.lowerBound {
                    out[out.count - 1] = .encoded(frames: f.lowerBound..<s.frames.upperBound)
                } else {
                    out.append(.encoded(frames: s.frames))
                }
            case .copied(let path, let source, let packets):
                // Cut before each GOP inside the copy whose packets, to the copy's end, show the frames from its first
                // on, and those before it the frames before: a GOP without RASL pictures (which need the GOP before).
                var bounds: [(packet: Int, frame: Int)] = [(packets.lowerBound, source.lowerBound)]
                if let stream = streams[path] {
                    // The packets written (decoding order), the largest frame up to each and the smallest from each.
                    let written = stream.copied(packets), frames = written.map { stream.packetFrames[$0] }
                    let position = Dictionary(uniqueKeysWithValues: written.enumerated().map { ($1, $0) })
                    var upTo = frames, from = frames
                    for i in upTo.indices.dropFirst() { upTo[i] = max(upTo[i], upTo[i - 1]) }
                    for i in from.indices.reversed().dropFirst() { from[i] = min(from[i], from[i + 1]) }
                    for g in stream.gops where g.packets.lowerBound > packets.lowerBound && g.skippedAtStart == 0 {
                        if let k = position[g.packets.lowerBound], k > 0, upTo[k - 1] < from[k] { bounds.append((g.packets.lowerBound, from[k])) }
                    }
                }
                bounds.append((packets.upperBound, source.upperBound))
                for (a, b) in zip(bounds, bounds.dropFirst()) {
                    let start = s.frames.lowerBound + Int64(a.frame - source.lowerBound)
                    out.append(.copied(frames: start..<(start + Int64(b.frame - a.frame)), path: path, sourceFrames: a.frame..<b.frame,
                                       packets: a.packet..<b.packet))
                }
            }
        }
        return out
    }

    /// The output frames a chunk of this render may start at, in order (0 first).
    public var cutPoints: [Int64] { finestPieces.map(\.frames.lowerBound) }

    /// `ranges` (contiguous, covering the output) with each boundary moved to the nearest cut point (`cutPoints`; the
    /// earlier of two as near), ranges that become empty left out: fewer chunks than asked when cut points are sparse.
    /// A boundary inside a run of encoded frames whose nearest cut point is more than half a chunk away (half the mean
    /// of the chunks on either side) stays where it is: the run is encoded in two chunks, each from an IDR picture (the
    /// one-pass render encodes it in one), so that a long run (a logo over minutes of a recording) is spread out.
    public func chunkRanges(_ ranges: [Range<Int64>]) -> [Range<Int64>] {
        let all = finestPieces, cuts = all.map(\.frames.lowerBound), total = ranges.last?.upperBound ?? 0
        var bounds: [Int64] = [0]
        for (prev, r) in zip(ranges, ranges.dropFirst()) {
            let b = r.lowerBound
            guard var best = cuts.min(by: { (abs($0 - b), $0) < (abs($1 - b), $1) }) else { continue }
            if abs(best - b) > Int64(prev.count + r.count) / 4, SmartPlan.insideEncodedRun(b, all) { best = b }
            if best > bounds.last! && best < total { bounds.append(best) }
        }
        bounds.append(total)
        return zip(bounds, bounds.dropFirst()).map { $0..<$1 }
    }

    /// Whether output frame `n` lies inside a run of encoded frames of `pieces`, after its first.
    static func insideEncodedRun(_ n: Int64, _ pieces: [Piece]) -> Bool {
        pieces.contains { if case .encoded(let f, _) = $0 { return f.lowerBound < n && n < f.upperBound }; return false }
    }

    /// The pieces of output frames `range` (from a cut point, or a frame inside a run of encoded frames, to the next or
    /// to the end), the copied ones joined where they continue one another in one source, with frames counted from
    /// `range.lowerBound`; nil when `range` starts or ends elsewhere (a chunk of another plan).
    public func pieces(in range: Range<Int64>) -> [Piece]? {
        let all = finestPieces
        func valid(_ n: Int64) -> Bool { n == 0 || n == all.last?.frames.upperBound || all.contains { $0.frames.lowerBound == n } || SmartPlan.insideEncodedRun(n, all) }
        guard valid(range.lowerBound), valid(range.upperBound) else { return nil }
        var out: [Piece] = []
        for p in all where p.frames.lowerBound < range.upperBound && p.frames.upperBound > range.lowerBound {
            let f = (p.frames.lowerBound - range.lowerBound)..<(p.frames.upperBound - range.lowerBound)
            switch p {
            case .encoded:
                // A run cut by the chunk's ends: its frames inside the chunk, and how many follow in the next chunk.
                let lo = max(f.lowerBound, 0), hi = min(f.upperBound, Int64(range.count))
                out.append(.encoded(frames: lo..<hi, lookahead: f.upperBound - hi))
            case .copied(_, let path, let source, let packets):
                if case .copied(let f0, let p0, let s0, let k0)? = out.last, p0 == path, f0.upperBound == f.lowerBound,
                   s0.upperBound == source.lowerBound, k0.upperBound == packets.lowerBound {
                    out[out.count - 1] = .copied(frames: f0.lowerBound..<f.upperBound, path: path, sourceFrames: s0.lowerBound..<source.upperBound,
                                                 packets: k0.lowerBound..<packets.upperBound)
                } else {
                    out.append(.copied(frames: f, path: path, sourceFrames: source, packets: packets))
                }
            }
        }
        return out
    }
}

extension SmartPlan {
    /// The plan as `segue plan --smart --json` gives it (`"smart"`): each stretch's output frames `[firstFrame,
    /// endFrame)`, copied (with the source file and its display-order frames `[sourceFirstFrame, sourceEndFrame)`) or
    /// encoded (with the reason), and the counts.
    public struct Report: Codable, Equatable, Sendable {
        public struct Stretch: Codable, Equatable, Sendable {
            public let firstFrame: Int64, endFrame: Int64
            public let copied: Bool
            /// Copied stretches: the source file and its frames.
            public let source: String?, sourceFirstFrame: Int?, sourceEndFrame: Int?
            /// Encoded stretches: why they are not copied ("transition", "from the cut to the next keyframe", …).
            public let reason: String?
        }
        public let stretches: [Stretch]
        public let copiedFrames: Int64, encodedFrames: Int64
    }

    public var report: Report {
        Report(stretches: stretches.map { s in
            switch s.kind {
            case .copied(let path, let src, _):
                return .init(firstFrame: s.frames.lowerBound, endFrame: s.frames.upperBound, copied: true, source: path,
                             sourceFirstFrame: src.lowerBound, sourceEndFrame: src.upperBound, reason: nil)
            case .encoded(let why):
                return .init(firstFrame: s.frames.lowerBound, endFrame: s.frames.upperBound, copied: false, source: nil,
                             sourceFirstFrame: nil, sourceEndFrame: nil, reason: why)
            }
        }, copiedFrames: copiedFrames, encodedFrames: encodedFrames)
    }
}
