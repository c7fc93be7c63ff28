import Foundation
import SegueCore
import SegueEdit
import SegueMedia

/// Which output frames a smart render (`OutputSettings.smart`) copies from a source's packets and which it encodes,
/// and why: a pure function of the timeline's frame plans and its sources' packet indexes (`SmartStream`).
///
/// A frame may be copied when it is a direct frame of one source: one layer (no transition, no layer above), an
/// untouched media layer (opacity 1, no crop, blend or effect) shown at scale 1 at the source's own size without
/// moving or turning, from an SDR source the output does not tone-map, in an SDR output without alpha. Consecutive
/// such frames that show consecutive frames of one file make a run; from each copy start inside a run (an IDR or HEVC
/// CRA picture, `SmartStream.GOP`) the longest copy that shows only the run's frames is copied
/// (`SmartStream.longestCopy`: across GOPs, to the last packet whose frames are all shown), and the run's frames
/// before it (from a cut to the next keyframe) and after it are encoded. Files whose parameter sets differ from the
/// first copied file's are encoded.
public struct SmartPlan: Sendable {
    /// One stretch of output frames.
    public struct Stretch: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Copied from `path`'s packets `packets` (decoding order), which show its frames `sourceFrames`.
            case copied(path: String, sourceFrames: Range<Int>, packets: Range<Int>)
            /// Encoded, because of `reason` ("transition", "layer above", "rotated source", …).
            case encoded(reason: String)
        }
        public let frames: Range<Int64>
        public let kind: Kind
        public var isCopied: Bool { if case .copied = kind { return true }; return false }
    }

    public let stretches: [Stretch]
    /// The sources read, by path.
    public let streams: [String: SmartStream]

    /// Output frames copied and encoded.
    public var copiedFrames: Int64 { stretches.filter(\.isCopied).reduce(0) { $0 + Int64($1.frames.count) } }
    public var encodedFrames: Int64 { stretches.filter { !$0.isCopied }.reduce(0) { $0 + Int64($1.frames.count) } }

    /// Reads the packet index of every media file the timeline shows (`SmartIndex.read`) and plans.
    /// - Throws: `MediaError` (a file cannot be read).
    public static func make(_ timeline: Timeline) throws -> SmartPlan {
        var streams: [String: SmartStream] = [:]
        for p in timeline.placements where p.isMedia && !p.source.isStill && streams[p.spec.path] == nil {
            streams[p.spec.path] = try SmartIndex.read(path: p.spec.path, policy: timeline.inputPolicy)
        }
        return SmartPlan(timeline, streams: streams)
    }

    /// The plan of `timeline` given its sources' indexes (`streams`, by path; a source missing there is encoded).
    public init(_ timeline: Timeline, streams: [String: SmartStream]) {
        self.streams = streams
        var frames: [Frame] = []
        var firstFile: SmartStream?
        for n in 0..<timeline.frameCount {
            let f = SmartPlan.frame(timeline, n, streams: streams)
            if case .direct(let path, _) = f, let s = streams[path] {
                if firstFile == nil { firstFile = s }
                if s.parameterSets != firstFile!.parameterSets {
                    frames.append(.other("its parameter sets differ from \(SmartPlan.name(firstFile!.path))'s")); continue
                }
            }
            frames.append(f)
        }
        var out: [Stretch] = []
        func encoded(_ range: Range<Int64>, _ why: String) {
            guard !range.isEmpty else { return }
            if let last = out.last, case .encoded(let w) = last.kind, w == why, last.frames.upperBound == range.lowerBound {
                out[out.count - 1] = Stretch(frames: last.frames.lowerBound..<range.upperBound, kind: last.kind)
            } else {
                out.append(Stretch(frames: range, kind: .encoded(reason: why)))
            }
        }
        var n = 0
        while n < frames.count {
            guard case .direct(let path, let k0) = frames[n] else {
                if case .other(let why) = frames[n] { encoded(Int64(n)..<Int64(n + 1), why) }
                n += 1
                continue
            }
            // The run: consecutive output frames showing consecutive frames of one file.
            var m = n + 1
            while m < frames.count, frames[m] == .direct(path: path, frame: k0 + (m - n)) { m += 1 }
            let run = k0..<(k0 + (m - n))
            // From each copy start inside the run, the longest copy that shows only the run's frames (across GOPs,
            // to the last packet whose frames are all shown); the frames before it and after it are encoded.
            let stream = streams[path]!
            var at = k0, copies = 0
            for gop in stream.gops where gop.startFrames.lowerBound >= at {
                guard let copy = stream.longestCopy(from: gop, within: at..<run.upperBound) else { continue }
                encoded(Int64(n + at - k0)..<Int64(n + copy.frames.lowerBound - k0),
                        copies == 0 ? "from the cut to the next keyframe" : "between copies (a GOP that does not decode on its own)")
                out.append(Stretch(frames: Int64(n + copy.frames.lowerBound - k0)..<Int64(n + copy.frames.upperBound - k0),
                                   kind: .copied(path: path, sourceFrames: copy.frames, packets: copy.packets)))
                at = copy.frames.upperBound
                copies += 1
            }
            encoded(Int64(n + at - k0)..<Int64(m), copies == 0 ? "no keyframe inside the stretch to start a copy at" : "after the last packet whose frames are all shown")
            n = m
        }
        stretches = out
    }

    /// Whether output frame `n` is a direct frame of a copyable source (its path and display-order frame), or why not.
    private static func frame(_ timeline: Timeline, _ n: Int64, streams: [String: SmartStream]) -> Frame {
        let plan = timeline.plan(frame: n)
        if plan.passes.count > 1 { return .other("layer above") }
        let pass = plan.passes[0]
        if pass.transition != nil || pass.to != nil { return .other("transition") }
        if plan.keepsAlpha { return .other("transparent output") }
        if plan.colour.dynamicRange != .sdr { return .other("HDR output") }
        let layer = pass.from
        guard layer.content == .media, layer.clipIndex >= 0 else { return .other("not a video clip") }
        let p = timeline.placements[layer.clipIndex]
        guard p.isMedia, !p.source.isStill else { return .other("not a video clip") }
        if layer.reversed { return .other("reversed") }
        if layer.frameBlend { return .other("frame blending") }
        if !p.timeMap.isIdentity { return .other("speed other than 1 (or a freeze)") }
        if !layer.isUntouched { return .other("opacity, crop, blend or effect") }
        if p.spec.colour != nil { return .other("colour override") }
        if let c = p.source.colour, c.transfer != .sdr || c.primaries == .bt2020 { return .other("HDR source (tone mapped)") }
        if p.source.isInterlaced { return .other("interlaced source") }
        if p.source.orientation != .identity { return .other("rotated source") }
        let size = p.source.codedSize
        if size != plan.renderSize { return .other("size differs from the output") }
        let m = layer.outputToSource.then(.scale(Double(size.width), Double(size.height)))
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
        guard near(m.a, 1), near(m.b, 0), near(m.c, 0), near(m.d, 1), near(m.tx, 0), near(m.ty, 0) else { return .other("moved, scaled or turned") }
        // A rate within 0.1 % of the output's (2997/125 against 24000/1001) is left to the run below: whether the frame
        // rule shows consecutive frames.
        if let r = p.source.streamRate, r.framesPerSecond > 0, abs(r.framesPerSecond / timeline.frameRate.framesPerSecond - 1) > 0.001 {
            return .other("frame rate differs from the output's (\(r) fps)")
        }
        guard let s = streams[p.spec.path] else { return .other("not indexed") }
        if let why = s.problem { return .other(why) }
        guard let k = s.frameIndex(at: layer.sourceTime, slack: p.source.frameRuleSlack) else { return .other("before the source's first frame") }
        return .direct(path: p.spec.path, frame: k)
    }
    fileprivate enum Frame: Equatable { case direct(path: String, frame: Int), other(String) }

    /// A file's name for messages.
    static func name(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    /// One line per stretch: "frames 240–389 copied from b.mp4 (its frames 300–449)", "frames 0–23 encoded:
    /// transition"; then the counts.
    public var lines: [String] {
        stretches.map { s in
            let range = "frames \(s.frames.lowerBound)–\(s.frames.upperBound - 1)"
            switch s.kind {
            case .copied(let path, let src, _): return "\(range) copied from \(SmartPlan.name(path)) (its frames \(src.lowerBound)–\(src.upperBound - 1))"
            case .encoded(let why): return "\(range) encoded: \(why)"
            }
        } + ["\(copiedFrames) frames copied, \(encodedFrames) encoded"]
    }
}
