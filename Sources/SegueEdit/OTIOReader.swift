import Foundation
import SegueCore

/// An OTIO composable as read (the reader's own parse tree, before it is laid out into the edit's tracks).
indirect enum OTIONode {
    case clip(OTIOClip)
    /// A gap, a disabled item, or an item of an unknown schema that has a length: nothing for this long.
    case gap(MediaTime)
    case transition(OTIOTransition)
    case composition(OTIOComposition)

    /// Length in its parent's time (a transition takes none).
    var duration: MediaTime {
        switch self {
        case .clip(let c): return c.duration
        case .gap(let d): return d
        case .transition: return .zero
        case .composition(let c): return c.duration
        }
    }
}

/// A marker as read: relative to the start of what carries it (in its visible time, seconds).
struct OTIOMarker {
    var name: String
    var start: MediaTime
    var duration: MediaTime
    var colour: String?
    var comment: String
}

struct OTIOClip {
    var name: String
    /// JSON path, for messages.
    var path: String
    var media: OTIOMedia
    /// Seconds into the media (from its first frame) where the clip's range starts.
    var sourceStart: MediaTime
    /// Length on the track (the source range's duration: a time warp changes the speed, not this).
    var duration: MediaTime
    /// Its time warps as Segue's effects: a `LinearTimeWarp` a speed (with `reverse` when negative), a `FreezeFrame`
    /// (or a scalar of 0) a freeze of the range's first frame; none when it plays as recorded. Then its picture
    /// effects (`Segue.colour`, … `Effect`s: `OTIOEffects`), in their order.
    var effects: [ItemEffect] = []
    var markers: [OTIOMarker] = []
    /// `metadata.segue`: Segue's own item fields (`EditFile.clip`'s), for clips Segue wrote.
    var segue: [String: Any]?
}

struct OTIOTransition {
    var name: String
    var path: String
    /// How far before the cut it starts, and after it it ends.
    var inOffset: MediaTime, outOffset: MediaTime
    /// Kind, direction, easing, … (its duration is set when it is placed).
    var transition: Transition
}

/// A Track or a Stack.
struct OTIOComposition {
    enum Kind: Equatable { case track(video: Bool), stack }
    var kind: Kind
    var name: String
    var path: String
    /// The part of its children's time it shows (start in that time, duration); nil: all of it from 0.
    var sourceRange: (start: MediaTime, duration: MediaTime)?
    var children: [OTIONode]
    var markers: [OTIOMarker] = []
    /// `metadata.segue` (an audio track's `duck`).
    var segue: [String: Any]?

    /// Its children's own length: a stack's longest child; a track's items one after the other, lengthened as OTIO's
    /// `Track.available_range()` lengthens it by a transition at its start (its `in_offset`, before the first item) and
    /// at its end (its `out_offset`, after the last).
    var contentDuration: MediaTime {
        switch kind {
        case .track: return leadIn + children.reduce(MediaTime.zero) { $0 + $1.duration } + leadOut
        case .stack: return children.map(\.duration).max() ?? .zero
        }
    }
    /// A track's time before its first item: the `in_offset` of a transition that is its first child (0 otherwise).
    var leadIn: MediaTime {
        guard kind != .stack, case .transition(let t)? = children.first else { return .zero }
        return t.inOffset
    }
    /// A track's time after its last item: the `out_offset` of a transition that is its last child (0 otherwise).
    var leadOut: MediaTime {
        guard kind != .stack, case .transition(let t)? = children.last else { return .zero }
        return t.outOffset
    }
    /// Length in its parent's time.
    var duration: MediaTime { sourceRange?.duration ?? contentDuration }
    /// Where its visible time starts in its children's time.
    var visibleStart: MediaTime { sourceRange?.start ?? .zero }
}

/// Reads an OTIO document into a parse tree, resolving media references (the missing-media policy), effects and
/// transition types, and collecting warnings; `OTIOReader+Layout` turns the tree into the edit's tracks.
struct OTIOReader {
    let options: OTIOReadOptions
    /// Folder relative references are resolved against (the timeline's, or the bundle's).
    let base: String
    var warnings: [String] = []
    /// Missing media under `--missing-media error`: each file or clip, with where it is named.
    var missing: [String] = []
    /// Effects that are not rendered, by name, and how many times each appears.
    var ignoredEffects: [String: Int] = [:]
    /// Schemas the reader does not know, with the first place each appears and how often.
    var unknownSchemas: [String: (path: String, count: Int)] = [:]
    /// Schema versions newer than the reader knows, read as the newest it does.
    var newerSchemas: Set<String> = []
    /// The first rate met in the document's times (the timeline's own rate, for `Edit.fallbackFrameRate`).
    var firstRate: Double?
    /// The markers placed so far on the output's timeline, and the compositions whose markers were placed.
    var markers: [EditMarker] = []
    var markedCompositions: Set<String> = []

