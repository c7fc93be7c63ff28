import Foundation
import SegueCore

/// What a clip shows once its media reference is read.
enum OTIOMedia {
    /// A local file (absolute path; it existed when read), or a URL for the input policy to judge.
    case file(String)
    /// A solid colour (a `SolidColor` or black generator; black for missing media under `--missing-media black`).
    case fill(RGBColour)
    /// Missing media under `--missing-media slate`: black with this text.
    case slate(String)
    /// An image sequence (`ImageSequenceReference`): its numbered pattern (absolute), how it plays, and where the
    /// media's time 0 (the reference's `start_frame`) is in Segue's time of the sequence (which counts from the first
    /// picture in the folder).
    case sequence(String, ImageSequence, offset: MediaTime)
}

/// Media references: files (under the input policy; inside a bundle), generators, and the missing-media policy.
extension OTIOReader {
    /// The media of a clip: a file (the input policy checks the path first; a file that does not exist is missing),
    /// a fill for black and `SolidColor` generators; an image sequence (`sequence`); missing media (a
    /// `MissingReference`, no reference, a missing file, a sequence without pictures, other generators, unknown
    /// references) goes through the missing-media policy.
    mutating func media(_ ref: OTIOObject?, clip o: OTIOObject, audio: Bool) throws -> OTIOMedia {
        guard let ref else { return try missingMedia("clip \"\(o.name)\" (\(o.path)) has no media reference", label: o.name) }
        switch ref.schema {
        case "ExternalReference":
            guard let url = ref["target_url"] as? String, !url.isEmpty else {
                return try missingMedia("clip \"\(o.name)\" (\(ref.path)) has an ExternalReference without a target_url", label: o.name)
            }
            let field = "\(ref.path).target_url"
            guard let path = try localPath(url, field: field) else {
                return try missingMedia("\(url) (clip \"\(o.name)\", \(field)): not a local file", label: URL(fileURLWithPath: url).lastPathComponent)
            }
            if InputPolicy.urlScheme(of: path) == nil {
                try options.policy.checkInput(path: path, field: field)
                var st = stat()
                if stat(path, &st) != 0 {
                    return try missingMedia("\(path) (clip \"\(o.name)\", \(field))", label: URL(fileURLWithPath: path).lastPathComponent)
                }
            }
            return .file(path)
        case "MissingReference":
            return try missingMedia("clip \"\(o.name)\" (\(ref.path)): a MissingReference", label: o.name)
        case "GeneratorReference":
            let kind = ref["generator_kind"] as? String ?? ""
            switch kind.lowercased() {
            case "black", "blackvideo", "black video":
                return .fill(.black)
            case "solidcolor", "solid_color", "solidcolour", "colour", "color":
                return .fill(try generatorColour(ref))
            default:
                warnings.append("\(ref.path): generator \"\(kind)\" (clip \"\(o.name)\") is not one Segue draws: treated as missing media")
                return try missingMedia("clip \"\(o.name)\" (\(ref.path)): a \(kind) generator", label: kind.isEmpty ? o.name : kind)
            }
        case "ImageSequenceReference":
            return try sequence(ref, clip: o)
        default:
            return try missingMedia("clip \"\(o.name)\" (\(ref.path)): a \(ref.schemaName) media reference", label: o.name)
        }
    }

    /// An `ImageSequenceReference`: the pictures `target_url_base` + `name_prefix` + the number (zero-padded to
    /// `frame_zero_padding` digits) + `name_suffix`, picture `start_frame + k` (k ≥ 0) shown from `k / rate` of the
    /// media's time (OTIO's `frame_for_time`, measured from the start of its `available_range`), its
    /// `missing_frame_policy` (`error`, `black`, `hold`) Segue's `missingFrames`. Missing media when the folder holds
    /// no picture of the pattern; a `frame_step` other than 1 is missing media too, with a warning.
    /// - Throws: `EditError` naming the field for a rate that is not a positive number, a negative padding or start,
    ///   or a reference leading outside a bundle.
    mutating func sequence(_ ref: OTIOObject, clip o: OTIOObject) throws -> OTIOMedia {
        let prefix = ref["name_prefix"] as? String ?? "", suffix = ref["name_suffix"] as? String ?? ""
        let padding = OTIOJSON.number(ref["frame_zero_padding"]).map { Int($0) } ?? 0
        let first = OTIOJSON.number(ref["start_frame"]).map { Int($0) } ?? 1
        let step = OTIOJSON.number(ref["frame_step"]).map { Int($0) } ?? 1
        let name = prefix + String(repeating: "#", count: max(1, padding)) + suffix
        guard (0...12).contains(padding) else { throw EditError("\(ref.path).frame_zero_padding", "must be 0…12 (got \(padding))") }
        guard first >= 0 else { throw EditError("\(ref.path).start_frame", "must not be negative (got \(first))") }
        guard let r = OTIOJSON.number(ref["rate"]), r.isFinite, r > 0, let rate = OTIOTime.frameRate(r) else {
            throw EditError("\(ref.path).rate", "must be a positive number of pictures per second")
        }
        guard step == 1 else {
            warnings.append("\(ref.path): clip \"\(o.name)\" is an image sequence with frame_step \(step), which Segue does not read (only 1): treated as missing media")
            return try missingMedia("image sequence \(name), frame_step \(step) (clip \"\(o.name)\", \(ref.path))", label: name)
        }
        let field = "\(ref.path).target_url_base"
        let base = ref["target_url_base"] as? String ?? ""
        guard let folder = try localPath(base.isEmpty ? "." : base, field: field) else {
            return try missingMedia("\(base) (clip \"\(o.name)\", \(field)): not a local folder", label: name)
        }
        let escape = { (s: String) in s.replacingOccurrences(of: "%", with: "%%") }
        let pattern = (folder.hasSuffix("/") ? folder : folder + "/") + escape(prefix) + (padding > 0 ? "%0\(padding)d" : "%d") + escape(suffix)
        try options.policy.checkInput(path: pattern, field: field)
        guard let p = ImageSequencePattern(path: pattern), let found = try? p.numbers(), let lowest = found.first else {
            return try missingMedia("image sequence \(pattern) (clip \"\(o.name)\", \(field)): no pictures", label: name)
        }
        var sequence = ImageSequence(rate: rate)
        if let policy = ref["missing_frame_policy"] as? String {
            guard let m = ImageSequence.MissingFrames(rawValue: policy.lowercased()) else {
                throw EditError("\(ref.path).missing_frame_policy", "must be error, black or hold (got \"\(policy)\")")
            }
            sequence.missingFrames = m
        }
        if lowest > first {
            warnings.append("\(ref.path): clip \"\(o.name)\": the image sequence's first picture is \(p.name(lowest)), after its start_frame \(first): its time starts at that picture")
        }
        return .sequence(pattern, sequence, offset: MediaTime(frame: Int64(max(0, first - lowest)), rate: rate))
    }

