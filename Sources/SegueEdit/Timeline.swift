import Foundation
import SegueCore

/// A decoded picture's stored size and sample aspect ratio, as the decoder gave it (it may differ from the probed
/// `SourceInfo` in a stream that changes size mid-way).
public struct PictureFormat: Equatable, Sendable, CustomStringConvertible {
    /// Stored size in pixels.
    public var size: PixelSize
    /// Pixel width / pixel height (the container's when set and sane, else the codec's: `SampleAspectRatio`).
    public var sampleAspectRatio: Double
    public init(size: PixelSize, sampleAspectRatio: Double) { self.size = size; self.sampleAspectRatio = sampleAspectRatio }
    /// "640x480" or "640x480 (SAR 1.333)".
    public var description: String { sampleAspectRatio == 1 ? "\(size)" : "\(size) (SAR \(String(format: "%.3f", sampleAspectRatio)))" }
}

/// An edit resolved against its clips' media: every time and size fixed, ready to plan frames.
///
/// Each track (video or audio) is laid out on its own: item `i` starts at its `at` when it has one, else at
/// `T_i = T_{i-1} + D_{i-1} − d_i` (`D`: item duration, `d_i`: the transition into item `i`; the first item at 0);
/// items alternate between rolls A (even) and B (odd) of their track. The edit lasts as long as its longest track,
/// video or audio; output frame `n` is at `n / frameRate`; the frame count is duration × frame rate rounded to the
/// nearest frame. Every output frame is planned by `plan(frame:)`: one `CompositePass` per video track with
/// something visible, bottom first.
public struct Timeline: Sendable {
    public struct Placement: Sendable {
        /// Index in `placements` (video items) or `audioPlacements` (audio items).
        public let index: Int
        /// The item's track: an index into `Edit.tracks` (video items) or `Edit.audioTracks` (audio items).
        public let track: Int
        /// The item's index in its track.
        public let item: Int
        public let spec: ClipSpec
        /// The media's description; for a fill or a gap, a stand-in (a still of the render size, no audio).
        public let source: SourceInfo
        /// Offset into the source (seconds from its first frame); for a frozen clip, the frame held.
        public let sourceStart: MediaTime
        /// The length of the source range used (`D`, seconds of the source; 0 for a frozen clip).
        public var sourceDuration: MediaTime = .zero
        /// How the source time follows the timeline's (speed, ramp, freeze; identity for most).
        public var timeMap = TimeMap.identity
        /// The source time shown at item-local time τ (seconds from the item's first instant): `sourceStart` plus
        /// the time map's offset; played backwards, `sourceStart + D − offset − ½ frame` (so the frame picked "at or
        /// before" is the one strictly before, and frame k shows source frame N − 1 − k).
        public func sourceTime(atLocal tau: MediaTime) -> MediaTime {
            let offset = timeMap.sourceOffset(at: tau)
            if spec.loop { return sourceStart + Timeline.wrapped(offset, period: source.duration - sourceStart) }
            guard spec.reverse else { return sourceStart + (sourceDuration < offset && sourceDuration > .zero ? sourceDuration : offset) }
            let back = sourceStart + sourceDuration - offset - halfFrame
            return back < sourceStart ? sourceStart : back
        }
        /// Half the source's nominal frame interval (1/60 s when it has no rate).
        var halfFrame: MediaTime {
            let fps = source.nominalFrameRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 30
            return MediaTime(value: 1_000_000, timescale: Int64((2_000_000 * fps).rounded()))
        }
        /// Length on the timeline (the source range used, `sourceDuration`, through `timeMap`).
        public let duration: MediaTime
        /// Start on the output timeline (`T`).
        public let start: MediaTime
        /// How the item's picture is fitted to the render size: the edit's `fit`; `fit` for a fill (its picture is the render frame, so only a crop changes its shape, which the fit keeps).
        public let fit: FitMode
        /// The audio track played (an index among the file's audio streams): `clips[].audioTrack`, else the
        /// file's default (`SourceInfo.defaultAudioTrack`); nil when the file has no audio.
        public var audioTrack: Int? { spec.audioTrack ?? source.defaultAudioTrack }
        public var end: MediaTime { start + duration }
        /// The item's roll in its track: 0 = A, 1 = B (they alternate, so a transition always joins A and B).
        public var roll: Int { item % 2 }
        /// Whether the item has a picture from a file (a video or a still), as opposed to a fill or a gap.
        public var isMedia: Bool { spec.file != nil }
        /// Map from output pixel positions to normalized stored-picture positions: the fit's framing, without
        /// `motion` or `layer` (`layer(at:renderSize:)` gives each instant's).
        public let outputToSource: Affine2D
        /// Pan and zoom over the clip's time on screen, resolved (presets fitted to this clip); nil for none.
        public var motion: Motion? = nil
        /// A text item's (or caption cue's) shaped text: its picture's size (`source.codedSize`), raster scale and
        /// anchor; nil for other items.
        public var text: (any TextBlock)? = nil
        /// The caption cue this placement shows (`Edit.captions`), nil for the edit's own items.
        public var cue: CaptionCue? = nil
        /// The map at timeline time `t` with `motion` (without `layer`): the fit's, moved by `motion`'s window at
        /// `(t − start) / duration`.
        public func outputToSource(at t: MediaTime, renderSize: PixelSize, fit: FitMode) -> Affine2D {
            guard let m = motion else { return outputToSource }
            let w = m.window(at: MediaTime.ratio(t - start, duration))
            return LayerGeometry.outputToSource(codedSize: source.codedSize, sar: source.sampleAspectRatio, orientation: source.orientation,
                                                renderSize: renderSize, fit: fit, window: w)
        }
        /// The item's geometry at timeline time `t`: fit, `motion`'s window and `layer` (its keyframes at `t − start`);
        /// nil when it draws nothing then (scale 0, a crop that removes everything). The picture is fitted by its own
        /// size and SAR: `picture` where the decoder gave a picture other than the probed one (a stream that changes
        /// size), else the source's. The one geometry both renderers draw (`LayerGeometry.place`).
        public func layer(at t: MediaTime, renderSize: PixelSize, picture: PictureFormat? = nil) -> LayerPlacement? {
            var window = motion.map { $0.window(at: MediaTime.ratio(t - start, duration)) } ?? .fit
            var transform = spec.layer.transform(at: t - start)
            if let block = text { (window, transform) = Timeline.textGeometry(block, transform, renderSize: renderSize) }
            if spec.shape != nil {
                (window, transform) = Timeline.nativeGeometry(pictureSize: source.codedSize, anchorX: 0.5, anchorY: 0.5,
                                                              rasterScale: Timeline.shapeScale(spec, renderSize: renderSize), transform, renderSize: renderSize)
            }
            return LayerGeometry.place(codedSize: picture?.size ?? source.codedSize, sar: picture?.sampleAspectRatio ?? source.sampleAspectRatio,
                                       orientation: source.orientation, renderSize: renderSize, fit: fit, window: window, transform: transform)
        }

