import Foundation
import Segue

// The one table of the command line's options (`OptionTable.all`, declared in Options*.swift): each option is one
// `OptionSpec` (its names, value, default, help line, the commands it belongs to, what it changes, how a shell
// completes its value, and the closure that sets it in `Arguments`). Parsing (`Arguments.init`), the "does not take"
// check, "did you mean" suggestions, `segue help`, `segue completion` and `segue man` all read it: a new option is one
// declaration plus its use.

/// What giving an option changes beyond the command it is given to.
enum OptionEffect: Sendable {
    /// Changes the edit (size, rate, background, encoder settings, music, overlays, titles, captions, transitions,
    /// missing media): folded into the resolved edit (`segue resolve`, the one a chunk plan holds for every worker).
    case edit
    /// What the edit may read and write and how much it may ask for (`InputPolicy`): recorded in the resolved edit
    /// (`EditResolution.inputPolicy`) and a chunk plan (`ChunkPlan.inputPolicy`).
    case policy
    /// What is written without being a setting of the edit (`--no-audio`: the resolved edit records it, a plan as its
    /// audio pass).
    case output
    /// How the frames are made, not what they show (the renderer, the GPU, decoding, the watchdog, `--verbose`):
    /// passed on to every chunk render a farm runs (`Arguments.renderArgumentsForChunks`); not resolved.
    case forwarded
    /// None of those: where the output goes, what is printed, farm settings, a command's own choices.
    case none
}

/// The groups options are listed in (`segue help COMMAND`, the man page), in this order.
enum OptionGroup: CaseIterable, Sendable {
    case command, picture, encoding, audio, gpu, inputs, farm, general

    var title: String {
        switch self {
        case .command: "options"
        case .picture: "picture"
        case .encoding: "encoding"
        case .audio: "audio"
        case .gpu: "GPU and decoding"
        case .inputs: "untrusted edits (docs/untrusted-edits.md)"
        case .farm: "render farms (docs/farms.md)"
        case .general: "every command"
        }
    }
    /// The title in the man page and docs/cli-reference.md, where the options of every command are listed together.
    var heading: String { self == .command ? "each command's own" : title }
}

/// How a shell completes an option's value or a command's arguments (`segue completion`).
enum Completion: Sendable, Equatable {
    /// Free text or a number: nothing offered.
    case none
    /// File names with one of these extensions (lower case, no dot; any case matches), and folders.
    case files([String])
    /// Any file name.
    case anyFile
    /// Folder names.
    case directory
    /// One of these words.
    case values([String])
    /// A command's name (`segue help COMMAND`).
    case commands
}

/// One command-line option: the one place it is declared.
struct OptionSpec: Sendable {
    /// The name the command line checks and messages use (`--size`; `-o` for `--output`).
    let name: String
    /// Another spelling (`--output`, `-v`, `-h`).
    var alias: String? = nil
    /// What its value is called in help (`WxH`, `gpu|cpu|auto`); nil for a flag, which takes no value.
    var value: String? = nil
    /// What applies when it is not given, in words, for help (nil: nothing, or it is said in `help`).
    var defaultValue: String? = nil
    /// One line for `segue help` and the man page.
    let help: String
    let group: OptionGroup
    /// The commands that take it, as `CommandTable.scopes` name them (`render`, `farm slurm`).
    let commands: Set<String>
    var effect: OptionEffect = .none
    var completion: Completion = .none
    /// May be given more than once (each adds: transitions cycle, overlays stack, titles follow each other).
    var repeatable = false
    /// Sets the option in `Arguments`. Throws `UsageError` for a value it refuses.
    let apply: @Sendable (inout Arguments, OptionValue) throws -> Void

    /// Part of the resolved edit (what a saved edit must hold to render the same): the options that change the edit,
    /// its input policy and limits, and what is written.
    var resolved: Bool { effect == .edit || effect == .policy || effect == .output }
    /// Its names, the short one first (`-o`, `--output`; `-v`, `--verbose`).
    var names: [String] { ([name] + (alias.map { [$0] } ?? [])).sorted { !$0.hasPrefix("--") && $1.hasPrefix("--") } }
    /// `-o, --output PATH`, as help lists it.
    var signature: String { names.joined(separator: ", ") + (value.map { " \($0)" } ?? "") }
}

