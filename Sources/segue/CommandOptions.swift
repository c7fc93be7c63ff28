import Segue

/// The options each command takes; any other is a usage error naming the option and the command (exit 2), so that
/// `segue probe --crf 20 x.mp4` does not pass for a probe that took the encoder setting into account.
enum CommandOptions {
    static let everywhere: Set<String> = ["--verbose", "--help"]
    /// What a picture shows: size, fitting, rate, background, tone mapping, transitions of clips on the command line,
    /// titles and captions, what an OTIO timeline's missing media become.
    static let picture: Set<String> = ["--square", "--size", "--fit", "--fps", "--background", "--tone-map", "--transition", "--overlay",
                                       "--title", "--captions", "--missing-media"]
    static let encoding: Set<String> = ["--codec", "--crf", "--preset", "--encoder", "--dynamic-range"]
    static let audio: Set<String> = ["--music", "--duck", "--no-audio"]
    static let gpu: Set<String> = ["--backend", "--egl-platform", "--gpu-device"]
    /// What the edit may read and how much it may ask for (`InputPolicy`).
    static let inputs: Set<String> = ["--root", "--allow-indirect-inputs", "--max-megapixels", "--max-duration", "--max-clips", "--max-picture-memory"]
    /// Where outputs may go, and how long a frame may take.
    static let writing: Set<String> = ["--output-root", "--frame-timeout"]
    static let farm: Set<String> = ["--chunks", "-o", "--work-dir", "--partition", "--gres", "--time", "--max-parallel", "--retries",
                                    "--retry-delay", "--dry-run", "--allow-local"]

    /// The options `command` (and, for `farm`, its subcommand `sub`) takes; a chunk render (`render --plan`) takes
    /// the edit's options only to check them against the plan (`Arguments.planEdit`).
    static func accepted(_ command: String, sub: String? = nil) -> Set<String> {
        let own: Set<String>
        switch command {
        case "render": own = Set(["-o", "--hwaccel", "--progress", "--plan", "--chunk"]).union(picture).union(encoding).union(audio).union(gpu)
            .union(inputs).union(writing)
        case "probe": own = ["--json", "--tone-map", "--root", "--allow-indirect-inputs", "--max-megapixels"]
        case "plan": own = Set(["--json", "--chunks", "-o", "--output-root"]).union(picture).union(encoding).union(audio).union(inputs)
        case "render-audio": own = Set(["-o", "--plan", "--output-root"]).union(picture).union(encoding).union(audio).union(inputs)
        case "stitch": own = ["--plan", "-o", "--audio"]
        case "frame": own = Set(["-o", "--at", "--frame"]).union(picture).union(gpu).union(inputs).union(writing)
        case "sheet": own = Set(["-o", "--cols", "--tile-width", "--at-progress"]).union(picture).union(gpu).union(inputs).union(writing)
        case "transitions": own = ["--json"]
        case "compare": own = Set(["--min-psnr", "--json", "--backends", "--dynamic-range", "--frame-timeout"]).union(picture).union(gpu).union(inputs)
        case "record": own = Set(["-o", "--duration", "--segment", "--square", "--size", "--fps", "--preset", "--preview", "--reconnect",
                                  "--timeout", "--progress"]).union(gpu)
        case "bench-composite": own = Set(["--size", "--frames", "--transition", "--json"]).union(gpu)
        case "export-otio": own = Set(["-o", "--output-root"]).union(picture).union(encoding).union(audio.subtracting(["--no-audio"])).union(inputs)
        case "farm":
            switch sub {
            case "status": own = ["--json"]
            case "resume": own = []
            // One machine: no queue, partition, resources or time limit; --jobs is its --max-parallel.
            case "local": own = farm.subtracting(["--partition", "--gres", "--time", "--max-parallel", "--allow-local"]).union(["--jobs"])
                .union(picture).union(encoding).union(audio).union(gpu).union(inputs).union(writing)
            default: own = farm.union(picture).union(encoding).union(audio).union(gpu).union(inputs).union(writing)
            }
        default: own = []
        }
        return own.union(everywhere)
    }

    /// Throws `UsageError` for the first option in `given` that `command` does not take.
    static func check(_ given: [String], command: String, sub: String? = nil) throws {
        let ok = accepted(command, sub: sub)
        guard let bad = given.first(where: { !ok.contains($0) }) else { return }
        let name = sub.map { "\(command) \($0)" } ?? command
        let takes = ok.subtracting(everywhere).sorted()
        throw UsageError("segue \(name) does not take \(bad)" + (takes.isEmpty ? " (it takes no options)" : " (it takes \(takes.joined(separator: ", ")))"))
    }

    /// Throws `UsageError` for an option given twice (only `--transition`, `--overlay` and `--title` repeat: the
    /// transitions cycle, the overlays stack, the titles follow each other), and for
    /// `--at` with `--frame` (two answers to one question: the later would silently win).
    static func checkRepeats(_ given: [String]) throws {
        var seen: Set<String> = []
        for o in given where o != "--transition" && o != "--overlay" && o != "--title" {
            if !seen.insert(o).inserted { throw UsageError("\(o) is given twice; give it once") }
        }
        if seen.contains("--at") && seen.contains("--frame") { throw UsageError("give --at SECONDS or --frame N, not both") }
    }
}