        /// Whether a decoded picture of `format` differs from what the source was probed with (size or SAR), so that the
        /// planner must fit it by its own (`Timeline.plan(frame:pictures:)`).
        public func differs(_ format: PictureFormat) -> Bool {
            format.size != source.codedSize || abs(format.sampleAspectRatio - source.sampleAspectRatio) > 1e-9
        }
    }

    /// Every item of every video track, track by track (bottom first), each in its track's order.
    public let placements: [Placement]
    /// Every item of every audio track, likewise.
    public let audioPlacements: [Placement]
    /// The indices into `placements` of each video track's items.
    public let tracks: [[Int]]
    /// The indices into `audioPlacements` of each audio track's items, and whether the music ducks under it.
    public let audioTracks: [(items: [Int], duck: Bool)]
    public let renderSize: PixelSize
    /// Why the render size is what it is, in words (`defaultRenderSize`'s reason, or "given …"); `plan` shows it.
    public let renderSizeReason: String
    public let frameRate: FrameRate
    public let fit: FitMode
    /// The edit's `fitBackground` (an item's own comes first).
    public let fitBackground: FitBackground?
    public let output: OutputSettings
    /// The delivery preset the edit asked for (`Edit.delivery`), already applied to the settings; for `plan`.
    public let delivery: DeliveryPreset?
    public let music: MusicSpec?
    public let audio: AudioSettings
    /// The end of the longest track, video or audio.
    public let duration: MediaTime
    /// `round(duration × frameRate)`.
    public let frameCount: Int64
    /// The edit's background colour (`Edit.background`), carried by every `FramePlan`.
    public let background: RGBColour
    /// The edit's markers (`Edit.markers`), listed by `segue plan`.
    public let markers: [EditMarker]
    /// The timecode of the first frame (`Edit.globalStartTime`), shown by `segue plan`; the output starts at 0.
    public let globalStartTime: MediaTime?
    /// The `.cube` tables the items' `lut` effects name, read once, by path.
    public let luts: [String: CubeLUT]
    /// The rate the source counts timecode frames in (`Edit.timecodeRate`).
    public let timecodeRate: FrameRate?
    /// The input policy the edit was resolved under (`InputPolicy.applied(to:)`): every file the render opens later
    /// (a clip's decoder, the music, image parameters) is opened under it too.
    public var inputPolicy = InputPolicy.default
    /// Whether the output keeps alpha (`Edit.transparentBackground`), carried by every `FramePlan`.
    public let keepsAlpha: Bool
    /// The largest default render size along either axis: 16384 pixels, what libx264 takes (and the edit file's
    /// `renderSize` allows). A larger default (a 16400-pixel panorama) is scaled down to fit, keeping its aspect ratio.
    public static let maxRenderSide = 16384
    /// Human-readable notes on derived values (for `--verbose`).
    public let notes: [String]
    /// Things in the edit that are allowed but probably not meant (always shown): e.g. a music ramp wholly outside
    /// the edit, which then only sets the gain it ends at; a font not found (naming the family and the font used).
    public let warnings: [String]
    /// The caption file as read (`Edit.captions`), nil without captions. SRT and WebVTT cues are placements of the
    /// caption tracks (`captionTracks`); an ASS file is one placement drawn by libass over the whole edit.
    public let captions: CaptionFile?
    /// The indices into `tracks` of the caption tracks (above every track of the edit; overlapping cues take more
    /// than one).
    public let captionTracks: Range<Int>

    /// An item of the edit with its field name (`clips[2]` in an edit of one track, `tracks[1].clips[0]`,
    /// `audioTracks[0].clips[1]`).
    public struct ItemReference: Sendable {
        public let field: String
        /// How messages name it: "clip 2" in an edit of one track, else its field.
        public let label: String
        public let spec: ClipSpec
        /// On an audio track.
        public let audio: Bool
        public let track: Int, item: Int
    }

