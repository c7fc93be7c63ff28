import Foundation
import SegueCore

/// The planner: what every output frame is. Both renderers draw this and decide nothing.
extension Timeline {
    /// What to draw for output frame `n` (0 ≤ n < frameCount): per video track, bottom first, the items covering
    /// `t = n / frameRate` (`T ≤ t < T + D`; two during a transition inside the track) as one `CompositePass`.
    ///
    /// - A track's item that draws nothing at `t` (a gap, opacity 0, scale 0, outside the frame) makes no pass; the
    ///   gap side of a transition is a transparent layer (the other item fades or moves in over what is below).
    /// - The first pass covers the whole frame, over the background; each later pass changes only its `rect`: the
    ///   bounding box of its layers' pictures, even-aligned (the whole frame when its transition moves the layers
    ///   or is a gl-transitions shader, which may draw anywhere).
    /// - A frame with nothing visible is one transparent layer: the background.
    /// - Past the edit's end by rounding (the last frame may start after `duration`), the items that end the edit
    ///   are held on their final instant.
    /// - A media layer is fitted by the size and SAR its source was probed with, unless `pictures` gives the picture
    ///   its decoder actually returned at that instant (keyed by `Placement.index`): a stream whose pictures change
    ///   size mid-way (a browser's WebM recording, broadcast, a concatenation) has each picture fitted by its own size
    ///   and SAR (`Placement.layer(at:renderSize:picture:)`), so the render size and the fit stay what they were.
    public func plan(frame n: Int64, pictures: [Int: PictureFormat] = [:]) -> FramePlan {
        let t = time(ofFrame: n)
        var passes: [CompositePass] = []
        let active = tracks.indices.map { k -> [Placement] in
            let members = tracks[k]
            var active = members.filter { !(t < placements[$0].start) && t < placements[$0].end }
            if active.isEmpty, !(t < duration) {
                // Past the last item's end by rounding: hold the items that end the edit.
                active = members.filter { placements[$0].end == duration }.suffix(1)
            }
            return active.map { placements[$0] }
        }
        for k in tracks.indices {
            // Under each item fitted with bars, its fitBackground (FitBackground.swift).
            if let background = backgroundPass(track: k, active: active[k].filter { $0.spec.matte == nil }, at: t, pictures: pictures) {
                passes.append(background)
            }
            // A track matte (an item of the track above with `matte`) masks this track's pass; matte items draw nothing.
            let matte = k + 1 < tracks.count ? self.matte(active[k + 1], track: k + 1, at: t) : nil
            guard var pass = self.pass(track: k, active: active[k].filter { $0.spec.matte == nil }, at: t, base: passes.isEmpty && matte == nil,
                                       pictures: pictures) else { continue }
            if let matte {
                // Never the first pass: that one is composited over the background inside the layers.
                if passes.isEmpty { passes.append(clearPass) }
                pass.matte = matte
            }
            passes.append(pass)
        }
        if passes.isEmpty {
            // Nothing visible: one transparent layer, so the first pass draws the background.
            passes = [clearPass]
        }
        return FramePlan(frame: n, time: t, renderSize: renderSize, passes: passes, colour: outputColour, background: background, keepsAlpha: keepsAlpha)
    }

    /// A pass of one transparent layer over the whole frame: drawn first, it draws the background.
    private var clearPass: CompositePass {
        var clear = LayerPlan(clipIndex: -1, sourceTime: .zero, outputToSource: .scale(1 / Double(renderSize.width), 1 / Double(renderSize.height)))
        clear.content = .colour(.black, alpha: 0)
        return CompositePass(track: 0, from: clear, to: nil, transition: nil, progress: 0)
    }

    /// The track matte the `active` items of track `k` make at `t` for the track below: the last of them with a
    /// `matte`, as its plain layer (geometry, keyframes, opacity; a transition into or out of it is not applied to
    /// the matte), transparent where it draws nothing. Nil when none of them is a matte.
    private func matte(_ active: [Placement], track k: Int, at t: MediaTime) -> PassMatte? {
        guard let p = active.last(where: { $0.spec.matte != nil }), let mode = p.spec.matte else { return nil }
        var l = layer(p, at: t) ?? transparent(p, at: t)
        l.blend = .normal
        return PassMatte(layer: l, mode: mode, track: k)
    }

