import Foundation
import SegueCore
import SeguePipeline
import SegueEdit
import SegueMedia

/// How a chunk render with a cache ended.
public enum CachedChunkOutcome {
    /// Copied from the cache (its key was there, verified).
    case reused(ChunkRecord)
    /// Rendered now (and stored in the cache).
    case rendered(ChunkRecord)
    /// A valid chunk was already in the chunk folder: nothing was done.
    case alreadyDone(ChunkRecord)
}

extension ChunkCache {
    /// Renders chunk `index` of `plan` into `directory` as `RenderJob.renderChunk` does, through the cache: if the cache
    /// holds a verified entry for the chunk's key (`ChunkKeys`), it is copied into place; else the chunk is rendered
    /// and stored. A damaged entry is reported through `options.log` and rendered again.
    /// - Parameters:
    ///   - keys: the keys of the plan's timeline, when the caller renders several chunks (files hashed once); nil: made here.
    ///   - renderer: the renderer `keys` were made for; nil: one is made.
    /// - Throws: what `RenderJob.renderChunk` throws; `MediaError` when the cache cannot be written.
    public func renderChunk(_ edit: Edit, plan: ChunkPlan, index: Int, directory: String, options given: RenderOptions,
                            keys: ChunkKeys? = nil, renderer made: FrameRenderer? = nil) throws -> CachedChunkOutcome {
        let options = given.adopting(edit.resolution)
        guard plan.chunks.indices.contains(index) else {
            throw UsageError("chunk \(index) is not in the plan (0…\(plan.chunks.count - 1))")
        }
        let chunk = plan.chunks[index]
        if let record = try? ChunkRender.verify(chunk, in: directory, plan: plan).get() { return .alreadyDone(record) }
        let timeline = try RenderJob.resolve(edit, policy: options.inputPolicy)
        try ChunkPlanner.check(plan, matches: timeline)
        let renderer = try made ?? RenderJob.makeRenderer(options, for: timeline)
        let keys = keys ?? ChunkKeys(timeline: timeline, renderer: renderer.name)
        let key = keys.key(of: chunk.start..<chunk.end)
        if let (entry, path) = lookup(key, warn: options.log) {
            return .reused(try restore(entry, from: path, as: chunk, plan: plan, in: directory))
        }
        switch try RenderJob.renderChunk(edit, plan: plan, index: index, directory: directory, options: options, renderer: renderer) {
        case .alreadyDone(let r): return .alreadyDone(r)
        case .rendered(let r):
            try store(key, video: "\(directory)/\(r.file)", record: r)
            return .rendered(r)
        }
    }
}

/// `segue render EDIT -o OUT --cache DIR`: the edit in chunks at fixed frame boundaries, each reused from the cache
/// when its key is there, rendered and stored when not, then stitched with the edit's audio as the farm does.
public enum CachedRender {
    /// What a cached render did.
    public struct Result: Sendable {
        public let path: String
        public let frames: Int64
        public let seconds: Double
        public let chunks: Int
        public let reused: Int
        public let rendered: Int
    }

    /// Seconds per chunk when no chunk count is given: boundaries at every 2 s of output, whatever the edit's length.
    public static let defaultChunkSeconds = 2

    /// Renders `edit` to `output` through `cache`.
    /// - Parameters:
    ///   - chunks: cut into this many equal chunks (boundaries move when the edit's length changes); nil: chunks of
    ///     `defaultChunkSeconds` at fixed boundaries.
    ///   - bundle: the `.otioz` the edit was read from.
    /// - Throws: `EditError`, `UsageError` (an output that is an input, a format rendered in one pass), `MediaError`.
    public static func render(_ edit: Edit, editPath: String, bundle: String? = nil, to output: String, chunks: Int?,
                              options: RenderOptions, cache: ChunkCache) throws -> Result {
        let out = URL(fileURLWithPath: output).standardizedFileURL.path
        // The output's name chooses the format where the edit names none, as `segue render` does.
        let edit = RenderJob.chosenByName(edit, out)
        try options.inputPolicy.checkOutput(path: out)
        try RenderJob.refuseOverwriting(inputsOf: edit, with: out, others: [("the edit file", editPath)])
        let plan = try ChunkPlanner.plan(edit, editPath: editPath, chunks: chunks ?? 1, audio: options.audio, policy: options.inputPolicy,
                                         frameTimeout: options.frameTimeout, bundle: bundle,
                                         chunkSeconds: chunks == nil ? defaultChunkSeconds : nil)
        try plan.checkOutputName(out, renderer: "--cache")
        // The chunks, plan and audio pass in a work folder beside the output (same filesystem), removed afterwards.
        let work = (out as NSString).deletingLastPathComponent + "/." + (out as NSString).lastPathComponent + ".segue-cache-\(getpid())"
        try RenderJob.ensureDirectory(work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let planPath = work + "/plan.json"
        try ChunkPlanner.write(plan, to: planPath)
        let document = try ChunkPlanner.document(of: plan)
        let planned = document.edit
        let o = options.adopting(planned.resolution)
        let timeline = try RenderJob.resolve(planned, policy: o.inputPolicy)
        let renderer = try RenderJob.makeRenderer(o, for: timeline)
        let keys = ChunkKeys(timeline: timeline, renderer: renderer.name)
        var reused = 0, rendered = 0
        for chunk in plan.chunks {
            switch try cache.renderChunk(planned, plan: plan, index: chunk.index, directory: work, options: o, keys: keys, renderer: renderer) {
            case .reused: reused += 1
            case .rendered, .alreadyDone: rendered += 1
            }
        }
        if let pass = plan.audio { try RenderJob.renderAudio(planned, to: "\(work)/\(pass.file)", plan: plan, options: o) }
        let r = try Stitcher.stitch(plan, planPath: planPath, directory: work, to: out)
        r.warnings.forEach { options.log("warning: \($0)") }
        if options.verbose {
            options.log("segue: cache \(cache.directory): \(reused) of \(plan.chunks.count) chunks reused, \(rendered) rendered")
        }
        withExtendedLifetime(document) {}
        return Result(path: out, frames: r.frames, seconds: r.seconds, chunks: plan.chunks.count, reused: reused, rendered: rendered)
    }
}
