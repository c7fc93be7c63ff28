import Foundation
import SegueCore

/// What an item of a track shows.
public enum ItemContent: Equatable, Sendable {
    /// A media file, by absolute path: a video (its frames, and its audio), a photo, or (on an audio track) audio.
    case file(String)
    /// A solid colour filling the layer's frame (the render size, before `layer`); silent.
    case fill(RGBColour)
    /// Nothing for `duration`: transparent (the tracks below, or the edit's background, show) and silent.
    case gap
    /// Words (a title, a lower third, a caption cue), shaped and rasterised once by the text module; silent.
    case text(TextSpec)
    /// A rectangle, an ellipse, a line or a polygon (`ShapeSpec`), drawn by librsvg at output resolution at each
    /// instant its numbers change; silent.
    case shape(ShapeSpec)
    /// An ASS/SSA caption file drawn by libass over the whole frame, frame by frame (the planner's caption track
    /// only; an edit file's items never hold it).
    case subtitles(String)
}

/// One item of a track (`tracks[].clips[]`, or the top-level `clips` of an edit with one track): a time range of a
/// media file, a solid colour or a gap, placed after the item before it (less the transition into it) or at `at`,
/// drawn through its `layer`.
public struct ClipSpec: Equatable, Sendable {
    /// What the item shows.
    public var content: ItemContent
    /// Absolute path of the media file; "" for a fill or a gap. Setting it makes the item a file.
    public var path: String {
        get { if case .file(let p) = content { return p } else { return "" } }
        set { content = .file(newValue) }
    }
    /// The media file's path, nil for a fill, a gap or text.
    public var file: String? { if case .file(let p) = content { return p } else { return nil } }
    /// The text item's words and style, nil for other items.
    public var text: TextSpec? { if case .text(let t) = content { return t } else { return nil } }
    /// Offset into the source, seconds; default 0. Must be 0 for a still picture, a fill and a gap.
    public var start: MediaTime
    /// Length used from the source; nil means to the end of the file (for a still or a fill:
    /// `SourceInfo.defaultStillDuration`). A gap's length.
    public var duration: MediaTime?
    /// Where the item starts on the timeline (seconds from the edit's start); nil: where the item before it ends
    /// (less the transition into it), or 0 for the first. The track is transparent (and silent) before it.
    public var at: MediaTime?
    /// The transition into this item from the previous one on its track; nil for a cut (and always nil on the
    /// first item of a track).
    public var transition: Transition?
    /// Gain applied to the clip's audio (1 = as recorded, 0 = silent).
    public var volume: Double = 1
    /// Gain ramps over the item's audio, their `start` in seconds from the item's first instant on its track
    /// (negative: back from its end); before the first ramp the gain is 1, after a ramp it holds its `to`.
    public var ramps: [VolumeRamp] = []
    /// Colour description that replaces the file's tags (and the guesses for untagged clips); nil: use the tags.
    public var colour: ColourOverride?
    /// Which audio stream to play, counting the file's audio streams from 0 in file order (0 = the first audio
    /// stream, whatever its stream index); nil: the first stream flagged default, else the first
    /// (`SourceInfo.defaultAudioTrack`).
    public var audioTrack: Int?
    /// Pan and zoom over the clip's time on screen (`Motion`), inside its layer; nil: the fit's framing throughout.
    public var motion: MotionSpec?
    /// Where and how the item is drawn over the tracks below it: position, scale, rotation, opacity, crop, each a
    /// value or keyframes (`LayerSpec`); the default draws the picture fitted to the render size.
    public var layer = LayerSpec()
    /// The item is a track matte (`MatteMode`; the edit file's `"matte"`): not drawn, it masks the track directly below
    /// it while it lasts, and its audio is silent. Nil: an ordinary item.
    public var matte: MatteMode?
    /// What shows in the bars when the edit's `fit` is `fit` (`FitBackground`); nil: the edit's `fitBackground`.
    public var fitBackground: FitBackground?
    /// The item's effects, OTIO-like (`ItemEffect`): today the time effects `speed` (with its `frameBlend` and
    /// `pitch`), `reverse` and `freeze`, each at most once, in that order; `speed`, `reverse`, `freeze`, `frameBlend`
    /// and `pitch` read and write their entries. Empty: the source plays as recorded.
    public var effects: [ItemEffect] = []
    /// For a path that is a numbered picture pattern (`frames/img_%04d.png`, `ImageSequencePattern`): the sequence's
    /// rate and missing-frame policy (the edit file's `rate` and `missingFrames`); nil for any other item.
    public var imageSequence: ImageSequence?
    /// The item lasts until the edit's end (as the other tracks and the audio tracks make it): a still, a fill or a
    /// gap for all of that time, a video for as much of it as its file has. The edit file's `"duration": "edit"` (or
    /// `"untilEnd": true`) and `--overlay`; `duration` is then ignored.
    public var lastsUntilEditEnd = false
    /// For a transition read from OpenTimelineIO (`OTIOFile`): where the cut lies inside `transition`, seconds from its
    /// start (OTIO's `in_offset`; the rest of the transition is its `out_offset`). The item before was extended past
    /// the cut by `out_offset` and this item starts `in_offset` before it, using media outside their source ranges
    /// (handles). Where a file lacks them, `Timeline` shortens the transition on that side, keeping the cut, and warns
    /// (`Timeline.fitHandles`). Nil: Segue's own transition (an overlap of two items that must both be long enough).
    public var transitionCut: MediaTime?
    /// The item was read from an interchange timeline (OpenTimelineIO): where its file turns out to be a still
    /// picture, its `start` and time warp (OTIO gives stills a source range like any clip) are dropped instead of
    /// refused.
    public var interchange = false
    /// The source plays again from `start` each time it reaches its end, for as long as the item lasts (its `duration`:
    /// seconds of source time played, which may exceed the file's): the edit file's `"loop": true`. For a file without
    /// audio (a Lottie animation, a silent clip, an image sequence), played forwards.
    public var loop = false

