import Foundation
import Segue
import SeguePipeline
import SegueFarm
import SegueMedia

/// What the command line gave: the arguments and every option's value (`OptionTable` parses them); each command uses
/// what applies to it.
struct Arguments {
    var positional: [String] = []
    var output: String?
    var options = RenderOptions()
    var transitions: [Transition?] = []
    var square = false, size: PixelSize?, fit: FitMode?, fps: FrameRate?
    /// `--background COLOUR`: the edit's background (`Edit.background`).
    var background: RGBColour?
    /// `--background transparent`: the output keeps alpha (`Edit.transparentBackground`).
    var transparent = false
    /// `--delivery NAME`, `--loudness LUFS`, `--true-peak DBTP`.
    var delivery: DeliveryPreset?, loudness: Double?, truePeak: Double?
    /// `--smart`: `OutputSettings.smart`.
    var smart = false
    var codec: OutputSettings.Codec?, crf: Int?, preset: String?, encoder: String?, toneMap: ToneMapCurve?, dynamicRange: DynamicRange?
    var json = false
    var at: Double?, frame: Int64?
    /// `--frames N` (bench-composite).
    var frames: Int?
    var columns = 5, tileWidth = 192
    var sheetProgress: [Double]?
    var minPSNR: Double?
    var backends = false
    var progress: ProgressStyle?
    var music: (path: String, volume: Double?)?
    var duck = false
    /// `--set NAME=VALUE` and `--values FILE` (the later given wins): the edit file's placeholders (docs/templates.md).
    var templateValues = TemplateValues()
    /// Whether values no placeholder of the template uses are warned about (a batch's row process: no, the batch says
    /// it once).
    var warnsOfUnusedValues = true
    /// `segue batch`: `--poster PATTERN`, `--poster-at SECONDS`, `--results FILE`, `--row K` (one row, as an array task runs it).
    var poster: String?, posterAt: Double?, results: String?, row: Int?
    /// `segue batch --engine local|slurm` (and `segue serve`'s).
    var batchEngine = "local"
    /// `segue serve`'s own options.
    var serve = ServeArguments()
    /// `--missing-media error|black|slate`: what an OTIO timeline's missing media become.
    var missingMedia: MissingMediaPolicy?
    /// `--overlay FILE[:x,y,scale[,opacity]]`, in order: each a track above the edit.
    var overlays: [Overlay] = []
    struct Overlay { var path: String; var x = 0.5, y = 0.5, scale = 1.0, opacity = 1.0 }
    /// `--title "TEXT"[:SECONDS]`, in order: one after another on a track above the edit.
    var titles: [(text: String, seconds: Double?)] = []
    /// `--captions FILE`: the edit's captions (`Edit.captions`).
    var captions: String?
    // Recording.
    var duration: Double?, segment: Double?, preview: String?, reconnect = false, timeout: Double?
    // Render farms.
    var chunks: Int?, plan: String?, chunk: String?, audioPath: String?
    /// `--cache DIR` (render, farm): the chunk cache; `--max-size` of `cache prune`, in bytes.
    var cache: String?, maxSize: Int64?
    var farm = FarmOptions(), dryRun = false
    /// `farm slurm|resume --wait`: follow the farm render to its end.
    var waitForFarm = false
    /// `--format` of `segue man`.
    var manFormat = ManPage.Format.roff
    /// Every option given, in order, with its value (nil for a flag).
    var givenOptions: [(option: OptionSpec, value: String?)] = []
    /// Every option given, by its name (`-o` for `--output`, `--verbose` for `-v`), in order.
    var given: [String] { givenOptions.map(\.option.name) }
    /// The options that change the edit (`OptionEffect.edit`: size, rate, encoder settings, music, …), each with its
    /// value, as given, files by absolute path: each checked against what a resolved edit or a plan fixes
    /// (`refuseChanges`).
    var editOverrideGroups: [[String]] = []
    /// The options given that make the resolved edit (`OptionSpec.resolved`), with their values, files by absolute path.
    var resolvedArguments: [String] { givenOptions.filter { $0.option.resolved }.flatMap { Arguments.words($0.option, $0.value) } }
    /// What the edit may read and how much it may ask for (`--root`, `--output-root`, `--allow-indirect-inputs`,
    /// `--max-megapixels`, `--max-duration`, `--max-clips`, `--max-picture-memory`): also in `options.inputPolicy`.
    var inputPolicy: InputPolicy {
        get { options.inputPolicy }
        set { options.inputPolicy = newValue }
    }
    /// The input-policy options given (a chunk render checks them against its plan's).
    var policyOptionsGiven: Bool { givenOptions.contains { $0.option.effect == .policy } }

