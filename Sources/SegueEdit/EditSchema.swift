import Foundation
import SegueCore

// The edit file's fields as data: each object's fields with their JSON types, enums and ranges
// (`EditSchema`'s declarations, EditSchemaDeclarations.swift). The parser checks an object against them before it
// reads it (`EditFields.open`) and reads its fields through them; `EditSchema.json` writes the same declarations as a
// JSON Schema (EditSchemaJSON.swift). A field cannot be accepted by one and not the other.

/// The value a field of the edit file takes.
public indirect enum SchemaType: Sendable {
    case boolean
    case number(NumberRule)
    case string(StringRule)
    case object(SchemaObject)
    /// A list of values of one type, at least `minItems` long.
    case array(SchemaType, minItems: Int)
    /// One of several types, each of another JSON kind (a number or keyframes; a number, "capture" or keyframes).
    case anyOf([SchemaType])
    /// Objects of several shapes, told apart by a key (an item's `path`, `gap`, `fill` or `text`) or by their `type`
    /// (an effect).
    case variants(SchemaVariants)
    /// A transition's `params`: names and values the parser checks against the transition's type (`TransitionKind`'s
    /// parameters) or its shader's uniforms; the JSON Schema says the built-ins' (`SchemaObject.conditions`).
    case parameters
}

/// A JSON number's constraints.
public struct NumberRule: Sendable {
    public var minimum: Double?
    public var exclusiveMinimum = false
    public var maximum: Double?
    public var exclusiveMaximum = false
    /// A whole number (|n| < 10⁹).
    public var integer = false
    /// The only values it may take (an AAC sample rate), nil: any in range.
    public var values: [Double]?
    /// Seconds: also within ±`MediaTime.maxSeconds`.
    public var seconds = false

    public init(minimum: Double? = nil, exclusiveMinimum: Bool = false, maximum: Double? = nil, exclusiveMaximum: Bool = false,
                integer: Bool = false, values: [Double]? = nil, seconds: Bool = false) {
        self.minimum = minimum; self.exclusiveMinimum = exclusiveMinimum; self.maximum = maximum
        self.exclusiveMaximum = exclusiveMaximum; self.integer = integer; self.values = values; self.seconds = seconds
    }

    /// The largest magnitude of a whole number (`EditFile.int`).
    public static let integerLimit = 999_999_999.0

    /// The bounds a JSON Schema states: the declared ones, else a time's or a whole number's own.
    var effectiveMinimum: Double? { minimum ?? (seconds ? -MediaTime.maxSeconds : integer ? -NumberRule.integerLimit : nil) }
    var effectiveMaximum: Double? { maximum ?? (seconds ? MediaTime.maxSeconds : integer ? NumberRule.integerLimit : nil) }

    /// "0…51", "≥ 0", "> 0 and ≤ 1", "> 0 seconds".
    var rangeText: String? {
        let unit = seconds ? " seconds" : ""
        switch (minimum, maximum) {
        case (let lo?, let hi?) where !exclusiveMinimum && !exclusiveMaximum: return "\(SchemaText.number(lo))…\(SchemaText.number(hi))\(unit)"
        case (let lo?, let hi?):
            return "\(exclusiveMinimum ? ">" : "≥") \(SchemaText.number(lo)) and \(exclusiveMaximum ? "<" : "≤") \(SchemaText.number(hi))\(unit)"
        case (let lo?, nil): return "\(exclusiveMinimum ? ">" : "≥") \(SchemaText.number(lo))\(unit)"
        case (nil, let hi?): return "\(exclusiveMaximum ? "<" : "≤") \(SchemaText.number(hi))\(unit)"
        case (nil, nil): return nil
        }
    }

    func contains(_ d: Double) -> Bool {
        if let lo = minimum, exclusiveMinimum ? !(d > lo) : !(d >= lo) { return false }
        if let hi = maximum, exclusiveMaximum ? !(d < hi) : !(d <= hi) { return false }
        return true
    }
}