    public init(path: String, start: MediaTime = .zero, duration: MediaTime? = nil, transition: Transition? = nil) {
        self.init(content: .file(path), start: start, duration: duration, transition: transition)
    }

    public init(content: ItemContent, start: MediaTime = .zero, duration: MediaTime? = nil, transition: Transition? = nil) {
        self.content = content; self.start = start; self.duration = duration; self.transition = transition
    }

    /// A gap of `duration`.
    public static func gap(_ duration: MediaTime) -> ClipSpec { ClipSpec(content: .gap, duration: duration) }
    /// A solid `colour` for `duration` (nil: `SourceInfo.defaultStillDuration`).
    public static func fill(_ colour: RGBColour, duration: MediaTime? = nil) -> ClipSpec { ClipSpec(content: .fill(colour), duration: duration) }
}

/// How fast an item's source plays.
public enum Speed: Equatable, Sendable {
    /// A constant factor: 2 plays twice as fast, 0.5 half as fast (1/32…32, AVFoundation's `scaleTimeRange` range).
    case constant(Double)
    /// A speed ramp: speeds as keyframes over the item's time on its track (seconds from its first instant), held
    /// before the first and after the last, eased between; source time is their integral (`TimeMap`).
    case ramp([Keyframe])
    /// A high-frame-rate clip's every captured frame, once, at the edit's rate: speed = edit rate / the rate its frames
    /// are stamped at (`SourceInfo.streamRate`: a 240 fps recording stamped in real time plays at 30/240 in a 30 fps
    /// edit; one a phone already slowed, stamped at 30 fps whatever its `com.android.capture.fps`, at 1).
    case capture

    /// Whether the source plays at its own pace.
    public var isNormal: Bool { self == .constant(1) }
}

/// A retimed clip's audio.
public enum Pitch: String, CaseIterable, Sendable {
    /// Time-stretched to the new length, its pitch kept (libavfilter's `atempo`).
    case keep
    /// Resampled to the new length, its pitch following the speed (varispeed: twice as fast, an octave up).
    case follow
    /// Silent.
    case mute
}

/// A video track: a sequence of items (`ClipSpec`), each after the one before it (cuts, or transitions on an A/B
/// roll inside the track), or at its own `at`. Tracks are stacked bottom first: an item is drawn over the tracks
/// below it through its `layer` (premultiplied "over").
public struct VideoTrack: Equatable, Sendable {
    public var clips: [ClipSpec]
    public init(clips: [ClipSpec]) { self.clips = clips }
}

/// An audio track: a sequence of audio items placed like video items (`at`, `start`, `duration`, `volume`,
/// `ramps`, a `transition` crossfading the audio), mixed with every video track's audio.
public struct AudioTrack: Equatable, Sendable {
    public var clips: [ClipSpec]
    /// Whether the music ducks under this track (`music.duck`); default true.
    public var duck = true
    public init(clips: [ClipSpec]) { self.clips = clips }
}

