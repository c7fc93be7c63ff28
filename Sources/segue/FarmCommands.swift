import Foundation
import Segue
import SeguePipeline
import SegueFarm

// Render-farm commands: plan --chunks, render --chunk, render-audio, stitch, farm slurm|status|resume.

/// `segue plan EDIT.json --chunks N [-o plan.json]`: the plan holds the resolved edit (the command line's options
/// folded in) that every worker renders.
func planChunksCommand(_ given: Arguments) throws {
    let editPath = try given.editFile()
    let (edit, a) = try given.resolvedInput()
    let plan = try ChunkPlanner.plan(edit, editPath: editPath, chunks: a.chunks!, audio: a.options.audio, policy: a.inputPolicy,
                                     frameTimeout: a.options.frameTimeout, bundle: a.bundlePath)
    if let out = a.output {
        guard out.lowercased().hasSuffix(".json") else { throw UsageError("the plan is JSON: give -o a .json name (got \(out))") }
        try a.inputPolicy.checkOutput(path: out)
        if URL(fileURLWithPath: out).standardizedFileURL.resolvingSymlinksInPath() == URL(fileURLWithPath: editPath).standardizedFileURL.resolvingSymlinksInPath() {
            throw UsageError("the output path \(out) is the edit file; choose another output path")
        }
        try ChunkPlanner.write(plan, to: out)
        say("segue: wrote \(out): \(plan.totalFrames) frames at \(plan.frameRate) fps in \(plan.chunks.count) chunks\(plan.smartNote)")
    } else {
        try printJSON(plan)
    }
}

/// `segue render [EDIT.json] --plan plan.json --chunk I|auto -o DIR`. Exit 75 for failures worth retrying (`report`).
func renderChunkCommand(_ a: Arguments) throws {
    guard let planPath = a.plan else { throw UsageError("--chunk needs --plan plan.json") }
    guard let spec = a.chunk else { throw UsageError("--plan needs --chunk I (or auto)") }
    guard let o = a.output, !o.isEmpty else { throw UsageError("missing -o DIR (the chunk folder)") }
    guard !a.options.keepPartial else { throw UsageError("--keep-partial applies to a whole render, not to a chunk (an interrupted chunk is rendered again)") }
    let dir = URL(fileURLWithPath: o).standardizedFileURL.path
    let plan = try ChunkPlanner.load(planPath)
    let index: Int
    if spec == "auto" {
        let env = ProcessInfo.processInfo.environment
        let names = FarmEngines.chunkIndexVariables
        guard let v = names.lazy.compactMap({ env[$0] }).first, let i = Int(v) else {
            throw UsageError("--chunk auto reads \(names.joined(separator: " or ")), and none is set to a number")
        }
        index = i
    } else {
        guard let i = Int(spec), i >= 0 else { throw UsageError("--chunk must be a chunk index or auto (got \(spec))") }
        index = i
    }
    let edit = try a.planEdit(plan)
    var options = a.options
    options.inputPolicy = try a.policy(of: plan)
    if !a.given.contains("--frame-timeout"), let r = edit.resolution { options.frameTimeout = r.frameTimeout }
    options.progress = progressPrinter(a.progress ?? defaultProgressStyle())
    if let c = a.cache {
        switch try ChunkCache(directory: c).renderChunk(edit, plan: plan, index: index, directory: dir, options: options) {
        case .alreadyDone(let r):
            say("segue: chunk \(index) (frames [\(r.start), \(r.end))) is already rendered and valid; nothing to do")
        case .reused(let r):
            say("segue: wrote \(dir)/\(r.file): chunk \(index), frames [\(r.start), \(r.end)), reused from the cache \(c)")
        case .rendered(let r):
            say(String(format: "segue: wrote %@/%@: chunk %d, frames [%lld, %lld), rendered by %@ in %.1f s and stored in the cache",
                       dir, r.file, index, r.start, r.end, r.renderer, r.seconds))
        }
        return
    }
    switch try RenderJob.renderChunk(edit, plan: plan, index: index, directory: dir, options: options) {
    case .alreadyDone(let r):
        say("segue: chunk \(index) (frames [\(r.start), \(r.end))) is already rendered and valid; nothing to do")
    case .rendered(let r):
        say(String(format: "segue: wrote %@/%@: chunk %d, frames [%lld, %lld), %lld frames, rendered by %@ in %.1f s",
                   dir, r.file, index, r.start, r.end, r.frames, r.renderer, r.seconds))
    }
}