/// What a JSON string must hold.
public enum StringRule: Sendable {
    case any
    /// Not "".
    case nonEmpty
    /// Something besides white space (a font's name), at most `maxScalars` Unicode scalars when given (a text's words).
    case words(maxScalars: Int?)
    case choice(SchemaChoice)
    /// A colour: `"#rrggbb"`, `"#rgb"` or a name (`RGBColour.parse`); with `alpha`, also `"#rrggbbaa"` and `"#rgba"`
    /// (`TextColour.parse`); or one of `also` (case-insensitive: `"transparent"`).
    case colour(alpha: Bool, also: [String])
    /// A frame rate as a fraction or a decimal (`FrameRate.parse`: "30000/1001", "29.97").
    case frameRate
    /// A CSS easing (`Easing.parse`).
    case easing
    /// Seconds as an exact fraction of whole numbers, `"1001/30000"` (`EditFile.fraction`), within the rule's range: a
    /// time no decimal writes exactly (the other alternative of a time, beside a number); or one of `names` (a length's
    /// `"edit"`, `EditSchema.length`).
    case fraction(NumberRule, names: [String] = [])
}

/// The names a string may take: `names` (in messages) and `aliases` (also accepted), perhaps in any case.
public struct SchemaChoice: Sendable {
    public let names: [String]
    public let aliases: [String]
    public let caseInsensitive: Bool
    public init(_ names: [String], aliases: [String] = [], caseInsensitive: Bool = false) {
        self.names = names; self.aliases = aliases; self.caseInsensitive = caseInsensitive
    }
    /// The names of a `CaseIterable` enum's cases.
    public init<E: CaseIterable & RawRepresentable>(_ type: E.Type, aliases: [String] = [], caseInsensitive: Bool = false) where E.RawValue == String {
        self.init(type.allCases.map(\.rawValue), aliases: aliases, caseInsensitive: caseInsensitive)
    }
    /// Every accepted spelling, names first.
    public var all: [String] { names + aliases.filter { !names.contains($0) } }
    /// The accepted spelling `s` stands for, as written in `all` (nil: none).
    public func match(_ s: String) -> String? {
        caseInsensitive ? all.first { $0.lowercased() == s.lowercased() } : all.first { $0 == s }
    }
}

/// Objects told apart by a key they hold (`tag` nil: an item's `path`, `gap`, …) or by the value of their `type`.
public struct SchemaVariants: Sendable {
    public struct Variant: Sendable {
        /// The key it holds, or its `type`.
        public let tag: String
        public let object: SchemaObject
    }
    public let variants: [Variant]
    /// Told apart by `type` (else by the key each holds).
    public let byType: Bool
    /// What one is, for messages: "an item is a clip (path), a gap, a fill or a text".
    public let summary: String
    /// Why none was recognised (by key): what `variants[0].tag`'s error says, "is required (or \"gap\": SECONDS)".
    public let missing: String
    public init(byType: Bool, _ variants: [Variant], summary: String, missing: String = "") {
        self.byType = byType; self.variants = variants; self.summary = summary; self.missing = missing
    }
    func variant(_ tag: String) -> Variant? { variants.first { $0.tag == tag } }
    /// The variants a key names (not `byType`): those whose key `o` holds, less any whose key is also a field of
    /// another one there (a shape item's `fill` is its paint, not a fill item's key).
    func keyed(_ o: [String: Any]) -> [Variant] { keyed(Set(o.keys)) }
    func keyed(_ keys: Set<String>) -> [Variant] {
        let given = variants.filter { keys.contains($0.tag) }
        return given.filter { v in !given.contains { $0.tag != v.tag && $0.object.field(v.tag) != nil } }
    }
    /// The variants whose object has `tag` among its fields (they claim it when their own key is there too).
    func claiming(_ tag: String) -> [Variant] { variants.filter { $0.tag != tag && $0.object.field(tag) != nil } }
}

/// A field of an object of the edit file.
public struct SchemaField: Sendable {
    public let name: String
    public let type: SchemaType
    /// One line: what it is, its unit and its default.
    public let description: String
    /// `null` is taken as leaving the field out.
    public let nullable: Bool
    public init(_ name: String, _ type: SchemaType, _ description: String, nullable: Bool = false) {
        self.name = name; self.type = type; self.description = description; self.nullable = nullable
    }
}

