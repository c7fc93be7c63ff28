import Foundation
import SegueCore

/// One track of the edit in the making: items one after another from 0, as OTIO places them (cut to cut), with the
/// OTIO transition at each cut.
struct OTIODraft {
    struct Entry {
        enum Content {
            /// A clip, `trim` seconds of its track time cut from its start (by a source range above it).
            case clip(OTIOClip, trim: MediaTime)
            case gap
        }
        var content: Content
        /// Length on the track, cut to cut.
        var length: MediaTime
        /// The transition at the cut before this entry.
        var transition: OTIOTransition?
        /// A stand-in of no length at a track's start or end, for a transition from or to nothing.
        var synthesized = false
        /// The place of a nested stack on its track (its tracks are drawn above).
        var nested = false
    }
    var entries: [Entry] = []
    /// The OTIO track's `metadata.segue` (an audio track's `duck`).
    var segue: [String: Any]?
    var length: MediaTime { entries.reduce(MediaTime.zero) { $0 + $1.length } }

    mutating func gap(_ d: MediaTime) { if MediaTime.zero < d { entries.append(Entry(content: .gap, length: d)) } }
    /// Appends `other` so that it starts at `p` (a gap before it from where this one ends).
    mutating func place(_ other: OTIODraft, at p: MediaTime) {
        gap(p - length)
        entries += other.entries
    }
}

/// Laying out the parse tree: OTIO's compositions become the edit's tracks.
///
/// - A track shows its children one after another; its `source_range` (or a window asked by its parent) selects the
///   part shown: children outside it are dropped, those across its edges trimmed, and the start of the shown part is
///   the start of the output track.
/// - A nested Stack (or Track) inside a track composites as a unit. Its tracks become tracks of their own, placed
///   right above the track it sits on, in its order (bottom first), trimmed to the part of it the parent shows and
///   starting where it starts on the parent (a gap before). Compositing "over" is associative, so drawing the nested
///   tracks one by one over what is below gives what drawing the nested stack's picture would. Nested stacks that
///   follow one another on a track share those tracks. A nested stack sits on a track of one kind: only its tracks
///   of that kind are used.
/// - A transition at a cut spans `[cut − in_offset, cut + out_offset)`; it is placed on the item after the cut
///   (`expand`). A transition at a track's start or end lengthens the track as OTIO's `Track.available_range()` does:
///   its `in_offset` comes before the first item (a fade from transparent, the first item started that much earlier
///   in its handle), its `out_offset` after the last (a fade to transparent over the last item's handle).
extension OTIOReader {
    /// The drafts of `stack` (bottom first, each nested stack's tracks right above the track it sits on) for the part of
    /// its visible time in `window` (seconds from its visible start), that part starting at timeline time `offset`.
    mutating func layStack(_ stack: OTIOComposition, video: Bool, window: (MediaTime, MediaTime), at offset: MediaTime) -> [OTIODraft] {
        let i0 = stack.visibleStart + window.0, i1 = stack.visibleStart + window.1
        addMarkers(stack, window: window, at: offset)
        var out: [OTIODraft] = []
        for child in stack.children {
            var track: OTIOComposition
            switch child {
            case .composition(let c):
                if case .track(let v) = c.kind, v != video { continue }
                track = c
            case .clip, .gap:
                // An item directly in a stack: a track of one item.
                track = OTIOComposition(kind: .track(video: video), name: "", path: stack.path, sourceRange: nil, children: [child])
            case .transition(let t):
                warnings.append("\(t.path): a transition directly in a stack joins nothing: ignored")
                continue
            }
            let lo = max(i0, .zero), hi = min(i1, track.duration)
            guard lo < hi else { continue }
            let lead = lo - i0
            let sub = track.kind == .stack ? layStack(track, video: video, window: (lo, hi), at: offset + lead)
                : layTrack(track, video: video, window: (lo, hi), at: offset + lead)
            for d in sub {
                var placed = OTIODraft(segue: d.segue)
                placed.place(d, at: lead)
                out.append(placed)
            }
        }
        return out
    }

