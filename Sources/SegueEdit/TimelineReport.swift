import SegueCore

/// The resolved edit in a form for people (`text`) and machines (`Codable`): what `segue plan` prints.
public struct TimelineReport: Codable, Sendable {
    public struct Clip: Codable, Sendable {
        public let index: Int
        /// The media file; "" for a fill or a gap.
        public let path: String
        /// "video", "still", "fill", "gap", "text", or "audio" (an audio track's item).
        public let kind: String
        /// The video track (or, for audio items, the audio track), 0 = the bottom one.
        public let track: Int
        /// The item's index in its track.
        public let item: Int
        /// "A" or "B": the item's roll inside its track.
        public let roll: String
        /// Seconds in the source.
        public let sourceStart: Double, sourceEnd: Double
        /// Seconds on the timeline, and the output frames `[firstFrame, endFrame)` that show the clip.
        public let start: Double, end: Double
        public let firstFrame: Int64, endFrame: Int64
        public let rotation: Int
        public let mirrored: Bool
        public let transition: Transition?
        /// The colour the clip is converted with, e.g. "BT.601 limited, SDR, BT.709 primaries".
        public let colour: String?
        /// What the edit's `colour` overrides (matrix, range, transfer, primaries); empty when nothing.
        public let colourOverridden: [String]
        /// A still picture, shown for `end − start` seconds (its source times are then 0 and that length).
        public let still: Bool
        /// Where the rotation comes from when not from a display matrix ("EXIF orientation 6 (rotate 90° clockwise)").
        public let orientationSource: String?
        /// Pan and zoom, "(x, y) ×zoom → (x, y) ×zoom[, easing]" (`Motion.description`); nil for none.
        public var motion: String? = nil
        /// The `layer` properties that differ from the defaults ("x 0.8, y 0.2, scale 0.25"); nil for none.
        public var layer: String? = nil
        /// The fill's colour, "#rrggbb".
        public var fill: String? = nil
        /// The item's audio gain, when not 1.
        public var volume: Double? = nil
        /// A text item's words.
        public var text: String? = nil
        /// A text item's fonts, size and style as shaped ("Noto Sans 40 px + Noto Sans Arabic, 1 line, picture 412x60").
        public var textStyle: String? = nil
        /// A shape item's shape and picture ("rect 200×20, fill #ffffff, picture 200x20").
        public var shape: String? = nil
        /// How the source is timed when it does not simply play: "2×", "0.5×, blended", "ramp 1×@0s → 4×@1s",
        /// "reverse", "frozen at 1.250 s"; nil for none.
        public var time: String? = nil
        /// A track matte's mode and the track it masks ("luma matte of track 0"); nil for an ordinary item.
        public var matte: String? = nil
        /// The item's effects by type, in their order (`ClipSpec.effects`: "speed", "reverse", "freeze"); nil for none.
        public var effects: [String]? = nil
        /// The picture effects as words, in their order ("colour brightness 1.2, hue 30", "lut grade.cube"); nil for none.
        public var pictureEffects: [String]? = nil
        /// What shows in the bars of `fit` `fit` under it ("blur", "#202020": `fitBackground`, its own or the edit's); nil
        /// for none or when it has no bars to fill.
        public var fitBackground: String? = nil
    }
    /// One caption cue (`Edit.captions`) and the output frames `[firstFrame, endFrame)` it shows on.
    public struct Cue: Codable, Sendable {
        /// 1-based, in file order.
        public let index: Int
        /// Its line in the caption file.
        public let line: Int
        /// Seconds on the timeline, as the file gives them (`end` clipped to the edit).
        public let start: Double, end: Double
        public let firstFrame: Int64, endFrame: Int64
        /// The cue's text (markup removed; an ASS event's text as written).
        public let text: String
    }
    /// The caption file and its format ("srt", "webvtt", "ass"), nil without captions.
    public let captionFile: String?, captionFormat: String?
    /// Every cue of the caption file; an ASS file's events, as libass reads them (drawn by libass).
    public let captions: [Cue]
    /// Whether libass draws the captions (an ASS file, not as word-by-word captions); nil without captions.
    public let captionsByLibass: Bool?
    public struct Transition: Codable, Sendable {
        public let type: String
        public let direction: String
        public let duration: Double
        /// CSS easing of the picture's progress ("linear" by default) and of the audio crossfade (nil: linear).
        public let easing: String
        public let audioEasing: String?
        /// A glsl transition's shader file, as the edit names it.
        public let shader: String?
        /// "gamma" or "linear" (`Blending`).
        public let blend: String
        /// Output frames `[firstFrame, endFrame)`; `firstFrame` has p = 0.
        public let firstFrame: Int64, endFrame: Int64
    }
    /// A marker of the edit's source (an OTIO marker): where it is on the output's timeline.
    public struct Marker: Codable, Sendable {
        public let name: String
        /// Seconds from the output's start, and its length (0 for a point).
        public let start: Double, duration: Double
        /// The output frame showing its start.
        public let frame: Int64
        public let colour: String?
        public let comment: String
        /// What it was attached to: "timeline", or "clip NAME".
        public let on: String
    }
    public let width: Int, height: Int
    /// Why the render size is what it is (`Timeline.renderSizeReason`).
    public var renderSizeReason: String? = nil
    /// "30000/1001".
    public let frameRate: String
    public let duration: Double
    public let frameCount: Int64
    /// Every item of every video track, track by track (bottom first).
    public let clips: [Clip]
    /// Every item of every audio track.
    public let audioClips: [Clip]
    /// How many video tracks the edit has.
    public let tracks: Int
    /// The edit's background colour, "#rrggbb".
    public let background: String
    public let notes: [String]
    /// The edit's markers, in time order; nil when it has none.
    public let markers: [Marker]?
    /// The timecode of the first frame (an OTIO timeline's `global_start_time`), seconds; nil for none. The output
    /// starts at 0 whatever it is.
    public let globalStartTime: Double?
    /// `globalStartTime` as HH:MM:SS:FF, counting frames at the rate the source counted them in (else the output's),
    /// non-drop-frame.
    public let startTimecode: String?
    /// What the resolution warns about (`Timeline.warnings`: an item of an upper track that makes the edit longer, a
    /// transition shortened, …), as `segue plan` also prints them on standard error; nil for none.
    public var warnings: [String]? = nil
    /// What is written: the format, the encoder's quality, the audio and its loudness target, and the delivery preset
    /// they came from.
    public struct Output: Codable, Sendable {
        /// The delivery preset's name; nil for none.
        public let delivery: String?
        /// `OutputSettings.Codec`'s name ("h264"), and the format in words.
        public let codec: String, format: String
        /// The encoder's constant rate factor and preset; nil where the format takes none (lossless, ProRes).
        public let crf: Int?, preset: String?
        /// The audio: FFmpeg's encoder name, samples per second, channels, bit rate (bits per second; nil for PCM).
        public let audioCodec: String, sampleRate: Int, channels: Int, audioBitRate: Int?
        /// The loudness target, LUFS and dBTP; nil: the audio as mixed.
        public let loudness: Double?, truePeak: Double?
    }
    public var output: Output? = nil

