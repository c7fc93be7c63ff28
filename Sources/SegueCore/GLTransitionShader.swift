import Foundation

/// A transition shader written to the gl-transitions specification (gl-transitions.com, "GLSL transition
/// specification"): a function `vec4 transition(vec2 uv)` (uv 0…1, origin at the bottom left) that reads the two
/// clips with `getFromColor(uv)` / `getToColor(uv)` and may use the uniforms `progress` (0 → 1) and `ratio`
/// (width / height), plus its own uniforms, whose defaults are written in a comment after the declaration:
/// `uniform float size; // = 0.3` or `uniform vec3 color /* = vec3(0.9, 0.4, 0.2) */;`.
///
/// Loaded at run time (`"type": "glsl"` in the edit file); `GLTransitionHost` fits it into Segue's programs.
public struct GLTransitionShader: Hashable, Sendable {
    /// Absolute path of the file.
    public let path: String
    /// The path as the edit file gives it, for messages.
    public let name: String
    /// The file's text.
    public let source: String
    /// The edit-file field that names it (`clips[2].transition.shader`), for messages.
    public let field: String
    /// Its own uniforms (parameters), in order.
    public let uniforms: [Uniform]

    /// Two shaders are the same shader when they are the same file with the same text: `name` and `field` only say
    /// where an edit named it (an edit written out with absolute paths names it otherwise, and is the same edit).
    public static func == (a: GLTransitionShader, b: GLTransitionShader) -> Bool {
        a.path == b.path && a.source == b.source && a.uniforms == b.uniforms
    }
    public func hash(into h: inout Hasher) { h.combine(path); h.combine(source) }

    /// A uniform the shader declares: a parameter the edit's `params` may set.
    public struct Uniform: Hashable, Sendable {
        public let name: String
        public let type: GLSLType
        /// From the declaration's `// = value` comment; GL's zero (false, black for an image) without one.
        public let defaultValue: TransitionParameterValue
        /// 1-based line of the declaration.
        public let line: Int
    }

    /// Reads and parses `path`. `name` is the path as the edit gives it; `field` names the edit-file field in errors.
    /// - Throws: `EditError` if the file cannot be read or a uniform's default cannot be understood.
    public init(path: String, name: String, field: String) throws {
        // Checked before reading: a FIFO would block, a device or a huge file would fill the memory.
        var st = stat()
        if stat(path, &st) == 0 {
            if let kind = InputPolicy.nonRegularKind(st.st_mode) { throw EditError(field, "the shader \(name) (\(path)) is \(kind), not a file") }
            if st.st_size > GLTransitionShader.maxFileSize {
                throw EditError(field, "the shader \(name) is \(st.st_size) bytes: a gl-transitions shader is a few kilobytes (at most \(GLTransitionShader.maxFileSize) bytes are read)")
            }
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw EditError(field, "cannot read the shader \(name) (\(path)): missing, unreadable or not UTF-8 text")
        }
        try self.init(source: text, path: path, name: name, field: field)
    }

    /// The largest shader file read (1 MiB; the 125 shaders of the gl-transitions collection are 0.3…8 KB).
    public static let maxFileSize = 1 << 20

    /// Parses `source` (the text of `path`). Throws `EditError` naming `field`.
    public init(source: String, path: String, name: String, field: String) throws {
        self.path = path; self.name = name; self.source = source; self.field = field
        let tokens = GLSLTokens(source).tokens
        var uniforms: [Uniform] = []
        var i = 0
        func next(after k: Int) -> Int? {   // index of the next significant token after k
            var j = k + 1
            while j < tokens.count, tokens[j].kind == .space || tokens[j].kind == .comment { j += 1 }
            return j < tokens.count ? j : nil
        }
        while i < tokens.count {
            let t = tokens[i]
            guard t.kind == .identifier, t.text == "uniform", !t.directive else { i += 1; continue }
            // uniform [precision] TYPE NAME ; then an optional default comment on the same line.
            guard var ti = next(after: i) else { break }
            if ["lowp", "mediump", "highp"].contains(tokens[ti].text), let t2 = next(after: ti) { ti = t2 }
            guard let nameIndex = next(after: ti) else { break }
            let typeName = tokens[ti].text, name = tokens[nameIndex].text
            if let after = next(after: nameIndex), tokens[after].text == "[" { i = nameIndex + 1; continue }   // arrays: not parameters
            // Other types (matrices, …) are not parameters: they keep GL's zero.
            guard let type = GLSLType(typeName) else { i = nameIndex + 1; continue }
            // The default: the first comment after the name that starts with "=", before the end of the line.
            var value: TransitionParameterValue?
            var k = nameIndex + 1
            while k < tokens.count, !(tokens[k].kind == .space && tokens[k].text.contains("\n")) {
                let c = tokens[k]
                if c.kind == .comment, let text = GLTransitionShader.defaultText(c.text) {
                    do { value = try GLTransitionShader.parseValue(text, type: type) } catch let e as EditError {
                        throw EditError(field, "\(self.name):\(c.line): the default of uniform \(name) (\"\(text)\") \(e.message)")
                    }
                    break
                }
                k += 1
            }
            uniforms.append(Uniform(name: name, type: type, defaultValue: value ?? type.zero, line: t.line))
            i = nameIndex + 1
        }
        // The renderer binds a shader's images on texture units 8…11, between the layers' and the pass's own.
        let images = uniforms.filter { $0.type.base == .sampler2D }
        if images.count > GLTransitionShader.maxImages {
            throw EditError(field, "\(self.name):\(images[GLTransitionShader.maxImages].line): \(images.count) image uniforms (sampler2D): a gl-transitions shader may take at most \(GLTransitionShader.maxImages)")
        }
        self.uniforms = uniforms
    }