    init(options: OTIOReadOptions, base: String) {
        self.options = options
        self.base = base
    }

    /// The versions of each schema this reader knows (a newer version is read as the newest with a warning).
    static let known: [String: Int] = [
        "Timeline": 1, "Stack": 1, "Track": 1, "Sequence": 1, "Clip": 2, "Gap": 1, "Transition": 1,
        "ExternalReference": 1, "ImageSequenceReference": 1, "MissingReference": 1, "GeneratorReference": 1,
        "LinearTimeWarp": 1, "FreezeFrame": 1, "Effect": 1, "TimeEffect": 1, "Marker": 3, "SerializableCollection": 1,
    ]

    /// Notes a schema: a newer version than known is read as the newest known (with a warning); an unknown one is
    /// counted for a warning naming it. Returns whether it is known.
    mutating func know(_ o: OTIOObject) -> Bool {
        guard let newest = OTIOReader.known[o.schema] else {
            let seen = unknownSchemas[o.schemaName]
            unknownSchemas[o.schemaName] = (seen?.path ?? o.path, (seen?.count ?? 0) + 1)
            return false
        }
        if o.version > newest { newerSchemas.insert("\(o.schemaName) (read as \(o.schema).\(newest))") }
        return true
    }

    /// Notes the rate of a `RationalTime` field, the first time one is met.
    mutating func noteRate(_ o: OTIOObject, _ key: String) {
        guard firstRate == nil, let t = o.child(key), let r = OTIOJSON.number(t["rate"]), r.isFinite, r > 0 else { return }
        firstRate = r
    }

    // MARK: composables

    /// A child of a track or stack.
    mutating func node(_ raw: Any, path: String, audio: Bool) throws -> OTIONode? {
        guard let o = OTIOObject(raw, path: path) else { throw EditError(path, "is not an OTIO object (no OTIO_SCHEMA)") }
        guard know(o) else {
            // Something this reader does not know: a gap as long as its range says, else nothing.
            if let r = try? o.range("source_range") { return .gap(r.duration) }
            return nil
        }
        switch o.schema {
        case "Clip":
            let c = try clip(o, audio: audio)
            return o.enabled ? .clip(c) : .gap(c.duration)
        case "Gap":
            noteRate(o.child("source_range") ?? o, "duration")
            if let r = try o.range("source_range") { return .gap(r.duration) }
            if o["duration"] != nil { return .gap(try o.time("duration")) }   // Gap.1 of the first OTIO releases
            return .gap(.zero)
        case "Transition":
            return .transition(try transition(o))
        case "Track", "Sequence", "Stack":
            let c = try composition(o, audio: audio)
            return o.enabled ? .composition(c) : .gap(c.duration)
        default:
            let seen = unknownSchemas[o.schemaName]
            unknownSchemas[o.schemaName] = (seen?.path ?? o.path, (seen?.count ?? 0) + 1)
            if let r = try? o.range("source_range") { return .gap(r.duration) }
            return nil
        }
    }

    /// A Track (`Track.1`, `Sequence.1`) or a Stack, its children read on. `audio`: the kind of the track it sits
    /// on (a track's own `kind` decides for itself).
    mutating func composition(_ o: OTIOObject, audio: Bool) throws -> OTIOComposition {
        let isStack = o.schema == "Stack"
        var video = !audio
        if !isStack, let k = o["kind"] as? String {
            switch k.lowercased() {
            case "video": video = true
            case "audio": video = false
            default: warnings.append("\(o.path): track kind \"\(k)\" is neither Video nor Audio: read as \(video ? "Video" : "Audio")")
            }
        }
        guard let list = o["children"] as? [Any] else { throw EditError("\(o.path).children", "must be a list") }
        var children: [OTIONode] = []
        for (k, raw) in list.enumerated() {
            if let n = try node(raw, path: "\(o.path).children[\(k)]", audio: !video) { children.append(n) }
        }
        _ = effects(o)
        var c = OTIOComposition(kind: isStack ? .stack : .track(video: video), name: o.name, path: o.path,
                                sourceRange: try o.range("source_range"), children: children, segue: o.segueMetadata)
        c.markers = try markers(o, origin: c.visibleStart)
        return c
    }

