import Foundation
import Segue

/// `--help` (or `-h`) was given to a command: its help is printed (exit 0). `positional`: the arguments before it
/// (`segue farm slurm --help` asks for `farm slurm`'s).
struct HelpRequested: Error {
    var positional: [String] = []
}

/// What `segue help` prints, from `CommandTable` and `OptionTable`.
enum Help {
    /// The overview (`segue help`, `segue --help`, `segue` alone): the commands, one line each.
    static var overview: String {
        let width = CommandTable.all.map(\.name.count).max()! + 2
        var lines = ["segue \(Segue.version): renders edits (JSON, OpenTimelineIO) and clips to video; FFmpeg decodes and encodes, OpenGL ES or the CPU draws",
                     "", "usage: segue COMMAND [ARGUMENTS] [OPTIONS]", "", "commands:"]
        for c in CommandTable.all {
            let subs = c.subcommands.isEmpty ? "" : " (\(c.subcommands.map(\.name).joined(separator: ", ")))"
            lines.append("  " + c.name.padding(toLength: width, withPad: " ", startingAt: 0) + c.summary + subs)
        }
        lines += ["", "segue help COMMAND (or segue COMMAND --help): a command's usage and only its options.", exitStatus,
                  "More in docs/cli.md, and `segue man`."]
        return lines.joined(separator: "\n")
    }

    static let exitStatus = "exit status: 0 done, 1 failed, 2 invalid edit or command line (each command takes only its own options); "
        + "farm status: 3 still queued or running; a chunk render: 75 failed in a way worth retrying"

    /// The help of `command`, or of its subcommand named by the first of `arguments` (`farm slurm`).
    /// - Throws: `UsageError` for a command or subcommand that does not exist.
    static func text(command: String, arguments: [String] = []) throws -> String {
        guard let spec = CommandTable.named(command) else { throw UsageError(CommandTable.unknown(command)) }
        if !spec.subcommands.isEmpty, let first = arguments.first, let sub = spec.subcommands.first(where: { $0.name == first }) {
            return text(of: sub, scope: "\(spec.name) \(sub.name)", options: OptionTable.options(for: "\(spec.name) \(sub.name)"))
        }
        var lines = [text(of: spec, scope: spec.name, options: OptionTable.options(forCommand: spec.name), subcommandNote: true)]
        if !spec.subcommands.isEmpty { lines.append("segue help \(spec.name) SUBCOMMAND: only its options.") }
        return lines.joined(separator: "\n")
    }

    /// Usage lines, summary, subcommands, options by group, notes.
    private static func text(of spec: CommandSpec, scope: String, options: [OptionSpec], subcommandNote: Bool = false) -> String {
        var lines = ["usage:"] + spec.synopsis.map { "  segue \($0)" } + ["", "\(scope): \(spec.summary)"]
        if !spec.subcommands.isEmpty {
            lines += ["", "subcommands:"] + spec.subcommands.map { "  \($0.name.padding(toLength: 10, withPad: " ", startingAt: 0))\($0.summary)" }
        }
        let scopes = CommandTable.scopes(of: spec.name)
        for group in OptionGroup.allCases {
            let members = options.filter { $0.group == group }
            guard !members.isEmpty else { continue }
            lines += ["", "\(group.title):"]
            for o in members {
                // Under a command with subcommands, an option not all of them take says which do.
                let takers = scopes.filter { o.commands.contains($0) }
                let subs = takers.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
                let only = subcommandNote && scopes.count > 1 && takers.count < scopes.count ? " [\(subs.joined(separator: ", "))]" : ""
                lines += optionLines(o, suffix: only)
            }
        }
        if !spec.notes.isEmpty { lines += [""] + spec.notes }
        return lines.joined(separator: "\n")
    }

    /// `  --size WxH                   the render size …`, wrapped to 100 columns under its help column.
    static func optionLines(_ o: OptionSpec, suffix: String = "") -> [String] {
        let column = 30
        let help = o.help + (o.defaultValue.map { " (default: \($0))" } ?? "") + suffix
        let head = "  " + o.signature
        var lines: [String] = []
        var words = help.split(separator: " ").map(String.init)
        var line = head.count + 1 < column ? head.padding(toLength: column, withPad: " ", startingAt: 0) : head
        if line.count > column { lines.append(line); line = String(repeating: " ", count: column) }
        var empty = true
        while !words.isEmpty {
            let w = words.removeFirst()
            if !empty && line.count + 1 + w.count > 100 {
                lines.append(line)
                line = String(repeating: " ", count: column)
                empty = true
            }
            line += (empty ? "" : " ") + w
            empty = false
        }
        lines.append(line)
        return lines
    }
}

/// `segue help [COMMAND [SUBCOMMAND]]`.
func helpCommand(_ a: Arguments) throws {
    guard let name = a.positional.first else { return print(Help.overview) }
    guard let spec = CommandTable.named(name) else { throw UsageError(CommandTable.unknown(name)) }
    let rest = Array(a.positional.dropFirst())
    if let sub = rest.first, !spec.subcommands.contains(where: { $0.name == sub }) || rest.count > 1 {
        let subs = spec.subcommands.map(\.name)
        throw UsageError(subs.isEmpty ? "help \(spec.name) takes nothing more (got \(rest.joined(separator: " ")))"
            : "\(spec.name) has no subcommand \(sub) (it has \(subs.joined(separator: ", ")))")
    }
    print(try Help.text(command: spec.name, arguments: rest))
}

/// `segue version`, `segue --version`: Segue's version, then each library's as found at run time.
func versionCommand(_ a: Arguments) throws {
    guard a.positional.isEmpty else { throw UsageError("version takes no arguments") }
    print("segue \(Segue.version)")
    let gpu = a.options.egl
    for library in try waitFor({ await libraryVersions(gpu: gpu) }) { print("\(library.name) \(library.version)") }
}

/// `segue completion bash|zsh|fish`.
func completionCommand(_ a: Arguments) throws {
    guard a.positional.count == 1, let script = Completions.script(for: a.positional[0]) else {
        throw UsageError("completion takes one shell: \(OptionTable.orList(Completions.shells)) (got \(a.positional.joined(separator: " ")))")
    }
    print(script, terminator: "")
}

/// `segue man [--format roff|markdown]`.
func manCommand(_ a: Arguments) throws {
    guard a.positional.isEmpty else { throw UsageError("man takes no arguments (only --format)") }
    print(a.manFormat == .roff ? ManPage.roff : ManPage.markdown, terminator: "")
}
