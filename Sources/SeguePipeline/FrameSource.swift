import SegueCore
import SegueEdit
import SegueMedia
import SegueText

/// Decoders for the clips visible now: opened (and seeked to the clip's start) when a clip appears,
/// closed once the timeline has passed its end.
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

    /// Frames decoded by readers already closed.
    private var closedDecoded = 0
    /// All frames decoded so far (for tests asserting that previews decode little).
    var decodedFrames: Int { closedDecoded + readers.values.reduce(0) { $0 + $1.decodedFrames } }

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

    /// The reader of placement `i`, opened when first needed.
    private func reader(_ i: Int) throws -> VideoReader {
        if let existing = readers[i] { return existing }
        let p = timeline.placements[i]
        let r = try VideoReader(path: p.spec.path, colourOverride: p.spec.colour, hardware: hardware, sequence: p.spec.imageSequence,
                                policy: timeline.inputPolicy)
        if let why = r.hardwareProblem { hardwareProblems.insert(why) }
        readers[i] = r
        return r
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
            if let known = texts[layer.clipIndex] { return known }
            guard let layout = timeline.placements[layer.clipIndex].text as? TextLayout else {
                preconditionFailure("a text placement without the text module's layout")
            }
            if rasterizer == nil { rasterizer = try TextRasterizer() }
            let picture = try rasterizer!.picture(layout)
            texts[layer.clipIndex] = picture
            textPicturesMade += 1
            return picture
        case .subtitles:
            if subtitles[layer.clipIndex] == nil {
                guard case .subtitles(let path) = timeline.placements[layer.clipIndex].spec.content else { preconditionFailure("not a caption file") }
                subtitles[layer.clipIndex] = try SubtitleRenderer(path: path, renderSize: timeline.renderSize)
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
        let size = LayerGeometry.reducedSize(layer.outputToSource, codedSize: format?.size ?? r.info.codedSize, maxSide: maxPictureSize, levels: layer.moving)
        if layer.reversed {
            let backwards = reversed[layer.clipIndex] ?? ReverseReader(reader: r)
            reversed[layer.clipIndex] = backwards
            return try backwards.picture(at: layer.sourceTime, reducedTo: size)
        }
        try r.seek(to: layer.sourceTime)
        if layer.frameBlend { return try r.blendedPicture(at: layer.sourceTime, reducedTo: size) }
        return try r.picture(at: layer.sourceTime, reducedTo: size)
    }

    func release(before t: MediaTime) {
        for (i, _) in readers where !(t < timeline.placements[i].end) { close(i) }
        for (i, _) in texts where !(t < timeline.placements[i].end) { texts[i] = nil }
        for (i, _) in subtitles where !(t < timeline.placements[i].end) { subtitles[i] = nil }
    }

    /// Damage reports of closed clips.
    private(set) var warnings: [String] = []

    private func close(_ i: Int) {
        reversed[i] = nil
        guard let r = readers.removeValue(forKey: i) else { return }
        closedDecoded += r.decodedFrames
        hardwareFrames += r.hardwareFrames
        var parts: [String] = []
        if r.corruptPackets > 0 { parts.append("\(r.corruptPackets) corrupt packet(s) skipped") }
        if r.concealedFrames > 0 { parts.append("\(r.concealedFrames) frame(s) concealed by the decoder") }
        if r.endsEarly {
            parts.append("the file ends early: \(r.heldPastEnd) output frame(s) hold its last good picture")
        }
        if !parts.isEmpty {
            let name = timeline.placements[i].spec.path.split(separator: "/").last.map(String.init) ?? ""
            warnings.append("clip \(i) (\(name)): " + parts.joined(separator: "; "))
        }
    }

    /// Closes every reader and returns the damage reports.
    func finishAll() -> [String] {
        for i in readers.keys.sorted() { close(i) }
        return warnings
    }
}