/// `segue render-audio EDIT.json -o audio.m4a` or `segue render-audio --plan plan.json -o audio.m4a`.
func renderAudioCommand(_ a: Arguments) throws {
    guard let out = a.output, !out.isEmpty else { throw UsageError("missing -o OUTPUT") }
    if !a.options.audio { throw UsageError("render-audio renders audio: drop --no-audio") }
    let plan = try a.plan.map { try ChunkPlanner.load($0) }
    let edit: Edit
    var options: RenderOptions
    if let plan {
        edit = try a.planEdit(plan)
        options = a.options
        options.inputPolicy = try a.policy(of: plan)
    } else {
        let input = try a.resolvedInput()
        (edit, options) = (input.edit, input.arguments.options)
    }
    let samples = try RenderJob.renderAudio(edit, to: out, plan: plan, options: options)
    say("segue: wrote \(out): \(samples) samples")
}

/// `segue stitch --plan plan.json DIR -o OUT.mp4`. Exit 2 with the list of chunks to render again.
func stitchCommand(_ a: Arguments) throws {
    guard let planPath = a.plan else { throw UsageError("stitch needs --plan plan.json") }
    guard a.positional.count == 1 else { throw UsageError("stitch takes one folder of chunks") }
    let out = try a.requireOutput()
    let plan = try ChunkPlanner.load(planPath)
    try plan.inputPolicy?.checkOutput(path: out)
    let dir = URL(fileURLWithPath: a.positional[0]).standardizedFileURL.path
    let r = try Stitcher.stitch(plan, planPath: URL(fileURLWithPath: planPath).standardizedFileURL.path, directory: dir,
                                audioPath: a.audioPath, to: out)
    r.warnings.forEach { say("warning: \($0)") }
    say(String(format: "segue: wrote %@: %lld frames (%.3f s) from %d chunks, audio %.3f s", r.path, r.frames, r.seconds, plan.chunks.count, r.audioSeconds))
}

/// `segue farm [local]|slurm|status|resume|cancel ...`: without an engine, an edit file runs on this machine (`local`).
func farmCommand(_ a: Arguments) throws {
    let engines = FarmEngines.all.map(\.name).joined(separator: ", ")
    guard let first = a.positional.first else { throw UsageError("farm needs an engine (\(engines)), status, resume or cancel") }
    var rest = a
    let sub: String
    if first.lowercased().hasSuffix(".json") && FarmEngines.named(first) == nil { sub = "local" } else {
        sub = first
        rest.positional.removeFirst()
    }
    guard CommandTable.farmSubcommands.contains(where: { $0.name == sub }) else {
        let near = NearestName.suggestion(for: sub, among: CommandTable.farmSubcommands.map(\.name))
        throw UsageError("farm needs an engine (\(engines)), status, resume or cancel (got \(sub)\(near.map { "; did you mean \($0)?" } ?? ""))")
    }
    try OptionTable.check(a.given, scope: "farm \(sub)")
    switch sub {
    case let name where FarmEngines.named(name) != nil:
        let engine: FarmEngine = name == "local" ? LocalEngine(jobs: rest.farm.maxParallel, log: { say($0) }) : FarmEngines.named(name)!
        guard let n = rest.chunks else { throw UsageError("farm \(name) needs --chunks N") }
        let out = try rest.requireOutput()
        guard OutputFormat.forFileName(out) != nil else {
            throw UsageError("give -o the final file (\(OutputFormat.all.map { ".\($0.extensions[0]) for --codec \($0.codec.rawValue)" }.joined(separator: ", ")))")
        }
        let editPath = try rest.editFile()
        // The edit resolved here, once: the plan holds it, and every worker renders it.
        let (edit, settings) = try rest.resolvedInput()
        let resolved = try RenderJob.resolvedEdit(edit, options: settings.options, bundle: settings.bundlePath).edit
        var options = rest.farm
        options.chunks = n
        options.output = URL(fileURLWithPath: out).standardizedFileURL.path
        options.audio = settings.options.audio
        options.renderArguments = rest.renderArgumentsForChunks()
        let state = try Farm.submit(resolved, editPath: editPath, bundle: settings.bundlePath, options: options, engine: engine,
                                    segue: executablePath(), dryRun: rest.dryRun, policy: settings.inputPolicy, log: say)
        // On this machine the work is over when `submit` returns: say how it went, and exit as `farm status` would.
        let work = options.workFolder
        if name == "local" && !rest.dryRun {
            let st = try Farm.status(work, engine: engine)
            say(st.text)
            if st.done { say("segue: wrote \(state.options.output) with \((engine as! LocalEngine).jobs) chunk process(es) at once") }
            exit(st.exitStatus)
        }
        if rest.waitForFarm && !rest.dryRun { try waitForFarm(work, progress: rest.progress) }
    case "status":
        guard rest.positional.count == 1 else { throw UsageError("farm status takes the work folder") }
        let st = try Farm.status(rest.positional[0])
        if rest.json { try printJSON(st) } else { print(st.text, terminator: "") }
        exit(st.exitStatus)
    case "resume":
        guard rest.positional.count == 1 else { throw UsageError("farm resume takes the work folder") }
        // A plan the edit no longer matches would fail every chunk again: say so instead of resubmitting.
        let work = rest.positional[0]
        let saved = try? Farm.savedState(work)
        let engineName = saved?.engine ?? "slurm"
        let plan = try ChunkPlanner.load(URL(fileURLWithPath: work).appendingPathComponent("plan.json").path)
        let remedy = "run `segue farm \(engineName)` again (resume would fail the same way)"
        do { try ChunkPlanner.check(plan, matches: try RenderJob.resolve(try Arguments([]).planEdit(plan), policy: plan.inputPolicy ?? .default)) } catch var e as PlanMismatch {
            e.remedy = remedy
            throw e
        } catch var e as StaleResolvedEdit {
            e.remedy = remedy
            throw e
        }
        if engineName == "local" {
            // This process runs what failed, the stitch last; then it is over.
            let engine = LocalEngine(jobs: saved?.options.maxParallel, log: { say($0) })
            try Farm.resume(work, engine: engine, log: say)
            let st = try Farm.status(work, engine: engine)
            say(st.text)
            exit(st.exitStatus)
        }
        try Farm.resume(work, log: say)
        if rest.waitForFarm { try waitForFarm(work, progress: rest.progress) }
    case "cancel":
        guard rest.positional.count == 1 else { throw UsageError("farm cancel takes the work folder") }
        try cancelFarm(rest.positional[0])
    default:
        throw UsageError("farm needs an engine (\(engines)), status, resume or cancel (got \(sub))")
    }
}