    /// The most image (`sampler2D`) uniforms a shader may declare: the texture units the renderer keeps for them.
    public static let maxImages = 4

    /// The uniform named `name`.
    public func uniform(_ name: String) -> Uniform? { uniforms.first { $0.name == name } }

    /// The text after `=` in a `// = value` or `/* = value */` comment, up to a `;` or a further comment; nil
    /// for other comments.
    static func defaultText(_ comment: String) -> String? {
        var body = comment.hasPrefix("//") ? String(comment.dropFirst(2)) : String(comment.dropFirst(2).dropLast(2))
        body = body.trimmingCharacters(in: .whitespaces)
        guard body.hasPrefix("=") else { return nil }
        body = String(body.dropFirst())
        if let cut = body.range(of: ";") { body = String(body[..<cut.lowerBound]) }
        if let cut = body.range(of: "//") { body = String(body[..<cut.lowerBound]) }
        return body.trimmingCharacters(in: .whitespaces)
    }

    /// A GLSL literal of `type`: a number (an integer literal for a float is fine), `true`/`false`, or a
    /// constructor such as `vec2(0.5)` (one argument fills every component) or `ivec2(4, 4)`.
    /// - Throws: `EditError` (field empty) saying what was expected.
    public static func parseValue(_ text: String, type: GLSLType) throws -> TransitionParameterValue {
        let s = text.trimmingCharacters(in: .whitespaces)
        func number(_ t: String) throws -> Double {
            let u = t.trimmingCharacters(in: .whitespaces)
            var v = u.hasSuffix("u") || u.hasSuffix("U") ? String(u.dropLast()) : u
            if v.hasSuffix(".") { v += "0" }
            if v.hasPrefix(".") { v = "0" + v } else if v.hasPrefix("-.") { v = "-0" + v.dropFirst() }
            guard let d = Double(v), d.isFinite else { throw EditError("", "is not a number") }
            if type.base == .int && d != d.rounded() { throw EditError("", "is not a whole number, as an int needs") }
            return d
        }
        switch type.base {
        case .sampler2D:
            throw EditError("", "cannot be written in the shader: give an image file in the edit's params")
        case .bool where type.count == 1:
            // GLSL itself wants true or false; a 0 or 1 in a comment means the same.
            if s == "0" || s == "1" { return .boolean(s == "1") }
            guard s == "true" || s == "false" else { throw EditError("", "is not true or false") }
            return .boolean(s == "true")
        default:
            if type.count == 1 { return .number(try number(s)) }
            guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { throw EditError("", "is not a \(type.name)(…) constructor") }
            let args = s[s.index(after: open)..<s.index(before: s.endIndex)].split(separator: ",").map(String.init)
            let values: [Double]
            if type.base == .bool {
                values = try args.map { a in
                    let b = a.trimmingCharacters(in: .whitespaces)
                    guard b == "true" || b == "false" else { throw EditError("", "has a component that is not true or false") }
                    return b == "true" ? 1 : 0
                }
            } else {
                values = try args.map(number)
            }
            if values.count == 1 { return .vector(Array(repeating: values[0], count: type.count)) }
            guard values.count == type.count else { throw EditError("", "has \(values.count) components; a \(type.name) has \(type.count)") }
            return .vector(values)
        }
    }
}

/// The uniform types a gl-transitions parameter may have.
public struct GLSLType: Hashable, Sendable, CustomStringConvertible {
    public enum Base: Hashable, Sendable { case float, int, bool, sampler2D }
    public let base: Base
    /// Components: 1 for scalars and samplers, 2…4 for vectors.
    public let count: Int

    /// `float`, `int`, `bool`, `vec2`…`vec4`, `ivec2`…`ivec4`, `bvec2`…`bvec4`, `sampler2D`; nil for others.
    public init?(_ name: String) {
        switch name {
        case "float": (base, count) = (.float, 1)
        case "int": (base, count) = (.int, 1)
        case "bool": (base, count) = (.bool, 1)
        case "sampler2D": (base, count) = (.sampler2D, 1)
        default:
            guard let n = name.last?.wholeNumberValue, (2...4).contains(n) else { return nil }
            switch name.dropLast() {
            case "vec": (base, count) = (.float, n)
            case "ivec": (base, count) = (.int, n)
            case "bvec": (base, count) = (.bool, n)
            default: return nil
            }
        }
    }

    public var name: String {
        let prefix: String
        switch base {
        case .sampler2D: return "sampler2D"
        case .float: prefix = count == 1 ? "float" : "vec"
        case .int: prefix = count == 1 ? "int" : "ivec"
        case .bool: prefix = count == 1 ? "bool" : "bvec"
        }
        return count == 1 ? prefix : "\(prefix)\(count)"
    }
    public var description: String { name }

    /// GL's value of a uniform nobody set: zero, false; an image parameter reads black.
    public var zero: TransitionParameterValue {
        switch base {
        case .sampler2D: return .image("")
        case .bool where count == 1: return .boolean(false)
        default: return count == 1 ? .number(0) : .vector(Array(repeating: 0, count: count))
        }
    }
}
