import Foundation
import SegueCore
import SegueEdit
import SegueMedia
import SegueText

/// Decoders for the clips visible now: opened (and seeked to the clip's start) when a clip appears,
/// closed once the timeline has passed its end.
///
/// A file cut several times is opened once where it can be: a clip's reader, once the timeline has passed the clip,
/// is kept for a later clip of the same file (with the same colour override) and seeks there (`VideoReader.seek`:
/// back, or far ahead, to the keyframe before the cut; a cut close ahead is decoded forward), saving FFmpeg's stream
/// analysis and decoder start-up per cut (up to seven pictures decoded on one thread for an H.264 file: about
/// 0.14 s at 4K). At most `spareLimit` such readers wait at a time, those whose next clip comes soonest.
final class FrameSource {
    let timeline: Timeline
    /// The hwaccel asked for (`RenderOptions.hardwareDecoding`).
    let hardware: HardwareDecoding
    private var readers: [Int: VideoReader] = [:]
    /// Clips played backwards, by placement: their readers read one stretch at a time (`ReverseReader`).
    private var reversed: [Int: ReverseReader] = [:]
    /// Frames decoded on the GPU, and why hardware decoding asked for was not used (one line each).
    private(set) var hardwareFrames = 0
    private(set) var hardwareProblems: Set<String> = []

    /// A reader's counters when a clip took it: a reused reader's damage and frames are reported per clip.
    private struct Counts {
        var decoded = 0, hardware = 0, corrupt = 0, concealed = 0, readErrors = 0, heldPastEnd = 0
        init() {}
        init(_ r: VideoReader) {
            decoded = r.decodedFrames; hardware = r.hardwareFrames; corrupt = r.corruptPackets; concealed = r.concealedFrames
            readErrors = r.readErrors; heldPastEnd = r.heldPastEnd
        }
        static func - (a: Counts, b: Counts) -> Counts {
            var d = Counts()
            d.decoded = a.decoded - b.decoded; d.hardware = a.hardware - b.hardware; d.corrupt = a.corrupt - b.corrupt
            d.concealed = a.concealed - b.concealed; d.readErrors = a.readErrors - b.readErrors; d.heldPastEnd = a.heldPastEnd - b.heldPastEnd
            return d
        }
    }
    private var taken: [Int: Counts] = [:]
    /// Readers of clips already passed, waiting for a later clip of the same file.
    private var spare: [(path: String, colour: ColourOverride?, reader: VideoReader)] = []
    /// Whether passed clips' readers are kept for later clips of the same file (off only to compare).
    var reusesReaders = true
    /// The most readers kept waiting at once (each holds a decoder and its frames).
    var spareLimit = 2
    /// Files opened for pictures, and clips whose reader was one already open (`--verbose`).
    private(set) var opens = 0
    private(set) var reuses = 0

    /// Frames decoded by readers already closed.
    private var closedDecoded = 0
    /// All frames decoded so far (for tests asserting that previews decode little).
    var decodedFrames: Int { closedDecoded + readers.reduce(0) { $0 + $1.value.decodedFrames - (taken[$1.key]?.decoded ?? 0) } }

    /// The renderer's largest picture side (`CompositeRenderer.maxPictureSize`); larger pictures are reduced here.
    let maxPictureSize: Int?

    init(timeline: Timeline, hardware: HardwareDecoding = .none, maxPictureSize: Int? = nil) {
        self.timeline = timeline; self.hardware = hardware; self.maxPictureSize = maxPictureSize
    }

    /// Draws output frame `n`: fetches the pictures its plan needs and hands them to `renderer`.
    func render(frame n: Int64, with renderer: CompositeRenderer) throws -> RGBAImage {
        let (plan, pictures) = try frame(n)
        return try renderer.render(plan, pictures: pictures)
    }

