import CFFmpeg
import SegueCore

// VideoReader for retimed clips: the two frames around a time (frame blending) and stretches of frames ending at a
// time (reading a clip backwards).
extension VideoReader {
    /// The picture at `sourceTime` made of the two decoded frames around it, mixed by their distance: the frame at or
    /// before it (at `a`) and the next one (at `b`), `w = (sourceTime − a) / (b − a)`, each sample
    /// `round(A + w·(B − A))` (`VideoPicture.blended`): smooth slow motion, as FFmpeg's `framerate` filter blends. The
    /// frame at or before it alone when there is no next frame or w is below 1/256. Reduced to `size` first as
    /// `picture(at:reducedTo:)` does. Throws `MediaError`.
    public func blendedPicture(at sourceTime: MediaTime, reducedTo size: PixelSize?) throws -> VideoPicture {
        let a = try decodedFrame(at: sourceTime)
        guard let at = current?.rel else { return try picture(of: a, reducedTo: size) }
        if pending == nil, !ended, let n = try decodeNext() { pending = (rel(n.pts), n.frame) }
        guard let (bt, b) = pending, at < bt else { return try picture(of: a, reducedTo: size) }
        let w = min(1, max(0, MediaTime.ratio(sourceTime - at, bt - at)))
        if w < 1.0 / 256 { return try picture(of: a, reducedTo: size) }
        let first = try picture(of: a, reducedTo: size), second = try picture(of: b, reducedTo: size)
        guard var mixed = first.blended(with: second, weight: w) else { return first }
        mixed.identity = VideoPicture.newIdentity()
        return mixed
    }

    /// The decoded frames from the keyframe at or before `sourceTime` up to the last one at or before it (within the
    /// frame rule's ε), oldest first, at most `limit` (the latest): the stretch a clip read backwards shows next.
    /// Leaves the reader positioned anywhere (the next forward read seeks). Throws `MediaError`.
    func frames(endingAt sourceTime: MediaTime, limit: Int) throws -> [(time: MediaTime, frame: Frame)] {
        if isStill { return [(.zero, try decodedFrame(at: .zero))] }
        var from = sourceTime
        while true {
            try seekBackwardForReverse(to: from)
            var out: [(time: MediaTime, frame: Frame)] = []
            var first = true
            while let n = try decodeNext() {
                let t = rel(n.pts)
                if first, sourceTime + timestampSlack < t, MediaTime.zero < from {
                    break   // the seek landed after the wanted time (imprecise index, open GOP): go back further
                }
                first = false
                if sourceTime + timestampSlack < t { break }
                out.append((t, n.frame))
                if out.count > limit { out.removeFirst(out.count - limit) }
            }
            if !out.isEmpty || !(MediaTime.zero < from) {
                current = nil
                pending = nil
                return out
            }
            let back = from - MediaTime(value: 2, timescale: 1)
            from = back < .zero ? .zero : back
        }
    }
}

/// A clip read backwards (`"reverse": true`): pictures asked for at decreasing source times. Each time a picture
/// before the frames it holds is wanted, it seeks to the keyframe at or before that time and decodes forward to it,
/// keeping at most `limit` frames (a GOP, typically): a long clip never holds more than that many decoded frames, and
/// each frame is decoded about once (GOPs longer than `limit` are decoded again for each `limit` frames).
public final class ReverseReader {
    public let reader: VideoReader
    /// Frames held, oldest first, and whether the first is the stretch's own start (its keyframe) rather than a frame
    /// after which older ones were dropped.
    private var window: [(time: MediaTime, frame: Frame)] = []
    /// The most decoded frames held at once.
    public let limit: Int

    public init(reader: VideoReader, limit: Int = 48) {
        self.reader = reader
        self.limit = limit
    }

    /// The picture at or before `sourceTime` (the frame rule of `VideoReader`), reduced to `size` as
    /// `VideoReader.picture(at:reducedTo:)` does. Throws `MediaError`.
    public func picture(at sourceTime: MediaTime, reducedTo size: PixelSize?) throws -> VideoPicture {
        let slack = reader.timestampSlack
        func held() -> Frame? {
            guard let first = window.first, !(sourceTime + slack < first.time) else { return nil }
            return window.last(where: { !(sourceTime + slack < $0.time) })?.frame
        }
        if let f = held() { return try reader.picture(of: f, reducedTo: size) }
        window = try reader.frames(endingAt: sourceTime, limit: limit)
        guard let f = held() ?? window.first?.frame else {
            throw MediaError(path: reader.path, function: nil, message: "no video frame could be decoded at \(sourceTime.seconds) s")
        }
        return try reader.picture(of: f, reducedTo: size)
    }

    /// Frames held now (for tests: bounded by `limit`).
    public var heldFrames: Int { window.count }
}
