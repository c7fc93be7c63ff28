import Foundation
import SegueCore

/// The edit file's transitions (see docs/edit-file.md and docs/transitions.md): the transition object of a clip, its
/// `params` for a built-in or a gl-transitions shader, `blend`, and `"type": "cut"`.
extension EditFile {
    /// A transition from JSON (an OTIO transition's `metadata.segue`, or its type): checked against
    /// `EditSchema.transition`, then read. Throws `EditError` naming the field under `tf`.
    static func transition(_ raw: Any, field tf: String, base: String, policy: InputPolicy = .default) throws -> Transition {
        try transition(try EditFields.open(raw, .object(EditSchema.transition), tf), base: base, policy: policy)
    }

    /// A clip's `transition` object (not a cut: `isCut`): its type (`TransitionKind`, or `glsl` with its `shader`),
    /// duration (default 1 s), direction, audio curve, `params`, `blend`, `easing` and `audioEasing`. Throws
    /// `EditError` naming the field (e.g. `clips[1].transition.direction`): a direction or parameter the type does not
    /// take, a shader without glsl or glsl without one; shader and image paths are relative to `base`.
    static func transition(_ t: EditFields, base: String, policy: InputPolicy = .default) throws -> Transition {
        let kind = try t.string("type").map { try transitionKind($0, field: t.path("type")) } ?? .crossfade
        let direction = t.choice("direction", Transition.Direction.self)
        try Transition.check(kind: kind, direction: direction, field: t.path("direction"))
        var transition = Transition(kind: kind, duration: t.seconds("duration") ?? MediaTime(value: 1, timescale: 1), direction: direction)
        if let curve = t.choice("audioCurve", AudioCurve.self) { transition.audioCurve = curve }
        if kind == .glsl {
            guard let name = t.string("shader") else { throw EditError(t.path("shader"), "is required for a glsl transition: the path of a gl-transitions shader file") }
            let path = resolved(name, base: base)
            try policy.checkFile(path: path, field: t.path("shader"))
            let shader = try GLTransitionShader(path: path, name: name, field: t.path("shader"))
            transition.shader = shader
            if let p = t["params"] { transition.params = try shaderParameters(p, shader: shader, base: base, field: t.path("params"), policy: policy) }
        } else {
            if t["shader"] != nil { throw EditError(t.path("shader"), "a shader file goes with \"type\": \"glsl\" (this transition is a \(kind.rawValue))") }
            if let p = t["params"] { transition.params = try builtInParameters(p, kind: kind, field: t.path("params")) }
        }
        if let b = t.choice("blend", Blending.self) { transition.blend = b }
        if let e = t.string("easing") { transition.easing = try Easing.parse(e, field: t.path("easing")) }
        if let e = t.string("audioEasing") { transition.audioEasing = try Easing.parse(e, field: t.path("audioEasing")) }
        return transition
    }

    /// Whether a transition object is `{"type": "cut"}`: no transition, as `--transition cut` on the command line
    /// (also on the first clip, where it changes nothing). A cut with other fields is an error naming the field.
    static func isCut(_ t: EditFields) throws -> Bool {
        guard t.string("type") == "cut" else { return false }
        if let extra = t.object.keys.sorted().first(where: { $0 != "type" }) {
            throw EditError(t.path(extra), "a cut has no \(extra): leave it out, or give the transition another type")
        }
        return true
    }

    /// The transition named `name` (`TransitionKind.named`: its name or an alias, `dissolve` a crossfade; a cut, no
    /// transition, is the caller's to handle). Throws `EditError` suggesting the nearest name, aliases and `cut` included.
    public static func transitionKind(_ name: String, field: String) throws -> TransitionKind {
        if let k = TransitionKind.named(name) { return k }
        let names = TransitionKind.allCases.map(\.rawValue)
        var message = "unknown transition \"\(name)\""
        let candidates = names + TransitionKind.allCases.flatMap(\.aliases) + ["cut"]
        if let near = NearestName.suggestion(for: name, among: candidates) { message += "; did you mean \"\(near)\"?" }
        throw EditError(field, message + " (one of \(names.joined(separator: ", ")), or cut for none; `segue transitions` describes them)")
    }

