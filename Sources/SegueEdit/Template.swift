import Foundation
import SegueCore

// Templates (docs/templates.md): an edit file whose string values hold placeholders, `{{name}}` or `{{name|default}}`,
// filled from values given on the command line (`--set`, `--values`) or a batch's row. The substitution works on the
// parsed JSON tree, before the edit's fields are read, so every field takes placeholders; a value is data: it is put in
// as a string's content (it cannot end the string or add fields) and never read again for placeholders.

/// One value a placeholder is filled with: text, a number or a boolean (a `--values` file or a JSON Lines row may give
/// numbers and booleans; `--set` and CSV give text).
public enum TemplateValue: Sendable, Equatable, Codable {
    case string(String)
    case number(Double)
    case bool(Bool)

    /// The value as text, as it is put inside a longer string: `Alice`, `2.5`, `3`, `true`.
    public var text: String {
        switch self {
        case .string(let s): return s
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
        case .bool(let b): return b ? "true" : "false"
        }
    }

    /// A value of a parsed JSON document (`JSONSerialization`): a string, a number or a boolean; nil for anything else.
    public init?(json v: Any) {
        if EditFile.isBool(v), let n = v as? NSNumber { self = .bool(n.boolValue) }
        else if let n = v as? NSNumber, n.doubleValue.isFinite { self = .number(n.doubleValue) }
        else if let s = v as? String { self = .string(s) }
        else { return nil }
    }
}

/// The values of a template's placeholders, by name.
public struct TemplateValues: Sendable, Equatable {
    public var values: [String: TemplateValue]
    public init(_ values: [String: TemplateValue] = [:]) { self.values = values }
    public subscript(_ name: String) -> TemplateValue? {
        get { values[name] }
        set { values[name] = newValue }
    }
    public var isEmpty: Bool { values.isEmpty }

    /// The values of a JSON object of names to strings, numbers or booleans (`--values FILE`). Throws `EditError`
    /// naming `source` (not JSON, not an object, a value of another kind, a name that is not a placeholder's).
    public static func json(_ data: Data, source: String) throws -> TemplateValues {
        guard let root = try? JSONSerialization.jsonObject(with: data, options: []) else {
            throw EditError(source, "is not valid JSON: give an object of names to strings, numbers or booleans")
        }
        guard let object = root as? [String: Any] else {
            throw EditError(source, "must be a JSON object of names to strings, numbers or booleans, got \(EditFile.typeName(root))")
        }
        var values = TemplateValues()
        for (name, v) in object {
            guard Template.isName(name) else { throw EditError("\(source): \(name)", "is not a placeholder's name (letters, digits, _, - and .)") }
            guard let value = TemplateValue(json: v) else {
                throw EditError("\(source): \(name)", "must be a string, a number or a boolean, got \(EditFile.typeName(v))")
            }
            values[name] = value
        }
        return values
    }
}

/// Placeholders in strings, and their substitution in an edit file's JSON tree.
public enum Template {
    /// A placeholder: its name and its default (the text after `|`), where it lies in the string.
    struct Placeholder {
        let name: String
        let defaultText: String?
        let range: Range<String.Index>
    }