    /// Every item of `edit` with its field name: the video tracks' (bottom first), then the audio tracks'.
    public static func items(of edit: Edit) -> [ItemReference] {
        let single = edit.tracks.count == 1 && edit.audioTracks.isEmpty
        var out: [ItemReference] = []
        for (k, track) in edit.tracks.enumerated() {
            for (i, c) in track.clips.enumerated() {
                out.append(ItemReference(field: single ? "clips[\(i)]" : "tracks[\(k)].clips[\(i)]", label: single ? "clip \(i)" : "tracks[\(k)].clips[\(i)]",
                                         spec: c, audio: false, track: k, item: i))
            }
        }
        for (k, track) in edit.audioTracks.enumerated() {
            for (i, c) in track.clips.enumerated() {
                out.append(ItemReference(field: "audioTracks[\(k)].clips[\(i)]", label: "audioTracks[\(k)].clips[\(i)]", spec: c, audio: true, track: k, item: i))
            }
        }
        return out
    }

    /// The items whose media must be probed, in the order `init(edit:sources:)` takes their `SourceInfo`s: every item
    /// with a file (`ClipSpec.file`), as `items(of:)` lists them. For an edit of one track of clips, `edit.clips`.
    public static func mediaItems(of edit: Edit) -> [ItemReference] { items(of: edit).filter { $0.spec.file != nil } }

