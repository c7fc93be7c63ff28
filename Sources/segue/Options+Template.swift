import Foundation
import Segue

// Templates and batches (docs/templates.md): the values of an edit file's placeholders, and `segue batch`'s own
// options; see OptionTable.swift.

extension Scopes {
    /// Commands that read an edit file and fill its placeholders.
    static let templating: Set<String> = ["render", "plan", "resolve", "frame", "sheet", "batch"]
}

extension OptionTable {
    static let templateOptions: [OptionSpec] = [
        OptionSpec(name: "--set", value: "NAME=VALUE", help: "fill the edit file's placeholder {{NAME}} with VALUE, as text (repeatable; docs/templates.md)",
                   group: .command, commands: Scopes.templating, repeatable: true) { a, v in
            guard let eq = v.text.firstIndex(of: "="), Template.isName(String(v.text[..<eq])) else {
                throw UsageError("--set takes NAME=VALUE, NAME of letters, digits, _, - and . (got \(v.text))")
            }
            a.templateValues[String(v.text[..<eq])] = .string(String(v.text[v.text.index(after: eq)...]))
        },
        OptionSpec(name: "--values", value: "FILE", help: "fill the edit file's placeholders from a JSON object of names to strings, numbers or booleans",
                   group: .command, commands: Scopes.templating, completion: .files(["json"]), repeatable: true) { a, v in
            // A file, as the edit file is (a pipe or a device could block the render forever).
            var st = stat()
            if stat(v.text, &st) == 0, let kind = InputPolicy.nonRegularKind(st.st_mode) {
                throw UsageError("--values: \(v.text) is \(kind), not a file: write the values to a .json file, or give them with --set NAME=VALUE")
            }
            guard let data = FileManager.default.contents(atPath: v.text) else { throw UsageError("--values: cannot read \(v.text)") }
            for (name, value) in try TemplateValues.json(data, source: v.text).values { a.templateValues[name] = value }
        },
        OptionSpec(name: "--poster", value: "PATTERN", help: "batch: also write a poster frame per row, PNG or JPEG, its name a template filled from the row (out/{{id}}.jpg)",
                   group: .command, commands: ["batch"], completion: .anyFile) { a, v in a.poster = v.text },
        OptionSpec(name: "--poster-at", value: "SECONDS", defaultValue: "0", help: "batch: the instant the poster frame shows", group: .command,
                   commands: ["batch"]) { a, v in
            let t = try v.number()
            guard t >= 0, MediaTime.isRepresentable(seconds: t) else { throw UsageError("--poster-at must be 0…\(Int(MediaTime.maxSeconds)) seconds") }
            a.posterAt = t
        },
        OptionSpec(name: "--results", value: "FILE", defaultValue: "batch-results.jsonl beside the outputs",
                   help: "batch: one JSON line per row (row, output, status, error, seconds, sha256); rows whose output is there with its hash are skipped",
                   group: .command, commands: ["batch"], completion: .files(["jsonl"])) { a, v in a.results = v.text },
        OptionSpec(name: "--engine", value: "local|slurm", defaultValue: "local",
                   help: "batch: render the rows on this machine (--jobs at once) or as a Slurm job array (--partition, --max-parallel, …); serve: each render a child process here, or a chunked render on Slurm (--chunks)",
                   group: .command, commands: ["batch", "serve"], completion: .values(["local", "slurm"])) { a, v in
            guard ["local", "slurm"].contains(v.text) else { throw UsageError("--engine must be local or slurm (got \(v.text))") }
            a.batchEngine = v.text
        },
        OptionSpec(name: "--row", value: "K", help: "batch: render row K alone (from 1, the first row after a CSV header), as one task of an array job",
                   group: .command, commands: ["batch"]) { a, v in a.row = try v.count(min: 1) },
    ]
}