    /// The drafts of `track`: its own items first, then the tracks of the stacks nested in it, for the part of its
    /// visible time in `window`, starting at timeline time `offset`.
    mutating func layTrack(_ track: OTIOComposition, video: Bool, window: (MediaTime, MediaTime), at offset: MediaTime) -> [OTIODraft] {
        let i0 = track.visibleStart + window.0, i1 = track.visibleStart + window.1
        addMarkers(track, window: window, at: offset)
        var own = OTIODraft(segue: track.segue)
        var layers: [OTIODraft] = []
        let cuts = layItems(of: track, video: video, shown: (i0, i1), at: offset, own: &own, layers: &layers)
        own.gap(i1 - i0 - own.length)
        // Each transition goes on the entry that starts at its cut (a stand-in of no length where the track starts or
        // ends there).
        for (cut, t) in cuts { placeTransition(t, at: cut - i0, shownLength: i1 - i0, on: &own) }
        return [own] + layers
    }

    /// Lays the items of `track` that fall in `shown` (its children's time) on `own`, from its start, and the tracks of
    /// the stacks nested in it on `layers`; returns the transitions at the cuts, in the children's time (a transition
    /// right after another is ignored, with a warning).
    private mutating func layItems(of track: OTIOComposition, video: Bool, shown: (MediaTime, MediaTime), at offset: MediaTime,
                                   own: inout OTIODraft, layers: inout [OTIODraft]) -> [(at: MediaTime, transition: OTIOTransition)] {
        let (i0, i1) = shown
        var cuts: [(at: MediaTime, transition: OTIOTransition)] = []
        // A transition at the track's start lies before its first item (`OTIOComposition.leadIn`).
        var cursor = track.leadIn
        var previousWasTransition = false
        for child in track.children {
            if case .transition(let t) = child {
                if previousWasTransition {
                    warnings.append("\(t.path): a transition right after another one joins nothing: ignored")
                } else {
                    cuts.append((cursor, t))
                }
                previousWasTransition = true
                continue
            }
            previousWasTransition = false
            let a = cursor, b = cursor + child.duration
            cursor = b
            let lo = max(a, i0), hi = min(b, i1)
            guard lo < hi else { continue }
            let p = lo - i0, trim = lo - a, length = hi - lo
            own.gap(p - own.length)
            layItem(child, trim: trim, length: length, at: p, offset: offset, video: video, own: &own, layers: &layers)
        }
        return cuts
    }

    /// Appends `length` seconds of `child` from `trim` seconds of it to `own` at `p` (seconds from the shown part's
    /// start, timeline time `offset`): a clip (with its markers), a gap, or a nested stack's place, whose tracks go on
    /// `layers`.
    private mutating func layItem(_ child: OTIONode, trim: MediaTime, length: MediaTime, at p: MediaTime, offset: MediaTime, video: Bool,
                                  own: inout OTIODraft, layers: inout [OTIODraft]) {
        switch child {
        case .clip(let c):
            own.entries.append(OTIODraft.Entry(content: .clip(c, trim: trim), length: length))
            for m in c.markers where !(m.start < trim) && m.start < trim + length {
                markers.append(EditMarker(name: m.name, start: offset + p + (m.start - trim), duration: m.duration, colour: m.colour,
                                          comment: m.comment, on: "clip \"\(c.name)\""))
            }
        case .gap:
            own.gap(length)
        case .composition(let nested):
            own.entries.append(OTIODraft.Entry(content: .gap, length: length, nested: true))
            let sub = nested.kind == .stack ? layStack(nested, video: video, window: (trim, trim + length), at: offset + p)
                : layTrack(nested, video: video, window: (trim, trim + length), at: offset + p)
            for (j, d) in sub.enumerated() {
                if j == layers.count { layers.append(OTIODraft()) }
                layers[j].place(d, at: p)
            }
        case .transition: break
        }
    }