    /// A path from the edit file: absolute, or relative to the edit file's folder; a URL (`InputPolicy.urlScheme`)
    /// as it is.
    static func resolved(_ path: String, base: String) -> String {
        path.hasPrefix("/") || InputPolicy.urlScheme(of: path) != nil ? path : URL(fileURLWithPath: base).appendingPathComponent(path).standardized.path
    }

    /// `params` of a glsl transition: a value for each named uniform of the shader, of its type — a number for
    /// `float` (a whole one for `int`), true or false for `bool`, a list of 2…4 numbers (or booleans) for vectors,
    /// an image file (relative to the edit) for `sampler2D`.
    static func shaderParameters(_ raw: Any, shader: GLTransitionShader, base: String, field: String,
                                 policy: InputPolicy = .default) throws -> [String: TransitionParameterValue] {
        let o = try object(raw, field)
        if shader.uniforms.isEmpty, let key = o.keys.sorted().first {
            throw EditError("\(field).\(key)", "\(shader.name) declares no uniforms to set")
        }
        try checkKeys(o, field, shader.uniforms.map(\.name))
        var out: [String: TransitionParameterValue] = [:]
        for u in shader.uniforms {
            guard let v = o[u.name] else { continue }
            let f = "\(field).\(u.name)", what = "\(u.type.name) \(u.name) (\(shader.name):\(u.line))"
            switch u.type.base {
            case .sampler2D:
                let path = resolved(try string(v, f), base: base)
                try policy.checkInput(path: path, field: f)
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
                    throw EditError(f, "the image for \(what) is not there: \(path)")
                }
                out[u.name] = .image(path)
            case .bool where u.type.count == 1:
                out[u.name] = .boolean(try bool(v, f))
            default:
                if u.type.count == 1 {
                    let d = try number(v, f)
                    if u.type.base == .int && d != d.rounded() { throw EditError(f, "\(what) takes a whole number (got \(d))") }
                    out[u.name] = .number(d)
                } else {
                    guard let list = v as? [Any], list.count == u.type.count else {
                        throw EditError(f, "\(what) takes a list of \(u.type.count) \(u.type.base == .bool ? "booleans" : "numbers")")
                    }
                    out[u.name] = .vector(try list.enumerated().map { k, x in
                        if u.type.base == .bool { return try bool(x, "\(f)[\(k)]") ? 1 : 0 }
                        let d = try number(x, "\(f)[\(k)]")
                        if u.type.base == .int && d != d.rounded() { throw EditError("\(f)[\(k)]", "\(what) takes whole numbers (got \(d))") }
                        return d
                    })
                }
            }
        }
        return out
    }

    /// `params` of a built-in transition: numbers for its parameters (`TransitionTraits.parameters`), within range.
    static func builtInParameters(_ raw: Any, kind: TransitionKind, field: String) throws -> [String: TransitionParameterValue] {
        let o = try object(raw, field)
        let parameters = kind.traits.parameters
        if parameters.isEmpty, let key = o.keys.sorted().first {
            throw EditError("\(field).\(key)", "\(kind.rawValue) has no parameters")
        }
        try checkKeys(o, field, parameters.map(\.name))
        var out: [String: TransitionParameterValue] = [:]
        for p in parameters {
            guard let v = o[p.name] else { continue }
            let d = try number(v, "\(field).\(p.name)")
            guard p.range.contains(d) else {
                throw EditError("\(field).\(p.name)", "must be \(p.range.lowerBound)…\(p.range.upperBound) (got \(d))")
            }
            out[p.name] = .number(d)
        }
        return out
    }
}