    /// Output frame `n`'s plan and the stored pictures it needs (one per `plan.layers`), as decoded; closes the clips
    /// the timeline has passed. Where a clip's decoder gives a picture of another size or SAR than the clip was probed
    /// with (a stream that changes size), the planner fits that picture by its own size (`Timeline.plan(frame:pictures:)`);
    /// the first change in each clip is noted (`sizeChanges`).
    func frame(_ n: Int64) throws -> (plan: FramePlan, pictures: [VideoPicture]) {
        var plan = timeline.plan(frame: n)
        var formats: [Int: PictureFormat] = [:]
        // (A reversed clip is read backwards by its ReverseReader, which a seek here would undo: fitted as probed.)
        for layer in plan.layers where layer.content == .media && !layer.reversed {
            let r = try reader(layer.clipIndex)
            try r.seek(to: layer.sourceTime)
            let f = try r.pictureFormat(at: layer.sourceTime)
            let format = PictureFormat(size: f.size, sampleAspectRatio: f.sampleAspectRatio)
            let p = timeline.placements[layer.clipIndex]
            if p.differs(format) { formats[layer.clipIndex] = format }
            noteSize(format, of: p, at: layer.sourceTime)
        }
        if !formats.isEmpty { plan = timeline.plan(frame: n, pictures: formats) }
        let pictures = try plan.layers.map { try picture($0, format: formats[$0.clipIndex]) }
        release(before: plan.time)
        return (plan, pictures)
    }

    /// Where a clip's pictures changed size or SAR (first change per clip, and each later one), for `--verbose`.
    private(set) var sizeChanges: [String] = []
    /// The format of each clip's last picture.
    private var lastFormat: [Int: PictureFormat] = [:]

    private func noteSize(_ format: PictureFormat, of p: Timeline.Placement, at sourceTime: MediaTime) {
        let before = lastFormat[p.index] ?? PictureFormat(size: p.source.codedSize, sampleAspectRatio: p.source.sampleAspectRatio)
        lastFormat[p.index] = format
        guard before != format else { return }
        let name = p.spec.path.split(separator: "/").last.map(String.init) ?? ""
        sizeChanges.append(String(format: "clip %d (%@): the picture changes from %@ to %@ at %.3f s of the source; each picture is fitted by its own size",
                                  p.index, name, before.description, format.description, sourceTime.seconds))
    }

    /// The reader of placement `i`: opened when first needed, or the reader of an earlier cut of the same file kept for
    /// it (`keepForLater`), which the seek to the layer's source time positions.
    private func reader(_ i: Int) throws -> VideoReader {
        if let existing = readers[i] { return existing }
        let p = timeline.placements[i]
        let r: VideoReader
        var reused = false
        if let k = spare.firstIndex(where: { $0.path == p.spec.path && $0.colour == p.spec.colour && p.spec.imageSequence == nil }) {
            r = spare.remove(at: k).reader
            reuses += 1
            reused = true
        } else {
            r = try VideoReader(path: p.spec.path, colourOverride: p.spec.colour, hardware: hardware, decoderThreads: FrameSource.decoderThreads,
                               sequence: p.spec.imageSequence, policy: timeline.inputPolicy)
            opens += 1
            if let why = r.hardwareProblem { hardwareProblems.insert(why) }
        }
        readers[i] = r
        // What a reused reader had counted for earlier cuts is not this clip's (a fresh one's first picture is).
        taken[i] = reused ? Counts(r) : Counts()
        return r
    }

    /// libavcodec's thread count for the clips' decoders: one on machines of up to four cores, where the encoder keeps
    /// every core busy and a frame-threaded decoder only adds a copy of its state and pictures per thread (about 25 MB
    /// a 1080p H.264 decoder, two of them open during a transition) without finishing sooner; libavcodec's own choice
    /// on bigger machines, where decoding 4K on one core could fall behind.
    static let decoderThreads: Int32 = ProcessInfo.processInfo.activeProcessorCount <= 4 ? 1 : 0

    /// The machine's side of each frame's strategy (`FrameStrategy.decide`), decided here, on the decode thread, where
    /// the pictures it turns upright are turned; nil (previews): no strategy, the renderer draws each frame as planned.
    var machine: RenderMachine?
    /// One turner per layer of a pass (a transition's two layers may turn differently; each keeps its graph).
    private let turners = [PictureTurner(), PictureTurner()]
    /// The last picture turned for each placement: the stored picture's identity and the turned one.
    private var turnedPictures: [Int: (stored: UInt64, turned: VideoPicture)] = [:]