    /// One track's pass at `t` from its `active` items (one, or two in a transition), nil when it draws nothing.
    private func pass(track k: Int, active: [Placement], at t: MediaTime, base: Bool, pictures: [Int: PictureFormat]) -> CompositePass? {
        guard let last = active.last else { return nil }
        let frame = PixelRect(renderSize)
        if active.count >= 2 {
            let from = active[active.count - 2], to = last
            let tr = to.spec.transition!
            let p = tr.easing(MediaTime.ratio(t - to.start, tr.duration))
            let a = layer(from, at: t, picture: pictures[from.index]) ?? transparent(from, at: t)
            let b = layer(to, at: t, picture: pictures[to.index]) ?? transparent(to, at: t)
            var rect: PixelRect? = nil
            if !base, !tr.kind.traits.movesLayers, tr.kind != .glsl {
                let r = [a, b].compactMap(\.bounds).reduce(PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)) { $0.union($1) }.evenAligned.intersection(frame)
                if r.isEmpty { return nil }
                rect = r == frame ? nil : r
            }
            return CompositePass(track: k, from: a, to: b, transition: tr, progress: p, rect: rect)
        }
        guard let l = layer(last, at: t, picture: pictures[last.index]), l.opacity > 0, let bounds = l.bounds, !bounds.isEmpty else { return nil }
        let r = bounds.evenAligned.intersection(frame)
        return CompositePass(track: k, from: l, to: nil, transition: nil, progress: 0, rect: base || r == frame ? nil : r)
    }

    /// The layer placement `p` draws at timeline time `t` (its media's picture as `picture` says, else as probed), nil
    /// for a gap or when it draws nothing.
    func layer(_ p: Placement, at t: MediaTime, picture: PictureFormat? = nil) -> LayerPlan? {
        var local = t - p.start
        if !(local < p.duration) { local = p.duration - MediaTime(value: 1, timescale: 1_000_000) }
        if local < .zero { local = .zero }
        let content: LayerPlan.Content
        switch p.spec.content {
        case .gap: return nil
        case .fill(let c): content = .colour(c, alpha: 1)
        case .file: content = .media
        case .text: content = .text
        case .shape(let s): content = .shape(svg: ShapeSVG.document(s, at: local, scale: Timeline.shapeScale(p.spec, renderSize: renderSize)))
        case .subtitles: content = .subtitles
        }
        guard let g = p.layer(at: p.start + local, renderSize: renderSize, picture: picture) else { return nil }
        var l = LayerPlan(clipIndex: p.index, sourceTime: p.sourceTime(atLocal: local), outputToSource: g.outputToSource,
                          moving: p.motion != nil || p.spec.layer.changesSize)
        l.reversed = p.spec.reverse
        l.frameBlend = p.spec.frameBlend && p.spec.freeze == nil
        l.content = content
        l.opacity = min(1, max(0, p.spec.layer.opacity.value(at: local)))
        l.crop = g.crop
        l.blend = p.spec.layer.blend
        l.effects = pictureEffects(p, at: local)
        l.bounds = l.opacity > 0 ? g.bounds : PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        return l
    }

    /// The transparent layer that stands for `p` in a transition where it draws nothing (a gap): the other layer
    /// fades, wipes or moves in over what is below.
    func transparent(_ p: Placement, at t: MediaTime) -> LayerPlan {
        var l = LayerPlan(clipIndex: p.index, sourceTime: .zero, outputToSource: .scale(1 / Double(renderSize.width), 1 / Double(renderSize.height)))
        l.content = .colour(.black, alpha: 0)
        l.bounds = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
        return l
    }

    /// How placement `p`'s source is timed, in words, one part per effect in the item's order (`ClipSpec.effects`):
    /// "speed 2×", "speed 0.5×, frames blended, audio pitch kept", "speed ramp …", "reverse", "frozen at 1.250 s"; nil
    /// when it simply plays.
    static func timeDescription(_ p: Placement) -> String? {
        if p.spec.freeze != nil { return "frozen at \(String(format: "%.3f", p.sourceStart.seconds)) s" }
        var parts: [String] = []
        for effect in p.spec.effects {
            switch effect {
            case .speed(let s):
                guard !p.timeMap.isIdentity else { continue }
                parts.append((s.speed == .capture ? "capture speed " : "speed ") + p.timeMap.description)
                if s.frameBlend { parts.append("frames blended") }
                if p.isMedia && p.source.hasAudio { parts.append("audio \(s.pitch == .keep ? "pitch kept" : s.pitch == .follow ? "pitch following" : "muted")") }
            case .reverse: parts.append("reverse")
            case .freeze, .colour, .lut, .chromaKey, .vignette, .blur, .sharpen: continue
            }
        }
        if p.spec.loop {
            parts.append(String(format: "looped: again from %.3f s every %.3f s", p.sourceStart.seconds, (p.source.duration - p.sourceStart).seconds))
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `--verbose` lines: each item's track, kind, times, geometry and colour.
    static func describe(_ placements: [Placement], audio: [Placement], edit: Edit, all: [ItemReference], outputColour: OutputColour) -> [String] {
        var notes: [String] = []
        let single = edit.tracks.count == 1 && edit.audioTracks.isEmpty
        for p in placements {
            let name = Timeline.name(p.spec)
            let label = single ? "clip \(p.index) \(name)" : "track \(p.track) item \(p.item) \(name)"
            var line = "\(label): roll \(p.roll == 0 ? "A" : "B"), "
            switch p.spec.content {
            case .gap: line += "gap"
            case .fill: line += "solid colour"
            case .text: line += "text, \(p.text?.summary ?? "") (picture \(p.source.codedSize))" + (p.cue.map { ", caption cue \($0.index) (line \($0.line))" } ?? "")
            case .subtitles: line += "captions drawn by libass, frame by frame"
            case .shape(let s): line += "shape, \(s.summary) (picture \(p.source.codedSize), drawn by librsvg \(s.isConstant ? "once" : "at each frame its numbers change"))"
            case .file:
                line += "\(p.source.isStill ? "still picture, " : "")\(p.source.imageSequence.map { $0 + ", " } ?? "")\(p.source.codedSize) \(p.source.orientation)"
                    + (p.source.orientationSource.map { " (\($0))" } ?? "")
                    + (p.source.hasAlpha ? ", with alpha" : "")
                    + (p.source.isInterlaced ? ", \(p.source.fieldOrder) (deinterlaced with bwdif, one picture per field)" : "")
                    + (p.source.isStill ? ", shown \(fmt(p.duration)) s"
                       : ", source \(fmt(p.sourceStart))–\(fmt(p.sourceStart + (p.timeMap.isIdentity ? p.duration : p.sourceDuration))) s of \(fmt(p.source.duration)) s")
                    + (p.source.captureRate.map { String(format: ", captured at %g fps", $0) } ?? "")
            }
            if let time = timeDescription(p) { line += ", \(time)" }
            if let m = p.spec.matte { line += ", \(m.rawValue) track matte of track \(p.track - 1) (not drawn)" }
            line += ", timeline \(fmt(p.start))–\(fmt(p.end)) s"
                + (p.spec.transition.map { ", \($0.kind.rawValue) \(fmt($0.duration)) s in" } ?? "")
                + (p.motion.map { ", motion \($0.description)" } ?? "")
                + (p.spec.layer.isIdentity ? "" : ", layer \(p.spec.layer.description)")
            if p.isMedia {
                line += (p.source.audioTrackCount > 1 ? ", audio track \(p.audioTrack ?? 0) of \(p.source.audioTrackCount)"
                         + (p.spec.audioTrack == nil ? " (the file's default)" : "") : "")
                    + (p.source.colour.map { ", colour \($0.summary)" } ?? "")
                    + (p.source.colourOverridden.isEmpty ? "" : " (\(p.source.colourOverridden.joined(separator: ", ")) from the edit)")
            }
            notes.append(line)
            if p.isMedia, let c = p.source.colour, let stage = ColourStage(colour: c, output: outputColour) {
                notes.append("\(label): \(stage.summary)")
            }
            if let dv = p.source.dolbyVision { notes.append("\(label): \(dv.summary)") }
        }
        for p in audio {
            notes.append("audio track \(p.track) item \(p.item) \(Timeline.name(p.spec)): "
                         + (p.isMedia ? "source \(fmt(p.sourceStart))–\(fmt(p.sourceStart + p.duration)) s, " : "gap, ")
                         + "timeline \(fmt(p.start))–\(fmt(p.end)) s" + (p.spec.volume == 1 ? "" : String(format: ", volume %g", p.spec.volume)))
        }
        return notes
    }
}