    /// Puts transition `t` on the entry of `own` that starts at `q` seconds from the shown part's start (`shownLength`
    /// long), a stand-in of no length where the track starts or ends there; ignored, with a warning, when `q` is
    /// outside the part shown or not at a cut, or the cut has a transition already.
    private mutating func placeTransition(_ t: OTIOTransition, at q: MediaTime, shownLength: MediaTime, on own: inout OTIODraft) {
        guard !(q < .zero), !(shownLength < q) else {
            warnings.append("\(t.path): transition \"\(t.name)\" is at a cut outside the part of the track shown: ignored")
            return
        }
        guard var index = OTIOReader.entryIndex(startingAt: q, in: own.entries) else {
            warnings.append("\(t.path): transition \"\(t.name)\" is not at a cut: ignored")
            return
        }
        if index == 0 {
            own.entries.insert(OTIODraft.Entry(content: .gap, length: .zero, synthesized: true), at: 0)
            index = 1
        }
        if index == own.entries.count {
            own.entries.append(OTIODraft.Entry(content: .gap, length: .zero, synthesized: true))
        }
        if own.entries[index].transition != nil {
            warnings.append("\(t.path): a second transition at one cut: ignored")
            return
        }
        if own.entries[index].nested || own.entries[index - 1].nested {
            warnings.append("\(t.path): transition \"\(t.name)\" joins a nested stack, whose tracks are flattened above this one: drawn as a fade to or from transparent")
        }
        own.entries[index].transition = t
    }

    /// The index of the entry that starts at `q` seconds (`entries.count` when `q` is where the last one ends), or nil
    /// when `q` falls inside an entry.
    private static func entryIndex(startingAt q: MediaTime, in entries: [OTIODraft.Entry]) -> Int? {
        var start = MediaTime.zero
        var index = entries.count
        for (k, e) in entries.enumerated() {
            if start == q { index = k; break }
            if q < start { index = -1; break }
            start = start + e.length
        }
        if index == -1 || (index == entries.count && start != q) { return nil }
        return index
    }

    /// Adds the markers of `c` that fall in `window` of its visible time (once per composition).
    mutating func addMarkers(_ c: OTIOComposition, window: (MediaTime, MediaTime), at offset: MediaTime) {
        guard !c.markers.isEmpty, !markedCompositions.contains(c.path) else { return }
        markedCompositions.insert(c.path)
        let on = c.path == "tracks" ? "timeline" : (c.kind == .stack ? "stack" : "track") + (c.name.isEmpty ? " \(c.path)" : " \"\(c.name)\"")
        for m in c.markers where !(m.start < window.0) && m.start < window.1 {
            markers.append(EditMarker(name: m.name, start: offset + (m.start - window.0), duration: m.duration, colour: m.colour, comment: m.comment, on: on))
        }
    }

