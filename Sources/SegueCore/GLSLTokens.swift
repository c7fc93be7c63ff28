/// A GLSL ES source split into tokens, enough to rewrite a user's shader safely: identifiers, numbers,
/// operators, comments, white space and preprocessor lines (GLSL ES 3.00 §3.1–3.8). Joining the tokens' texts
/// gives the source back unchanged.
public struct GLSLTokens {
    public struct Token: Equatable {
        public enum Kind: Equatable { case identifier, number, op, comment, space }
        public var kind: Kind
        public var text: String
        /// 1-based line of the token's first character.
        public let line: Int
        /// Part of a preprocessor line (`#define …`).
        public let directive: Bool
    }
    public private(set) var tokens: [Token] = []

    public init(_ source: String) {
        let chars = Array(source.unicodeScalars)
        var i = 0, line = 1
        var atLineStart = true, inDirective = false
        func isIdentStart(_ c: Unicode.Scalar) -> Bool { c == "_" || (c.value < 128 && c.properties.isAlphabetic) }
        func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }
        func isIdent(_ c: Unicode.Scalar) -> Bool { isIdentStart(c) || isDigit(c) }
        let twoCharOps: Set<String> = ["==", "!=", "<=", ">=", "&&", "||", "^^", "++", "--", "+=", "-=", "*=", "/=", "%=", "<<", ">>", "&=", "|=", "^="]
        while i < chars.count {
            let c = chars[i], start = i, startLine = line
            var kind: Token.Kind
            if c == "\n" || c == " " || c == "\t" || c == "\r" || (c == "\\" && i + 1 < chars.count && chars[i + 1] == "\n") {
                kind = .space
                while i < chars.count {
                    let d = chars[i]
                    if d == "\\" && i + 1 < chars.count && chars[i + 1] == "\n" { i += 2; line += 1; continue }   // continuation
                    if d == "\n" {
                        if inDirective && !(i > 0 && chars[i - 1] == "\\") { inDirective = false }
                        atLineStart = true; line += 1; i += 1; continue
                    }
                    guard d == " " || d == "\t" || d == "\r" else { break }
                    i += 1
                }
            } else if c == "/" && i + 1 < chars.count && chars[i + 1] == "/" {
                kind = .comment
                while i < chars.count && chars[i] != "\n" { i += 1 }
            } else if c == "/" && i + 1 < chars.count && chars[i + 1] == "*" {
                kind = .comment
                i += 2
                while i < chars.count && !(chars[i] == "*" && i + 1 < chars.count && chars[i + 1] == "/") {
                    if chars[i] == "\n" { line += 1 }
                    i += 1
                }
                i = min(chars.count, i + 2)
            } else if isIdentStart(c) {
                kind = .identifier
                while i < chars.count && isIdent(chars[i]) { i += 1 }
            } else if isDigit(c) || (c == "." && i + 1 < chars.count && isDigit(chars[i + 1])) {
                kind = .number
                while i < chars.count {
                    let d = chars[i]
                    if isIdent(d) || d == "." { i += 1; continue }
                    let hex = i > start + 1 && chars[start] == "0" && (chars[start + 1] == "x" || chars[start + 1] == "X")
                    if (d == "+" || d == "-") && (chars[i - 1] == "e" || chars[i - 1] == "E") && !hex { i += 1; continue }
                    break
                }
            } else {
                kind = .op
                if c == "#" && atLineStart { inDirective = true }
                if i + 1 < chars.count, twoCharOps.contains(String(c) + String(chars[i + 1])) { i += 2 } else { i += 1 }
            }
            if kind != .space { atLineStart = false }
            var text = ""
            text.unicodeScalars.append(contentsOf: chars[start..<i])
            tokens.append(Token(kind: kind, text: text, line: startLine, directive: inDirective || (kind == .op && text == "#" && inDirective)))
        }
    }

    /// The source again (with any changes made to the tokens).
    public var text: String { tokens.map(\.text).joined() }

    /// The names a source declares at file scope — variables, functions, uniforms, outputs — and its macros:
    /// what a user's shader placed in the same program must not declare again (`GLTransitionHost`). Names inside
    /// parentheses (parameters) and braces (locals) are not included.
    public var globalNames: Set<String> {
        var names = Set<String>()
        var braces = 0, parens = 0
        var previous: Token?
        var afterDefine = false
        for t in tokens where t.kind != .space && t.kind != .comment {
            if t.directive {
                if afterDefine && t.kind == .identifier { names.insert(t.text); afterDefine = false }
                else { afterDefine = t.kind == .identifier && t.text == "define" }
                continue
            }
            switch t.text {
            case "{": braces += 1
            case "}": braces -= 1
            case "(": parens += 1
            case ")": parens -= 1
            default: break
            }
            if t.kind == .identifier, braces == 0, parens == 0, let p = previous, p.kind == .identifier, GLSLTokens.typeNames.contains(p.text) {
                names.insert(t.text)
            }
            previous = t
        }
        return names
    }

    /// GLSL ES 3.00's type keywords (§4.1).
    public static let typeNames: Set<String> = ["void", "bool", "int", "uint", "float", "vec2", "vec3", "vec4", "bvec2", "bvec3", "bvec4",
        "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4", "mat2", "mat3", "mat4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3",
        "mat3x4", "mat4x2", "mat4x3", "mat4x4", "sampler2D", "sampler3D", "samplerCube", "sampler2DShadow", "samplerCubeShadow",
        "sampler2DArray", "sampler2DArrayShadow", "isampler2D", "isampler3D", "isamplerCube", "isampler2DArray", "usampler2D",
        "usampler3D", "usamplerCube", "usampler2DArray"]
}