    public init(_ t: Timeline) {
        width = t.renderSize.width; height = t.renderSize.height
        renderSizeReason = t.renderSizeReason
        let f = t.output.format
        let lossy = !f.audioCodec.hasPrefix("pcm_")
        output = Output(delivery: t.delivery?.name, codec: t.output.codec.rawValue, format: f.name,
                        crf: f.takesEncoderSettings ? t.output.crf : nil, preset: f.takesEncoderSettings ? t.output.preset : nil,
                        audioCodec: f.audioCodec, sampleRate: t.audio.sampleRate, channels: t.audio.channels,
                        audioBitRate: lossy ? t.audio.bitRate : nil, loudness: t.output.loudness?.integrated, truePeak: t.output.loudness?.truePeak)
        frameRate = t.frameRate.description
        duration = t.duration.seconds
        frameCount = t.frameCount
        notes = t.notes
        warnings = t.warnings.isEmpty ? nil : t.warnings
        background = t.background.description
        tracks = t.tracks.count
        markers = t.markers.isEmpty ? nil : t.markers.sorted { $0.start < $1.start }.map {
            Marker(name: $0.name, start: $0.start.seconds, duration: $0.duration.seconds, frame: $0.start.floored(toUnitsOf: Int64(t.frameRate.numerator), per: Int64(t.frameRate.denominator)),
                   colour: $0.colour, comment: $0.comment, on: $0.on)
        }
        globalStartTime = t.globalStartTime?.seconds
        startTimecode = t.globalStartTime.map { TimelineReport.timecode($0, rate: t.timecodeRate ?? t.frameRate) }
        func clip(_ p: Timeline.Placement, audio: Bool) -> Clip {
            let r = audio ? 0..<0 : t.transitionFrames(into: p.index)
            let kind: String
            switch p.spec.content {
            case .gap: kind = "gap"
            case .fill: kind = "fill"
            case .text: kind = "text"
            case .shape: kind = "shape"
            case .subtitles: kind = "captions"
            case .file: kind = audio ? "audio" : p.source.isStill ? "still" : "video"
            }
            var c = Clip(index: p.index, path: p.spec.path, kind: kind, track: p.track, item: p.item, roll: p.roll == 0 ? "A" : "B",
                         sourceStart: p.sourceStart.seconds, sourceEnd: (p.sourceStart + (p.timeMap.isIdentity ? p.duration : p.sourceDuration)).seconds,
                         start: p.start.seconds, end: p.end.seconds,
                         firstFrame: t.firstFrame(atOrAfter: p.start), endFrame: min(t.frameCount, t.firstFrame(atOrAfter: p.end)),
                         rotation: p.source.orientation.rotationDegrees, mirrored: p.source.orientation.isMirrored,
                         transition: p.spec.transition.map {
                             Transition(type: audio ? "crossfade" : $0.kind.rawValue, direction: $0.direction.rawValue, duration: $0.duration.seconds,
                                        easing: $0.easing.description, audioEasing: $0.audioEasing?.description, shader: $0.shader?.name,
                                        blend: ($0.blend ?? .gamma).rawValue,
                                        firstFrame: audio ? t.firstFrame(atOrAfter: p.start) : r.lowerBound,
                                        endFrame: audio ? t.firstFrame(atOrAfter: p.start + $0.duration) : r.upperBound)
                         }, colour: p.source.colour?.summary, colourOverridden: p.source.colourOverridden,
                         still: p.source.isStill && p.isMedia, orientationSource: p.source.orientationSource, motion: p.motion?.description)
            c.layer = p.spec.layer.isIdentity ? nil : p.spec.layer.description
            c.matte = p.spec.matte.map { "\($0.rawValue) matte of track \(p.track - 1)" }
            if case .fill(let colour) = p.spec.content { c.fill = colour.description }
            if let shape = p.spec.shape { c.shape = shape.summary + ", picture \(p.source.codedSize)" }
            c.volume = p.spec.volume == 1 ? nil : p.spec.volume
            if let text = p.spec.text {
                c.text = text.text
                c.textStyle = (p.text?.summary ?? "") + ", picture \(p.source.codedSize)" + (text.animation.map { ", animated \($0)" } ?? "")
            }
            c.time = Timeline.timeDescription(p)
            c.effects = p.spec.effects.isEmpty ? nil : p.spec.effects.map(\.kind.rawValue)
            c.pictureEffects = p.spec.pictureEffects.isEmpty ? nil : p.spec.pictureEffects.map(\.description)
            if p.isMedia, p.fit == .fit { c.fitBackground = (p.spec.fitBackground ?? t.fitBackground)?.description }
            return c
        }
        clips = t.placements.filter { !t.captionTracks.contains($0.track) }.map { clip($0, audio: false) }
        captionFile = t.captions?.path
        captionFormat = t.captions?.format.rawValue
        captionsByLibass = t.captions.map { _ in t.placements.contains { if case .subtitles = $0.spec.content { true } else { false } } }
        captions = (t.captions?.cues ?? []).map { cue in
            // Cut at the edit's end; a cue wholly after it keeps its own times (it has no frames).
            let end = t.duration < cue.end && cue.start < t.duration ? t.duration : cue.end
            return Cue(index: cue.index, line: cue.line, start: cue.start.seconds, end: end.seconds,
                       firstFrame: min(t.frameCount, t.firstFrame(atOrAfter: cue.start)), endFrame: min(t.frameCount, t.firstFrame(atOrAfter: end)),
                       text: cue.text)
        }
        audioClips = t.audioPlacements.map { clip($0, audio: true) }
    }

