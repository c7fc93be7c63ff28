import Foundation
import Segue
import SegueFarm

/// One command (or a farm subcommand): what help, the man page and completion say of it, and what runs it.
struct CommandSpec: Sendable {
    let name: String
    /// Other spellings of the command (`--version` for `version`).
    var aliases: [String] = []
    /// One line: what it does.
    let summary: String
    /// Its usage lines, without the leading "segue ".
    let synopsis: [String]
    /// Further lines for its help (what its arguments may be, exit statuses of its own).
    var notes: [String] = []
    /// What its arguments are, for completion.
    var arguments: Completion = .none
    /// Its subcommands (`farm local`), each with its own options; the command then names the scope `farm local`.
    var subcommands: [CommandSpec] = []
    /// Runs it (nil for a subcommand: its command runs it).
    var run: (@Sendable (Arguments) throws -> Void)? = nil
}

/// Every command, in the order help lists them. A command added here is parsed, checked, helped, completed and in the
/// man page with nothing else to write.
enum CommandTable {
    static let edits = Completion.files(FileKinds.edits + FileKinds.media)

    static let all: [CommandSpec] = [
        CommandSpec(name: "render", summary: "render an edit file, an OpenTimelineIO timeline or clips to a video (or one chunk of a plan)",
                    synopsis: ["render EDIT.json -o OUT.mp4 [options]",
                               "render EDIT.json -o OUT.mp4 --cache DIR [--chunks N] [options]",
                               "render CLIP CLIP... [--transition TYPE:SECONDS[:DIRECTION]]... [--square | --size WxH] -o OUT.mp4 [options]",
                               "render timeline.otio|bundle.otioz -o OUT.mp4 [--missing-media error|black|slate] [options]",
                               "render [EDIT.json] --plan plan.json --chunk I|auto -o DIR [options]"],
                    notes: ["A clip may be a numbered picture pattern, quoted ('shot/img_%04d.png'): an image sequence at 24 fps.",
                            "A chunk render (--plan) exits 75 for a failure worth retrying (GPU start-up, output I/O)."],
                    arguments: edits, run: renderCommand),
        CommandSpec(name: "record", summary: "record live sources (cameras, screens, microphones, streams) to a take",
                    synopsis: ["record SOURCE... -o take.mp4 [--duration SECONDS] [--segment SECONDS] [--preview preview.jpg] [options]"],
                    notes: ["SOURCE is v4l2:/dev/video0, alsa:default, pulse:default, x11grab::0.0, kmsgrab, lavfi:testsrc2 or a stream URL",
                            "(rtsp://, srt://, udp://, rtmp://, http(s)://....m3u8); a video and an audio source may be given together.",
                            "A take ends at --duration, on SIGINT/SIGTERM (exit 0: the take is finished) or at the source's end;",
                            "--timeout without data: exit 1. --preset is high, medium or low here (docs/recording.md)."],
                    run: recordCommand),
        CommandSpec(name: "probe", summary: "what Segue sees in media files: streams, sizes, rotation, rates, colour, HDR, audio",
                    synopsis: ["probe FILE... [--json] [--tone-map CURVE]"],
                    notes: ["Reports every file it can read, says why for the others, and exits 1 if any could not be read."],
                    arguments: .files(FileKinds.media), run: probeCommand),
        CommandSpec(name: "plan", summary: "the resolved edit: size, rate, clips, transition frames (or a chunk plan with --chunks)",
                    synopsis: ["plan EDIT.json [--json]", "plan EDIT.json --chunks N [-o plan.json] [--no-audio]"],
                    arguments: edits, run: planCommand),
        CommandSpec(name: "resolve", summary: "what a render decides before frame 0, saved with the edit: an edit file that renders the same",
                    synopsis: ["resolve EDIT.json|timeline.otio|CLIP... -o resolved.json [options]"],
                    notes: ["The command line's edit options are folded in and the media's probed facts recorded with each file's fingerprint;",
                            "segue render resolved.json renders byte for byte what segue render EDIT [options] does, and refuses (exit 2) a",
                            "media file that changed since (docs/edit-file.md, \"The resolved edit\")."],
                    arguments: edits, run: resolveCommand),
        CommandSpec(name: "frame", summary: "one output frame as PNG, without rendering the rest",
                    synopsis: ["frame EDIT.json (--at SECONDS | --frame N) -o FRAME.png [options]"], arguments: edits, run: frameCommand),
        CommandSpec(name: "sheet", summary: "a contact sheet of every transition, text item and caption cue, as PNG",
                    synopsis: ["sheet EDIT.json -o SHEET.png [--cols 5] [--tile-width 192] [--at-progress P[,P...]] [options]"],
                    arguments: edits, run: sheetCommand),
        CommandSpec(name: "batch", summary: "render a template once per row of a CSV or JSON Lines file (docs/templates.md)",
                    synopsis: ["batch TEMPLATE.json DATA.csv|DATA.jsonl -o 'out/{{id}}.mp4' [--jobs J] [--poster 'out/{{id}}.png' --poster-at SECONDS] "
                               + "[--results FILE] [--progress json] [options]",
                               "batch TEMPLATE.json DATA.csv -o 'out/{{id}}.mp4' --engine slurm [--partition P] [--max-parallel K] [--time T] [--dry-run] [options]",
                               "batch TEMPLATE.json DATA.csv -o 'out/{{id}}.mp4' --row K [options]"],
                    notes: ["Each row's columns fill the template's placeholders ({{name}}) and the output's name. A row that fails fails alone;",
                            "the exit status is then 1. Run again, rows whose output is there with the hash in the results file are skipped."],
                    arguments: .files(FileKinds.edits + ["csv", "jsonl", "ndjson"]), run: batchCommand),
        CommandSpec(name: "serve", summary: "a render service: an HTTP JSON API over a durable queue, renders in child processes (docs/service.md)",
                    synopsis: ["serve --listen HOST:PORT --data DIR [--token-file FILE] [--engine local] [--jobs N] [--max-upload MB] [--rate-limit N]"],
                    notes: ["Routes: POST /v1/renders, GET /v1/renders[/ID[/output|/poster|/events]], DELETE /v1/renders/ID, POST /v1/assets?name=NAME,",
                            "GET /healthz, /metrics, /openapi.json. Every edit renders under the untrusted-edit policy, reading only its tenant's assets."],
                    run: serveCommand),
        CommandSpec(name: "transitions", summary: "every transition: what it does, its directions and parameters",
                    synopsis: ["transitions [--json]"], run: transitionsCommand),
        CommandSpec(name: "compare", summary: "per-frame PSNR between two videos, or between the GPU and CPU renders of an edit",
                    synopsis: ["compare A.mp4 B.mp4 [--min-psnr DB] [--json]", "compare --backends EDIT.json [--min-psnr DB] [--json] [options]"],
                    notes: ["Exits 1 when the frame counts differ or a frame is under --min-psnr. Two videos take only --min-psnr and --json."],
                    arguments: edits, run: compareCommand),
        CommandSpec(name: "export-otio", summary: "write an edit as an OpenTimelineIO timeline, for an editor",
                    synopsis: ["export-otio EDIT.json -o EDIT.otio [options]"], arguments: edits, run: exportOTIOCommand),
        CommandSpec(name: "render-audio", summary: "the whole audio mix of an edit or a chunk plan in one pass",
                    synopsis: ["render-audio EDIT.json -o audio.m4a [options]", "render-audio --plan plan.json -o audio.m4a"],
                    arguments: edits, run: renderAudioCommand),
        CommandSpec(name: "stitch", summary: "check the chunks of a plan and join them (and the audio pass) into the output",
                    synopsis: ["stitch --plan plan.json DIR -o OUT.mp4 [--audio audio.m4a]"],
                    notes: ["Exits 2 with the list of chunks to render again when some are missing or invalid."],
                    arguments: .directory, run: stitchCommand),
        CommandSpec(name: "farm", summary: "plan a chunked render, run it on this machine or a cluster, and stitch it (docs/farms.md)",
                    synopsis: ["farm [local] EDIT.json --chunks N -o OUT.mp4 [--jobs J] [options]",
                               "farm slurm EDIT.json --chunks N -o OUT.mp4 [--partition P] [--gres gpu:1] [--time T] [options]",
                               "farm status WORK_DIR [--json]", "farm resume WORK_DIR [--wait]", "farm cancel WORK_DIR"],
                    subcommands: farmSubcommands, run: farmCommand),
        CommandSpec(name: "cache", summary: "the chunk cache of render --cache and farm --cache: prune it to a size",
                    synopsis: ["cache prune DIR --max-size SIZE"], subcommands: cacheSubcommands, run: cacheCommand),
        CommandSpec(name: "schema", summary: "the JSON Schema (draft 2020-12) of the edit file, from the parser's declarations",
                    synopsis: ["schema"], notes: ["Editors and web apps validate edit files with it before they submit them (docs/edit-file.md)."],
                    run: schemaCommand),
        CommandSpec(name: "bench-composite", summary: "compositing and readback alone, frames per second per transition (make gpu-check)",
                    synopsis: ["bench-composite [--size WxH] [--frames N] [--transition TYPE:SECONDS]... [--backend gpu|cpu] [--json]"],
                    run: benchCompositeCommand),
        CommandSpec(name: "help", aliases: ["--help", "-h"], summary: "the commands, or a command's usage and options",
                    synopsis: ["help [COMMAND [SUBCOMMAND]]", "COMMAND --help"], arguments: .commands, run: helpCommand),
        CommandSpec(name: "version", aliases: ["--version"], summary: "Segue's version and the FFmpeg, libx264, Mesa and HarfBuzz it runs with",
                    synopsis: ["version", "--version"], run: versionCommand),
        CommandSpec(name: "completion", summary: "a shell completion script for bash, zsh or fish",
                    synopsis: ["completion bash|zsh|fish"],
                    notes: ["bash: source <(segue completion bash); zsh: source <(segue completion zsh) after compinit;",
                            "fish: segue completion fish | source (or save each in the shell's completion folder)."],
                    arguments: .values(Completions.shells), run: completionCommand),
        CommandSpec(name: "man", summary: "this manual page (roff; man -l to read it), or the same reference in Markdown",
                    synopsis: ["man [--format roff|markdown]"], run: manCommand),
    ]

