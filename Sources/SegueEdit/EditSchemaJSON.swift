import Foundation
import SegueCore

/// The edit file's declarations (`EditSchema`) written as a JSON Schema, draft 2020-12: every object under `$defs`
/// with `additionalProperties: false` (a misspelt field fails), each field's type, enum, range and description;
/// strings the parser reads in any case as patterns; which fields each transition type takes as `if`/`then` rules.
/// `segue schema` prints it; editors and web apps validate edits with it before they submit them.
extension EditSchema {
    /// The `$schema` it declares.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The JSON Schema as a JSON object (`JSONSerialization` types).
    public static var jsonObject: [String: Any] {
        var w = SchemaWriter()
        var root = w.object(edit)
        root["$schema"] = dialect
        root["title"] = "Segue edit file"
        root["$comment"] = "Written by `segue schema` from the declarations the parser reads (SegueEdit's EditSchema); docs/edit-file.md."
        root["$defs"] = w.defs
        return root
    }

    /// The JSON Schema as UTF-8 JSON, pretty-printed with sorted keys, ending in a newline (what `segue schema` prints).
    public static var json: Data {
        // Every value is a string, number, boolean, list or object: serialising cannot fail.
        var data = (try? JSONSerialization.data(withJSONObject: jsonObject, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        data.append(0x0A)
        return data
    }
}

/// Writes declarations as JSON Schema, gathering the named objects into `defs`.
struct SchemaWriter {
    var defs: [String: Any] = [:]

    mutating func reference(_ o: SchemaObject) -> [String: Any] {
        if o.inline { return object(o) }
        if defs[o.name] == nil {
            defs[o.name] = [String: Any]()   // taken, before its fields (which may refer to others)
            defs[o.name] = object(o)
        }
        return ["$ref": "#/$defs/\(o.name)"]
    }

    mutating func object(_ o: SchemaObject) -> [String: Any] {
        var properties: [String: Any] = [:]
        for f in o.fields { properties[f.name] = field(f) }
        var s: [String: Any] = ["type": "object", "description": o.description, "properties": properties, "additionalProperties": false]
        if !o.required.isEmpty { s["required"] = o.required }
        if !o.exactlyOne.isEmpty { s["oneOf"] = o.exactlyOne.map { ["required": [$0]] } }
        if !o.conditions.isEmpty { s["allOf"] = o.conditions.map { condition($0) } }
        return s
    }

    mutating func field(_ f: SchemaField) -> [String: Any] {
        var s = type(f.type)
        if f.nullable { s = ["anyOf": [s, ["type": "null"]]] }
        s["description"] = f.description
        return s
    }

    mutating func condition(_ c: SchemaCondition) -> [String: Any] {
        let given: [String: Any] = ["properties": [c.field: ["enum": c.values]], "required": [c.field]]
        let when: [String: Any] = c.whenAbsent ? ["anyOf": [["not": ["required": [c.field]]], given]] : given
        var then: [String: Any] = [:]
        for (name, t) in c.then { then[name] = t.map { type($0) } ?? false }
        return ["if": when, "then": ["properties": then]]
    }

    mutating func type(_ t: SchemaType) -> [String: Any] {
        switch t {
        case .boolean: return ["type": "boolean"]
        case .number(let r):
            var s: [String: Any] = ["type": r.integer ? "integer" : "number"]
            if let values = r.values { s["enum"] = values.map(JSONNumber.value); return s }
            if let lo = r.effectiveMinimum { s[r.exclusiveMinimum && r.minimum != nil ? "exclusiveMinimum" : "minimum"] = JSONNumber.value(lo) }
            if let hi = r.effectiveMaximum { s[r.exclusiveMaximum && r.maximum != nil ? "exclusiveMaximum" : "maximum"] = JSONNumber.value(hi) }
            return s
        case .string(let rule):
            var s: [String: Any] = ["type": "string"]
            switch rule {
            case .any: break
            case .nonEmpty: s["minLength"] = 1
            case .words(let max):
                s["minLength"] = 1; s["pattern"] = "\\S"
                if let max { s["maxLength"] = max }
            case .choice(let c):
                if c.caseInsensitive { s["pattern"] = SchemaPattern.anyCase(c.all) } else { s["enum"] = c.all }
            case .colour(let alpha, let also): s["pattern"] = SchemaPattern.colour(alpha: alpha, also: also)
            case .frameRate: s["pattern"] = SchemaPattern.frameRate
            case .easing: s["pattern"] = SchemaPattern.easing
            case .fraction(_, let names): s["pattern"] = names.isEmpty ? SchemaPattern.fraction : SchemaPattern.fraction(or: names)
            }
            return s
        case .object(let o): return reference(o)
        case .array(let item, let minItems):
            var s: [String: Any] = ["type": "array", "items": type(item)]
            if minItems > 0 { s["minItems"] = minItems }
            return s
        case .anyOf(let types): return ["anyOf": types.map { type($0) }]
        case .variants(let v):
            // Each shape applies where its key (or its type) says, so a validator reports the misspelt field inside
            // it rather than "not valid under any of the given schemas".
            if v.byType {
                return ["type": "object", "required": ["type"], "properties": ["type": ["enum": v.variants.map(\.tag)]],
                        "allOf": v.variants.map { ["if": ["properties": ["type": ["const": $0.tag]], "required": ["type"]], "then": reference($0.object)] }]
            }
            return ["type": "object", "anyOf": v.variants.map { ["required": [$0.tag]] },
                    "allOf": v.variants.map { variant in
                        // A key that is also a field of another variant (a shape's fill) names its own variant only without that one's key.
                        let claims = v.claiming(variant.tag).map { ["required": [$0.tag]] }
                        let when: [String: Any] = claims.isEmpty ? ["required": [variant.tag]] : ["required": [variant.tag], "not": ["anyOf": claims]]
                        return ["if": when, "then": reference(variant.object)]
                    }]
        case .parameters: return ["type": "object"]
        }
    }
}

/// Numbers as JSON writes them: whole ones as integers.
enum JSONNumber {
    static func value(_ d: Double) -> Any { d == d.rounded() && abs(d) < 1e15 ? Int64(d) as Any : d as Any }
}

/// The regular expressions (ECMA-262, as JSON Schema's `pattern`; also Python's `re`) for strings the parser reads
/// with a function rather than a list: each the function's rule (`SchemaPatternTests` checks them against it).
enum SchemaPattern {
    /// `s` in any case: each letter as `[Xx]`, the regular expressions' own characters escaped.
    static func anyCaseText(_ s: String) -> String {
        s.map { c -> String in
            if c.isLetter, c.uppercased() != c.lowercased() { return "[\(c.uppercased())\(c.lowercased())]" }
            return "^$\\.*+?()[]{}|/".contains(c) ? "\\\(c)" : String(c)
        }.joined()
    }
    /// Exactly one of `names`, in any case.
    static func anyCase(_ names: [String]) -> String { "^(?:" + names.map(anyCaseText).joined(separator: "|") + ")$" }

    /// `RGBColour.parse` (`"#rgb"`, `"#rrggbb"`, a name in any case, white space around) and with `alpha`
    /// `TextColour.parse` (also `"#rgba"`, `"#rrggbbaa"`); or one of `also` in any case.
    static func colour(alpha: Bool, also: [String]) -> String {
        let hex = (alpha ? [3, 4, 6, 8] : [3, 6]).map { "[0-9A-Fa-f]{\($0)}" }.joined(separator: "|")
        let names = RGBColour.names.keys.sorted().map(anyCaseText).joined(separator: "|")
        return "^(?:[ \\t]*(?:#(?:\(hex))|\(names))[ \\t]*" + also.map { "|" + anyCaseText($0) }.joined() + ")$"
    }

    /// `FrameRate.parse`: a fraction of whole numbers or a decimal (its range, 0.01…1000, is the parser's to check).
    static let frameRate = "^(?:\\+?[0-9]+/\\+?[0-9]+|[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?)$"

    /// `EditFile.fraction`: whole numbers of seconds over a positive whole number (its range is the parser's to check).
    static let fraction = "^-?[0-9]+/0*[1-9][0-9]*$"
    /// A fraction (`fraction`) or exactly one of `names` (a length's `"edit"`).
    static func fraction(or names: [String]) -> String {
        "^(?:-?[0-9]+/0*[1-9][0-9]*|" + names.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|") + ")$"
    }

    /// `Easing.parse`: a keyword or a function in any case, white space around (the function's arguments are the
    /// parser's to check).
    static var easing: String {
        let keywords = Easing.keywords.keys.sorted().map(anyCaseText).joined(separator: "|")
        let functions = Easing.functionNames.map(anyCaseText).joined(separator: "|")
        return "^[ \\t]*(?:\(keywords)|(?:\(functions))[ \\t]*\\(.*\\))[ \\t]*$"
    }
}