/// When a field has one of some values (a transition's `type`), what other fields may be (a rule of the JSON
/// Schema, `if`/`then`; the parser checks the same rules in its own words, from the same tables).
public struct SchemaCondition: Sendable {
    /// The field (a string) and the values that make the rule apply.
    public let field: String
    public let values: [String]
    /// Also when the field is left out (a transition without `type` is a crossfade).
    public let whenAbsent: Bool
    /// Fields and the types they must have then; nil: the field must be left out.
    public let then: [(String, SchemaType?)]
    public init(field: String, values: [String], whenAbsent: Bool = false, then: [(String, SchemaType?)]) {
        self.field = field; self.values = values; self.whenAbsent = whenAbsent; self.then = then
    }
}

/// An object of the edit file: its fields, those required, and which of a set must be given.
public struct SchemaObject: Sendable {
    /// Its name among the JSON Schema's `$defs` (and in `EditSchema.coverage`).
    public let name: String
    public let description: String
    public let fields: [SchemaField]
    public let required: [String]
    /// Exactly one of these is required (`clips` or `tracks`).
    public let exactlyOne: [String]
    public let conditions: [SchemaCondition]
    /// Written in place rather than under `$defs` (objects made for one field: a layer property's keyframes).
    public let inline: Bool

    public init(_ name: String, _ description: String, _ fields: [SchemaField], required: [String] = [], exactlyOne: [String] = [],
                conditions: [SchemaCondition] = [], inline: Bool = false) {
        self.name = name; self.description = description; self.fields = fields; self.required = required
        self.exactlyOne = exactlyOne; self.conditions = conditions; self.inline = inline
    }

    public var names: [String] { fields.map(\.name) }
    public func field(_ name: String) -> SchemaField? { fields.first { $0.name == name } }

    /// The same object with only the fields `names` (in that order): what an OTIO `metadata.segue` may carry.
    func subset(_ name: String, _ description: String, keeping names: [String]) -> SchemaObject {
        SchemaObject(name, description, names.map { n in
            guard let f = field(n) else { preconditionFailure("\(self.name) has no field \(n)") }
            return f
        })
    }
}

/// Numbers and lists in messages.
enum SchemaText {
    /// 51 → "51", 0.03125 → "0.03125", 1536000 → "1536000".
    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "\(d)"
    }
    /// "a", "a or b", "a, b or c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
    /// `s` with a suggestion of the nearest of `names` when it is near.
    static func suggestion(_ s: String, among names: [String]) -> String {
        NearestName.suggestion(for: s, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
    }
}

/// The JSON kinds, as they are told apart in a union (`SchemaType.anyOf`).
enum JSONKind: Sendable {
    case null, boolean, number, string, array, object
    init(_ v: Any) {
        if v is NSNull { self = .null } else if EditFile.isBool(v) { self = .boolean } else if v is NSNumber { self = .number }
        else if v is String { self = .string } else if v is [Any] { self = .array } else { self = .object }
    }
}

// MARK: checking a value against its declaration

extension SchemaType {
    var kind: JSONKind? {
        switch self {
        case .boolean: return .boolean
        case .number: return .number
        case .string: return .string
        case .object, .variants, .parameters: return .object
        case .array: return .array
        case .anyOf: return nil
        }
    }

    /// The alternatives of a union, each for one JSON kind.
    var alternatives: [SchemaType] { if case .anyOf(let types) = self { return types } else { return [self] } }

    /// How a message names what it takes: ["true or false"], ["a number"], ["zoom-in", "zoom-out", …], ["an object"].
    var phrases: [String] {
        switch self {
        case .boolean: return ["true or false"]
        case .number(let r): return [r.integer ? "a whole number" : "a number"]
        case .string(.choice(let c)): return c.names
        case .string(.colour): return ["a colour"]
        case .string(.fraction(_, let names)): return ["an exact fraction of seconds such as \"1001/30000\""] + names.map { "\"\($0)\"" }
        case .string: return ["a string"]
        case .object, .variants, .parameters: return ["an object"]
        case .array: return ["a list"]
        case .anyOf(let types): return types.flatMap(\.phrases)
        }
    }