    /// The edit's items for a draft: each OTIO transition `[cut − in, cut + out)` becomes an overlap of the two items
    /// (Segue's model): the item before extended by `out`, the item after started `in` earlier, a transition of
    /// `in + out` on it with its cut recorded (`ClipSpec.transitionCut`: the timeline shortens it where the media
    /// lacks the handles). Offsets that would make two transitions overlap inside an item, or reach past a track's
    /// ends, are shortened (with a warning where an item, not a track's end, is too short).
    ///
    /// Missing media under `--missing-media slate` is black here; `slates` gets each one's name and its place, cut to
    /// cut, for the text items drawn over it (`OTIOFile`).
    mutating func expand(_ draft: OTIODraft, video: Bool, slates: inout [(start: MediaTime, length: MediaTime, name: String)]) throws -> [ClipSpec] {
        let e = draft.entries
        var ins = [MediaTime](repeating: .zero, count: e.count), outs = ins
        for i in e.indices {
            guard let t = e[i].transition else { continue }
            guard i > 0 else { continue }
            let room = e[i - 1].length - outs[i - 1]
            ins[i] = min(t.inOffset, room)
            outs[i] = min(t.outOffset, e[i].length)
            if (ins[i] < t.inOffset && !e[i - 1].synthesized) || (outs[i] < t.outOffset && !e[i].synthesized) {
                warnings.append("\(t.path): transition \"\(t.name)\" (in_offset \(fmt(t.inOffset)) s, out_offset \(fmt(t.outOffset)) s) does not fit between the items it joins: \(fmt(ins[i])) s and \(fmt(outs[i])) s")
            }
        }
        var items: [ClipSpec] = []
        var cut = MediaTime.zero
        for i in e.indices {
            defer { cut = cut + e[i].length }
            if video, case .clip(let c, _) = e[i].content, case .slate(let name) = c.media, MediaTime.zero < e[i].length {
                slates.append((cut, e[i].length, name))
            }
            let startExtra = ins[i], endExtra = i + 1 < e.count ? outs[i + 1] : .zero
            let length = e[i].length + startExtra + endExtra
            guard MediaTime.zero < length else { continue }
            var spec: ClipSpec
            switch e[i].content {
            case .gap: spec = .gap(length)
            case .clip(let c, let trim): spec = try clipSpec(c, from: trim - startExtra, length: length, video: video)
            }
            if let t = e[i].transition, MediaTime.zero < ins[i] + outs[i], !items.isEmpty {
                var transition = t.transition
                transition.duration = ins[i] + outs[i]
                spec.transition = transition
                spec.transitionCut = ins[i]
            }
            items.append(spec)
        }
        return items
    }

    /// The item for `length` seconds of clip `c` from `from` seconds of its track time (negative: before its range,
    /// in its handle): the range of source that shows then (by its time warp), silent on a video track (OTIO's video
    /// tracks carry no sound: audio tracks do), with the `metadata.segue` fields Segue writes.
    func clipSpec(_ c: OTIOClip, from: MediaTime, length: MediaTime, video: Bool) throws -> ClipSpec {
        let path: String
        var sequence: ImageSequence?, offset = MediaTime.zero
        switch c.media {
        case .fill(let colour):
            guard video else { return .gap(length) }
            var fill = ClipSpec.fill(colour, duration: length)
            fill.effects = c.effects.filter(\.isPictureEffect)
            return fill
        case .slate: return video ? .fill(.black, duration: length) : .gap(length)
        case .file(let p): path = p
        case .sequence(let p, let s, let o):
            guard video else { return .gap(length) }   // pictures: no sound
            path = p; sequence = s; offset = o
        }
        var spec = ClipSpec(path: path)
        spec.imageSequence = sequence
        spec.interchange = true
        // A freeze holds a frame of the media's time: in Segue's time of an image sequence, `offset` later.
        spec.effects = c.effects.map { if case .freeze(let at) = $0 { return .freeze(at: offset + at) } else { return $0 } }
        if spec.freeze != nil {
            guard video else { return .gap(length) }
            spec.duration = length
        } else {
            // A constant speed S: `length` of track time uses `length × S` of the source; played backwards, the track
            // time τ shows the source at the range's end less τ.
            let speed: Double
            if case .constant(let s) = spec.speed { speed = s } else { speed = 1 }
            let r = MediaTime(seconds: speed)
            spec.start = offset + c.sourceStart + (spec.reverse ? c.duration - from - length : from).scaled(by: r.value, r.timescale)
            spec.duration = length.scaled(by: r.value, r.timescale)
        }
        if let extra = c.segue {
            // Segue's own fields (what `export-otio` writes): read as an edit file's item, then taken over.
            let field = "\(c.path).metadata.segue"
            _ = try EditFields.open(extra, .object(EditSchema.otioClip(video: video)), field)
            var o = extra
            o["path"] = path
            let read = try EditFile.clip(o, field: field, first: true, base: base, audio: !video, policy: options.policy)
            spec.ramps = read.ramps; spec.colour = read.colour; spec.audioTrack = read.audioTrack; spec.motion = read.motion
            spec.layer = read.layer; spec.frameBlend = read.frameBlend; spec.pitch = read.pitch
            if !video { spec.volume = read.volume }
        }
        if video { spec.volume = 0 }
        return spec
    }
}