/// The value an option was given, with the checks its `apply` uses; each throws `UsageError` naming the option.
struct OptionValue {
    /// The option's name (`OptionSpec.name`), for messages.
    let option: String
    /// The value as given ("" for a flag).
    let text: String

    /// A finite number.
    func number() throws -> Double {
        guard let d = Double(text), d.isFinite else { throw UsageError("\(option) needs a number (got \(text))") }
        return d
    }
    /// A number of seconds > 0, at most a day.
    func seconds() throws -> Double {
        let v = try number()
        guard v > 0, v <= 86_400 else { throw UsageError("\(option) must be seconds > 0 (got \(v))") }
        return v
    }
    /// A whole number ≥ `min` (and at most a million).
    func count(min: Int) throws -> Int {
        guard let n = Int(text), n >= min, n <= 1_000_000 else { throw UsageError("\(option) must be a whole number ≥ \(min) (got \(text))") }
        return n
    }
    /// An existing folder, absolute with symbolic links resolved.
    func folder() throws -> String {
        var isDir: ObjCBool = false
        let path = URL(fileURLWithPath: text).standardized.path
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue, let real = InputPolicy.realPath(path) else {
            throw UsageError("\(option) needs an existing folder (got \(text))")
        }
        return real
    }
    /// The one of `choices` the value names (`parse`: by raw value unless given), or `UsageError("--x must be a, b or c (got v)")`.
    func choice<T: RawRepresentable>(_ choices: [T], parse: ((String) -> T?)? = nil) throws -> T where T.RawValue == String {
        if let parse, let t = parse(text) { return t }
        if parse == nil, let t = choices.first(where: { $0.rawValue == text }) { return t }
        throw UsageError("\(option) must be \(OptionTable.orList(choices.map(\.rawValue))) (got \(text))")
    }
}

extension OptionSpec {
    /// An option whose value is one of `choices` (completed as those words), set by `set`.
    static func choice<T: RawRepresentable & Sendable>(_ name: String, _ choices: [T], defaultValue: String? = nil, help: String, group: OptionGroup,
                                                       commands: Set<String>, effect: OptionEffect = .none, parse: (@Sendable (String) -> T?)? = nil,
                                                       set: @escaping @Sendable (inout Arguments, T) -> Void) -> OptionSpec where T.RawValue == String {
        OptionSpec(name: name, value: choices.map(\.rawValue).joined(separator: "|"), defaultValue: defaultValue, help: help, group: group, commands: commands,
                   effect: effect, completion: .values(choices.map(\.rawValue))) { a, v in set(&a, try v.choice(choices, parse: parse)) }
    }
}

/// The sets of commands whole groups of options belong to.
enum Scopes {
    /// The farm subcommands that render an edit.
    static let farmRuns: Set<String> = ["farm local", "farm slurm"]
    /// Commands that make an edit and write it (or plan it, or save it resolved): the encoding and audio options.
    static let editing = farmRuns.union(["render", "plan", "render-audio", "export-otio", "resolve", "batch"])
    /// Commands that resolve an edit: the picture and input options.
    static let resolving = editing.union(["frame", "sheet", "compare"])
    /// Commands that draw frames: the GPU options.
    static let drawing = farmRuns.union(["render", "frame", "sheet", "compare", "record", "bench-composite", "batch"])
    /// Every command (and farm subcommand).
    static var every: Set<String> { Set(CommandTable.scopes) }
}

/// File-name extensions for completion (lower case, no dot).
enum FileKinds {
    /// Edit files: JSON edits, OpenTimelineIO timelines and bundles (`Arguments.editFileExtensions`).
    static let edits = Arguments.editFileExtensions.sorted()
    /// Audio files (`--music`, `--audio`).
    static let audio = ["aac", "flac", "m4a", "mka", "mp3", "ogg", "opus", "wav"]
    /// Clips, pictures and audio Segue reads (the output formats' own, pictures of image sequences, and the usual others).
    static let media = Set(OutputFormat.all.flatMap(\.extensions) + ImageSequencePattern.pictureExtensions + audio
                           + ["avi", "avif", "heic", "heif", "m2ts", "mts", "lottie", "mxf", "svg", "svgz", "ts", "y4m"]).sorted()
    /// Caption files (`--captions`).
    static let captions = ["ass", "json", "srt", "ssa", "vtt"]
}