    /// Parses `args` by `OptionTable`: an option's value is the argument after it; anything else not starting with
    /// "-" (or "-" alone) is positional. Throws `UsageError` for an unknown option (suggesting the nearest of what
    /// `command` takes), a missing value or one the option refuses; `HelpRequested` at `--help`.
    init(_ args: [String], command: String? = nil) throws {
        var rest = args[...]
        while let a = rest.popFirst() {
            guard a.hasPrefix("-") && a != "-" else { positional.append(a); continue }
            guard let option = OptionTable.byName[a] else { throw UsageError(OptionTable.unknown(a, command: command)) }
            var value: String?
            if option.value != nil {
                guard let v = rest.popFirst() else { throw UsageError("\(a) needs a value") }
                value = v
            }
            givenOptions.append((option, value))
            try option.apply(&self, OptionValue(option: option.name, text: value ?? ""))
        }
        editOverrideGroups = givenOptions.filter { $0.option.effect == .edit }.map { Arguments.words($0.option, $0.value) }
    }

    /// An option and its value as a plan records them: a file (the music, an overlay, captions) by absolute path.
    static func words(_ option: OptionSpec, _ value: String?) -> [String] {
        guard var v = value else { return [option.name] }
        switch option.completion {
        case .files, .anyFile, .directory:
            if !v.hasPrefix("/") { v = FileManager.default.currentDirectoryPath + "/" + v }
        default: break
        }
        return [option.name, v]
    }

    /// The options every chunk render gets from `farm`'s command line (`OptionEffect.forwarded`: the renderer, the
    /// GPU, the frame timeout, `--verbose`), as given.
    func renderArgumentsForChunks() -> [String] {
        givenOptions.filter { $0.option.effect == .forwarded }.flatMap { Arguments.words($0.option, $0.value) }
    }

    /// The edit: from an edit file (one `.json` argument) or from clips on the command line, with the
    /// command-line overrides applied. (A command that renders or saves it uses `resolvedInput()`, which also takes a
    /// resolved edit's recorded settings.)
    func edit() throws -> Edit {
        var edit = try loadEdit()
        try applyOverrides(to: &edit)
        return edit
    }

    /// The text of a template file whose placeholders can be read as text (JSON and .otio; nil for an .otioz bundle
    /// or a file that cannot be read).
    static func templateText(_ file: String) -> String? {
        guard EditDocument.Format(path: file) != .otioz else { return nil }
        return try? String(contentsOfFile: file, encoding: .utf8)
    }

    /// The edit as its file (or the clips on the command line) gives it, without the command line's options.
    func loadEdit() throws -> Edit {
        guard !positional.isEmpty else { throw UsageError("give an edit file or clips to join") }
        var edit: Edit
        if let file = editFilePath {
            if missingMedia != nil && EditDocument.Format(path: file) == .json {
                throw UsageError("--missing-media applies to OpenTimelineIO timelines (.otio, .otioz), not to an edit file")
            }
            edit = try OpenDocuments.shared.open(file, missingMedia: missingMedia ?? .error, policy: inputPolicy, values: templateValues).edit
            if warnsOfUnusedValues && !templateValues.isEmpty, let text = Arguments.templateText(file) {
                edit.warnings += Template.unusedValueWarnings(templateValues, in: [text], given: "--set/--values")
            }
            if !transitions.isEmpty { throw UsageError("--transition applies to clips on the command line, not to an edit file") }
        } else {
            if missingMedia != nil { throw UsageError("--missing-media applies to OpenTimelineIO timelines (.otio, .otioz)") }
            let cwd = FileManager.default.currentDirectoryPath
            edit = Edit(clips: positional.enumerated().map { (k, p) in
                // A URL (concat:, http:) stays as it is, for the input policy to judge.
                let path = p.hasPrefix("/") || InputPolicy.urlScheme(of: p) != nil ? p : URL(fileURLWithPath: cwd).appendingPathComponent(p).standardized.path
                let t: Transition? = k == 0 || transitions.isEmpty ? nil : transitions[(k - 1) % transitions.count]
                var clip = ClipSpec(path: path, transition: t)
                // A numbered picture pattern (quoted, so that the shell leaves it): an image sequence at 24 fps.
                if ImageSequencePattern(path: path) != nil && !FileManager.default.fileExists(atPath: path) { clip.imageSequence = ImageSequence() }
                return clip
            })
            if let run = ImageSequencePattern.detect(positional) {
                // A shell glob (frames/*.png) expanded to many numbered pictures: each became a still.
                let each = Int(SourceInfo.defaultStillDuration.seconds)
                say("warning: the \(run.count) numbered pictures given (\(run.first)…\(run.last)) each became a still of \(each) s "
                    + "(\(run.count * each) s in all). For an image sequence (one picture per frame) give its pattern instead, quoted so that "
                    + "the shell leaves it: segue render '\(run.pattern)' (24 fps), or in an edit file {\"path\": \"\(run.pattern)\", \"rate\": 24}")
            }
            // One --transition applies to every join, whatever the clips' lengths: shorten it where a clip is too short.
            edit.fitTransitions = true
        }
        return edit
    }