    /// The plan and pictures for output frame `n` (`frame(_:)`) and, with `machine`, its strategy: the pictures it
    /// turns upright (`FrameStrategy.turns`) replaced by the turned ones, the plan changed to match
    /// (`DirectFrame.uprighted`: the same output). Throws `MediaError`.
    func framePictures(_ n: Int64) throws -> (plan: FramePlan, pictures: [VideoPicture], strategy: FrameStrategy?) {
        var (plan, pictures) = try frame(n)
        guard let machine else { return (plan, pictures, nil) }
        let strategy = FrameStrategy.decide(plan, pictures: pictures, machine: machine)
        let first = plan.passes[0]
        for step in strategy.turns {
            let k = step.layer
            let stored = pictures[k], clip = (k == 0 ? first.from : first.to!).clipIndex
            var held: (stored: UInt64, turned: VideoPicture)
            if stored.identity != 0, let h = turnedPictures[clip], h.stored == stored.identity {
                held = h
            } else {
                var turned = try turners[k].turned(stored, by: step.turn)
                turned.identity = VideoPicture.newIdentity()
                held = (stored.identity, turned)
            }
            plan = DirectFrame.uprighted(plan, layer: k, turn: step.turn, picture: stored)
            // Turned for a route: read exactly (as a permutation of the stored samples), with the stored chroma siting.
            pictures[k] = held.turned
            turnedPictures[clip] = held
        }
        return (plan, pictures, strategy.turned)
    }

    /// The 1×1 pictures of colour layers, made once each (one identity: the GPU uploads each once).
    private var colours: [String: VideoPicture] = [:]

    /// Text pictures by placement, each rasterised once when the item is first shown (and dropped after its end).
    private var texts: [Int: VideoPicture] = [:]
    private var rasterizer: TextRasterizer?
    /// The ASS caption file's renderer (libass), made when its first frame is drawn.
    private var subtitles: [Int: SubtitleRenderer] = [:]
    /// Text pictures made so far (tests: once per item, never per frame).
    private(set) var textPicturesMade = 0
    /// Shape pictures by placement: the last document drawn and its picture.
    private var shapes: [Int: (svg: String, picture: VideoPicture)] = [:]
    /// Shape pictures drawn so far (tests: once for a constant shape, once per change for a keyframed one).
    private(set) var shapePicturesMade = 0

    /// The picture `layer` shows: a colour's 1×1 picture, a text item's (made once), an ASS frame, or a clip's
    /// decoded picture at the layer's source time, reduced where it is shown small; `format` is the decoded
    /// picture's size and SAR where it differs from the probed one.
    func picture(_ layer: LayerPlan, format: PictureFormat? = nil) throws -> VideoPicture {
        switch layer.content {
        case .colour(let c, let alpha):
            let key = "\(c) \(alpha)"
            if let known = colours[key] { return known }
            var picture = VideoPicture.colour(c, alpha: alpha)
            picture.identity = VideoPicture.newIdentity()
            colours[key] = picture
            return picture
        case .text:
            if let animated = try animatedText(layer) { return animated }
            if let known = texts[layer.clipIndex] { return known }
            guard let layout = timeline.placements[layer.clipIndex].text as? TextLayout else {
                preconditionFailure("a text placement without the text module's layout")
            }
            if rasterizer == nil { rasterizer = try TextRasterizer() }
            let picture = try rasterizer!.picture(layout)
            texts[layer.clipIndex] = picture
            textPicturesMade += 1
            return picture
        case .shape(let svg):
            // Drawn again only when the document changes (a keyframed number moved).
            if let known = shapes[layer.clipIndex], known.svg == svg { return known.picture }
            var picture = try SVGDocument.picture(svg, name: "shape (item \(layer.clipIndex))",
                                                  policy: timeline.inputPolicy)
            picture.identity = VideoPicture.newIdentity()
            shapes[layer.clipIndex] = (svg, picture)
            shapePicturesMade += 1
            return picture
        case .subtitles:
            if subtitles[layer.clipIndex] == nil {
                guard case .subtitles(let path) = timeline.placements[layer.clipIndex].spec.content else { preconditionFailure("not a caption file") }
                subtitles[layer.clipIndex] = try SubtitleRenderer(path: path, renderSize: timeline.renderSize, frameRate: timeline.frameRate)
            }
            return try subtitles[layer.clipIndex]!.picture(at: layer.sourceTime)
        case .media:
            break
        }
        let r = try reader(layer.clipIndex)
        // Layers shown at less than half their size are reduced first with an area filter (no aliasing), and so are
        // pictures larger than the renderer takes (a 16400-pixel panorama on a GPU whose textures stop at 16384). A clip
        // that pans or zooms is reduced to power-of-two levels, so its scale can change every frame without a new
        // reduction (and, for a still, a new upload) each time.
        // An SVG document is drawn at the size it is shown instead (crisp at any scale).
        let size = r.drawnSize(layer.outputToSource, renderSize: timeline.renderSize, maxSide: maxPictureSize, levels: layer.moving)
            ?? LayerGeometry.reducedSize(layer.outputToSource, codedSize: format?.size ?? r.info.codedSize, maxSide: maxPictureSize, levels: layer.moving)
        if layer.reversed {
            let backwards = reversed[layer.clipIndex] ?? ReverseReader(reader: r)
            reversed[layer.clipIndex] = backwards
            return try backwards.picture(at: layer.sourceTime, reducedTo: size)
        }
        try r.seek(to: layer.sourceTime)
        if layer.frameBlend { return try r.blendedPicture(at: layer.sourceTime, reducedTo: size) }
        return try r.picture(at: layer.sourceTime, reducedTo: size)
    }