    /// The effects of an item: a clip's time warps and Segue's picture effects (`OTIOEffects`) are returned; every
    /// other effect is counted (not rendered).
    mutating func effects(_ o: OTIOObject) -> [OTIOObject] {
        guard let list = o["effects"] as? [Any] else { return [] }
        var warps: [OTIOObject] = []
        for (k, raw) in list.enumerated() {
            guard let e = OTIOObject(raw, path: "\(o.path).effects[\(k)]") else { continue }
            _ = know(e)
            let effectName = e["effect_name"] as? String ?? ""
            if (["LinearTimeWarp", "FreezeFrame"].contains(e.schema) || OTIOEffects.settings(e) != nil) && o.schema == "Clip" {
                warps.append(e)
                continue
            }
            // Resolve names the effect itself in its metadata ("Transform"), the effect_name being "Resolve Effect".
            let inner = ((e["metadata"] as? [String: Any])?["Resolve_OTIO"] as? [String: Any])?["Effect Name"] as? String
            var label = "\(e.schemaName)"
            if !effectName.isEmpty { label += " \"\(effectName)\"" }
            if let inner, inner != effectName { label += " (\(inner))" }
            if ["LinearTimeWarp", "FreezeFrame"].contains(e.schema) { label += " on a \(o.schema.lowercased())" }
            ignoredEffects[label, default: 0] += 1
        }
        return warps
    }

    /// Markers on `o` (`Marker.1` `range`, `Marker.2`/`.3` `marked_range`; colour a name or a `Color.1`), their
    /// starts made relative to `origin` (where `o`'s visible time starts in its own time).
    mutating func markers(_ o: OTIOObject, origin: MediaTime) throws -> [OTIOMarker] {
        guard let list = o["markers"] as? [Any] else { return [] }
        var out: [OTIOMarker] = []
        for (k, raw) in list.enumerated() {
            guard let m = OTIOObject(raw, path: "\(o.path).markers[\(k)]") else { continue }
            _ = know(m)
            guard let r = try m.range("marked_range") ?? m.range("range") else { continue }
            var colour: String?
            if let c = m["color"] as? String { colour = c }
            if let c = m.child("color") {
                if let n = c["name"] as? String, !n.isEmpty { colour = n } else if let r = OTIOJSON.number(c["r"]), let g = OTIOJSON.number(c["g"]), let b = OTIOJSON.number(c["b"]) {
                    colour = RGBColour(r: UInt8(max(0, min(1, r)) * 255), g: UInt8(max(0, min(1, g)) * 255), b: UInt8(max(0, min(1, b)) * 255)).description
                }
            }
            var comment = m["comment"] as? String ?? ""
            if comment.isEmpty, let md = m["metadata"] as? [String: Any] {
                // Tools keep the comment in their own metadata (fcp_xml, cmx_3600).
                comment = md.values.compactMap { ($0 as? [String: Any])?["comment"] as? String }.first ?? ""
            }
            out.append(OTIOMarker(name: m.name, start: r.start - origin, duration: r.duration, colour: colour, comment: comment))
        }
        return out
    }

    // MARK: transitions