    /// Applies the options that change the edit (`OptionEffect.edit`: size, rate, background, encoder settings, music,
    /// titles, overlays, captions) to `edit`. Throws `UsageError` for options that contradict each other or the edit.
    func applyOverrides(to edit: inout Edit) throws {
        if square && size != nil { throw UsageError("give either --square or --size, not both") }
        if music != nil && !options.audio { throw UsageError("--music needs audio: drop --no-audio") }
        if let d = delivery {
            // The preset first, under every setting the edit or the command line gives.
            if let had = edit.delivery, had != d {
                throw UsageError("the edit asks for the delivery preset \(had.name) (output.delivery): --delivery \(d.name) would contradict it; change the edit or drop --delivery")
            }
            if edit.delivery == nil { edit.apply(d, keeping: DeliveryPreset.Explicit(differingFromDefaults: edit.output, audio: edit.audio)) }
        }
        if let l = loudness {
            edit.output.loudness = LoudnessTarget(integrated: l, truePeak: truePeak ?? edit.output.loudness?.truePeak ?? LoudnessTarget.defaultTruePeak)
        } else if let tp = truePeak {
            guard edit.output.loudness != nil else {
                throw UsageError("--true-peak limits a loudness normalisation: give --loudness too (e.g. --loudness -14), or a delivery preset that sets one")
            }
            edit.output.loudness?.truePeak = tp
        }
        if square { edit.square = true }
        if let s = size { edit.renderSize = s }
        if let f = fit { edit.fit = f }
        if let b = background { edit.background = b; edit.transparentBackground = false }
        if transparent { edit.transparentBackground = true }
        if let r = fps { edit.frameRate = r }
        if let c = codec { edit.output.codec = c; edit.output.codecFromFileName = false }
        if let c = crf { edit.output.crf = c }
        if smart { edit.output.smart = true }
        if let e = encoder { edit.output.encoder = e }
        if let t = toneMap { edit.output.toneMap = t }
        if let d = dynamicRange { edit.output.dynamicRange = d }
        if let p = preset {
            // x264/x265 preset names are checked here; other encoders' presets (NVENC's p1…p7) when they open.
            if ["libx264", "libx265"].contains(edit.output.encoder ?? "libx264") && !OutputSettings.presets.contains(p) {
                throw UsageError("--preset must be one of \(OutputSettings.presets.joined(separator: ", ")) (got \(p))")
            }
            edit.output.preset = p
        }
        if let m = music {
            let cwd = FileManager.default.currentDirectoryPath
            var spec = edit.music ?? MusicSpec(path: "")
            spec.path = m.path.hasPrefix("/") || InputPolicy.urlScheme(of: m.path) != nil ? m.path
                : URL(fileURLWithPath: cwd).appendingPathComponent(m.path).standardized.path
            if let v = m.volume { spec.volume = v }
            edit.music = spec
        }
        if duck {
            guard edit.music != nil else { throw UsageError("--duck needs music (--music FILE or \"music\" in the edit)") }
            if edit.music?.duck == nil { edit.music?.duck = Ducking() }
        }
        if let c = captions {
            let cwd = FileManager.default.currentDirectoryPath
            let path = c.hasPrefix("/") ? c : URL(fileURLWithPath: cwd).appendingPathComponent(c).standardized.path
            var spec = edit.captions ?? CaptionSpec(path: path)
            spec.path = path
            edit.captions = spec
        }
        if !titles.isEmpty {
            // One track above the edit's: the titles one after another from the start, centred in the default style.
            edit.tracks.append(VideoTrack(clips: titles.map { t in
                ClipSpec(content: .text(TextSpec(text: t.text)), duration: t.seconds.map { MediaTime(seconds: $0) })
            }))
        }
        for o in overlays {
            // A track above everything, its one item lasting until the edit's end.
            let cwd = FileManager.default.currentDirectoryPath
            var item = ClipSpec(path: o.path.hasPrefix("/") ? o.path : URL(fileURLWithPath: cwd).appendingPathComponent(o.path).standardized.path)
            item.lastsUntilEditEnd = true
            item.layer.x = .constant(o.x); item.layer.y = .constant(o.y)
            item.layer.scale = .constant(o.scale); item.layer.opacity = .constant(o.opacity)
            edit.tracks.append(VideoTrack(clips: [item]))
        }
    }

