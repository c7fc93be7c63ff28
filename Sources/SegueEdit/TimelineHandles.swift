import Foundation
import SegueCore

/// Transitions read from OpenTimelineIO use media outside their clips' source ranges (handles); only the probed files
/// say how much there is. This is the one place that checks it (`Timeline.init` calls it once the sources are known).
extension Timeline {
    /// Shortens each OTIO-style transition (`ClipSpec.transitionCut`) whose handles the media lacks, keeping its cut.
    ///
    /// For the transition into item B from item A with cut `c = in_offset` and duration `d = in + out`, B was started
    /// `in` before the cut (its source start moved back by `in × speed`) and A extended `out` past it. Where B's file
    /// has less than that before its source range (a start below 0; played backwards: past its end), `in` shrinks to
    /// what it has; where A's file ends (played backwards: starts) before A's extended range, `out` shrinks likewise.
    /// The trimmed item keeps its other end, so the cut and the track's length do not move. A transition left shorter
    /// than one frame becomes a cut (both items trimmed back to it). Each change is a warning naming the items, the
    /// handles asked for and those found. Items that use no source time (gaps, fills, text, stills, freezes) have
    /// handles of any length; so do items of a changing speed (which OTIO cannot express).
    /// - Parameters:
    ///   - items: every item, as `Timeline.items(of:)` lists them; the adjusted list is returned.
    ///   - sourceOf: the probed media of each item with a file, by its index in `items`.
    static func fitHandles(_ items: [ItemReference], sourceOf: [Int: SourceInfo], rate: FrameRate) -> (items: [ItemReference], warnings: [String]) {
        var specs = items.map(\.spec)
        var warnings: [String] = []
        // An interchange item whose file is a still: OTIO gives it a source range and maybe a time warp like any
        // clip; a still has no time, so both go.
        for n in items.indices where specs[n].interchange && sourceOf[n]?.isStill == true {
            if !specs[n].speed.isNormal || specs[n].reverse || specs[n].freeze != nil {
                warnings.append("\(items[n].label) (\(Timeline.name(specs[n]))) is a still picture: its time warp does nothing")
            }
            specs[n].start = .zero
            specs[n].speed = .constant(1); specs[n].reverse = false; specs[n].freeze = nil
        }
        for b in items.indices {
            guard let cut = specs[b].transitionCut, let transition = specs[b].transition, b > 0,
                  items[b - 1].audio == items[b].audio, items[b - 1].track == items[b].track else { continue }
            let a = b - 1
            let inWanted = cut, outWanted = transition.duration - cut
            // Track seconds of media missing before B's range (it starts early) and after A's (it ends late).
            let shortB = min(inWanted, shortage(specs[b], source: sourceOf[b], atStart: true))
            let shortA = min(outWanted, shortage(specs[a], source: sourceOf[a], atStart: false))
            var inHad = inWanted - shortB, outHad = outWanted - shortA
            var duration = inHad + outHad
            let name = "\(items[b].label) (\(Timeline.name(specs[b])))", before = "\(items[a].label) (\(Timeline.name(specs[a])))"
            if MediaTime.zero < shortB || MediaTime.zero < shortA {
                var message = "the \(transition.kind.rawValue) from \(before) into \(name) wants \(fmt(inWanted)) s of \(items[b].label)'s media "
                    + "before its source range (in_offset) and \(fmt(outWanted)) s of \(items[a].label)'s after its own (out_offset); the files have "
                    + "\(fmt(inHad)) s and \(fmt(outHad)) s"
                if duration + MediaTime.secondsPrecision < rate.frameDuration {
                    message += ": the transition is less than a frame, so it is a cut"
                } else {
                    message += ": shortened to \(fmt(duration)) s, its cut kept"
                }
                warnings.append(message)
            }
            trim(&specs[b], by: shortB, atStart: true, source: sourceOf[b])
            trim(&specs[a], by: shortA, atStart: false, source: sourceOf[a])
            if duration + MediaTime.secondsPrecision < rate.frameDuration {
                // Too short to see: a cut. Both items go back to it.
                trim(&specs[b], by: inHad, atStart: true, source: sourceOf[b])
                trim(&specs[a], by: outHad, atStart: false, source: sourceOf[a])
                inHad = .zero; outHad = .zero; duration = .zero
                specs[b].transition = nil
                specs[b].transitionCut = nil
                continue
            }
            specs[b].transition?.duration = duration
            specs[b].transitionCut = inHad
        }
        let adjusted = items.indices.map { n in
            ItemReference(field: items[n].field, label: items[n].label, spec: specs[n], audio: items[n].audio, track: items[n].track, item: items[n].item)
        }
        return (adjusted, warnings)
    }

    /// The speed of `spec` as an exact fraction (source seconds per timeline second), nil when it changes (a ramp,
    /// `capture`) or there is no source time (a freeze, a still, a fill, a gap, text).
    static func handleSpeed(_ spec: ClipSpec, source: SourceInfo?) -> (num: Int64, den: Int64)? {
        guard spec.file != nil, spec.freeze == nil, !spec.loop, let source, !source.isStill, case .constant(let s) = spec.speed else { return nil }
        let r = MediaTime(seconds: s)
        return (r.value, r.timescale)
    }

    /// Track seconds of media that `spec`'s range asks for and its file lacks: at its start on the track (before its
    /// source range; played backwards, after it) or at its end (after it; backwards, before it).
    static func shortage(_ spec: ClipSpec, source: SourceInfo?, atStart: Bool) -> MediaTime {
        guard let speed = handleSpeed(spec, source: source), let source, let duration = spec.duration else { return .zero }
        // Source seconds missing before the range (start < 0) or after it (end > the file's duration).
        let before = spec.start < .zero ? MediaTime.zero - spec.start : .zero
        // The media ends at its duration, give or take its timestamps' rounding (a Matroska file's whole milliseconds).
        let end = spec.start + duration, mediaEnd = source.duration + source.timestampTolerance
        let after = mediaEnd < end ? end - mediaEnd : .zero
        let missing = atStart != spec.reverse ? before : after
        return missing.scaled(by: speed.den, speed.num)
    }

    /// Removes `amount` track seconds from `spec` at its start on the track (`atStart`) or at its end. A gap, a fill or
    /// text just gets shorter; a clip loses source time at that end (the other end stays put in the source too);
    /// a freeze holds for less.
    static func trim(_ spec: inout ClipSpec, by amount: MediaTime, atStart: Bool, source info: SourceInfo?) {
        guard MediaTime.zero < amount, let duration = spec.duration else { return }
        guard let speed = handleSpeed(spec, source: info) else {
            spec.duration = duration - amount
            return
        }
        let source = amount.scaled(by: speed.num, speed.den)
        spec.duration = duration - source
        // Forward, the start of the item on the track is the start of its source range; backwards, the end of it.
        if atStart != spec.reverse { spec.start = spec.start + source }
    }
}
