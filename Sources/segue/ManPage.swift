import Foundation
import Segue
import SegueFarm

/// The manual page `segue man` prints (roff, section 1: `man -l`), and the same reference in Markdown
/// (`--format markdown`: docs/cli-reference.md), generated from `CommandTable` and `OptionTable` and a few fixed
/// sections. docs/segue.1 and docs/cli-reference.md are these, committed; `make man` writes them again.
enum ManPage {
    enum Format: String, CaseIterable, Sendable { case roff, markdown }

    static let name = "segue - render edits and clips to video with FFmpeg and OpenGL ES (or the CPU)"
    static let description = [
        "segue renders an edit (a JSON edit file, an OpenTimelineIO timeline or bundle, or clips given on the command line) to a video: "
            + "FFmpeg decodes the clips, OpenGL ES in a headless EGL context (or the CPU reference) draws each frame, FFmpeg encodes. "
            + "It also looks before you render (probe, plan, frame, sheet), compares renders, records live sources, and cuts a render into "
            + "chunks for a render farm.",
        "Each command takes only its own options: another is refused with exit status 2, naming the option and the command and what it "
            + "takes. An option is given once, except those marked repeatable. segue help COMMAND lists a command's options.",
    ]
    static let exitStatuses: [(String, String)] = [
        ("0", "done"), ("1", "the work failed: a clip cannot be read, an encoder or GPU error, a comparison under its threshold"),
        ("2", "the edit or the command line is invalid (or stitch refused: chunks to render again)"),
        ("3", "farm status: the farm's work is still queued or running"),
        ("75", "a chunk render failed in a way worth retrying (GPU start-up, output I/O)"),
        ("130, 143", "interrupted by SIGINT (Ctrl-C: render stops before its next frame and says where) or SIGTERM; the temporary output removed, or kept with --keep-partial"),
    ]
    static let environment: [(String, String)] = [
        ("SEGUE_DISABLE_EGL=1", "no EGL context is made: --backend auto renders on the CPU, --backend gpu fails"),
        (FarmEngines.chunkIndexVariables.joined(separator: ", "), "the chunk render --chunk auto renders, in this order"),
    ]
    static let seeAlso = "ffmpeg(1), ffprobe(1); README.md and docs/ in Segue's source: docs/cli.md (the command line), docs/edit-file.md, "
        + "docs/farms.md, docs/untrusted-edits.md, docs/library.md"

    /// The commands each option belongs to, in the table's order of commands.
    static func commands(of o: OptionSpec) -> [String] { CommandTable.scopes.filter { o.commands.contains($0) } }

    /// Each command (or subcommand) with its synopsis, summary and the names of its options.
    static var entries: [(scope: String, spec: CommandSpec)] {
        CommandTable.all.flatMap { c in [(c.name, c)] + c.subcommands.map { ("\(c.name) \($0.name)", $0) } }
    }

    static func optionNames(_ scope: String, _ spec: CommandSpec) -> [String] {
        let options = spec.subcommands.isEmpty ? OptionTable.options(for: scope).filter { $0.group != .general } : []
        return options.map(\.name)
    }

    // MARK: roff

    static var roff: String {
        // No hyphenation, ragged right: option names stay whole.
        var r = [".TH SEGUE 1 \"\" \"segue \(Segue.version)\" \"User Commands\"", ".nh", ".ad l", ".SH NAME", text(name),
                 ".SH SYNOPSIS", "\\fBsegue\\fR \\fIcommand\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]", ".SH DESCRIPTION"]
        r += description.flatMap { [text($0), ".PP"] }.dropLast()
        r.append(".SH COMMANDS")
        for (scope, spec) in entries {
            r += [".SS \(text(scope))", text(spec.summary), ".PP"]
            for line in spec.synopsis { r += ["\\fBsegue\\fR " + text(line), ".br"] }
            if !spec.notes.isEmpty { r += [".PP", text(spec.notes.joined(separator: " "))] }
            let names = optionNames(scope, spec)
            if !names.isEmpty { r += [".PP", "Options: " + text(names.joined(separator: ", ")) + "."] }
        }
        r.append(".SH OPTIONS")
        for group in OptionGroup.allCases {
            r.append(".SS \(text(group.heading))")
            for o in OptionTable.all where o.group == group {
                r += [".TP", o.names.map { "\\fB\(text($0))\\fR" }.joined(separator: ", ") + (o.value.map { " \\fI\(text($0))\\fR" } ?? "")]
                var line = o.help + (o.defaultValue.map { " (default: \($0))" } ?? "") + "."
                if o.repeatable { line += " Repeatable." }
                r.append(text(line))
                r.append(text(group == .general ? "Every command." : "Commands: \(commands(of: o).joined(separator: ", "))."))
            }
        }
        r.append(".SH EXIT STATUS")
        for (code, meaning) in exitStatuses { r += [".TP", "\\fB\(text(code))\\fR", text(meaning)] }
        r.append(".SH ENVIRONMENT")
        for (name, meaning) in environment { r += [".TP", "\\fB\(text(name))\\fR", text(meaning)] }
        r += [".SH SEE ALSO", text(seeAlso)]
        return r.joined(separator: "\n") + "\n"
    }

    /// `s` as roff text: backslashes and hyphens escaped (`\e`, `\-`: options stay copyable), a leading period or
    /// apostrophe guarded (`\&`), anything outside ASCII as a `\[uXXXX]` escape (groff reads Latin-1 unless told).
    static func text(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case _ where u.value > 0x7e || u.value < 0x20: out += String(format: "\\[u%04X]", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }

    // MARK: Markdown

    static var markdown: String {
        var m = ["# Every command and option", "",
                 "<!-- Generated by `segue man --format markdown` from the option table (Sources/segue/Options*.swift, CommandTable.swift): "
                    + "`make man` writes it again; a test fails when it differs. -->", "",
                 "segue \(Segue.version). " + description[1].replacingOccurrences(of: "segue help COMMAND", with: "`segue help COMMAND`"), "",
                 "| command | what it does | options |", "|---|---|---|"]
        for (scope, spec) in entries {
            let usage = spec.synopsis.map { "`segue \(cell($0))`" }.joined(separator: "<br>")
            let names = optionNames(scope, spec).map { "`\($0)`" }.joined(separator: ", ")
            m.append("| \(usage) | \(cell(spec.summary))\(spec.notes.isEmpty ? "" : ". " + cell(spec.notes.joined(separator: " "))) | \(names) |")
        }
        for group in OptionGroup.allCases {
            m += ["", "## \(group.heading.prefix(1).uppercased() + group.heading.dropFirst())", "", "| option | meaning | default | commands |", "|---|---|---|---|"]
            for o in OptionTable.all where o.group == group {
                let names = o.names.map { "`\($0)\(o.value.map { " \(cell($0))" } ?? "")`" }.joined(separator: ", ")
                let takers = group == .general ? "every command" : commands(of: o).joined(separator: ", ")
                m.append("| \(names) | \(cell(o.help))\(o.repeatable ? " (repeatable)" : "") | \(o.defaultValue.map(cell) ?? "") | \(takers) |")
            }
        }
        m += ["", "## Exit status", ""] + exitStatuses.map { "- `\($0.0)`: \($0.1)" }
        return m.joined(separator: "\n") + "\n"
    }

    /// `s` in a Markdown table cell: pipes escaped.
    static func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|") }
}