    /// The edit this command works on, and these arguments as it works with them. For an edit as written: the edit
    /// with the command line's options (`edit()`), the arguments as they are. For a resolved edit (`segue resolve`'s
    /// file, `Edit.resolution`), what it fixes is kept: an option that would change the edit, its input policy or its
    /// audio is refused (`UsageError`; one that repeats it is fine), and the arguments take its input policy, audio
    /// choice and, unless `--frame-timeout` is given, its frame timeout.
    func resolvedInput() throws -> (edit: Edit, arguments: Arguments) {
        var edit = try loadEdit()
        guard let r = edit.resolution else {
            try applyOverrides(to: &edit)
            return (edit, self)
        }
        try refuseChanges(to: edit, fixedBy: "the resolved edit", remedy: "resolve the edit again with it")
        var a = self
        if policyOptionsGiven && inputPolicy != r.inputPolicy {
            throw UsageError("the resolved edit fixes what the edit may read (\(r.inputPolicy.root.map { "--root \($0)" } ?? "no --root")\(r.inputPolicy.allowIndirectInputs ? ", --allow-indirect-inputs" : ""), and its limits): drop the input options here or resolve the edit again with them")
        }
        if given.contains("--no-audio") && r.audio {
            throw UsageError("the resolved edit is rendered with its audio: --no-audio would change it; resolve the edit again with it")
        }
        a.inputPolicy = r.inputPolicy
        a.options.audio = r.audio
        if !given.contains("--frame-timeout") { a.options.frameTimeout = r.frameTimeout }
        return (edit, a)
    }

    /// Refuses (`UsageError`) the options given that would change `edit`, which `what` fixes ("the plan", "the
    /// resolved edit"); options that repeat what it says are fine.
    func refuseChanges(to edit: Edit, fixedBy what: String, remedy: String) throws {
        let differing = try editOverrideGroups.filter { group in
            var changed = edit
            try Arguments(group).applyOverrides(to: &changed)
            return changed != edit
        }
        if !differing.isEmpty {
            throw UsageError("\(what) fixes the edit's settings: \(differing.map { $0.joined(separator: " ") }.joined(separator: ", ")) would change them; drop it or \(remedy)")
        }
    }

    /// The `.otioz` bundle the edit file is, absolute (recorded in a resolved edit, so that each reader extracts it
    /// again); nil for other edits.
    var bundlePath: String? {
        guard let file = editFilePath, EditDocument.Format(path: file) == .otioz else { return nil }
        return URL(fileURLWithPath: file).standardizedFileURL.path
    }

    /// The edit file among the positional arguments, when there is one argument naming one: a JSON edit file
    /// (`.json`, unless it is a Lottie animation: a clip), an OpenTimelineIO timeline (`.otio`) or bundle (`.otioz`).
    var editFilePath: String? {
        guard positional.count == 1, Arguments.editFileExtensions.contains(URL(fileURLWithPath: positional[0]).pathExtension.lowercased()),
              !isLottieAnimation(path: positional[0]) else { return nil }
        return positional[0]
    }
    static let editFileExtensions: Set<String> = ["json", "otio", "otioz"]

    /// The library's options for what was given (`--backend`, `--gpu-device`, `--no-audio`, `--verbose`, …), with
    /// messages on standard error.
    var exportOptions: ExportOptions {
        var o = ExportOptions()
        o.backend = options.backend
        o.gpu = options.egl
        o.audio = options.audio
        o.hardwareDecoding = options.hardwareDecoding
        o.verbose = options.verbose
        o.log = { say($0) }
        o.inputPolicy = options.inputPolicy
        o.frameTimeout = options.frameTimeout
        o.keepPartial = options.keepPartial
        return o
    }

    func requireOutput() throws -> String {
        guard let o = output else { throw UsageError("missing -o OUTPUT") }
        guard !o.isEmpty else { throw UsageError("-o needs a file name") }
        try inputPolicy.checkOutput(path: o)
        // Never write over the edit file itself.
        if let file = editFilePath,
           URL(fileURLWithPath: file).standardizedFileURL.resolvingSymlinksInPath() == URL(fileURLWithPath: o).standardizedFileURL.resolvingSymlinksInPath() {
            throw UsageError("the output path \(o) is the edit file; choose another output path")
        }
        return o
    }

    /// An output path for a still picture: must end in .png.
    func requirePNGOutput() throws -> String {
        let o = try requireOutput()
        guard o.lowercased().hasSuffix(".png") else { throw UsageError("the picture is written as PNG: give -o a .png name (got \(o))") }
        return o
    }
}