    /// An animated text item's picture at the layer's time (`TextAnimator`, made when the item is first shown), nil
    /// for a text that is not animated or whose units are all at rest then (its still picture shows).
    private func animatedText(_ layer: LayerPlan) throws -> VideoPicture? {
        let p = timeline.placements[layer.clipIndex]
        guard let animation = p.spec.text?.animation, let layout = p.text as? TextLayout else { return nil }
        if animators[layer.clipIndex] == nil {
            if rasterizer == nil { rasterizer = try TextRasterizer() }
            animators[layer.clipIndex] = try TextAnimator(layout: layout, animation: animation, itemDuration: p.duration, rasterizer: rasterizer!)
        }
        return animators[layer.clipIndex]!.picture(at: layer.sourceTime)
    }
    /// Animated text items' animators by placement (dropped after the item's end).
    private var animators: [Int: TextAnimator] = [:]

    func release(before t: MediaTime) {
        for (i, _) in readers where !(t < timeline.placements[i].end) { close(i) }
        for (i, _) in texts where !(t < timeline.placements[i].end) { texts[i] = nil }
        for (i, _) in shapes where !(t < timeline.placements[i].end) { shapes[i] = nil }
        for (i, _) in animators where !(t < timeline.placements[i].end) { animators[i] = nil }
        for (i, _) in subtitles where !(t < timeline.placements[i].end) { subtitles[i] = nil }
    }

    /// Damage reports of closed clips.
    private(set) var warnings: [String] = []

    private func close(_ i: Int) {
        reversed[i] = nil
        turnedPictures[i] = nil
        guard let r = readers.removeValue(forKey: i) else { return }
        let d = Counts(r) - (taken.removeValue(forKey: i) ?? Counts())
        closedDecoded += d.decoded
        hardwareFrames += d.hardware
        keepForLater(r, after: i)
        var parts: [String] = []
        if d.corrupt > 0 { parts.append("\(d.corrupt) corrupt packet(s) skipped") }
        if d.concealed > 0 { parts.append("\(d.concealed) frame(s) concealed by the decoder") }
        if (d.readErrors > 0 || d.heldPastEnd > 0) && r.endsEarly {
            parts.append("the file ends early: \(d.heldPastEnd) output frame(s) hold its last good picture")
        }
        if !parts.isEmpty {
            let name = timeline.placements[i].spec.path.split(separator: "/").last.map(String.init) ?? ""
            warnings.append("clip \(i) (\(name)): " + parts.joined(separator: "; "))
        }
    }

    /// Keeps `r` (placement `i`'s, now passed) for the next placement of the same file that has not started, if any;
    /// of the readers kept, at most `spareLimit` stay: those whose next clip starts soonest.
    private func keepForLater(_ r: VideoReader, after i: Int) {
        guard reusesReaders else { return }
        let p = timeline.placements[i]
        func next(_ path: String, _ colour: ColourOverride?) -> MediaTime? {
            timeline.placements.indices.filter { j in
                j != i && readers[j] == nil && timeline.placements[j].spec.path == path && timeline.placements[j].spec.colour == colour
                    && p.end <= timeline.placements[j].start
            }.map { timeline.placements[$0].start }.min()
        }
        // (An image sequence opens each picture by itself: nothing to keep.)
        guard p.spec.imageSequence == nil, next(p.spec.path, p.spec.colour) != nil else { return }
        spare.append((p.spec.path, p.spec.colour, r))
        // Readers whose file has no clip to come go; then the ones needed last, past the limit.
        spare = spare.filter { next($0.path, $0.colour) != nil }
        if spare.count > spareLimit {
            spare.sort { next($0.path, $0.colour)! < next($1.path, $1.colour)! }
            spare.removeLast(spare.count - spareLimit)
        }
    }

    /// Closes every reader and returns the damage reports.
    func finishAll() -> [String] {
        for i in readers.keys.sorted() { close(i) }
        spare.removeAll()
        turnedPictures.removeAll()
        turners.forEach { $0.release() }
        return warnings
    }
}