    /// `farm`'s subcommands: its engines (`FarmEngines.all`) first.
    static let farmSubcommands: [CommandSpec] = [
        CommandSpec(name: "local", summary: "chunk processes on this machine, J at once, then the stitch (the default engine)",
                    synopsis: ["farm [local] EDIT.json --chunks N -o OUT.mp4 [--jobs J] [--work-dir DIR] [--retries R] [--dry-run] [options]"],
                    notes: ["Exits 0 when the output is written, 1 when a chunk failed (farm resume finishes it)."],
                    arguments: .files(FileKinds.edits)),
        CommandSpec(name: "slurm", summary: "chunk jobs submitted to Slurm (an array), the audio pass and a stitch that waits for both",
                    synopsis: ["farm slurm EDIT.json --chunks N -o OUT.mp4 [--work-dir DIR] [--partition P] [--gres gpu:1] [--time T] "
                               + "[--max-parallel K] [--retries R] [--dry-run] [--allow-local] [--wait] [options]"],
                    arguments: .files(FileKinds.edits)),
        CommandSpec(name: "status", summary: "each chunk, the audio pass and the stitch of a farm's work folder",
                    synopsis: ["farm status WORK_DIR [--json]"], notes: ["Exits 0 written, 3 queued or running, 1 failed or never submitted."],
                    arguments: .directory),
        CommandSpec(name: "resume", summary: "submit again what failed (a local run: render it here and stitch)",
                    synopsis: ["farm resume WORK_DIR [--wait]"], arguments: .directory),
        CommandSpec(name: "cancel", summary: "cancel the jobs a farm render submitted that are still queued or running",
                    synopsis: ["farm cancel WORK_DIR"], arguments: .directory),
    ]

    /// `cache`'s subcommands.
    static let cacheSubcommands: [CommandSpec] = [
        CommandSpec(name: "prune", summary: "remove the least recently used chunks until the cache is under --max-size",
                    synopsis: ["cache prune DIR --max-size SIZE"], notes: ["SIZE: bytes, or with K, M, G or T (powers of 1024): 500M, 2G."],
                    arguments: .directory),
    ]

    /// The command called `name` (or one of its aliases), or nil.
    static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name || $0.aliases.contains(name) } }

    /// Every name options are declared for: each command without subcommands, and each `command subcommand`.
    static let scopes: [String] = all.flatMap { scopes(of: $0) }

    static func scopes(of command: CommandSpec) -> [String] {
        command.subcommands.isEmpty ? [command.name] : command.subcommands.map { "\(command.name) \($0.name)" }
    }
    static func scopes(of name: String) -> [String] { named(name).map { scopes(of: $0) } ?? [] }

    /// "unknown command rendr; did you mean render?"
    static func unknown(_ name: String) -> String {
        let near = NearestName.suggestion(for: name, among: all.map(\.name))
        return "unknown command \(name)" + (near.map { "; did you mean \($0)?" } ?? "")
    }
}
