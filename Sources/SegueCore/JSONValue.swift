import Foundation

/// A JSON value whose objects keep their keys in the order they were written and whose numbers keep whole numbers
/// apart from fractions: what the edit file's writer (`EditFileWriter`) builds, and what a chunk plan embeds as its
/// resolved edit (`ChunkPlan.resolvedEdit`).
///
/// Numbers are written as Swift writes a `Double` (the shortest text that reads back as the same `Double`, so a
/// value survives writing and reading exactly), whole ones below 2⁵³ without a fraction (`30`, not `30.0`).
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in order; each at most once.
    case object([(String, JSONValue)])

    /// Equal when they say the same: objects with the same keys and values in any order, a whole `.double` equal to
    /// the same `.int`.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.int(let x), .double(let y)), (.double(let y), .int(let x)): return Double(x) == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && Dictionary(x, uniquingKeysWith: { a, _ in a }) == Dictionary(y, uniquingKeysWith: { a, _ in a })
        default: return false
        }
    }

    /// A number: whole numbers (below 2⁵³) as `.int`, others as `.double`.
    public static func number(_ d: Double) -> JSONValue {
        d == d.rounded() && abs(d) < 9_007_199_254_740_992 ? .int(Int64(d)) : .double(d)
    }

    /// The value of `key` in an object (nil for other values or a missing key).
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The value as `JSONSerialization` reads it (`NSNull`, `Bool`, `Int64`, `Double`, `String`, arrays, dictionaries).
    public var foundationObject: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s): return s
        case .array(let a): return a.map(\.foundationObject)
        case .object(let pairs): return Dictionary(pairs.map { ($0.0, $0.1.foundationObject) }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// UTF-8 JSON: with `pretty`, two spaces a level, short lists of numbers or strings and small objects of them
    /// (`{"width": 1280, "height": 720}`) on one line; ending in a newline. Non-finite numbers (which JSON cannot hold)
    /// are written as null.
    public func serialized(pretty: Bool = true) -> Data {
        var out = ""
        write(to: &out, indent: pretty ? "" : nil)
        if pretty { out += "\n" }
        return Data(out.utf8)
    }

    private func write(to out: inout String, indent: String?) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? JSONValue.text(d) : "null"
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            let flat = items.count <= 8 && items.allSatisfy { if case .array = $0 { return false }; if case .object = $0 { return false }; return true }
            guard let indent, !flat else {
                out += "["
                for (k, v) in items.enumerated() { if k > 0 { out += indent == nil ? "," : ", " }; v.write(to: &out, indent: indent) }
                out += "]"
                return
            }
            let inner = indent + "  "
            out += "[\n"
            for (k, v) in items.enumerated() {
                out += inner
                v.write(to: &out, indent: inner)
                out += k + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let pairs):
            if pairs.isEmpty { out += "{}"; return }
            if indent != nil, let line = inline, line.count <= 72 { out += line; return }
            guard let indent else {
                out += "{"
                for (k, (key, v)) in pairs.enumerated() {
                    if k > 0 { out += "," }
                    JSONValue.quote(key, into: &out); out += ":"
                    v.write(to: &out, indent: nil)
                }
                out += "}"
                return
            }
            let inner = indent + "  "
            out += "{\n"
            for (k, (key, v)) in pairs.enumerated() {
                out += inner
                JSONValue.quote(key, into: &out)
                out += ": "
                v.write(to: &out, indent: inner)
                out += k + 1 < pairs.count ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    /// A small object of scalars on one line (`{"x": 0, "y": 0.5}`), nil for anything else.
    private var inline: String? {
        guard case .object(let pairs) = self, pairs.count <= 4 else { return nil }
        var out = "{"
        for (k, (key, v)) in pairs.enumerated() {
            switch v {
            case .array, .object: return nil
            default: break
            }
            if k > 0 { out += ", " }
            JSONValue.quote(key, into: &out)
            out += ": "
            v.write(to: &out, indent: nil)
        }
        return out + "}"
    }

    /// A finite `Double` as JSON: Swift's shortest round-trip text, without a trailing `.0`, exponents as JSON has them.
    static func text(_ d: Double) -> String {
        if d == d.rounded() && abs(d) < 9_007_199_254_740_992 { return String(Int64(d)) }
        return "\(d)"   // "0.1", "1e-06", "2.5e+20": valid JSON numbers
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    /// A value read by `JSONSerialization` (as `foundationObject` gives it). Numbers that are whole and not booleans
    /// become `.int`.
    public init(foundation v: Any) {
        switch v {
        case is NSNull: self = .null
        case let n as NSNumber:
            if n.objCType.pointee == 0x63 { self = .bool(n.boolValue) } else { self = .number(n.doubleValue) }
        case let s as String: self = .string(s)
        case let a as [Any]: self = .array(a.map { JSONValue(foundation: $0) })
        case let o as [String: Any]: self = .object(o.keys.sorted().map { ($0, JSONValue(foundation: o[$0]!)) })
        default: self = .null
        }
    }

    /// Parses UTF-8 JSON. Throws Foundation's error for bytes that are not JSON.
    public init(parsing data: Data) throws {
        self.init(foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }
}

extension JSONValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            self = .object(try keyed.allKeys.map(\.stringValue).sorted().map { ($0, try keyed.decode(JSONValue.self, forKey: Key(stringValue: $0))) })
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null } else if let b = try? c.decode(Bool.self) { self = .bool(b) } else if let i = try? c.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) { self = .double(d) } else { self = .string(try c.decode(String.self)) }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .object(let pairs):
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in pairs { try c.encode(v, forKey: Key(stringValue: k)) }
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for v in items { try c.encode(v) }
        case .null:
            var c = encoder.singleValueContainer(); try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer(); try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer(); try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            if d.isFinite { try c.encode(d) } else { try c.encodeNil() }
        case .string(let s):
            var c = encoder.singleValueContainer(); try c.encode(s)
        }
    }
}