    /// Missing media under the policy: recorded for the error that names them all, or stood in for by black or a
    /// slate reading `label`.
    mutating func missingMedia(_ what: String, label: String) throws -> OTIOMedia {
        switch options.missingMedia {
        case .error:
            missing.append(what)
            return .fill(.black)
        case .black: return .fill(.black)
        case .slate: return .slate(label)
        }
    }

    /// A `SolidColor` generator's colour: `parameters.color` (or `colour`) as "#rrggbb" or a name, a list of 3 or 4
    /// numbers 0…1, or an object {r, g, b}; black when it has none.
    func generatorColour(_ ref: OTIOObject) throws -> RGBColour {
        let parameters = ref["parameters"] as? [String: Any] ?? [:]
        guard let v = parameters["color"] ?? parameters["colour"] else { return .black }
        let field = "\(ref.path).parameters.color"
        func byte(_ x: Double) -> UInt8 { UInt8((max(0, min(1, x)) * 255).rounded()) }
        if let s = v as? String {
            guard let c = RGBColour.parse(s.lowercased()) else { throw EditError(field, "must be a colour as \"#rrggbb\" or a name (got \"\(s)\")") }
            return c
        }
        if let list = v as? [Any], list.count >= 3, let r = OTIOJSON.number(list[0]), let g = OTIOJSON.number(list[1]), let b = OTIOJSON.number(list[2]) {
            return RGBColour(r: byte(r), g: byte(g), b: byte(b))
        }
        if let o = v as? [String: Any], let r = OTIOJSON.number(o["r"]), let g = OTIOJSON.number(o["g"]), let b = OTIOJSON.number(o["b"]) {
            return RGBColour(r: byte(r), g: byte(g), b: byte(b))
        }
        throw EditError(field, "must be a colour: \"#rrggbb\", a name, [r, g, b] or {\"r\", \"g\", \"b\"} (0…1)")
    }

    /// The local path of a `target_url`: `file://` URLs (percent-decoded; host empty or `localhost`) and plain paths,
    /// relative ones against the timeline's folder; a URL of a protocol FFmpeg knows is kept for the input policy to
    /// refuse. Nil for what cannot be a local file (another host). In a bundle (`OTIOReadOptions.bundleFolder`) a
    /// reference must be a relative path inside it: an absolute path, a `file:` URL of one, or `..` is refused.
    /// - Throws: `EditError` naming `field` for a bundle reference leading outside the bundle.
    func localPath(_ url: String, field: String) throws -> String? {
        var path = url
        if url.lowercased().hasPrefix("file:") {
            var rest = String(url.dropFirst(5))
            if rest.hasPrefix("//") {
                rest.removeFirst(2)
                let host = rest.prefix(while: { $0 != "/" })
                guard host.isEmpty || host.lowercased() == "localhost" else { return nil }
                rest.removeFirst(host.count)
            }
            path = rest.removingPercentEncoding ?? rest
        } else if InputPolicy.urlScheme(of: url) != nil {
            if options.bundleFolder != nil { throw EditError(field, "\(url) is a URL: a bundle's media must be files inside it") }
            return url
        }
        if let folder = options.bundleFolder {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !path.hasPrefix("/"), !path.contains("\\"), !parts.contains("..") else {
                throw EditError(field, "\(url) leads outside the bundle: a bundle's media must be relative paths inside it (media/…)")
            }
            let full = URL(fileURLWithPath: folder).appendingPathComponent(path).standardized.path
            guard InputPolicy.isInside(full, folder) else { throw EditError(field, "\(url) leads outside the bundle") }
            if let real = InputPolicy.realPath(full), !InputPolicy.isInside(real, folder) {
                throw EditError(field, "\(url) leads outside the bundle through a symbolic link")
            }
            return full
        }
        return EditFile.resolved(path, base: base)
    }
}