    public var text: String {
        var s = "render size \(width)x\(height), \(frameRate) fps, \(String(format: "%.3f", duration)) s, \(frameCount) frames"
            + (background == RGBColour.black.description ? "" : ", background \(background)") + "\n"
        if let why = renderSizeReason { s += "render size \(width)x\(height): \(why)\n" }
        if let o = output, o.delivery != nil || o.loudness != nil {
            s += "output: " + (o.delivery.map { "delivery preset \($0): " } ?? "") + o.format
                + (o.crf.map { ", crf \($0)" } ?? "") + (o.preset.map { ", preset \($0)" } ?? "")
                + "; audio \(o.audioCodec) \(o.sampleRate) Hz, \(o.channels) channel\(o.channels == 1 ? "" : "s")"
                + (o.audioBitRate.map { ", \($0 / 1000) kb/s" } ?? "")
                + (o.loudness.map { l in "; loudness normalised to " + LoudnessTarget(integrated: l, truePeak: o.truePeak ?? LoudnessTarget.defaultTruePeak).description } ?? "")
                + "\n"
        }
        if let tc = startTimecode, let g = globalStartTime {
            s += String(format: "timeline starts at timecode %@ (global_start_time %.3f s); the output starts at 0\n", tc, g)
        }
        let layered = tracks > 1 || !audioClips.isEmpty
        for c in clips {
            if let t = c.transition {
                s += String(format: "  %@%@ %.3f s%@%@%@: frames %lld–%lld\n", TimelineReport.transitionName(t.type), t.shader.map { " \($0)" } ?? "", t.duration,
                            TransitionKind(rawValue: t.type)?.traits.directions.isEmpty ?? true ? "" : " \(t.direction)",
                            t.easing == "linear" ? "" : ", \(t.easing)", t.blend == "linear" ? ", linear light" : "", t.firstFrame, t.endFrame - 1)
            }
            s += line(c, label: layered ? "track \(c.track) item \(c.item)" : "clip \(c.index)")
        }
        for c in audioClips {
            if let t = c.transition { s += String(format: "  audio crossfade %.3f s\n", t.duration) }
            s += line(c, label: "audio track \(c.track) item \(c.item)")
        }
        if let format = captionFormat {
            s += "captions \(captionFile.map { $0.split(separator: "/").last.map(String.init) ?? $0 } ?? "") (\(format)): \(captions.count) cue\(captions.count == 1 ? "" : "s")\(captionsByLibass == true ? ", drawn by libass" : "")\n"
            for c in captions {
                let words = c.text.replacingOccurrences(of: "\n", with: " ⏎ ")
                s += String(format: "  cue %d (line %d) %.3f–%.3f s, ", c.index, c.line, c.start, c.end)
                    + (c.endFrame > c.firstFrame ? "frames \(c.firstFrame)–\(c.endFrame - 1)" : "no frames") + ": \(words)\n"
            }
        }
        for m in markers ?? [] {
            s += String(format: "marker \"%@\" at %.3f s (frame %lld)%@%@, on %@%@\n", m.name, m.start, m.frame,
                        m.duration > 0 ? String(format: " for %.3f s", m.duration) : "", m.colour.map { ", \($0)" } ?? "", m.on,
                        m.comment.isEmpty ? "" : ": \(m.comment)")
        }
        return s
    }