    /// Checks `v` (not null) against the type, and objects inside it against their declarations. Throws `EditError`
    /// naming `path` (or the field inside it); `about` (the field's description) explains a range or a choice.
    func check(_ v: Any, _ path: String, about: String) throws {
        switch self {
        case .boolean:
            _ = try EditFile.bool(v, path)
        case .number(let rule):
            let d: Double
            if rule.seconds { d = try EditFile.seconds(v, path) } else if rule.integer { d = Double(try EditFile.int(v, path)) } else {
                d = try EditFile.number(v, path)
            }
            if let values = rule.values, !values.contains(d) {
                throw EditError(path, "must be \(SchemaText.list(values.map(SchemaText.number))) (got \(SchemaText.number(d))): \(about)")
            }
            if !rule.contains(d), let range = rule.rangeText {
                throw EditError(path, "must be \(range) (got \(SchemaText.number(d))): \(about)")
            }
        case .string(let rule):
            let s = try EditFile.string(v, path)
            try StringRule.check(rule, s, path, about: about)
        case .object(let object):
            try object.check(try EditFile.object(v, path), path)
        case .array(let item, let minItems):
            guard let list = v as? [Any] else { throw EditError(path, "must be a list, got \(EditFile.typeName(v))") }
            if list.count < minItems { throw EditError(path, "needs at least \(minItems == 1 ? "one entry" : "\(minItems) entries")") }
            for (k, x) in list.enumerated() { try item.check(x, "\(path)[\(k)]", about: about) }
        case .anyOf(let types) where types.count == 2 && types.contains(where: { if case .string(.fraction) = $0 { return true }; return false }):
            // A time: a number of seconds, or an exact fraction (`EditSchema.seconds`); said as a number.
            if JSONKind(v) == .string { try types[1].check(v, path, about: about) } else { try types[0].check(v, path, about: about) }
        case .anyOf(let types):
            let kind = JSONKind(v)
            guard let type = types.first(where: { $0.kind == kind }) else {
                throw EditError(path, "must be \(SchemaText.list(phrases)), got \(EditFile.typeName(v))")
            }
            if case .string(.choice(let c)) = type, let s = v as? String, c.match(s) == nil {
                throw EditError(path, "must be \(SchemaText.list(phrases)) (got \"\(s)\")\(SchemaText.suggestion(s, among: c.all)): \(about)")
            }
            try type.check(v, path, about: about)
        case .variants(let variants):
            _ = try variants.choose(try EditFile.object(v, path), path)
        case .parameters:
            _ = try EditFile.object(v, path)
        }
    }
}

extension StringRule {
    static func check(_ rule: StringRule, _ s: String, _ path: String, about: String) throws {
        switch rule {
        case .any: break
        case .nonEmpty:
            if s.isEmpty { throw EditError(path, "must not be empty: \(about)") }
        case .words(let max):
            if s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw EditError(path, "must hold some words (got \"\(s)\")") }
            if let max, s.unicodeScalars.count > max {
                throw EditError(path, "is too long: at most \(max) characters (got \(s.unicodeScalars.count))")
            }
        case .choice(let c):
            guard c.match(s) == nil else { return }
            throw EditError(path, "must be \(SchemaText.list(c.names)) (got \"\(s)\")\(SchemaText.suggestion(s, among: c.all)): \(about)")
        case .colour(let alpha, let also):
            if also.contains(where: { $0.lowercased() == s.lowercased() }) { return }
            if alpha ? TextColour.parse(s) != nil : RGBColour.parse(s) != nil { return }
            let names = RGBColour.names.keys.sorted().joined(separator: ", ")
            throw EditError(path, "must be a colour as \"#rrggbb\"" + (alpha ? ", \"#rrggbbaa\" (with alpha)" : "")
                            + ", \"#rgb\" or a name (\(names))" + also.map { ", or \"\($0)\"" }.joined() + " (got \"\(s)\")")
        case .frameRate:
            if FrameRate.parse(s) == nil {
                throw EditError(path, "must be a rate from 0.01 to 1000 frames per second, as a number or a fraction such as \"30000/1001\" (got \"\(s)\")")
            }
        case .easing:
            _ = try Easing.parse(s, field: path)
        case .fraction(let range, let names):
            if names.contains(s) { return }
            guard let t = EditFile.fraction(s) else {
                if !names.isEmpty {
                    throw EditError(path, "must be a number of seconds, an exact fraction of seconds such as \"1001/30000\", or \(SchemaText.list(names.map { "\"\($0)\"" })) (got \"\(s)\")\(SchemaText.suggestion(s, among: names)): \(about)")
                }
                throw EditError(path, "must be a number, got a string (\"\(s)\"); an exact time is a fraction of whole numbers of seconds such as \"1001/30000\"")
            }
            if !range.contains(t.seconds), let text = range.rangeText {
                throw EditError(path, "must be \(text) (got \(s) = \(SchemaText.number(t.seconds))): \(about)")
            }
        }
    }
}

