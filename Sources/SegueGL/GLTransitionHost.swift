import Foundation
import SegueCore

/// What a host must do to a gl-transitions shader to run it inside Segue's GLSL ES 3.00 programs, measured on
/// Mesa with the 125 shaders of the gl-transitions collection:
/// - `getFromColor`, `getToColor` and `transition` become `segue_glFromColor`, `segue_glToColor` and
///   `segue_glTransition`: Segue's lookups take uv with a top-left origin and show black outside the clip, while
///   the specification's have the origin at the bottom left and clamp to the edge (`glsl-host.glsl` defines them);
/// - names the shader shares with Segue's own code (`reserved`) get the suffix `_user` (uniforms keep their name
///   for `params`: `uniformNames` maps them);
/// - a function of its own named `texture` (a GLSL ES 1.00 shader may have one; in 3.00 it is a built-in) becomes
///   `texture_user`, and `texture2D` becomes `texture`;
/// - global variables with initialisers (GLSL ES 3.00 allows only constant expressions there, and many use
///   `progress` or `ratio`) keep their declaration; the assignments move into `segue_initGlobals()`, which `main`
///   calls first. The line structure is unchanged, so compiler messages keep the file's line numbers;
/// - its `#define`s are listed, so that the host can `#undef` them before its own code follows.
public struct GLTransitionHost: Sendable {
    /// The shader's code, rewritten, with its lines where they were.
    public let code: String
    /// The moved initialisers, as statements (`name = expression;`) with their lines in the file.
    public let initialisers: [(line: Int, statement: String)]
    /// The macros the code defines.
    public let macros: [String]
    /// Each uniform's name in the program (its own unless it had to be renamed).
    public let uniformNames: [String: String]

    /// Rewrites `shader` for a program whose other parts declare `reserved` at file scope.
    public init(_ shader: GLTransitionShader, reserved: Set<String>) {
        var tokens = GLSLTokens(shader.source).tokens
        let significant = tokens.indices.filter { tokens[$0].kind != .space && tokens[$0].kind != .comment }
        // A function of its own named texture: a type, `texture`, `(` at file scope.
        var definesTexture = false
        var depth = 0
        for (n, k) in significant.enumerated() {
            let t = tokens[k]
            if t.text == "{" { depth += 1 } else if t.text == "}" { depth -= 1 }
            if depth == 0, t.text == "texture", n > 0, n + 1 < significant.count, GLSLTokens.typeNames.contains(tokens[significant[n - 1]].text),
               tokens[significant[n + 1]].text == "(" {
                definesTexture = true
            }
        }
        let contract: [String: String] = ["getFromColor": "segue_glFromColor", "getToColor": "segue_glToColor", "transition": "segue_glTransition"]
        var uniformNames: [String: String] = [:]
        var macros: [String] = []
        for k in tokens.indices where tokens[k].kind == .identifier {
            let name = tokens[k].text
            var renamed: String?
            if let c = contract[name] { renamed = c }
            else if name == "texture" && definesTexture { renamed = "texture_user" }
            else if name == "texture2D" { renamed = "texture" }
            else if reserved.contains(name) && name != "progress" && name != "ratio" { renamed = name + "_user" }
            if let r = renamed { tokens[k].text = r }
        }
        for u in shader.uniforms { uniformNames[u.name] = contract[u.name] ?? (reserved.contains(u.name) ? u.name + "_user" : u.name) }
        // Macros defined, and global initialisers moved.
        var initialisers: [(Int, String)] = []
        depth = 0
        var statement: [Int] = []   // indices of the current file-scope statement's tokens
        var afterDefine = false
        for k in tokens.indices {
            let t = tokens[k]
            if t.directive {
                if afterDefine && t.kind == .identifier { macros.append(t.text); afterDefine = false }
                else if t.kind == .identifier { afterDefine = t.text == "define" }
                continue
            }
            if t.text == "{" { depth += 1; statement = []; continue }
            if t.text == "}" { depth -= 1; statement = []; continue }
            guard depth == 0 else { continue }
            if t.text == ";" {
                if let moved = GLTransitionHost.moveInitialisers(statement, in: &tokens) { initialisers += moved }
                statement = []
            } else {
                statement.append(k)
            }
        }
        code = tokens.map(\.text).joined()
        self.initialisers = initialisers
        self.macros = macros
        self.uniformNames = uniformNames
    }

    /// For a file-scope declaration with initialisers (`vec2 a = …, b = …`, not `const`, `uniform`, …): blanks the
    /// initialisers in `tokens` (keeping newlines) and returns the assignments with their lines; nil otherwise.
    static func moveInitialisers(_ statement: [Int], in tokens: inout [GLSLTokens.Token]) -> [(Int, String)]? {
        let significant = statement.filter { tokens[$0].kind != .space && tokens[$0].kind != .comment }
        guard let first = significant.first else { return nil }
        let qualifiers: Set<String> = ["const", "uniform", "in", "out", "layout", "precision", "struct", "invariant", "flat", "smooth", "centroid"]
        if qualifiers.contains(tokens[first].text) { return nil }
        // Split the declarators at top-level commas, after the type (the tokens before the first declarator's name).
        var parens = 0
        var declarators: [[Int]] = [[]]
        for k in statement {
            let s = tokens[k].text
            if s == "(" || s == "[" { parens += 1 } else if s == ")" || s == "]" { parens -= 1 }
            if s == "," && parens == 0 { declarators.append([]); continue }
            declarators[declarators.count - 1].append(k)
        }
        guard declarators.contains(where: { d in d.contains { tokens[$0].text == "=" } }) else { return nil }
        var moved: [(Int, String)] = []
        for d in declarators {
            guard let eq = d.firstIndex(where: { tokens[$0].text == "=" }) else { continue }
            // The declared name: the last identifier before `=` (after any array size) outside brackets.
            var nameIndex: Int?
            var brackets = 0
            for k in d[..<eq].reversed() {
                let s = tokens[k].text
                if s == "]" { brackets += 1 } else if s == "[" { brackets -= 1 }
                if brackets == 0 && tokens[k].kind == .identifier { nameIndex = k; break }
            }
            guard let name = nameIndex else { return nil }
            let expression = d[(eq + 1)...].map { tokens[$0].text }.joined()
            moved.append((tokens[name].line, "\(tokens[name].text) = \(expression.trimmingCharacters(in: .whitespacesAndNewlines));"))
            for k in d[eq...] {
                tokens[k].kind = .space
                tokens[k].text = String(repeating: "\n", count: tokens[k].text.filter { $0 == "\n" }.count)
            }
        }
        return moved
    }
}
