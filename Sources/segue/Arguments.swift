import Foundation
import Segue
import SeguePipeline
import SegueFarm

/// Progress output styles.
enum ProgressStyle: String { case bar, plain, json, none }

/// Every option the commands take; each command uses what applies to it.
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
    var farm = FarmOptions(), dryRun = false
    /// The options that change the edit (size, rate, encoder settings, music), each with its value, as given: a chunk
    /// plan records them so that every worker renders the same edit.
    var editOverrideGroups: [[String]] = []
    var editOverrides: [String] { editOverrideGroups.flatMap { $0 } }
    /// Every option given, by its canonical name (`-o` for `--output`, `--verbose` for `-v`), in order.
    var given: [String] = []
    /// What the edit may read and how much it may ask for (`--root`, `--output-root`, `--allow-indirect-inputs`,
    /// `--max-megapixels`, `--max-duration`, `--max-clips`, `--max-picture-memory`): also in `options.inputPolicy`.
    var inputPolicy: InputPolicy {
        get { options.inputPolicy }
        set { options.inputPolicy = newValue }
    }
    /// The input-policy options given (a chunk render checks them against its plan's).
    var policyOptionsGiven: Bool { given.contains { CommandOptions.inputs.contains($0) || $0 == "--output-root" } }
    /// The canonical names of the options that change the edit.
    static let editOverrideOptions: Set<String> = ["--square", "--size", "--fit", "--fps", "--background", "--codec", "--crf", "--preset",
                                                   "--encoder", "--music", "--duck", "--tone-map", "--dynamic-range", "--overlay",
                                                   "--title", "--captions", "--missing-media"]

    init(_ args: [String]) throws {
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < args.count else { throw UsageError("\(name) needs a value") }
            return args[i]
        }
        func number(_ name: String) throws -> Double {
            let v = try value(name)
            guard let d = Double(v), d.isFinite else { throw UsageError("\(name) needs a number (got \(v))") }
            return d
        }
        while i < args.count {
            let a = args[i]
            let first = i
            if a.hasPrefix("-") && a != "-" { given.append(Arguments.canonical[a] ?? a) }
            defer { if Arguments.editOverrideOptions.contains(a) { editOverrideGroups.append(Array(args[first..<min(i, args.count)])) } }
            switch a {
            case "-o", "--output": output = try value(a)
            case "--backend":
                let v = try value(a)
                guard let b = Backend(rawValue: v) else { throw UsageError("--backend must be gpu, cpu or auto (got \(v))") }
                options.backend = b
            case "--codec":
                let v = try value(a)
                guard let c = OutputSettings.Codec(rawValue: v) else { throw UsageError("--codec must be \(OutputFormat.codecNames) (got \(v))") }
                codec = c
            case "--crf":
                let v = try value(a)
                guard let n = Int(v), (0...51).contains(n) else { throw UsageError("--crf must be 0…51 (got \(v))") }
                crf = n
            case "--preset": preset = try value(a)
            case "--encoder":
                let v = try value(a)
                guard !v.isEmpty else { throw UsageError("--encoder needs an encoder name, e.g. libx265") }
                encoder = v
            case "--tone-map":
                let v = try value(a)
                guard let t = ToneMapCurve.parse(v) else {
                    throw UsageError("--tone-map must be one of \(ToneMapCurve.allCases.map(\.rawValue).joined(separator: ", ")) (got \(v))")
                }
                toneMap = t
            case "--dynamic-range":
                let v = try value(a)
                guard let d = DynamicRange(rawValue: v.lowercased()) else { throw UsageError("--dynamic-range must be sdr, hlg or pq (got \(v))") }
                dynamicRange = d
            case "--egl-platform":
                let v = try value(a)
                guard let p = EGLOptions.Platform(rawValue: v) else { throw UsageError("--egl-platform must be gbm, device or surfaceless (got \(v))") }
                options.egl.platform = p
            case "--gpu-device": options.egl.device = try value(a)
            case "--hwaccel":
                let v = try value(a)
                guard let h = HardwareDecoding(rawValue: v) else { throw UsageError("--hwaccel must be none or cuda (got \(v))") }
                options.hardwareDecoding = h
            case "--no-audio": options.audio = false
            case "--verbose", "-v": options.verbose = true
            case "--square": square = true
            case "--size":
                let v = try value(a)
                guard let s = PixelSize.parse(v) else { throw UsageError("--size must look like 1280x720 (got \(v))") }
                size = s
            case "--fit":
                let v = try value(a)
                guard let f = FitMode(rawValue: v), FitMode.userModes.contains(f) else { throw UsageError("--fit must be fill, fit or stretch (got \(v))") }
                fit = f
            case "--background":
                let v = try value(a)
                if v.lowercased() == "transparent" { transparent = true; break }
                guard let c = RGBColour.parse(v) else { throw UsageError("--background must be a colour: #rrggbb, #rgb or a name such as black, white, grey, or transparent (got \(v))") }
                background = c
            case "--fps":
                let v = try value(a)
                guard let r = FrameRate.parse(v) else { throw UsageError("--fps must be a positive rate such as 30 or 30000/1001 (got \(v))") }
                fps = r
            case "--transition": transitions.append(try Arguments.parseTransition(try value(a)))
            case "--json": json = true
            case "--at":
                let t = try number(a)
                guard t >= 0, MediaTime.isRepresentable(seconds: t) else { throw UsageError("--at must be 0…\(Int(MediaTime.maxSeconds)) seconds") }
                at = t
            case "--frame":
                let v = try value(a)
                guard let n = Int64(v), n >= 0 else { throw UsageError("--frame must be a frame number ≥ 0 (got \(v))") }
                frame = n
            case "--frames": frames = try Arguments.count(a, try value(a), min: 1)
            case "--cols":
                let v = try value(a)
                guard let n = Int(v), (1...50).contains(n) else { throw UsageError("--cols must be 1…50 (got \(v))") }
                columns = n
            case "--tile-width":
                let v = try value(a)
                guard let n = Int(v), (16...4096).contains(n) else { throw UsageError("--tile-width must be 16…4096 (got \(v))") }
                tileWidth = n
            case "--at-progress":
                let v = try value(a)
                let values = v.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard !values.isEmpty, values.allSatisfy({ $0 != nil && (0...1).contains($0!) }) else {
                    throw UsageError("--at-progress takes progress values 0…1, separated by commas (got \(v))")
                }
                sheetProgress = values.map { $0! }
            case "--min-psnr": minPSNR = try number(a)
            case "--backends": backends = true
            case "--music":
                let v = try value(a)
                // PATH[:VOLUME]; a path may itself contain colons, so only a trailing number counts as the volume.
                if let colon = v.lastIndex(of: ":"), let vol = Double(v[v.index(after: colon)...]) {
                    guard vol >= 0 && vol <= 16 else { throw UsageError("--music volume must be 0…16 (got \(vol))") }
                    music = (String(v[..<colon]), vol)
                } else if let colon = v.lastIndex(of: ":"), !FileManager.default.fileExists(atPath: v),
                          FileManager.default.fileExists(atPath: String(v[..<colon])) {
                    // "song.m4a:loud": the file exists without the suffix, so the suffix was meant as the volume.
                    throw UsageError("--music volume must be a number 0…16 after the last colon (got \(v[v.index(after: colon)...]))")
                } else {
                    music = (v, nil)
                }
            case "--duck": duck = true
            case "--missing-media":
                let v = try value(a)
                guard let m = MissingMediaPolicy(rawValue: v) else { throw UsageError("--missing-media must be error, black or slate (got \(v))") }
                missingMedia = m
            case "--overlay": overlays.append(try Arguments.parseOverlay(try value(a)))
            case "--title": titles.append(try Arguments.parseTitle(try value(a)))
            case "--captions":
                let v = try value(a)
                if v.isEmpty { throw UsageError("--captions needs a caption file (.srt, .vtt, .ass, .ssa)") }
                captions = v
            case "--duration": duration = try Arguments.seconds(a, try number(a))
            case "--segment": segment = try Arguments.seconds(a, try number(a))
            case "--timeout": timeout = try Arguments.seconds(a, try number(a))
            case "--preview": preview = try value(a)
            case "--reconnect": reconnect = true
            case "--chunks": chunks = try Arguments.count(a, try value(a), min: 1)
            case "--plan": plan = try value(a)
            case "--chunk": chunk = try value(a)
            case "--audio": audioPath = try value(a)
            case "--work-dir": farm.workDir = try value(a)
            case "--partition": farm.partition = try value(a)
            case "--gres": farm.gres = try value(a)
            case "--time": farm.time = try value(a)
            case "--max-parallel", "--jobs": farm.maxParallel = try Arguments.count(a, try value(a), min: 1)
            case "--retries": farm.retries = try Arguments.count(a, try value(a), min: 0)
            case "--retry-delay": farm.retryDelay = try Arguments.count(a, try value(a), min: 0)
            case "--allow-local": farm.allowLocal = true
            case "--dry-run": dryRun = true
            case "--root": inputPolicy.root = try Arguments.folder(a, try value(a))
            case "--output-root": inputPolicy.outputRoot = try Arguments.folder(a, try value(a))
            case "--allow-indirect-inputs": inputPolicy.allowIndirectInputs = true
            case "--max-megapixels":
                let v = try number(a)
                guard v > 0, v <= 1e6 else { throw UsageError("--max-megapixels must be > 0 (megapixels per picture; got \(v))") }
                inputPolicy.limits.maxPicturePixels = Int(v * 1e6)
                inputPolicy.limits.maxLargeStillPixels = Int(v * 1e6)
            case "--max-duration":
                let v = try number(a)
                guard v > 0, MediaTime.isRepresentable(seconds: v) else { throw UsageError("--max-duration must be > 0 seconds (got \(v))") }
                inputPolicy.limits.maxDuration = v
            case "--max-clips": inputPolicy.limits.maxClips = try Arguments.count(a, try value(a), min: 1)
            case "--max-picture-memory":
                let v = try number(a)
                guard v > 0, v <= Double(1 << 30) else { throw UsageError("--max-picture-memory must be > 0 MiB (got \(v))") }
                inputPolicy.limits.maxPictureMemory = Int(v * Double(1 << 20))
            case "--frame-timeout":
                let v = try number(a)
                guard v >= 0, v <= 1e6 else { throw UsageError("--frame-timeout must be 0 (no watchdog) or more seconds (got \(v))") }
                options.frameTimeout = v == 0 ? nil : v
            case "--progress":
                let v = try value(a)
                guard let p = ProgressStyle(rawValue: v) else { throw UsageError("--progress must be bar, plain, json or none (got \(v))") }
                progress = p
            case "-h", "--help": throw HelpRequested()
            default:
                if a.hasPrefix("-") && a != "-" { throw UsageError("unknown option \(a)") }
                positional.append(a)
            }
            i += 1
        }
        // Workers may run in another folder: record the music and overlay files by absolute path.
        for (k, group) in editOverrideGroups.enumerated() where ["--music", "--overlay", "--captions"].contains(group.first) && group.count == 2 && !group[1].hasPrefix("/") {
            editOverrideGroups[k][1] = FileManager.default.currentDirectoryPath + "/" + group[1]
        }
    }

    /// Other spellings of options.
    static let canonical = ["--output": "-o", "-v": "--verbose", "-h": "--help"]

    /// A number of seconds > 0 (and at most a day) for option `name`.
    static func seconds(_ name: String, _ v: Double) throws -> Double {
        guard v > 0, v <= 86_400 else { throw UsageError("\(name) must be seconds > 0 (got \(v))") }
        return v
    }

    /// The folder `v` given to option `name`, absolute with symbolic links resolved. Throws `UsageError` if it is not one.
    static func folder(_ name: String, _ v: String) throws -> String {
        var isDir: ObjCBool = false
        let path = URL(fileURLWithPath: v).standardized.path
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue, let real = InputPolicy.realPath(path) else {
            throw UsageError("\(name) needs an existing folder (got \(v))")
        }
        return real
    }

    /// A whole number ≥ `min` for option `name`.
    static func count(_ name: String, _ v: String, min: Int) throws -> Int {
        guard let n = Int(v), n >= min, n <= 1_000_000 else { throw UsageError("\(name) must be a whole number ≥ \(min) (got \(v))") }
        return n
    }

    /// `FILE[:x,y,scale[,opacity]]`: a picture or clip over the whole edit, its centre at (x, y) (normalized, top-left
    /// origin), `scale` times its fitted size, `opacity` 0…1. The geometry follows the last colon only when it is 3 or 4
    /// numbers (a path may itself hold colons).
    static func parseOverlay(_ s: String) throws -> Overlay {
        if let colon = s.lastIndex(of: ":") {
            let tail = s[s.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if (3...4).contains(tail.count), tail.allSatisfy({ $0 != nil && $0!.isFinite }) {
                var o = Overlay(path: String(s[..<colon]))
                o.x = tail[0]!; o.y = tail[1]!; o.scale = tail[2]!
                if tail.count == 4 { o.opacity = tail[3]! }
                guard o.scale > 0 && o.scale <= 100 else { throw UsageError("--overlay scale must be > 0 and ≤ 100 (got \(o.scale))") }
                guard (0...1).contains(o.opacity) else { throw UsageError("--overlay opacity must be 0…1 (got \(o.opacity))") }
                guard abs(o.x) <= 100 && abs(o.y) <= 100 else { throw UsageError("--overlay x and y are positions in the frame, 0…1 (got \(o.x), \(o.y))") }
                if o.path.isEmpty { throw UsageError("--overlay needs a file: FILE[:x,y,scale[,opacity]]") }
                return o
            }
            if tail.count >= 2 && tail.count <= 4 && tail.contains(where: { $0 != nil }) && !FileManager.default.fileExists(atPath: s) {
                throw UsageError("--overlay takes FILE[:x,y,scale[,opacity]], e.g. logo.png:0.92,0.9,0.1 (got \(s))")
            }
        }
        if s.isEmpty { throw UsageError("--overlay needs a file: FILE[:x,y,scale[,opacity]]") }
        return Overlay(path: s)
    }

    /// `TEXT[:SECONDS]`: a title, centred, for SECONDS (default `SourceInfo.defaultStillDuration`). Only a trailing
    /// positive number after the last colon is the duration ("Part 2: the end" is all text).
    static func parseTitle(_ s: String) throws -> (text: String, seconds: Double?) {
        var text = s, seconds: Double?
        if let colon = s.lastIndex(of: ":"), let d = Double(s[s.index(after: colon)...].trimmingCharacters(in: .whitespaces)) {
            guard d > 0, d <= 86_400 else { throw UsageError("--title seconds must be > 0 (got \(d))") }
            text = String(s[..<colon]); seconds = d
        }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw UsageError("--title needs some words: --title \"TEXT\"[:SECONDS]") }
        return (text.replacingOccurrences(of: "\\n", with: "\n"), seconds)
    }

    /// `TYPE:SECONDS[:DIRECTION]`, or `cut`.
    static func parseTransition(_ s: String) throws -> Transition? {
        if s == "cut" || s == "none" { return nil }
        let parts = s.split(separator: ":").map(String.init)
        guard let first = parts.first else { throw UsageError("--transition takes TYPE:SECONDS[:DIRECTION] (got \(s))") }
        let kind: TransitionKind
        do { kind = try EditFile.transitionKind(first, field: "--transition") } catch let e as EditError {
            throw UsageError(e.description)
        }
        if kind == .glsl { throw UsageError("--transition glsl needs a shader file: give it in an edit file ({\"type\": \"glsl\", \"shader\": \"FILE\"})") }
        var duration = MediaTime(value: 1, timescale: 1)
        if parts.count > 1 {
            guard let d = Double(parts[1]), d > 0, MediaTime.isRepresentable(seconds: d) else { throw UsageError("--transition duration must be > 0 seconds (got \(parts[1]))") }
            duration = MediaTime(seconds: d)
        }
        var direction: Transition.Direction?
        if parts.count > 2 {
            guard let d = Transition.Direction(rawValue: parts[2]) else { throw UsageError("unknown --transition direction \(parts[2])") }
            do { try Transition.check(kind: kind, direction: d, field: "--transition") } catch let e as EditError {
                throw UsageError(e.description)
            }
            direction = d
        }
        if parts.count > 3 { throw UsageError("--transition takes TYPE:SECONDS[:DIRECTION] (got \(s))") }
        return Transition(kind: kind, duration: duration, direction: direction)
    }

    /// The edit: from an edit file (one `.json` argument) or from clips on the command line, with the
    /// command-line overrides applied.
    func edit() throws -> Edit {
        guard !positional.isEmpty else { throw UsageError("give an edit file or clips to join") }
        var edit: Edit
        if let file = editFilePath {
            if missingMedia != nil && EditDocument.Format(path: file) == .json {
                throw UsageError("--missing-media applies to OpenTimelineIO timelines (.otio, .otioz), not to an edit file")
            }
            edit = try OpenDocuments.shared.open(file, missingMedia: missingMedia ?? .error, policy: inputPolicy).edit
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
        if square && size != nil { throw UsageError("give either --square or --size, not both") }
        if music != nil && !options.audio { throw UsageError("--music needs audio: drop --no-audio") }
        if square { edit.square = true }
        if let s = size { edit.renderSize = s }
        if let f = fit { edit.fit = f }
        if let b = background { edit.background = b; edit.transparentBackground = false }
        if transparent { edit.transparentBackground = true }
        if let r = fps { edit.frameRate = r }
        if let c = codec { edit.output.codec = c; edit.output.codecFromFileName = false }
        if let c = crf { edit.output.crf = c }
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
        return edit
    }

    /// The edit file among the positional arguments, when there is one argument naming one: a JSON edit file
    /// (`.json`), an OpenTimelineIO timeline (`.otio`) or bundle (`.otioz`).
    var editFilePath: String? {
        guard positional.count == 1, Arguments.editFileExtensions.contains(URL(fileURLWithPath: positional[0]).pathExtension.lowercased()) else { return nil }
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

struct HelpRequested: Error {}

/// The edit files this process opened, kept open until it ends (an `.otioz` bundle's media stay extracted while the
/// edit renders, and every reading of one file in a process, such as a chunk worker's checks against its plan, sees
/// the same extracted paths). `closeAll()` removes the extracted folders; the signal handlers remove them on SIGINT
/// and SIGTERM.
final class OpenDocuments: @unchecked Sendable {
    static let shared = OpenDocuments()
    private let lock = NSLock()
    private var documents: [String: EditDocument] = [:]

    /// The document for `path` read with these settings, opened once.
    func open(_ path: String, missingMedia: MissingMediaPolicy, policy: InputPolicy) throws -> EditDocument {
        let key = "\(URL(fileURLWithPath: path).standardized.path)|\(missingMedia.rawValue)|\(policy)"
        lock.lock()
        defer { lock.unlock() }
        if let known = documents[key] { return known }
        let document = try EditDocument.open(path, missingMedia: missingMedia, policy: policy)
        documents[key] = document
        return document
    }

    /// Releases every document (removing extracted bundles).
    func closeAll() {
        lock.lock()
        documents.removeAll()
        lock.unlock()
    }
}