/// This executable, as an absolute path the batch scripts can run.
func executablePath() -> String {
    if let p = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return p }
    return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
}

extension Arguments {
    /// The edit file among the positional arguments (chunked renders need one file every node can read): a JSON edit
    /// file or an OTIO timeline, which every worker reads again the same way (`--missing-media` is recorded in the plan).
    func editFile() throws -> String {
        guard let file = editFilePath else {
            throw UsageError("chunked renders take one edit file (EDIT.json, or an OpenTimelineIO timeline.otio or .otioz), not clips on the command line")
        }
        return URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The edit a plan was made from, as every worker renders it: the resolved edit the plan holds
    /// (`ChunkPlan.resolvedEdit`; an `.otioz` bundle extracted for as long as this process runs). An edit file given
    /// on the command line must be the plan's; an edit option given again must repeat what the plan fixes (`--codec
    /// ffv1` for a plan of an FFV1 edit): one that would change the edit is refused (`UsageError`).
    func planEdit(_ plan: ChunkPlan) throws -> Edit {
        func resolved(_ p: String) -> URL { URL(fileURLWithPath: p).standardizedFileURL.resolvingSymlinksInPath() }
        if !positional.isEmpty, (try? editFile()).map(resolved) != resolved(plan.edit) {
            throw UsageError("the plan was made from \(plan.edit), not \(positional.joined(separator: " "))")
        }
        _ = try policy(of: plan)
        let planned = try OpenDocuments.shared.open(plan: plan).edit
        try refuseChanges(to: planned, fixedBy: "the plan", remedy: "make the plan again")
        return planned
    }

    /// The input policy a worker of `plan` renders under: the plan's (`ChunkPlan.inputPolicy`: `--root` and the
    /// other input options `plan --chunks` or `farm` were given), or, for a plan that records none, the command line's.
    /// Throws `UsageError` when input options given here would change the plan's.
    func policy(of plan: ChunkPlan) throws -> InputPolicy {
        guard let recorded = plan.inputPolicy else { return inputPolicy }
        if policyOptionsGiven && inputPolicy != recorded {
            throw UsageError("the plan fixes what the edit may read (\(recorded.root.map { "--root \($0)" } ?? "no --root")\(recorded.allowIndirectInputs ? ", --allow-indirect-inputs" : ""), and its limits): drop the input options here or make the plan again")
        }
        return recorded
    }
}