/// An edit as written by the user: tracks of items joined by transitions, audio tracks, music, plus optional output
/// properties. Anything left nil is derived from the clips when the edit is resolved (`Timeline`).
public struct Edit: Equatable, Sendable {
    /// Video tracks, bottom first (an edit file's `tracks`; its top-level `clips` is one track).
    public var tracks: [VideoTrack]
    /// Audio tracks (`audioTracks`), mixed with the video tracks' audio.
    public var audioTracks: [AudioTrack] = []
    /// The bottom track's items: the whole edit when it has one track (`Edit(clips:)`, the edit file's `clips`).
    public var clips: [ClipSpec] {
        get { tracks.first?.clips ?? [] }
        set { if tracks.isEmpty { tracks = [VideoTrack(clips: newValue)] } else { tracks[0].clips = newValue } }
    }
    /// Output picture size in pixels; nil: the largest width and height among the rotated clips of the bottom track
    /// (of every track when the bottom one has no media).
    public var renderSize: PixelSize?
    /// A square render size: side = the largest short side (`min(width, height)` after rotation) among those clips,
    /// each clip fitted (by default, centre-cropped) to it.
    public var square: Bool = false
    public var fit: FitMode = .fill
    /// What shows in the bars `fit` `fit` leaves under every item that gives none (`FitBackground`); nil: the background.
    public var fitBackground: FitBackground?
    /// Output frame rate; nil: the highest nominal frame rate among those clips (snapped to a standard rate), else 30.
    public var frameRate: FrameRate?
    public var output = OutputSettings()
    /// The delivery preset the edit asked for (`output.delivery`, `--delivery`), already applied to `renderSize`,
    /// `frameRate`, `output` and `audio` where the edit gave none of its own; kept for `plan` and for writing the edit.
    public var delivery: DeliveryPreset?
    /// Background music mixed under the clips' audio; nil for none.
    public var music: MusicSpec?
    /// Output audio format.
    public var audio = AudioSettings()
    /// The colour under every track: outside the pictures (letterbox bars, pushed-out areas), in gaps and under the
    /// transparent parts of pictures with alpha; black by default.
    public var background = RGBColour.black
    /// `"background": "transparent"`: nothing under the tracks; the output keeps the composite's alpha
    /// (`FramePlan.keepsAlpha`), which needs a format with alpha (ProRes 4444, VP9 in WebM, PNG, TIFF or OpenEXR image
    /// sequences, FFV1).
    public var transparentBackground = false
    /// How transitions mix colours unless they say (`Transition.blend`).
    public var blending: Blending = .gamma
    /// Captions over the whole edit (`"captions"`, `--captions`): drawn above every track.
    public var captions: CaptionSpec?
    /// The edit asks to open inputs that pull in other files (`"allowIndirectInputs": true`: HLS and DASH playlists,
    /// ffconcat lists, `concat:` paths; see `InputPolicy.allowIndirectInputs`). What they pull in still obeys the
    /// render's `InputPolicy` (local regular files, inside its root).
    public var allowIndirectInputs = false
    /// Points and ranges on the timeline that the edit's source marked (OTIO markers): listed by `segue plan`, not drawn.
    public var markers: [EditMarker] = []
    /// The timecode of the timeline's first frame (OTIO's `global_start_time`), shown by `segue plan`; nil for none. It
    /// offsets nothing: the output starts at 0.
    public var globalStartTime: MediaTime?
    /// The rate `globalStartTime` counts frames in (its timecode's rate); nil: the output's.
    public var timecodeRate: FrameRate?
    /// The frame rate when neither the edit nor any clip gives one (an OTIO timeline's own rate); nil: 30.
    public var fallbackFrameRate: FrameRate?
    /// What the reader of the edit's file noticed and worked around (an OTIO timeline's unknown schemas, effects it
    /// does not render, missing media stood in for): `Timeline.warnings` repeats them.
    public var warnings: [String] = []
    /// The folder an `.otioz` bundle was extracted into (`EditDocument`): its files pass the input policy's root
    /// (`InputPolicy.applied(to:)`), and chunk plans hash paths inside it relative to it. Nil for other edits.
    public var bundleFolder: String?
    /// Shorten a transition longer than the items it joins allow (to what fits, or a cut below one frame), with a
    /// warning, instead of refusing the edit (`Timeline.fitTransitions`). The edit file's `fitTransitions` (default
    /// false: an error, naming the transition); clips joined on the command line always fit (one `--transition`
    /// applies to every join, whatever the clips' lengths).
    public var fitTransitions = false
    /// What a render of this edit decided before its first frame, saved with it (`segue resolve`, the edit file's
    /// `resolved`): an edit that carries it renders from the recorded facts instead of probing its media again
    /// (`EditResolution`). Nil for an edit as written.
    public var resolution: EditResolution?

    /// An edit of one track.
    public init(clips: [ClipSpec]) { self.tracks = [VideoTrack(clips: clips)] }
    public init(tracks: [VideoTrack], audioTracks: [AudioTrack] = []) { self.tracks = tracks; self.audioTracks = audioTracks }

