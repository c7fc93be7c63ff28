import Foundation
import Segue
import SegueFarm

// A command's own options, the render farms' and those every command takes; see OptionTable.swift.

/// Progress output styles (`--progress`).
enum ProgressStyle: String, CaseIterable { case bar, plain, json, none }

extension OptionTable {
    static let commandOptions: [OptionSpec] = [
        OptionSpec(name: "-o", alias: "--output", value: "PATH",
                   help: "the output; a video's name chooses its format unless --codec does ("
                       + OutputFormat.all.map { ($0.isImageSequence ? "frames/%05d." : ".") + "\($0.extensions[0]) \($0.codec.rawValue)" }.joined(separator: ", ")
                       + "); frame and sheet: a .png, plan --chunks and resolve: a .json, render --chunk: a folder",
                   group: .command, commands: Scopes.editing.union(["stitch", "frame", "sheet", "record"]), completion: .anyFile) { a, v in a.output = v.text },
        .choice("--progress", ProgressStyle.allCases, defaultValue: "bar on a terminal, else none", help: "progress on standard error",
                group: .command, commands: ["render", "record", "batch", "farm slurm", "farm resume"]) { a, p in a.progress = p },
        OptionSpec(name: "--keep-partial", help: "on Ctrl-C keep the frames written: the output is fragmented MP4 (as record writes), playable however far it got",
                   group: .command, commands: ["render"]) { a, _ in a.options.keepPartial = true },
        OptionSpec(name: "--json", help: "print JSON (for programs) instead of text", group: .command,
                   commands: ["probe", "plan", "transitions", "compare", "bench-composite", "farm status"]) { a, _ in a.json = true },
        OptionSpec(name: "--at", value: "SECONDS", help: "the frame showing this instant (not with --frame)", group: .command, commands: ["frame"]) { a, v in
            let t = try v.number()
            guard t >= 0, MediaTime.isRepresentable(seconds: t) else { throw UsageError("--at must be 0…\(Int(MediaTime.maxSeconds)) seconds") }
            a.at = t
        },
        OptionSpec(name: "--frame", value: "N", help: "frame number N, from 0 (not with --at)", group: .command, commands: ["frame"]) { a, v in
            guard let n = Int64(v.text), n >= 0 else { throw UsageError("--frame must be a frame number ≥ 0 (got \(v.text))") }
            a.frame = n
        },
        OptionSpec(name: "--cols", value: "N", defaultValue: "5", help: "tiles a row, 1…50", group: .command, commands: ["sheet"]) { a, v in
            guard let n = Int(v.text), (1...50).contains(n) else { throw UsageError("--cols must be 1…50 (got \(v.text))") }
            a.columns = n
        },
        OptionSpec(name: "--tile-width", value: "PX", defaultValue: "192", help: "a tile's width in pixels, 16…4096", group: .command,
                   commands: ["sheet"]) { a, v in
            guard let n = Int(v.text), (16...4096).contains(n) else { throw UsageError("--tile-width must be 16…4096 (got \(v.text))") }
            a.tileWidth = n
        },
        OptionSpec(name: "--at-progress", value: "P[,P...]", defaultValue: "0, 0.25, 0.5, 0.75 and the frame after",
                   help: "the progress values (0…1) of each transition to tile", group: .command, commands: ["sheet"]) { a, v in
            let values = v.text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard !values.isEmpty, values.allSatisfy({ $0 != nil && (0...1).contains($0!) }) else {
                throw UsageError("--at-progress takes progress values 0…1, separated by commas (got \(v.text))")
            }
            a.sheetProgress = values.map { $0! }
        },
        OptionSpec(name: "--min-psnr", value: "DB", help: "fail (exit status 1) when a frame is further apart than this", group: .command,
                   commands: ["compare"]) { a, v in a.minPSNR = try v.number() },
        OptionSpec(name: "--backends", help: "render the edit on the GPU and on the CPU reference and compare the two", group: .command,
                   commands: ["compare"]) { a, _ in a.backends = true },
        OptionSpec(name: "--frames", value: "N", defaultValue: "120", help: "frames to composite per transition", group: .command,
                   commands: ["bench-composite"]) { a, v in a.frames = try v.count(min: 1) },
        OptionSpec(name: "--duration", value: "SECONDS", help: "end the take after this long", group: .command, commands: ["record"]) { a, v in
            a.duration = try v.seconds()
        },
        OptionSpec(name: "--segment", value: "SECONDS", help: "start a new file this often", group: .command, commands: ["record"]) { a, v in
            a.segment = try v.seconds()
        },
        OptionSpec(name: "--preview", value: "FILE", help: "keep a JPEG of the latest picture here", group: .command, commands: ["record"],
                   completion: .files(["jpeg", "jpg"])) { a, v in a.preview = v.text },
        OptionSpec(name: "--reconnect", help: "open a stream again when it drops", group: .command, commands: ["record"]) { a, _ in a.reconnect = true },
        OptionSpec(name: "--timeout", value: "SECONDS", defaultValue: "10", help: "a source silent this long ends the take (exit status 1)",
                   group: .command, commands: ["record"]) { a, v in a.timeout = try v.seconds() },
        .choice("--format", ManPage.Format.allCases, defaultValue: "roff", help: "the manual page (roff) or the same reference in Markdown",
                group: .command, commands: ["man"]) { a, f in a.manFormat = f },
    ]

