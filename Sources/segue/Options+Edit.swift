import Foundation
import Segue

// The options that change the edit: its pictures, its encoding and its audio (`OptionEffect.edit`, recorded in chunk
// plans; see OptionTable.swift).

extension OptionTable {
    static let pictureOptions: [OptionSpec] = [
        OptionSpec(name: "--square", help: "a square render (the largest side of the clips)", group: .picture,
                   commands: Scopes.resolving.union(["record"]), effect: .edit) { a, _ in a.square = true },
        OptionSpec(name: "--size", value: "WxH", help: "the render size, e.g. 1280x720 (not with --square)", group: .picture,
                   commands: Scopes.resolving.union(["record", "bench-composite"]), effect: .edit) { a, v in
            guard let s = PixelSize.parse(v.text) else { throw UsageError("--size must look like 1280x720 (got \(v.text))") }
            a.size = s
        },
        .choice("--fit", FitMode.userModes, defaultValue: "fill",
                help: "how pictures of another shape fill the frame: crop to cover it, fit inside it, or stretch", group: .picture,
                commands: Scopes.resolving, effect: .edit) { a, f in a.fit = f },
        OptionSpec(name: "--fps", value: "RATE", help: "the frame rate, e.g. 30 or 30000/1001 (default: from the clips)", group: .picture,
                   commands: Scopes.resolving.union(["record"]), effect: .edit) { a, v in
            guard let r = FrameRate.parse(v.text) else { throw UsageError("--fps must be a positive rate such as 30 or 30000/1001 (got \(v.text))") }
            a.fps = r
        },
        OptionSpec(name: "--background", value: "COLOUR", defaultValue: "black",
                   help: "under the pictures: #rrggbb, #rgb or a name; transparent keeps alpha (ffv1, vp9, prores, png, tiff, exr)", group: .picture,
                   commands: Scopes.resolving, effect: .edit, completion: .values(["black", "transparent", "white"])) { a, v in
            if v.text.lowercased() == "transparent" { a.transparent = true; return }
            guard let c = RGBColour.parse(v.text) else {
                throw UsageError("--background must be a colour: #rrggbb, #rgb or a name such as black, white, grey, or transparent (got \(v.text))")
            }
            a.background = c
        },
        OptionSpec(name: "--tone-map", value: "CURVE", defaultValue: "bt2390",
                   help: "how HDR clips (HLG, PQ) are tone-mapped: \(ToneMapCurve.allCases.map(\.rawValue).joined(separator: ", "))", group: .picture,
                   commands: Scopes.resolving.union(["probe"]), effect: .edit, completion: .values(ToneMapCurve.allCases.map(\.rawValue))) { a, v in
            guard let t = ToneMapCurve.parse(v.text) else {
                throw UsageError("--tone-map must be one of \(ToneMapCurve.allCases.map(\.rawValue).joined(separator: ", ")) (got \(v.text))")
            }
            a.toneMap = t
        },
        OptionSpec(name: "--transition", value: "TYPE:SECONDS[:DIRECTION]",
                   help: "between clips given on the command line (repeatable: they cycle; cut for none; `segue transitions` lists them)",
                   group: .picture, commands: Scopes.resolving.union(["bench-composite"]), effect: .edit,
                   completion: .values(TransitionKind.builtIns.map(\.rawValue) + ["dissolve", "cut"]), repeatable: true) { a, v in
            a.transitions.append(try Arguments.parseTransition(v.text))
        },
        OptionSpec(name: "--overlay", value: "FILE[:x,y,scale[,opacity]]",
                   help: "a picture or clip over the whole edit, its centre at x, y (0…1) (repeatable; a watermark: logo.png:0.92,0.9,0.1)",
                   group: .picture, commands: Scopes.resolving, effect: .edit, completion: .files(FileKinds.media), repeatable: true) { a, v in
            a.overlays.append(try Arguments.parseOverlay(v.text))
        },
        OptionSpec(name: "--title", value: "\"TEXT\"[:SECONDS]", help: "a centred title from the start, 4 s unless given (repeatable: one after another)",
                   group: .picture, commands: Scopes.resolving, effect: .edit, repeatable: true) { a, v in
            a.titles.append(try Arguments.parseTitle(v.text))
        },
        OptionSpec(name: "--captions", value: "FILE", help: "captions over the whole edit (.srt, .vtt, .ass, .ssa, or a .json transcript of timed words; docs/text.md)", group: .picture,
                   commands: Scopes.resolving, effect: .edit, completion: .files(FileKinds.captions)) { a, v in
            if v.text.isEmpty { throw UsageError("--captions needs a caption file (.srt, .vtt, .ass, .ssa, .json)") }
            a.captions = v.text
        },
        .choice("--missing-media", MissingMediaPolicy.allCases, defaultValue: "error",
                help: "an OpenTimelineIO timeline's missing media: refused naming them all, black, or black with the file's name (docs/otio.md)",
                group: .picture, commands: Scopes.resolving, effect: .edit) { a, m in a.missingMedia = m },
    ]