    /// Every file the edit reads, with the field that names it (`tracks[1].clips[0].path`, `music.path`,
    /// `tracks[0].clips[2].transition.shader`, `….params.NAME`, `….style.font`, `captions.path`): media, shaders,
    /// images, font files and the caption file. In track order, each file as often as it is named.
    /// `InputPolicy.check(_:)` checks each (a shader, a font file or the caption file as a file Segue reads itself, the
    /// others as media); an item kind that names a file adds it here, and the policy then covers it.
    public var inputPaths: [(field: String, path: String)] {
        var out: [(field: String, path: String)] = []
        let single = tracks.count == 1 && audioTracks.isEmpty
        for (k, track) in tracks.enumerated() {
            for (i, c) in track.clips.enumerated() {
                let f = single ? "clips[\(i)]" : "tracks[\(k)].clips[\(i)]"
                if let p = c.file { out.append(("\(f).path", p)) }
                if case .file(let p)? = c.text?.style.font { out.append(("\(f).style.font", p)) }
                for (k, e) in c.effects.enumerated() { if case .lut(let l) = e { out.append(("\(f).effects[\(k)].path", l.path)) } }
                if let t = c.transition {
                    if let sh = t.shader { out.append(("\(f).transition.shader", sh.path)) }
                    for (name, v) in t.params.sorted(by: { $0.key < $1.key }) {
                        if case .image(let p) = v, !p.isEmpty { out.append(("\(f).transition.params.\(name)", p)) }
                    }
                }
            }
        }
        for (k, track) in audioTracks.enumerated() {
            for (i, c) in track.clips.enumerated() { if let p = c.file { out.append(("audioTracks[\(k)].clips[\(i)].path", p)) } }
        }
        if let m = music { out.append(("music.path", m.path)) }
        if let c = captions {
            out.append(("captions.path", c.path))
            if case .file(let p) = c.style.font { out.append(("captions.style.font", p)) }
        }
        return out
    }

    /// The media items the edit places (what `ResourceLimits.maxClips` counts): every item with a file, on every
    /// track, video or audio.
    public var mediaItemCount: Int { Timeline.mediaItems(of: self).count }
}

/// A point or range of the timeline marked in the edit's source (an OTIO `Marker`): a name, where, and its colour.
public struct EditMarker: Equatable, Sendable {
    public var name: String
    /// Seconds from the output's start.
    public var start: MediaTime
    /// Length of the marked range (0 for a point).
    public var duration: MediaTime
    /// The marker's colour as its source names it ("RED"), or nil.
    public var colour: String?
    /// The marker's comment, or "".
    public var comment: String
    /// What it was attached to: "timeline", or the item's name ("clip A001.mov").
    public var on: String
    public init(name: String, start: MediaTime, duration: MediaTime = .zero, colour: String? = nil, comment: String = "", on: String = "timeline") {
        self.name = name; self.start = start; self.duration = duration; self.colour = colour; self.comment = comment; self.on = on
    }
}

/// A linear gain ramp (`AVMutableAudioMixInputParameters.setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`).
public struct VolumeRamp: Equatable, Sendable {
    public var from: Double
    public var to: Double
    /// Start on the edit's timeline (music), or from the item's first instant (an item's `ramps`); negative counts
    /// back from the end.
    public var start: MediaTime
    public var duration: MediaTime
    public init(from: Double, to: Double, start: MediaTime, duration: MediaTime) {
        self.from = from; self.to = to; self.start = start; self.duration = duration
    }
}

/// Music ducking: while the clips' audio is present, the music's gain moves to `level`.
public struct Ducking: Equatable, Sendable {
    /// Gain while ducked (0…1).
    public var level: Double = 0.25
    /// Seconds to go from full volume down to `level`.
    public var attack: Double = 0.2
    /// Seconds to come back up to full volume.
    public var release: Double = 0.6
    public init() {}
}

/// Background music.
public struct MusicSpec: Equatable, Sendable {
    /// Absolute path of the audio (or video) file.
    public var path: String
    /// Offset into the song, seconds.
    public var start: MediaTime = .zero
    /// Gain multiplying everything else.
    public var volume: Double = 1
    /// Start again from `start` when the song ends (else silence after it).
    public var loop = false
    /// Gain ramps over the edit's timeline; before the first ramp the gain is 1, after a ramp it stays at its `to`.
    public var ramps: [VolumeRamp] = []
    public var duck: Ducking?
    public init(path: String) { self.path = path }
}

extension Edit {
    /// Applies delivery preset `preset` (`DeliveryPreset`): its size, rate, output and audio settings, each only where
    /// `keep` does not say the edit gave its own (a size or rate already set is always kept); records it in `delivery`.
    public mutating func apply(_ preset: DeliveryPreset, keeping keep: DeliveryPreset.Explicit = DeliveryPreset.Explicit()) {
        delivery = preset
        if renderSize == nil && !square, let s = preset.size { renderSize = s }
        if frameRate == nil, let r = preset.frameRate { frameRate = r }
        preset.apply(to: &output, audio: &audio, keeping: keep)
    }
}