    static let farmOptions: [OptionSpec] = [
        OptionSpec(name: "--chunks", value: "N", help: "cut the edit into N chunks (plan: print or write a chunk plan; render: with --cache)", group: .farm,
                   commands: Scopes.farmRuns.union(["plan", "render", "serve"])) { a, v in a.chunks = try v.count(min: 1) },
        OptionSpec(name: "--cache", value: "DIR", help: "reuse the chunks whose content hash is in DIR, render and store the others (docs/farms.md)",
                   group: .farm, commands: Scopes.farmRuns.union(["render"]), effect: .forwarded, completion: .directory) { a, v in a.cache = v.text },
        OptionSpec(name: "--max-size", value: "SIZE", help: "remove the least recently used entries until the cache is under SIZE (500M, 2G)",
                   group: .farm, commands: ["cache prune"]) { a, v in a.maxSize = try ChunkCache.parseSize(v.text) },
        OptionSpec(name: "--plan", value: "FILE", help: "the chunk plan (plan --chunks) to render a chunk of, the audio of, or to stitch",
                   group: .farm, commands: ["render", "render-audio", "stitch"], completion: .files(["json"])) { a, v in a.plan = v.text },
        OptionSpec(name: "--chunk", value: "I|auto", help: "the chunk to render; auto reads the farm's array index (\(FarmEngines.chunkIndexVariables.joined(separator: ", ")))",
                   group: .farm, commands: ["render"], completion: .values(["auto"])) { a, v in a.chunk = v.text },
        OptionSpec(name: "--audio", value: "FILE", defaultValue: "the plan's audio file in the folder", help: "the audio pass (render-audio) to join",
                   group: .farm, commands: ["stitch"], completion: .files(FileKinds.audio)) { a, v in a.audioPath = v.text },
        OptionSpec(name: "--work-dir", value: "DIR", defaultValue: "OUT.segue-farm beside the output", help: "the plan, scripts, chunks and logs (on a filesystem every node sees)", group: .farm,
                   commands: Scopes.farmRuns, completion: .directory) { a, v in a.farm.workDir = v.text },
        OptionSpec(name: "--jobs", value: "J", defaultValue: "cores/8; batch: cores/2",
                   help: "processes at once", group: .farm,
                   commands: ["farm local", "batch", "serve"]) { a, v in a.farm.maxParallel = try v.count(min: 1) },
        OptionSpec(name: "--partition", value: "P", help: "the Slurm partition", group: .farm, commands: ["farm slurm", "batch", "serve"]) { a, v in a.farm.partition = v.text },
        OptionSpec(name: "--gres", value: "G", help: "the generic resources of each chunk job, e.g. gpu:1", group: .farm,
                   commands: ["farm slurm", "batch"]) { a, v in a.farm.gres = v.text },
        OptionSpec(name: "--time", value: "T", help: "each chunk job's time limit, as Slurm takes it", group: .farm,
                   commands: ["farm slurm", "batch"]) { a, v in a.farm.time = v.text },
        OptionSpec(name: "--max-parallel", value: "K", help: "chunk jobs running at once (the array's %K)", group: .farm,
                   commands: ["farm slurm", "batch"]) { a, v in a.farm.maxParallel = try v.count(min: 1) },
        OptionSpec(name: "--retries", value: "R", defaultValue: "2", help: "times a chunk that failed in a way worth retrying (exit status 75) is tried again", group: .farm,
                   commands: Scopes.farmRuns) { a, v in a.farm.retries = try v.count(min: 0) },
        OptionSpec(name: "--retry-delay", value: "SECONDS", defaultValue: "10", help: "the wait before a retry", group: .farm,
                   commands: Scopes.farmRuns) { a, v in a.farm.retryDelay = try v.count(min: 0) },
        OptionSpec(name: "--dry-run", help: "write the plan and the scripts, submit nothing", group: .farm, commands: Scopes.farmRuns.union(["batch"])) { a, _ in
            a.dryRun = true
        },
        OptionSpec(name: "--allow-local", help: "allow a work folder that other nodes may not see (one machine)", group: .farm,
                   commands: ["farm slurm"]) { a, _ in a.farm.allowLocal = true },
        OptionSpec(name: "--wait", help: "stay until the output is written or a job failed (exit status as farm status's); --progress follows the chunks",
                   group: .farm, commands: ["farm slurm", "farm resume"]) { a, _ in a.waitForFarm = true },
    ]

    static let generalOptions: [OptionSpec] = [
        OptionSpec(name: "--verbose", alias: "-v", help: "say what was chosen (EGL platform, GL_RENDERER, size, rate, clips); FFmpeg's warnings",
                   group: .general, commands: Scopes.every, effect: .forwarded) { a, _ in a.options.verbose = true },
        OptionSpec(name: "--help", alias: "-h", help: "this command's usage and options", group: .general, commands: Scopes.every) { a, _ in
            throw HelpRequested(positional: a.positional)
        },
    ]
}