extension SchemaVariants {
    /// The variant `o` is and `o` checked against it. Throws `EditError`: no variant's key (after the keys are
    /// checked against all variants': a misspelt one is named), several, or an unknown `type`.
    func choose(_ o: [String: Any], _ path: String) throws -> Variant {
        if byType {
            let typePath = path.isEmpty ? "type" : "\(path).type"
            guard let t = o["type"] else { throw EditError(typePath, "is required: one of \(SchemaText.list(variants.map(\.tag)))") }
            let s = try EditFile.string(t, typePath)
            guard let v = variant(s) else {
                throw EditError(typePath, "must be \(SchemaText.list(variants.map(\.tag))) (got \"\(s)\")\(SchemaText.suggestion(s, among: variants.map(\.tag))): \(summary)")
            }
            try v.object.check(o, path)
            return v
        }
        let present = keyed(o)
        if present.count > 1 { throw EditError(path, "\(summary): give one of \(present.map(\.tag).joined(separator: ", "))") }
        guard let v = present.first else {
            var all: [String] = []
            for v in variants { for n in v.object.names where !all.contains(n) { all.append(n) } }
            try EditFile.checkKeys(o, path, all)
            throw EditError(path.isEmpty ? variants[0].tag : "\(path).\(variants[0].tag)", missing)
        }
        try v.object.check(o, path)
        return v
    }
}

extension SchemaObject {
    /// Checks `o`'s keys (an unknown one is an error naming it, suggesting the nearest), its required fields and each
    /// field's value. Throws `EditError`.
    func check(_ o: [String: Any], _ path: String) throws {
        func at(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        try EditFile.checkKeys(o, path, names)
        if !exactlyOne.isEmpty {
            let given = exactlyOne.filter { o[$0] != nil }
            if given.isEmpty { throw EditError(at(exactlyOne[0]), "is required (or \(SchemaText.list(exactlyOne.dropFirst().map { "\"\($0)\"" })))") }
            if given.count > 1 { throw EditError(at(given[1]), "give \(SchemaText.list(given.map { "\"\($0)\"" })) alone, not together") }
        }
        for name in required where o[name] == nil { throw EditError(at(name), "is required: \(field(name)?.description ?? "")") }
        for f in fields {
            guard let v = o[f.name] else { continue }
            if v is NSNull && f.nullable { continue }
            try f.type.check(v, at(f.name), about: f.description)
        }
    }
}

// MARK: reading an object through its declaration

/// An object of the edit file, checked against its declaration (`SchemaObject`), whose fields the parser reads by
/// name: a field the declaration lacks reads as absent (it cannot be in a checked object), so a field the parser
/// reads and the schema lacks is never read — `EditSchemaTests` checks that every declared field is.
struct EditFields {
    let object: [String: Any]
    let declaration: SchemaObject
    /// Its place in the edit file ("clips[2]", "" for the edit).
    let path: String
    /// The variant's tag (`path`, `gap`, …; an effect's `type`) when it is one of several shapes.
    var tag: String?

