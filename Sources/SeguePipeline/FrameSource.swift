import SegueCore
import SegueEdit
import SegueMedia

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
        let plan = timeline.plan(frame: n)
        return try renderer.render(plan, pictures: try pictures(for: plan))
    }

    /// The stored pictures a plan needs (one per `plan.layers`), as decoded; closes the clips the timeline has passed.
    func pictures(for plan: FramePlan) throws -> [VideoPicture] {
        let pictures = try plan.layers.map { try picture($0) }
        release(before: plan.time)
        return pictures
    }

    /// Whether a first layer shown at scale 1 through a quarter turn, half turn or mirror (a phone clip's display
    /// matrix) is turned upright here, on the decode thread, when that lets its frame skip compositing
    /// (`DirectFrame.route`): `framePictures(for:)` then hands on the turned picture and the plan for it.
    var uprights = false
    private let turner = PictureTurner()
    /// The last picture turned for each placement: the stored picture's identity and the turned one.
    private var turnedPictures: [Int: (stored: UInt64, turned: VideoPicture)] = [:]
    /// Frames whose first layer was turned upright by `turner` rather than drawn.
    private(set) var uprightFrames = 0

    /// The plan and pictures for a frame: `pictures(for:)`, and with `uprights`, a first layer that a turn of its
    /// planes makes direct replaced by the turned picture, the plan changed to match (`DirectFrame.uprighted`: the
    /// same output). Throws `MediaError`.
    func framePictures(for plan: FramePlan) throws -> (plan: FramePlan, pictures: [VideoPicture]) {
        var pictures = try pictures(for: plan)
        guard uprights, let route = DirectFrame.route(plan.passes[0], picture: pictures[0], plan: plan), route.turns else { return (plan, pictures) }
        let stored = pictures[0], clip = plan.passes[0].from.clipIndex
        if stored.identity != 0, let held = turnedPictures[clip], held.stored == stored.identity {
            pictures[0] = held.turned
        } else {
            var turned = try turner.turned(stored, by: route.turn)
            turned.identity = VideoPicture.newIdentity()
            turnedPictures[clip] = (stored.identity, turned)
            pictures[0] = turned
        }
        uprightFrames += 1
        return (DirectFrame.uprighted(plan, turn: route.turn, picture: stored), pictures)
    }

    /// The 1×1 pictures of colour layers, made once each (one identity: the GPU uploads each once).
    private var colours: [String: VideoPicture] = [:]

    func picture(_ layer: LayerPlan) throws -> VideoPicture {
        if case .colour(let c, let alpha) = layer.content {
            let key = "\(c) \(alpha)"
            if let known = colours[key] { return known }
            var picture = VideoPicture.colour(c, alpha: alpha)
            picture.identity = VideoPicture.newIdentity()
            colours[key] = picture
            return picture
        }
        let r: VideoReader
        if let existing = readers[layer.clipIndex] { r = existing } else {
            let p = timeline.placements[layer.clipIndex]
            if let k = spare.firstIndex(where: { $0.path == p.spec.path && $0.colour == p.spec.colour }) {
                r = spare.remove(at: k).reader
                reuses += 1
            } else {
                r = try VideoReader(path: p.spec.path, colourOverride: p.spec.colour, hardware: hardware, policy: timeline.inputPolicy)
                opens += 1
                if let why = r.hardwareProblem { hardwareProblems.insert(why) }
            }
            readers[layer.clipIndex] = r
            taken[layer.clipIndex] = Counts(r)
        }
        // Layers shown at less than half their size are reduced first with an area filter (no aliasing), and so are
        // pictures larger than the renderer takes (a 16400-pixel panorama on a GPU whose textures stop at 16384). A clip
        // that pans or zooms is reduced to power-of-two levels, so its scale can change every frame without a new
        // reduction (and, for a still, a new upload) each time.
        let size = LayerGeometry.reducedSize(layer.outputToSource, codedSize: r.info.codedSize, maxSide: maxPictureSize, levels: layer.moving)
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
        if d.readErrors > 0 || d.heldPastEnd > 0 {
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
        guard next(p.spec.path, p.spec.colour) != nil else { return }
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
        turner.release()
        return warnings
    }
}