    /// A `Transition.1`: `SMPTE_Dissolve` is a crossfade; `metadata.segue` (an edit-file transition object, which
    /// `export-otio` writes with `Custom_Transition`) gives any of Segue's; a `transition_type` that is a Segue name
    /// (or alias: `TransitionKind.named`),
    /// `segue:NAME`, or a gl-transitions file (`….glsl`, relative to the timeline) is that; anything else is a
    /// crossfade with a warning naming it.
    mutating func transition(_ o: OTIOObject) throws -> OTIOTransition {
        let type = o["transition_type"] as? String ?? ""
        let inOffset = try o.time("in_offset"), outOffset = try o.time("out_offset")
        noteRate(o, "in_offset")
        for (key, t) in [("in_offset", inOffset), ("out_offset", outOffset)] where t < .zero {
            throw EditError("\(o.path).\(key)", "must not be negative (got \(fmt(t)) s)")
        }
        var t = Transition(kind: .crossfade, duration: MediaTime(value: 1, timescale: 1))
        if var spec = o.segueMetadata {
            spec["duration"] = nil   // the offsets say how long
            t = try EditFile.transition(spec, field: "\(o.path).metadata.segue", base: base, policy: options.policy)
        } else {
            switch type {
            case "SMPTE_Dissolve": break
            case _ where type.hasPrefix("segue:"):
                let name = String(type.dropFirst("segue:".count))
                t = try EditFile.transition(["type": name], field: "\(o.path).transition_type", base: base, policy: options.policy)
            case _ where type.lowercased().hasSuffix(".glsl"):
                t = try EditFile.transition(["type": "glsl", "shader": type], field: "\(o.path).transition_type", base: base, policy: options.policy)
            case _ where TransitionKind.named(type) != nil && type != "glsl":
                t.kind = TransitionKind.named(type)!
                t.direction = t.kind.traits.directions.first ?? .left
            default:
                warnings.append("\(o.path): transition \"\(o.name)\" of type \"\(type)\" is not one Segue knows: drawn as a crossfade")
            }
        }
        return OTIOTransition(name: o.name, path: o.path, inOffset: inOffset, outOffset: outOffset, transition: t)
    }

    // MARK: clips

    /// A `Clip.1` (`media_reference`) or `Clip.2` (`media_references` and `active_media_reference_key`), its range,
    /// time warps, markers and media (the missing-media policy applied).
    mutating func clip(_ o: OTIOObject, audio: Bool) throws -> OTIOClip {
        let ref: OTIOObject?
        if o["media_references"] != nil {
            let key = o["active_media_reference_key"] as? String ?? "DEFAULT_MEDIA"
            ref = (o["media_references"] as? [String: Any]).flatMap { OTIOObject($0[key], path: "\(o.path).media_references.\(key)") }
        } else {
            ref = o.child("media_reference")
        }
        if let ref { _ = know(ref) }
        let available = try ref?.range("available_range")
        guard let range = try o.range("source_range") ?? available else {
            throw EditError("\(o.path).source_range", "clip \"\(o.name)\" has neither a source_range nor a media reference with an available_range: its length is unknown")
        }
        noteRate(o.child("source_range") ?? ref?.child("available_range") ?? o, "duration")
        var start = range.start - (available?.start ?? .zero)
        if start < .zero {
            warnings.append("\(o.path): clip \"\(o.name)\" starts \(fmt(MediaTime.zero - start)) s before its media's available range: played from the media's first frame")
            start = .zero
        }
        var c = OTIOClip(name: o.name, path: o.path, media: .fill(.black), sourceStart: start, duration: range.duration, segue: o.segueMetadata)
        c.media = try media(ref, clip: o, audio: audio)
        // Time warps: scalars multiply; 0 (or a FreezeFrame) holds the first frame.
        var scalar = 1.0
        var picture: [ItemEffect] = []
        for w in effects(o) {
            if let settings = OTIOEffects.settings(w) {
                guard w["enabled"] as? Bool != false, let effect = try OTIOEffects.read(settings, of: w, base: base) else { continue }
                if effect.kind == .lut, picture.contains(where: { $0.kind == .lut }) {
                    throw EditError(w.path, "clip \"\(o.name)\" has a second Segue.lut: an item takes one lut")
                }
                picture.append(effect)
                continue
            }
            if w.schema == "FreezeFrame" { scalar = 0; continue }
            guard let s = OTIOJSON.number(w["time_scalar"]), s.isFinite else {
                throw EditError("\(w.path).time_scalar", "must be a finite number")
            }
            scalar *= s
        }
        if scalar == 0 {
            c.effects = [.freeze(at: start)]
        } else {
            let speed = abs(scalar)
            guard EditFile.speedRange.contains(speed) else {
                throw EditError("\(o.path).effects", "clip \"\(o.name)\": a time_scalar of \(scalar) is a speed outside 1/32…32")
            }
            var spec = ClipSpec(path: "")
            spec.speed = .constant(speed)
            spec.reverse = scalar < 0
            c.effects = spec.effects
        }
        c.effects += picture
        c.markers = try markers(o, origin: range.start)
        return c
    }
}