    /// A transition's type as the plan names it: with the xfade transition it re-derives where that is named
    /// otherwise ("pixeldissolve (FFmpeg xfade's dissolve: random pixels, not a cross-dissolve)").
    static func transitionName(_ type: String) -> String {
        guard let kind = TransitionKind(rawValue: type), let x = kind.xfadeName, x != type else { return type }
        return "\(type) (FFmpeg xfade's \(x)\(kind == .dissolve ? ": random pixels, not a cross-dissolve" : ""))"
    }

    /// `t` as HH:MM:SS:FF: its frames at `rate`, counted in seconds of `rate` rounded to whole frames (non-drop-frame
    /// timecode: 86 400 frames at 23.976 fps are 01:00:00:00).
    public static func timecode(_ t: MediaTime, rate: FrameRate) -> String {
        let fps = max(1, Int64(rate.framesPerSecond.rounded()))
        let frames = t.rounded(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator))
        let sign = frames < 0 ? "-" : ""
        let f = abs(frames)
        return sign + String(format: "%02lld:%02lld:%02lld:%02lld", f / (3600 * fps), f / (60 * fps) % 60, f / fps % 60, f % fps)
    }

    private func line(_ c: Clip, label: String) -> String {
        let name = c.path.split(separator: "/").last.map(String.init) ?? c.path
        let what: String
        switch c.kind {
        case "gap": what = "gap"
        case "fill": what = "fill \(c.fill ?? "")"
        case "shape": what = "shape \(c.shape ?? "")"
        case "text": what = "text \"\((c.text ?? "").replacingOccurrences(of: "\n", with: " ⏎ "))\" (\(c.textStyle ?? ""))"
        case "still": what = String(format: "%@: still, shown %.3f s", name, c.end - c.start)
        default: what = String(format: "%@: source %.3f–%.3f s", name, c.sourceStart, c.sourceEnd)
        }
        return String(format: "%@ [%@] %@ → timeline %.3f–%.3f s, frames %lld–%lld%@%@%@%@%@%@%@\n",
                      label, c.roll, what, c.start, c.end, c.firstFrame, c.endFrame - 1,
                      c.rotation != 0 || c.mirrored ? ", rotation \(c.rotation)°\(c.mirrored ? " mirrored" : "")"
                          + (c.orientationSource.map { " (\($0))" } ?? "") : "",
                      c.colourOverridden.isEmpty ? "" : ", colour \(c.colour ?? "?") (\(c.colourOverridden.joined(separator: ", ")) from the edit)",
                      (c.time.map { ", \($0)" } ?? "") + (c.motion.map { ", motion \($0)" } ?? ""), c.layer.map { ", layer \($0)" } ?? "",
                      c.volume.map { String(format: ", volume %g", $0) } ?? "", c.matte.map { ", \($0) (not drawn)" } ?? "",
                      (c.pictureEffects.map { ", effects: " + $0.joined(separator: "; ") } ?? "") + (c.fitBackground.map { ", fit background \($0)" } ?? ""))
    }
}