/// The table, and what is read from it.
enum OptionTable {
    /// Every option, in the order help lists them within a group.
    static let all: [OptionSpec] = commandOptions + templateOptions + pictureOptions + encodingOptions + audioOptions + gpuOptions + inputOptions + farmOptions + serveOptions
        + generalOptions

    /// Each option by each of its names.
    static let byName: [String: OptionSpec] = {
        var d: [String: OptionSpec] = [:]
        for o in all { for n in o.names { precondition(d[n] == nil, "option \(n) is declared twice"); d[n] = o } }
        return d
    }()

    /// The options that make the resolved edit (`OptionSpec.resolved`), for a command that saves one.
    static var resolved: [OptionSpec] { all.filter(\.resolved) }

    /// The options `scope` (`render`, `farm slurm`) takes, in table order.
    static func options(for scope: String) -> [OptionSpec] { all.filter { $0.commands.contains(scope) } }

    /// The options of `command` and each of its subcommands together.
    static func options(forCommand command: String) -> [OptionSpec] {
        let scopes = Set(CommandTable.scopes(of: command))
        return all.filter { !$0.commands.isDisjoint(with: scopes) }
    }

    /// "unknown option --siz; did you mean --size?": among what `command` takes (every option's when the command is
    /// not known), the nearest name (`NearestName`), else the names it begins (`--trans`: --transition; a few at most);
    /// `--size=1920x1080` is told to give its value after a space; one near an option of other commands only is named as
    /// one the command does not take.
    static func unknown(_ name: String, command: String?) -> String {
        let candidates = command.map { options(forCommand: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? all
        let names = candidates.flatMap(\.names)
        if name.hasPrefix("--"), let eq = name.firstIndex(of: "=") {
            let option = String(name[..<eq]), value = String(name[name.index(after: eq)...])
            let known = names.contains(option) ? option : suggestion(for: option, among: names).count == 1 ? suggestion(for: option, among: names)[0] : nil
            if let known { return "unknown option \(name); give the value after a space: \(known) \(value)" }
        }
        let near = suggestion(for: name, among: names)
        if near.isEmpty, let command, !candidates.isEmpty {
            // Another command's option (`segue probe --siz`): say so rather than nothing.
            let elsewhere = suggestion(for: name, among: all.flatMap(\.names))
            if !elsewhere.isEmpty { return "unknown option \(name); segue \(command) does not take \(orList(elsewhere))" }
        }
        return "unknown option \(name)" + (near.isEmpty ? "" : "; did you mean \(orList(near))?")
    }

    /// The options `name` may have meant: the nearest of `names` (`NearestName`), else those it is the beginning of
    /// (at least two letters after the dashes; at most three), else none.
    static func suggestion(for name: String, among names: [String]) -> [String] {
        if let near = NearestName.suggestion(for: name, among: names) { return [near] }
        let letters = name.drop { $0 == "-" }
        guard letters.count >= 2 else { return [] }
        let begun = names.filter { $0.count > name.count && $0.lowercased().hasPrefix(name.lowercased()) }
        return begun.count <= 3 ? begun : []
    }

    /// Throws `UsageError` for the first option given that `scope` does not take, naming what it takes (exit 2), so
    /// that `segue probe --crf 20 x.mp4` does not pass for a probe that took the encoder setting into account.
    static func check(_ given: [String], scope: String) throws {
        let takes = options(for: scope)
        let names = Set(takes.map(\.name))
        guard let bad = given.first(where: { !names.contains($0) }) else { return }
        let own = takes.filter { $0.group != .general }.map(\.name).sorted()
        throw UsageError("segue \(scope) does not take \(bad)" + (own.isEmpty ? " (it takes no options)" : " (it takes \(own.joined(separator: ", ")))"))
    }

    /// Throws `UsageError` for an option given twice that is not `repeatable` (the later would silently win), and for
    /// `--at` with `--frame` (two answers to one question).
    static func checkRepeats(_ given: [String]) throws {
        var seen: Set<String> = []
        for o in given where !(byName[o]?.repeatable ?? false) {
            if !seen.insert(o).inserted { throw UsageError("\(o) is given twice; give it once") }
        }
        if seen.contains("--at") && seen.contains("--frame") { throw UsageError("give --at SECONDS or --frame N, not both") }
    }

    /// "a, b or c".
    static func orList(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
