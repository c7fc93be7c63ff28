import Foundation
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline

/// The content hash a chunk is cached under (`ChunkCache`): SHA-256 of everything that decides the chunk's bytes.
///
/// - the frame plans of the frames the encoder is fed: the chunk's own and the lookahead frames after it
///   (`OutputFormat.lookahead`), each as a stable text (passes, layer geometry, opacity, crop, content, transition
///   kind, parameters sorted by name, progress), and the settings of every item those frames show (text content and
///   style, colour, motion, the file it reads);
/// - the content (SHA-256 of the bytes, never the name or modification time) of every file those frames read: the
///   items' media, the transitions' shaders and images; and of the edit's caption and font files (`Timeline.textFiles`);
/// - the output settings (`ChunkPlanner.settingsDescription`: codec, encoder, crf, preset, size, rate, pixel format,
///   colour), the chunk's frame range, the edit's length, the renderer that draws the frames, and Segue's version;
/// - for a smart render (`OutputSettings.smart`), the encoder its encoded frames are matched with and the copied stream's
///   parameter sets (`SmartPlan.matchedStream`: the first copied file, which may lie outside the chunk).
///
/// Files are hashed once per `ChunkKeys` (one render, or one chunk worker).
public final class ChunkKeys {
    /// Bumped when what the key covers changes.
    public static let formatVersion = 1
    let timeline: Timeline
    let renderer: String
    private var fileHashes: [String: String] = [:]
    /// What a smart render's encoded frames are matched with, in words (read once).
    private lazy var smartMatch: String = {
        guard let plan = try? SmartPlan.make(timeline) else { return "smart: the sources' packets cannot be read" }
        guard let m = plan.matchedStream else { return "smart: nothing copied" }
        let options = m.encoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "smart: \(m.encoder) \(options) sets=\(Digest.sha256(m.parameterSets))"
    }()

    /// - Parameters:
    ///   - timeline: the resolved timeline the chunks are rendered from.
    ///   - renderer: the renderer's name (`FrameRenderer.name`): a chunk drawn by the GPU is another chunk than the CPU's.
    public init(timeline: Timeline, renderer: String) {
        self.timeline = timeline; self.renderer = renderer
    }

    /// SHA-256 of the file's content ("unreadable" when it cannot be read), computed once per path.
    func contentHash(_ path: String) -> String {
        if let h = fileHashes[path] { return h }
        let h = Digest.sha256(file: path) ?? "unreadable"
        fileHashes[path] = h
        return h
    }

    /// The key of output frames `range` (64 hex digits).
    public func key(of range: Range<Int64>) -> String { Digest.sha256(description(of: range)) }

    /// The text the key hashes (for tests and for debugging a cache miss).
    public func description(of range: Range<Int64>) -> String {
        let t = timeline
        let lookahead = t.output.format.lookahead(for: t.output)
        let fed = range.lowerBound..<min(range.upperBound + lookahead, t.frameCount)
        var lines = ["segue-chunk-cache/\(ChunkKeys.formatVersion) segue=\(SegueVersion.current)",
                     ChunkPlanner.settingsDescription(t),
                     "frames=\(range.lowerBound)..<\(range.upperBound) fed=\(fed.lowerBound)..<\(fed.upperBound) total=\(t.frameCount)",
                     "renderer=\(renderer)"] + (t.output.smart ? [smartMatch] : [])
        var items = Set<Int>(), files = Set<String>()
        for n in fed {
            let plan = t.plan(frame: n)
            lines.append("frame \(n) time=\(plan.time) size=\(plan.renderSize) colour=\(plan.colour) background=\(plan.background) alpha=\(plan.keepsAlpha)")
            for pass in plan.passes {
                lines.append("  " + ChunkKeys.stable(pass))
                pass.layers.forEach { items.insert($0.clipIndex) }
                if let tr = pass.transition { files.formUnion(ChunkKeys.files(of: tr)) }
            }
        }
        for i in items.sorted() where t.placements.indices.contains(i) {
            let p = t.placements[i]
            var spec = p.spec
            let params = ChunkKeys.sortedParameters(spec.transition)
            spec.transition?.params = [:]
            // The file by its content, not its name: a file moved, or a cache shared by nodes that mount it elsewhere, still hits.
            if case .file(let f) = spec.content { files.insert(f); spec.content = .file("sha256:" + contentHash(f)) }
            lines.append("item \(i): \(spec) \(params) text=\(p.text?.summary ?? "-")")
            if let tr = p.spec.transition { files.formUnion(ChunkKeys.files(of: tr)) }
        }
        files.formUnion(t.textFiles)
        for f in files.sorted() { lines.append("file \(contentHash(f)) \(URL(fileURLWithPath: f).pathExtension)") }
        return lines.joined(separator: "\n")
    }

    /// A pass as text that is the same in every process (a transition's parameters, a dictionary, sorted by name).
    static func stable(_ pass: CompositePass) -> String {
        var tr = pass.transition
        let params = sortedParameters(tr)
        tr?.params = [:]
        let plain = CompositePass(track: pass.track, from: pass.from, to: pass.to, transition: tr, progress: pass.progress, rect: pass.rect, matte: pass.matte)
        return "\(plain) \(params)"
    }

    static func sortedParameters(_ t: Transition?) -> String {
        (t?.params ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// The files a transition reads: its shader and its image parameters.
    static func files(of t: Transition) -> [String] {
        var out = t.shader.map { [$0.path] } ?? []
        for case .image(let path) in t.params.values { out.append(path) }
        return out
    }
}