    /// Whether `s` may name a placeholder: letters, digits, `_`, `-` and `.`, not empty.
    public static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "_-.".unicodeScalars.contains($0) }
    }

    /// The placeholders of `s`, in order. `{{` that does not begin one (`{{ }}`, `{{a b}}`, no `}}`) is text.
    static func placeholders(in s: String) -> [Placeholder] {
        var found: [Placeholder] = []
        var at = s.startIndex
        while let open = s.range(of: "{{", range: at..<s.endIndex) {
            guard let close = s.range(of: "}}", range: open.upperBound..<s.endIndex) else { break }
            let inside = s[open.upperBound..<close.lowerBound]
            let bar = inside.firstIndex(of: "|")
            let name = String(inside[..<(bar ?? inside.endIndex)]).trimmingCharacters(in: .whitespaces)
            if isName(name) {
                found.append(Placeholder(name: name, defaultText: bar.map { String(inside[inside.index(after: $0)...]) }, range: open.lowerBound..<close.upperBound))
                at = close.upperBound
            } else {
                at = s.index(after: open.lowerBound)
            }
        }
        return found
    }

    /// Warnings for the values no placeholder of `texts` (a template file's text, a batch's output pattern) uses — a
    /// misspelt `--set nmae=…` or a CSV column `nom` would otherwise be dropped without a word — each with the
    /// nearest name used, if one is near: "--set nmae: the template has no placeholder {{nmae}} (did you mean name?)".
    /// `given` says how the values were given (`--set/--values`, `column`).
    public static func unusedValueWarnings(_ values: TemplateValues, in texts: [String], given: String) -> [String] {
        let used = Set(texts.flatMap { names(in: $0) })
        return values.values.keys.sorted().filter { !used.contains($0) }.map { name in
            let near = NearestName.suggestion(for: name, among: used.sorted()).map { " (did you mean \($0)?)" } ?? ""
            return "\(given) \(name): the template has no placeholder {{\(name)}}\(near)"
        }
    }

    /// The names of the placeholders in `s` (a batch's output pattern), in order, each once.
    public static func names(in s: String) -> [String] {
        var seen: [String] = []
        for p in placeholders(in: s) where !seen.contains(p.name) { seen.append(p.name) }
        return seen
    }

    /// `s` with each placeholder replaced by its value's text (or its default). Throws `EditError` naming `field` and
    /// the placeholder when one has neither.
    public static func fill(_ s: String, values: TemplateValues, field: String) throws -> String {
        let found = placeholders(in: s)
        guard !found.isEmpty else { return s }
        var out = "", at = s.startIndex
        for p in found {
            out += s[at..<p.range.lowerBound]
            out += try value(p, values, field).text
            at = p.range.upperBound
        }
        return out + s[at...]
    }

    static func value(_ p: Placeholder, _ values: TemplateValues, _ field: String) throws -> TemplateValue {
        if let v = values[p.name] { return v }
        if let d = p.defaultText { return .string(d) }
        throw EditError(field, "the placeholder {{\(p.name)}} has no value: give --set \(p.name)=VALUE, --values FILE, a batch column named \(p.name), or a default ({{\(p.name)|DEFAULT}})")
    }

    /// `root` (a parsed JSON document) with the placeholders of every string value filled, read along `type` (the edit
    /// file's declarations, `EditSchema`; nil: unknown, as in an OTIO document). A string that is one placeholder alone
    /// takes the type of the field it fills: a number or a boolean where one is declared (`"duration": "{{secs}}"`
    /// with `secs` = "2.5" is 2.5), else text; any other string takes its values as text. Keys are never filled.
    /// Throws `EditError` naming the field (`tracks[0].clips[2].text`) and the placeholder without a value.
    static func substitute(_ v: Any, values: TemplateValues, type: SchemaType?, path: String) throws -> Any {
        let missing = Missing()
        do {
            let filled = try substitute(v, values: values, type: type, path: path, missing: missing)
            try missing.check()
            return filled
        } catch let w as WrongValue { throw w.error }
    }

    /// A whole-value placeholder filled with a value its field cannot take (thrown at once, not gathered with the
    /// missing ones).
    struct WrongValue: Error { let error: EditError }

    /// The placeholders without a value a document holds, gathered so that one error names them all (a template
    /// missing three values is not fixed one run at a time).
    final class Missing {
        var errors: [EditError] = []
        /// Throws the first placeholder's error (by field path: the same every run), naming the others after it.
        func check() throws {
            let errors = self.errors.sorted { $0.field < $1.field }
            guard let first = errors.first else { return }
            guard errors.count > 1 else { throw first }
            let others = errors.dropFirst().map { e in
                (e.message.firstRange(of: "}}").map { String(e.message[..<$0.upperBound]).replacingOccurrences(of: "the placeholder ", with: "") } ?? e.message)
                    + " (\(e.field))"
            }
            throw EditError(first.field, first.message + "; also without a value: " + others.joined(separator: ", "))
        }
    }

    private static func substitute(_ v: Any, values: TemplateValues, type: SchemaType?, path: String, missing: Missing) throws -> Any {
        switch v {
        case let s as String:
            do {
                let found = placeholders(in: s)
                if found.count == 1, found[0].range == s.startIndex..<s.endIndex {
                    let v = try value(found[0], values, path)
                    let filled = typed(v, type)
                    // A field that takes no text (a number, a boolean) says what the placeholder was filled with.
                    if filled is String, let type, !type.alternatives.contains(where: { $0.kind == .string }),
                       let wanted = type.alternatives.first(where: { $0.kind == .number || $0.kind == .boolean })?.phrases.first {
                        throw WrongValue(error: EditError(path, "must be \(wanted), got \"\(v.text)\" (the value of {{\(found[0].name)}})"))
                    }
                    return filled
                }
                return try fill(s, values: values, field: path)
            } catch let e as EditError {
                missing.errors.append(e)
                return s
            }
        case let list as [Any]:
            let item = type.flatMap(itemType)
            return try list.enumerated().map { k, x in try substitute(x, values: values, type: item, path: "\(path)[\(k)]", missing: missing) }
        case let object as [String: Any]:
            var out: [String: Any] = [:]
            // A variant told apart by its `type`: the type first, so that the other fields are read as its own.
            var filledType: String?
            if let t = object["type"] as? String {
                filledType = try fill(t, values: values, field: path.isEmpty ? "type" : "\(path).type")
            }
            let declaration = type.flatMap { objectDeclaration($0, keys: Set(object.keys), filledType: filledType) }
            for (key, x) in object {
                let at = path.isEmpty ? key : "\(path).\(key)"
                out[key] = try substitute(x, values: values, type: declaration?.field(key)?.type, path: at, missing: missing)
            }
            return out
        default:
            return v
        }
    }

    /// An OpenTimelineIO document's placeholders filled: its timeline's `metadata.segue` read along its declaration
    /// (`EditSchema.otioTimeline`: a placeholder alone takes the type of the field it fills), every other string as
    /// text (OTIO's own fields are not declared here; a number or boolean value alone stays one). Throws `EditError`.
    static func substituteOTIO(_ root: Any, values: TemplateValues) throws -> Any {
        guard var top = root as? [String: Any], var meta = top["metadata"] as? [String: Any], let segue = meta["segue"] else {
            return try substitute(root, values: values, type: nil, path: "")
        }
        meta["segue"] = nil
        top["metadata"] = meta
        let missing = Missing()
        do {
            guard var filled = try substitute(top, values: values, type: nil, path: "", missing: missing) as? [String: Any] else { return top }
            var m = filled["metadata"] as? [String: Any] ?? [:]
            m["segue"] = try substitute(segue, values: values, type: .object(EditSchema.otioTimeline), path: "metadata.segue", missing: missing)
            filled["metadata"] = m
            try missing.check()
            return filled
        } catch let w as WrongValue { throw w.error }
    }

    /// The declared type of a list's entries.
    private static func itemType(_ type: SchemaType) -> SchemaType? {
        for t in type.alternatives { if case .array(let item, _) = t { return item } }
        return nil
    }

    /// The declaration an object is read by: the object's own, or the variant its keys or `type` choose.
    private static func objectDeclaration(_ type: SchemaType, keys: Set<String>, filledType: String?) -> SchemaObject? {
        for t in type.alternatives {
            switch t {
            case .object(let d): return d
            case .variants(let v):
                if v.byType { return filledType.flatMap { v.variant($0)?.object } }
                return v.keyed(keys).first?.object
            default: continue
            }
        }
        return nil
    }

    /// A whole-value placeholder's value as the field declares it: a number where a number goes and the text is one,
    /// a boolean where one goes and the text is `true` or `false`, else text (which the field's check then judges).
    private static func typed(_ value: TemplateValue, _ type: SchemaType?) -> Any {
        let kinds = (type?.alternatives ?? []).compactMap(\.kind)
        let takesNumber = kinds.contains(.number) || { if case .parameters = type { return true }; return false }()
        let takesBool = kinds.contains(.boolean)
        switch value {
        case .string(let s):
            if takesNumber, let d = number(s) { return d == d.rounded() && abs(d) < 1e15 ? NSNumber(value: Int64(d)) : NSNumber(value: d) }
            if takesBool, s == "true" || s == "false" { return NSNumber(value: s == "true") }
            return s
        case .number(let d):
            if takesNumber || type == nil { return d == d.rounded() && abs(d) < 1e15 ? NSNumber(value: Int64(d)) : NSNumber(value: d) }
            return value.text
        case .bool(let b):
            return takesBool || type == nil ? NSNumber(value: b) : value.text
        }
    }

    /// A JSON number's text as a number (digits, sign, point, exponent; finite); nil otherwise.
    private static func number(_ s: String) -> Double? {
        let t = s.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, t.unicodeScalars.allSatisfy({ "0123456789+-.eE".unicodeScalars.contains($0) }), let d = Double(t), d.isFinite else { return nil }
        return d
    }

    /// Whether the JSON bytes hold a placeholder's opening at all (an edit without one is read exactly as before).
    static func mayHold(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            guard b.count > 1 else { return false }
            for i in 0..<(b.count - 1) where b[i] == 0x7B && b[i + 1] == 0x7B { return true }
            return false
        }
    }
}