    /// Checks `raw` against `type` (an object, or variants of one) and opens it. Throws `EditError`.
    static func open(_ raw: Any, _ type: SchemaType, _ path: String) throws -> EditFields {
        switch type {
        case .object(let d):
            let o = try EditFile.object(raw, path)
            try d.check(o, path)
            return EditFields(object: o, declaration: d, path: path)
        case .variants(let v):
            let o = try EditFile.object(raw, path)
            let chosen = try v.choose(o, path)
            return EditFields(object: o, declaration: chosen.object, path: path, tag: chosen.tag)
        default:
            preconditionFailure("\(path) is not declared as an object")
        }
    }

    /// An object already checked as part of its parent.
    private static func checked(_ raw: Any, _ type: SchemaType, _ path: String) -> EditFields {
        guard let o = raw as? [String: Any] else { preconditionFailure("\(path) was checked as an object") }
        for t in type.alternatives {
            switch t {
            case .object(let d): return EditFields(object: o, declaration: d, path: path)
            case .variants(let v):
                let chosen = v.byType ? v.variant(o["type"] as? String ?? "") : v.keyed(o).first
                guard let chosen else { break }
                return EditFields(object: o, declaration: chosen.object, path: path, tag: chosen.tag)
            default: continue
            }
        }
        preconditionFailure("\(path) is not declared as an object")
    }

    /// The field's path in messages.
    func path(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    /// The field's value; nil when it is left out, or null where that is allowed.
    subscript(_ name: String) -> Any? {
        EditSchema.coverage.note(declaration.name, name)
        guard let v = object[name], !(v is NSNull) else { return nil }
        return v
    }
    /// Whether the field is given as null (a style's `maxWidth: null` removes the default).
    func isNull(_ name: String) -> Bool {
        EditSchema.coverage.note(declaration.name, name)
        return object[name] is NSNull
    }

    func bool(_ name: String) -> Bool? { self[name].flatMap { EditFile.isBool($0) ? ($0 as? NSNumber)?.boolValue : nil } }
    func number(_ name: String) -> Double? { self[name].flatMap { EditFile.isBool($0) ? nil : ($0 as? NSNumber)?.doubleValue } }
    func int(_ name: String) -> Int? { number(name).map { Int($0) } }
    func string(_ name: String) -> String? { self[name] as? String }
    /// A time in seconds: a number (to the microsecond, `MediaTime(seconds:)`), or an exact fraction (`EditFile.fraction`).
    func seconds(_ name: String) -> MediaTime? {
        if let s = string(name) { return EditFile.fraction(s) }
        return number(name).map { MediaTime(seconds: $0) }
    }
    /// A choice's value: the case of `E` whose raw value is the name given (in any case where the choice allows).
    func choice<E: RawRepresentable>(_ name: String, _ type: E.Type) -> E? where E.RawValue == String {
        guard let s = string(name) else { return nil }
        if let e = E(rawValue: s) { return e }
        return E(rawValue: s.lowercased())
    }

    /// The field's object (or one of several shapes), already checked.
    func object(_ name: String) -> EditFields? {
        guard let v = self[name], v is [String: Any], let f = declaration.field(name) else { return nil }
        return EditFields.checked(v, f.type, path(name))
    }
    /// The field's list of objects, already checked.
    func objects(_ name: String) -> [EditFields]? {
        guard let list = self[name] as? [Any], let f = declaration.field(name), case .array(let item, _) = f.type else { return nil }
        return list.enumerated().map { k, v in EditFields.checked(v, item, "\(path(name))[\(k)]") }
    }
}

/// Which declared fields the parser read (`EditSchemaTests`: every one, over edits that give them all).
final class SchemaCoverage: @unchecked Sendable {
    private let lock = NSLock()
    private var recording = false
    private var seen = Set<String>()

    /// Starts recording (forgetting what was seen).
    func start() { lock.lock(); recording = true; seen = []; lock.unlock() }
    /// Stops recording and returns "object.field" for each field read.
    func stop() -> Set<String> { lock.lock(); defer { lock.unlock() }; recording = false; return seen }
    func note(_ object: String, _ field: String) {
        lock.lock(); defer { lock.unlock() }
        if recording { seen.insert("\(object).\(field)") }
    }
}