    static let encodingOptions: [OptionSpec] = [
        OptionSpec(name: "--delivery", value: "NAME",
                   help: "a delivery preset: the size, rate, format, quality, audio and loudness a platform takes (docs/delivery.md); other options override it: "
                       + DeliveryPreset.all.map { "\($0.name): \($0.summary)" }.joined(separator: "; "),
                   group: .encoding, commands: Scopes.editing, effect: .edit, completion: .values(DeliveryPreset.all.map(\.name))) { a, v in
            guard let d = DeliveryPreset.named(v.text) else {
                let near = NearestName.suggestion(for: v.text, among: DeliveryPreset.all.map(\.name))
                throw UsageError("--delivery must be \(DeliveryPreset.namesInWords) (got \(v.text)\(near.map { "; did you mean \($0)?" } ?? ""))")
            }
            a.delivery = d
        },
        OptionSpec(name: "--codec", value: "NAME", defaultValue: "from the output's name, else h264",
                   help: OutputFormat.all.map { "\($0.codec.rawValue): \($0.name)" }.joined(separator: "; "), group: .encoding,
                   commands: Scopes.editing, effect: .edit, completion: .values(OutputFormat.all.map(\.codec.rawValue))) { a, v in
            guard let c = OutputSettings.Codec(rawValue: v.text) else { throw UsageError("--codec must be \(OutputFormat.codecNames) (got \(v.text))") }
            a.codec = c
        },
        OptionSpec(name: "--crf", value: "N", defaultValue: "18", help: "the encoder's constant rate factor, 0…51 (H.264, VP9, AV1)", group: .encoding,
                   commands: Scopes.editing, effect: .edit) { a, v in
            guard let n = Int(v.text), (0...51).contains(n) else { throw UsageError("--crf must be 0…51 (got \(v.text))") }
            a.crf = n
        },
        OptionSpec(name: "--smart", help: "smart rendering: copy the untouched stretches of H.264 and HEVC sources as they are, encode only the rest (MP4 output; docs/smart-rendering.md)",
                   group: .encoding, commands: Scopes.editing, effect: .edit) { a, _ in a.smart = true },
        OptionSpec(name: "--preset", value: "NAME", defaultValue: "medium",
                   help: "the encoder's preset: x264/x265's \(OutputSettings.presets.first!) … \(OutputSettings.presets.last!), another encoder's own; "
                       + "record: \(OptionTable.orList(LivePreset.allCases.map(\.rawValue)))",
                   group: .encoding, commands: Scopes.editing.union(["record"]), effect: .edit,
                   completion: .values(OutputSettings.presets + LivePreset.allCases.map(\.rawValue).filter { !OutputSettings.presets.contains($0) })) { a, v in
            a.preset = v.text
        },
        OptionSpec(name: "--encoder", value: "NAME", help: "another libavcodec video encoder (libx265, h264_nvenc, …; for h264, vp9 and av1)",
                   group: .encoding, commands: Scopes.editing, effect: .edit, completion: .values(["libx264", "libx265", "libvpx-vp9", "h264_nvenc"])) { a, v in
            guard !v.text.isEmpty else { throw UsageError("--encoder needs an encoder name, e.g. libx265") }
            a.encoder = v.text
        },
        .choice("--dynamic-range", DynamicRange.allCases, defaultValue: "sdr",
                help: "what is written: SDR BT.709 8-bit, or HDR BT.2020 10-bit (HEVC Main 10) with the HLG or PQ transfer", group: .encoding,
                commands: Scopes.editing.union(["compare"]), effect: .edit, parse: { DynamicRange(rawValue: $0.lowercased()) }) { a, d in a.dynamicRange = d },
    ]

    static let audioOptions: [OptionSpec] = [
        OptionSpec(name: "--music", value: "FILE[:VOLUME]", help: "background music under the clips' audio, VOLUME 0…16 (e.g. song.m4a:0.6)",
                   group: .audio, commands: Scopes.editing, effect: .edit, completion: .files(FileKinds.media)) { a, v in
            a.music = try Arguments.parseMusic(v.text)
        },
        OptionSpec(name: "--duck", help: "lower the music while the clips' audio is present", group: .audio, commands: Scopes.editing,
                   effect: .edit) { a, _ in a.duck = true },
        OptionSpec(name: "--loudness", value: "LUFS",
                   help: "normalise the mixed edit to this integrated loudness by EBU R128 (measured over the whole edit; one gain, then a true-peak limiter), e.g. -14 or -23",
                   group: .audio, commands: Scopes.editing, effect: .edit) { a, v in
            let l = try v.number()
            guard LoudnessTarget.integratedRange.contains(l) else {
                throw UsageError("--loudness must be \(Int(LoudnessTarget.integratedRange.lowerBound))…\(Int(LoudnessTarget.integratedRange.upperBound)) LUFS (got \(v.text))")
            }
            a.loudness = l
        },
        OptionSpec(name: "--true-peak", value: "DBTP", defaultValue: "-1", help: "the true peak the normalised audio may reach (with --loudness or a delivery preset)",
                   group: .audio, commands: Scopes.editing, effect: .edit) { a, v in
            let t = try v.number()
            guard LoudnessTarget.truePeakRange.contains(t) else {
                throw UsageError("--true-peak must be \(Int(LoudnessTarget.truePeakRange.lowerBound))…\(Int(LoudnessTarget.truePeakRange.upperBound)) dBTP (got \(v.text))")
            }
            a.truePeak = t
        },
        OptionSpec(name: "--no-audio", help: "write video only", group: .audio, commands: Scopes.editing.subtracting(["export-otio"]),
                   effect: .output) { a, _ in a.options.audio = false },
    ]
}