    /// Resolves `edit` with `sources[i]` describing `mediaItems(of: edit)[i]`, its text items and captions shaped and
    /// read by `text` (the text module's `TextEngine`; needed when the edit has text or captions).
    /// - Throws: `EditError` for a start beyond a clip's end, a duration past it, a transition longer than the
    ///   item before or after it, transitions that overlap each other inside one item, an item whose `at` falls
    ///   before the item before it ends (naming both), an edit of nothing but fills, gaps and text without a render
    ///   size, a caption file that does not parse (its line), text without a `text` service.
    public init(edit: Edit, sources: [SourceInfo], text: TextServices? = nil) throws {
        var all = Timeline.items(of: edit)
        let media = all.filter { $0.spec.file != nil }
        precondition(media.count == sources.count, "one SourceInfo per media item")
        if edit.tracks.isEmpty || edit.tracks.contains(where: \.clips.isEmpty) {
            throw EditError(edit.tracks.isEmpty ? "tracks" : "tracks[\(edit.tracks.firstIndex(where: \.clips.isEmpty)!)].clips", "needs at least one clip")
        }
        if let ref = all.first(where: { !$0.audio && $0.track == 0 && $0.spec.matte != nil }) {
            throw EditError("\(ref.field).matte", "a track matte masks the track directly below it, and the bottom track has none: put the matte item on the track above the one it masks")
        }
        var notes: [String] = []
        var sourceOf: [Int: SourceInfo] = [:]   // by position in `all`
        var k = 0
        for (n, ref) in all.enumerated() where ref.spec.file != nil { sourceOf[n] = sources[k]; k += 1 }

        // The bottom track is the edit's main sequence: its clips decide the size and the rate (overlays above never
        // change them), or every track's when it has no media.
        let pictured = all.indices.filter { !all[$0].audio && sourceOf[$0] != nil }
        let main = pictured.filter { all[$0].track == 0 }
        let deciding = main.isEmpty ? pictured : main
        let which = main.isEmpty || edit.tracks.count == 1 ? "" : " of the bottom track"
        let (rate, rateNote) = Timeline.frameRate(edit, deciding: deciding.map { (all[$0], sourceOf[$0]!) }, which: which)
        let (size, sizeReason) = try Timeline.renderSize(edit, deciding: deciding.map { (all[$0], sourceOf[$0]!) }, rate: rate, which: which)
        if edit.renderSize == nil { notes.append("render size \(size): \(sizeReason)") }
        if let rateNote { notes.append(rateNote) }
        // Transitions read from OpenTimelineIO: shortened where the media lacks the handles they use.
        let fitted = Timeline.fitHandles(all, sourceOf: sourceOf, rate: rate)
        all = fitted.items

        // Text items are shaped now, for this render size (their pictures are made once, when first shown).
        var warnings: [String] = edit.warnings + fitted.warnings
        let blocks = try Timeline.shapeText(all, renderSize: size, services: text, captions: edit.captions != nil, warnings: &warnings)

        // Each item's source: its media's; a text item's or a shape's picture; for a fill or a gap a stand-in the size
        // of the render frame.
        var stand = SourceInfo(codedSize: size, nominalFrameRate: nil, duration: .zero, hasAudio: false)
        stand.isStill = true
        func source(_ n: Int) -> SourceInfo {
            if let shape = all[n].spec.shape { return Timeline.pictureSource(shape.pictureSize(scale: Timeline.shapeScale(all[n].spec, renderSize: size))) }
            return sourceOf[n] ?? blocks[n].map { Timeline.textSource($0) } ?? stand
        }

        // Durations, then each track's layout.
        let timings = try all.indices.map { try Timeline.timing(all[$0], source($0), rate: rate) }
        var durations = timings.map(\.timeline)
        let starts = try Timeline.layOutTracks(&all, edit: edit, sources: all.indices.map(source), durations: &durations, rate: rate,
                                               warnings: &warnings)
        Timeline.lastUntilEditEnd(all, sources: all.indices.map { sourceOf[$0] }, starts: starts, durations: &durations)
        warnings += Timeline.lengtheningWarnings(all, starts: starts, durations: durations, rate: rate)

        // Placements.
        func place(_ n: Int, index: Int) -> Placement {
            Timeline.placement(all[n], index: index, source: source(n), edit: edit, renderSize: size, start: starts[n], duration: durations[n],
                               timing: timings[n], text: blocks[n])
        }
        let videoOrder = all.indices.filter { !all[$0].audio }, audioOrder = all.indices.filter { all[$0].audio }
        let video = videoOrder.enumerated().map { place($0.element, index: $0.offset) }
        let sound = audioOrder.enumerated().map { place($0.element, index: $0.offset) }
        let editEnd = (video + sound).map(\.end).max() ?? .zero
        let withCaptions = try Timeline.addingCaptions(edit, to: video, services: text, renderSize: size, editEnd: editEnd, warnings: &warnings)
        captions = withCaptions.file
        captionTracks = withCaptions.captionTracks
        placements = withCaptions.placements
        luts = try Timeline.readLUTs(edit)
        audioPlacements = sound
        tracks = withCaptions.tracks
        audioTracks = edit.audioTracks.enumerated().map { k, t in (sound.indices.filter { sound[$0].track == k }, t.duck) }
        self.renderSize = size
        self.renderSizeReason = sizeReason
        self.frameRate = rate
        self.fit = edit.fit
        self.fitBackground = edit.fitBackground
        self.output = edit.output
        self.delivery = edit.delivery
        self.music = edit.music
        self.audio = edit.audio
        self.background = edit.background
        self.markers = edit.markers
        self.globalStartTime = edit.globalStartTime
        self.timecodeRate = edit.timecodeRate
        self.keepsAlpha = edit.transparentBackground
        self.duration = editEnd
        self.frameCount = duration.rounded(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator))
        if frameCount < 1 {
            throw EditError(edit.tracks.count == 1 && edit.audioTracks.isEmpty ? "clips" : "tracks",
                            "the edit lasts \(fmt(duration)) s, less than one frame at \(rate) fps")
        }
        try Timeline.checkTransitionsLastAFrame(all, rate: rate)
        notes += Timeline.describe(placements, audio: audioPlacements, edit: edit, all: all, outputColour: Timeline.outputColour(edit.output))
        self.notes = notes
        self.warnings = warnings + Timeline.musicRampWarnings(music, duration: duration)
    }

    /// The video placements with the edit's captions (if any) above every track, over the edit's time (they never
    /// make it longer): the placements, each track's placement indices (the edit's tracks, then the captions'), the
    /// caption file and the range of `tracks` that are caption tracks.
    /// - Throws: `EditError` for a caption file that does not parse.
    static func addingCaptions(_ edit: Edit, to video: [Placement], services: TextServices?, renderSize: PixelSize, editEnd: MediaTime,
                               warnings: inout [String]) throws -> (placements: [Placement], tracks: [[Int]], file: CaptionFile?, captionTracks: Range<Int>) {
        var trackList = edit.tracks.indices.map { k in video.indices.filter { video[$0].track == k } }
        guard let spec = edit.captions, let services else { return (video, trackList, nil, trackList.count..<trackList.count) }
        let c = try Timeline.captionPlacements(spec, services: services, renderSize: renderSize, editEnd: editEnd, firstIndex: video.count,
                                               firstTrack: edit.tracks.count, warnings: &warnings)
        let captionTracks = trackList.count..<(trackList.count + c.tracks.count)
        trackList += c.tracks
        return (video + c.placements, trackList, c.file, captionTracks)
    }

    /// The edit's frame rate and why (nil: given): the edit's, else the highest standard rate the deciding clips ask
    /// for (`SourceInfo.defaultFrameRate`), else the timeline's own (OTIO), else 30.
    static func frameRate(_ edit: Edit, deciding: [(ItemReference, SourceInfo)], which: String) -> (FrameRate, String?) {
        if let r = edit.frameRate { return (r, nil) }
        if let best = deciding.compactMap({ ref, s in s.defaultFrameRate.map { (ref, $0.rate, $0.reason) } })
            .max(by: { $0.1.framesPerSecond < $1.1.framesPerSecond }) {
            return (best.1, "frame rate \(best.1): the highest clip rate\(which), from \(best.0.label) (\(Timeline.name(best.0.spec))): \(best.2)")
        }
        if let r = edit.fallbackFrameRate { return (r, "frame rate \(r): no clip reports a frame rate; the timeline's own rate") }
        return (FrameRate(30), "frame rate 30: no clip reports a frame rate")
    }

    /// The render size and why: the edit's, else decided by the deciding clips (`defaultRenderSize`), each clip's time on
    /// the timeline weighing its orientation (an item whose timing is wrong throws later, with its field; it weighs
    /// nothing here).
    /// - Throws: `EditError` for an edit without pictures and without a size, or an odd width or height.
    static func renderSize(_ edit: Edit, deciding: [(ItemReference, SourceInfo)], rate: FrameRate, which: String) throws -> (PixelSize, String) {
        let size: PixelSize, reason: String
        if let rs = edit.renderSize {
            (size, reason) = (rs, edit.delivery.map { $0.size == rs } == true ? "the delivery preset \(edit.delivery!.name)'s" : "given (renderSize or --size)")
        } else if deciding.isEmpty {
            throw EditError("renderSize", "is required for an edit without video or picture clips (only fills, gaps, text, or missing media drawn as slates): "
                            + "give --size WxH (e.g. --size 1920x1080), or {\"width\": 1920, \"height\": 1080} in an edit file")
        } else {
            let clips = deciding.map { ref, s in (size: s.displaySize, time: (try? Timeline.timing(ref, s, rate: rate))?.timeline ?? .zero) }
            let decided = Timeline.defaultRenderSize(clips, square: edit.square, which: which)
            (size, reason) = (decided.size, decided.reason)
        }
        if size.width % 2 != 0 || size.height % 2 != 0 {
            // (A default is always even.)
            throw EditError("renderSize", "width and height must be even for 4:2:0 output (got \(size))")
        }
        return (size, reason)
    }

    /// Each track laid out (`layOut`), video tracks then audio tracks: the items' starts, and their durations as laid
    /// out; with `edit.fitTransitions`, transitions longer than their items allow shortened first (`warnings` say so).
    /// - Throws: what `layOut` throws.
    static func layOutTracks(_ all: inout [ItemReference], edit: Edit, sources: [SourceInfo], durations: inout [MediaTime], rate: FrameRate,
                             warnings: inout [String]) throws -> [MediaTime] {
        let items = all
        let groups = edit.tracks.indices.map { k in items.indices.filter { !items[$0].audio && items[$0].track == k } }
            + edit.audioTracks.indices.map { k in items.indices.filter { items[$0].audio && items[$0].track == k } }
        var starts = [MediaTime](repeating: .zero, count: all.count)
        if edit.fitTransitions { warnings += Timeline.fitTransitions(&all, groups: groups, durations: durations, rate: rate) }
        for members in groups {
            let laid = try Timeline.layOut(members.map { all[$0] }, sources: members.map { sources[$0] }, durations: members.map { durations[$0] }, rate: rate)
            for (j, n) in members.enumerated() { starts[n] = laid.starts[j]; durations[n] = laid.durations[j] }
        }
        return starts
    }

    /// Transitions longer than their items allow shortened (or made cuts) in `all`, track by track (`groups`: each
    /// track's items), before the layout checks them; the warnings that say so.
    static func fitTransitions(_ all: inout [ItemReference], groups: [[Int]], durations: [MediaTime], rate: FrameRate) -> [String] {
        var warnings: [String] = []
        for members in groups {
            let fitted = Timeline.fitTransitions(members.map { all[$0] }, durations: members.map { durations[$0] }, rate: rate)
            for (j, n) in members.enumerated() where fitted.transitions[j] != all[n].spec.transition {
                var spec = all[n].spec
                spec.transition = fitted.transitions[j]
                all[n] = ItemReference(field: all[n].field, label: all[n].label, spec: spec, audio: all[n].audio, track: all[n].track, item: all[n].item)
            }
            warnings += fitted.warnings
        }
        return warnings
    }

    /// Items that last until the edit's end (`"duration": "edit"`, `--overlay`): the end the other items make, no
    /// further than a clip's media lasts unless it loops (`sources`: each item's media, nil for fills, gaps and text).
    static func lastUntilEditEnd(_ all: [ItemReference], sources: [SourceInfo?], starts: [MediaTime], durations: inout [MediaTime]) {
        let lasting = all.indices.filter { all[$0].spec.lastsUntilEditEnd }
        guard !lasting.isEmpty else { return }
        let others = all.indices.filter { !all[$0].spec.lastsUntilEditEnd }
        let end = others.map { starts[$0] + durations[$0] }.max() ?? .zero
        for n in lasting {
            var d = MediaTime.zero < end - starts[n] ? end - starts[n] : .zero
            if let s = sources[n], !s.isStill, !all[n].spec.loop, s.duration - all[n].spec.start < d { d = s.duration - all[n].spec.start }
            durations[n] = d
        }
    }

    /// An item placed on the timeline: its fit (text native, fills and gaps fitted, clips as the edit says), the
    /// edit's blending for its transition, its output → source map (identity for audio), its source range and time
    /// map, its motion and its shaped text.
    static func placement(_ ref: ItemReference, index: Int, source src: SourceInfo, edit: Edit, renderSize size: PixelSize, start: MediaTime,
                          duration: MediaTime, timing: (timeline: MediaTime, source: MediaTime, map: TimeMap), text: (any TextBlock)?) -> Placement {
        let fit: FitMode = ref.spec.text != nil || ref.spec.shape != nil ? .native : ref.spec.file == nil ? .fit : edit.fit
        var spec = ref.spec
        if spec.transition != nil, spec.transition?.blend == nil { spec.transition?.blend = edit.blending }
        // Audio items have no picture (an audio-only file's size is 0×0).
        let m = ref.audio ? Affine2D.identity
            : LayerGeometry.outputToSource(codedSize: src.codedSize, sar: src.sampleAspectRatio, orientation: src.orientation,
                                           renderSize: size, fit: fit)
        var p = Placement(index: index, track: ref.track, item: ref.item, spec: spec, source: src,
                          sourceStart: ref.spec.file == nil ? .zero : ref.spec.freeze ?? ref.spec.start, duration: duration, start: start,
                          fit: fit, outputToSource: m)
        p.sourceDuration = spec.lastsUntilEditEnd ? duration : timing.source
        p.timeMap = timing.map
        switch ref.audio ? nil : spec.motion {
        case .windows(let motion)?: p.motion = motion
        case .preset(let preset, let easing)?:
            let crop = spec.layer.transform(at: .zero).crop
            p.motion = preset.motion(visible: LayerGeometry.visibleFraction(codedSize: src.codedSize, sar: src.sampleAspectRatio,
                                                                            orientation: src.orientation, renderSize: size, fit: fit, crop: crop),
                                     easing: easing)
        case nil: break
        }
        p.text = text
        return p
    }

    /// - Throws: `EditError` for a transition shorter than one frame (less than a microsecond short counts as one: the
    ///   precision of seconds in an edit file, where 1/30 s is written 0.0333… and read as 33 333 µs).
    static func checkTransitionsLastAFrame(_ all: [ItemReference], rate: FrameRate) throws {
        for ref in all {
            if let t = ref.spec.transition, MediaTime.secondsPrecision < rate.frameDuration - t.duration {
                throw EditError("\(ref.field).transition.duration", "\(fmt(t.duration)) s is shorter than one frame (\(fmt(rate.frameDuration)) s at \(rate) fps); leave the transition out for a cut")
            }
        }
    }

    /// A warning for each music ramp wholly outside the edit (0…`duration`): it only sets the gain it ends at.
    static func musicRampWarnings(_ music: MusicSpec?, duration: MediaTime) -> [String] {
        (music?.ramps ?? []).enumerated().compactMap { k, r in
            let start = r.start < .zero ? duration + r.start : r.start
            guard !(start < duration) || !(MediaTime.zero < start + r.duration) else { return nil }
            return "music.ramps[\(k)] (\(fmt(start))–\(fmt(start + r.duration)) s on the timeline) lies wholly outside the edit (0–\(fmt(duration)) s): it only sets the gain it ends at"
        }
    }

    /// The warnings for items of an upper video track that end after the rest of the edit (the bottom track and the
    /// audio tracks) by a frame or more: each makes the edit longer by itself (a logo given 30 s over a 10 s edit), which
    /// `"duration": "edit"` would not (a gap: being shorter, or not there). Items that last until the edit's end are not
    /// counted, nor an interchange timeline's (an OTIO file's length is its longest track's, by design).
    static func lengtheningWarnings(_ all: [ItemReference], starts: [MediaTime], durations: [MediaTime], rate: FrameRate) -> [String] {
        func frames(_ t: MediaTime) -> Int64 { t.rounded(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator)) }
        let counted = all.indices.filter { !all[$0].spec.lastsUntilEditEnd }
        let upper = counted.filter { !all[$0].audio && all[$0].track > 0 && !all[$0].spec.interchange }
        let rest = counted.filter { all[$0].audio || all[$0].track == 0 }.map { starts[$0] + durations[$0] }.max() ?? .zero
        guard !upper.isEmpty else { return [] }
        return upper.filter { frames(starts[$0] + durations[$0]) > frames(rest) }.map { n in
            let ref = all[n], end = starts[n] + durations[n]
            return "\(ref.label) (\(Timeline.name(ref.spec))) on an upper track ends at \(fmt(end)) s, after the bottom track"
                + " and the audio tracks (\(fmt(rest)) s): it makes the edit longer; "
                + (ref.spec.content == .gap ? "a gap that ends by then, or none, would not"
                   : "\"duration\": \"edit\" would end it with the edit" + (ref.spec.text == nil ? "" : " (a --title: give its seconds, \"TEXT\":SECONDS)"))
        }
    }

    /// The file name of an item's media, "fill #rrggbb" or "gap".
    static func name(_ spec: ClipSpec) -> String {
        switch spec.content {
        case .file(let p): return p.split(separator: "/").last.map(String.init) ?? p
        case .fill(let c): return "fill \(c)"
        case .gap: return "gap"
        case .text(let t): return "text \"\(Timeline.excerpt(t.text))\""
        case .shape(let s): return "shape \(s.kind.rawValue)"
        case .subtitles(let p): return p.split(separator: "/").last.map(String.init) ?? p
        }
    }

    /// How an item is timed before its track is laid out: its length on the timeline, the range of its source it
    /// uses (seconds), and how the one follows the other (`TimeMap`). `lastsUntilEditEnd` items are settled after.
    /// - Throws: `EditError` for a start at or past a clip's end, a duration past it, a start on a still or a fill,
    ///   an audio stream the file does not have, a speed, `reverse` or `freeze` on something without time (a still,
    ///   a fill, a gap), a freeze outside the clip, a `capture` speed outside 1/32…32.
    static func timing(_ ref: ItemReference, _ src: SourceInfo, rate: FrameRate) throws -> (timeline: MediaTime, source: MediaTime, map: TimeMap) {
        let spec = ref.spec, f = ref.field
        let name = "\(f) (\(Timeline.name(spec)))"
        if spec.effects.contains(where: \.changesTime) && (spec.file == nil || src.isStill) {
            let what = spec.freeze != nil ? "freeze" : spec.reverse ? "reverse" : "speed"
            throw EditError("\(f).\(what)", "\(name) has no time to \(what == "speed" ? "play faster or slower" : what == "reverse" ? "play backwards" : "freeze"): only a video (or audio) clip has")
        }
        switch spec.content {
        case .gap:
            let d = spec.duration ?? .zero
            return (d, d, .identity)
        case .fill, .text, .shape:
            let d = spec.duration ?? SourceInfo.defaultStillDuration
            return (d, d, .identity)
        case .subtitles:
            let d = spec.duration ?? .zero
            return (d, d, .identity)
        case .file:
            if spec.loop { try checkLoop(spec, src, field: f, name: name) }
            if let n = spec.audioTrack, n >= src.audioTrackCount {
                throw EditError("\(f).audioTrack", src.audioTrackCount == 0
                    ? "\(name) has no audio stream (got \(n))"
                    : "\(name) has \(src.audioTrackCount) audio stream\(src.audioTrackCount == 1 ? "" : "s"): audioTrack must be 0…\(src.audioTrackCount - 1) (got \(n))")
            }
            if src.isStill {
                // A still shows one picture for as long as the edit says: there is no source time to start from.
                if MediaTime.zero < spec.start, !spec.interchange {
                    throw EditError("\(f).start", "\(name) is a still picture: it has no time to start from; leave start out and give its duration (default \(fmt(SourceInfo.defaultStillDuration)) s)")
                }
                let d = spec.duration ?? SourceInfo.defaultStillDuration
                return (d, d, .identity)
            }
            if let at = spec.freeze {
                // One frame of the clip, held: `duration` is how long (required by the edit file).
                if !(at < src.duration) {
                    throw EditError("\(f).freeze", "\(name): \(fmt(at)) s is at or beyond the clip's end (\(fmt(src.duration)) s)")
                }
                let d = spec.duration ?? SourceInfo.defaultStillDuration
                return (d, .zero, try timeMap(spec, source: src, rate: rate, field: f, name: name))
            }
            if !(spec.start < src.duration) {
                throw EditError("\(f).start", "\(name): start \(fmt(spec.start)) s is at or beyond the clip's end (\(fmt(src.duration)) s)")
            }
            let avail = src.duration - spec.start
            let d = spec.duration ?? avail
            // An interchange timeline's range may end where its media does, by the media's own clock (OTIO's 150
            // frames at 24 fps) while the container's rounding makes the file a millisecond shorter.
            let slack = spec.interchange ? src.timestampTolerance : .zero
            if avail + slack < d, !spec.lastsUntilEditEnd, !spec.loop {
                throw EditError("\(f).duration", "\(name): start \(fmt(spec.start)) s + duration \(fmt(d)) s runs past the clip's end (\(fmt(src.duration)) s)")
            }
            let map = try timeMap(spec, source: src, rate: rate, field: f, name: name)
            return (map.timelineDuration(source: d), d, map)
        }
    }

    /// The time map of an item's effects (`ClipSpec.effects`, in their order; the one place the list becomes a map): a
    /// freeze holds one frame; a speed is a constant factor (exact: its decimal as a rational), a ramp, or `capture`,
    /// the edit's rate over the rate the file's frames are stamped at; `reverse` reads the same map backwards
    /// (`Placement.sourceTime`). Throws `EditError` naming `f.speed`: `capture` of a file without a rate, or outside
    /// 1/32…32.
    static func timeMap(_ spec: ClipSpec, source src: SourceInfo, rate: FrameRate, field f: String, name: String) throws -> TimeMap {
        var map = TimeMap.identity
        for effect in spec.effects {
            switch effect {
            case .freeze: return .frozen()
            case .reverse, .colour, .lut, .chromaKey, .vignette, .blur, .sharpen: continue
            case .speed(let e):
                switch e.speed {
                case .constant(let s): map = s == 1 ? .identity : TimeMap(speed: s)
                case .ramp(let keys): map = TimeMap(ramp: keys)
                case .capture:
                    // Every frame the file holds, once: the edit's rate over the rate its frames are stamped at (a 240
                    // fps recording stamped in real time: 30/240; one the phone already slowed to 30 fps, whatever its
                    // com.android.capture.fps says: 30/30).
                    guard let capture = src.streamRate else {
                        throw EditError("\(f).speed", "\(name) says no frame rate: give the speed as a number")
                    }
                    let num = Int64(rate.numerator) * Int64(capture.denominator), den = Int64(rate.denominator) * Int64(capture.numerator)
                    let s = Double(num) / Double(den)
                    guard EditFile.speedRange.contains(s) else {
                        throw EditError("\(f).speed", "\(name): the edit's \(rate) fps over the clip's \(capture) fps is a speed of \(String(format: "%g", s)), outside 1/32…32")
                    }
                    map = TimeMap(rational: num, den)
                }
            }
        }
        return map
    }

    /// Lays out one track: checks its transitions against the items they join and places each item (`at`, or after
    /// the item before it less the transition into it), moving sequential starts onto frames as `clipStarts` says.
    /// - Throws: `EditError` naming the field: a transition longer than an item it joins, transitions overlapping
    ///   inside one item, an `at` before the previous item's end (naming both), `at` together with a transition.
    static func layOut(_ items: [ItemReference], sources: [SourceInfo], durations: [MediaTime], rate: FrameRate) throws
        -> (starts: [MediaTime], durations: [MediaTime]) {
        var durations = durations
        for i in items.indices {
            guard let t = items[i].spec.transition else { continue }
            let f = items[i].field
            if items[i].spec.at != nil {
                throw EditError("\(f).at", "an item with a transition into it starts where the transition says (the item before it ends \(fmt(t.duration)) s into it): leave out at, or the transition")
            }
            if durations[i - 1] < t.duration || durations[i] < t.duration {
                throw EditError("\(f).transition.duration",
                                "the \(t.kind.rawValue) lasts \(fmt(t.duration)) s, longer than \(items[i - 1].label) (\(fmt(durations[i - 1])) s) or \(items[i].label) (\(fmt(durations[i])) s); shorten the transition")
            }
        }
        for i in items.indices {
            let into = items[i].spec.transition?.duration ?? .zero
            let out = i + 1 < items.count ? (items[i + 1].spec.transition?.duration ?? .zero) : .zero
            if durations[i] < into + out {
                throw EditError(items[i].field, "the transitions into (\(fmt(into)) s) and out of (\(fmt(out)) s) \(items[i].label) overlap: together they exceed its \(fmt(durations[i])) s")
            }
        }
        let starts = try clipStarts(items, sources: sources, durations: &durations, rate: rate)
        return (starts, durations)
    }

    /// Where each item of a track starts on the timeline (seconds): its `at`, or where the item before ends, less the
    /// transition between them. A sequential start that falls after an output frame by no more than the timestamp
    /// tolerance of the two items (`SourceInfo.timestampTolerance`, and at least the microsecond to which an edit
    /// file's seconds are read: container rounding, such as Matroska's whole milliseconds, makes a clip's length end a
    /// fraction of a millisecond past a frame, and a transition of 1/30 s is 33 333 µs) moves back onto that frame,
    /// and the item before is shortened by the same amount (`durations`), so that a cut stays a cut. Otherwise the
    /// incoming clip would be looked up just before each of its own pictures' times, and the rounding of each
    /// timestamp would decide, frame by frame, which picture shows (measured: 22 of 60 frames lost after a 29.97 fps
    /// clip remuxed from Matroska to MPEG-TS). Starts further from a frame, and `at` starts, are kept as they are, as
    /// AVFoundation keeps a composition's time ranges.
    /// - Throws: `EditError` for an `at` before the end of the item before it, naming both.
    static func clipStarts(_ items: [ItemReference], sources: [SourceInfo], durations: inout [MediaTime], rate: FrameRate) throws -> [MediaTime] {
        var starts: [MediaTime] = []
        for i in items.indices {
            if let at = items[i].spec.at {
                if i > 0, at < starts[i - 1] + durations[i - 1] {
                    throw EditError("\(items[i].field).at", "starts at \(fmt(at)) s, before \(items[i - 1].field) (\(name(items[i - 1].spec))) ends (\(fmt(starts[i - 1] + durations[i - 1])) s): items of a track may not overlap; put one on another track, or move it")
                }
                starts.append(at)
                continue
            }
            guard i > 0 else { starts.append(.zero); continue }
            var t = starts[i - 1] + durations[i - 1] - (items[i].spec.transition?.duration ?? .zero)
            let frame = MediaTime(frame: t.floored(toUnitsOf: Int64(rate.numerator), per: Int64(rate.denominator)), rate: rate)
            // At least the precision of seconds in an edit file (a transition of 1/30 s is 33 333 µs).
            let slack = max(sources[i - 1].timestampTolerance, sources[i].timestampTolerance, MediaTime.secondsPrecision)
            let into = items[i - 1].spec.transition?.duration ?? .zero, out = items[i].spec.transition?.duration ?? .zero
            let shortened = durations[i - 1] - (t - frame)
            if frame < t, !(slack < t - frame), !(shortened < into + out), MediaTime.zero < shortened {
                durations[i - 1] = shortened
                t = frame
            }
            starts.append(t)
        }
        return starts
    }

    /// The media files of every item (video tracks, then audio tracks), in order, each as often as it is used.
    public var mediaPaths: [String] { (placements + audioPlacements).compactMap(\.spec.file) }

    /// How the output's colours are made: `output.dynamicRange` and `output.toneMap`.
    public var outputColour: OutputColour { Timeline.outputColour(output) }
    static func outputColour(_ o: OutputSettings) -> OutputColour { OutputColour(dynamicRange: o.dynamicRange, toneMap: o.toneMap) }

    /// Time of output frame `n`: `n / frameRate`.
    public func time(ofFrame n: Int64) -> MediaTime { MediaTime(frame: n, rate: frameRate) }

    /// Output frame range `[first, end)` showing transition into placement `i` (empty when it has none).
    public func transitionFrames(into i: Int) -> Range<Int64> {
        let p = placements[i]
        guard let tr = p.spec.transition else { return 0..<0 }
        return firstFrame(atOrAfter: p.start)..<firstFrame(atOrAfter: p.start + tr.duration)
    }

    /// The first output frame `n` with `n / frameRate ≥ t`.
    public func firstFrame(atOrAfter t: MediaTime) -> Int64 {
        let f = t.floored(toUnitsOf: Int64(frameRate.numerator), per: Int64(frameRate.denominator))
        return time(ofFrame: f) < t ? f + 1 : f
    }
}

func fmt(_ t: MediaTime) -> String {
    let s = t.seconds
    return s == s.rounded() ? String(Int(s)) : String(format: "%.3f", s)
}
