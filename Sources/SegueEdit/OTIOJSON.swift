import Foundation
import SegueCore

/// OpenTimelineIO's JSON as Foundation reads it: its non-standard numbers, its objects with their schema, and its
/// times (`RationalTime`, `TimeRange`) as exact `MediaTime`s.
enum OTIOJSON {
    /// What the sentinel strings stand for (`sanitized(_:)`): NUL cannot appear in OTIO's text, so no string collides.
    static let nan = "\u{0}nan", inf = "\u{0}inf", negInf = "\u{0}-inf"

    /// The document with OTIO's bare `NaN`, `Inf`, `Infinity`, `-Inf` and `-Infinity` (RapidJSON's
    /// `kParseNanAndInfFlag`, which OTIO writes and reads) replaced by sentinel strings, so that Foundation's strict
    /// parser takes it; `number(_:)` turns them back into numbers. Strings are left alone.
    static func sanitized(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0, inString = false
        func token(_ word: String, at k: Int) -> Bool {
            let w = Array(word.utf8)
            guard k + w.count <= bytes.count, Array(bytes[k..<(k + w.count)]) == w else { return false }
            let next = k + w.count < bytes.count ? bytes[k + w.count] : 0x20
            return !(next.isASCIILetter || next.isASCIIDigit || next == UInt8(ascii: "_"))
        }
        func emit(_ s: String) { out.append(contentsOf: Array("\"\\u0000\(s.dropFirst())\"".utf8)) }
        while i < bytes.count {
            let b = bytes[i]
            if inString {
                out.append(b)
                if b == UInt8(ascii: "\\"), i + 1 < bytes.count { out.append(bytes[i + 1]); i += 2; continue }
                if b == UInt8(ascii: "\"") { inString = false }
                i += 1
                continue
            }
            if b == UInt8(ascii: "\"") { inString = true; out.append(b); i += 1; continue }
            let negative = b == UInt8(ascii: "-")
            let k = negative ? i + 1 : i
            if token("NaN", at: k) { emit(nan); i = k + 3; continue }
            if token("Infinity", at: k) { emit(negative ? negInf : inf); i = k + 8; continue }
            if token("Inf", at: k) { emit(negative ? negInf : inf); i = k + 3; continue }
            out.append(b)
            i += 1
        }
        return Data(out)
    }

    /// A number: a JSON number (not a boolean), or one of the sentinels (NaN, ±∞); nil otherwise.
    static func number(_ v: Any?) -> Double? {
        switch v {
        case let s as String where s == nan: return .nan
        case let s as String where s == inf: return .infinity
        case let s as String where s == negInf: return -.infinity
        case let n as NSNumber where !EditFile.isBool(n): return n.doubleValue
        default: return nil
        }
    }
}

extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}

/// One OTIO object as read, with its JSON path for messages (`tracks.children[1].children[3]`).
struct OTIOObject {
    let fields: [String: Any]
    /// Where it is in the document.
    let path: String
    /// `Clip` of `"Clip.2"`.
    let schema: String
    /// `2` of `"Clip.2"` (0 when the schema string has no version).
    let version: Int

    /// `raw` as an OTIO object (a JSON object with `OTIO_SCHEMA`), or nil.
    init?(_ raw: Any?, path: String) {
        guard let o = raw as? [String: Any], let s = o["OTIO_SCHEMA"] as? String else { return nil }
        fields = o
        self.path = path
        let parts = s.split(separator: ".", maxSplits: 1)
        schema = parts.first.map(String.init) ?? s
        version = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }

    /// `"Clip.2"`.
    var schemaName: String { "\(schema).\(version)" }
    subscript(key: String) -> Any? {
        guard let v = fields[key], !(v is NSNull) else { return nil }
        return v
    }
    func child(_ key: String) -> OTIOObject? { OTIOObject(self[key], path: "\(path).\(key)") }
    var name: String { self["name"] as? String ?? "" }
    /// `enabled` (default true).
    var enabled: Bool { (self["enabled"] as? NSNumber).map { $0.boolValue } ?? true }
    /// The object's `metadata.segue` (Segue's own fields), nil when absent.
    var segueMetadata: [String: Any]? { (self["metadata"] as? [String: Any])?["segue"] as? [String: Any] }

    /// A `RationalTime` field as seconds (`value / rate`, exact when both are whole or the rate is an NTSC one).
    /// - Throws: `EditError` naming the field for a missing, non-finite or out-of-range value or rate.
    func time(_ key: String) throws -> MediaTime {
        guard let t = child(key) else { throw EditError("\(path).\(key)", "is required: a RationalTime {\"value\", \"rate\"}") }
        return try OTIOTime.seconds(of: t)
    }
    /// An optional `RationalTime` field.
    func optionalTime(_ key: String) throws -> MediaTime? { self[key] == nil ? nil : try time(key) }
    /// A `TimeRange` field as (start, duration) seconds; nil when absent or null.
    func range(_ key: String) throws -> (start: MediaTime, duration: MediaTime)? {
        guard let r = child(key) else { return nil }
        let start = try r.time("start_time"), duration = try r.time("duration")
        guard !(duration < .zero) else { throw EditError("\(r.path).duration", "must not be negative (got \(fmt(duration)) s)") }
        return (start, duration)
    }
}

/// OTIO's `RationalTime` (`value` frames at `rate` frames per second) as an exact `MediaTime`.
enum OTIOTime {
    /// `value / rate` seconds of the `RationalTime` object `t`.
    static func seconds(of t: OTIOObject) throws -> MediaTime {
        guard let value = OTIOJSON.number(t["value"]) else { throw EditError("\(t.path).value", "must be a number") }
        guard let rate = OTIOJSON.number(t["rate"]) else { throw EditError("\(t.path).rate", "must be a number") }
        guard value.isFinite else { throw EditError("\(t.path).value", "must be a finite number (got \(value))") }
        guard rate.isFinite, rate > 0 else { throw EditError("\(t.path).rate", "must be a finite rate > 0 (got \(rate))") }
        guard let s = seconds(value: value, rate: rate) else {
            throw EditError("\(t.path)", "\(value) frames at \(rate) fps is out of range (at most \(Int(MediaTime.maxSeconds)) s)")
        }
        return s
    }

    /// `value / rate` seconds: exact for whole values at whole rates and at NTSC rates (n × 1000/1001, which OTIO
    /// writes as 23.976023976…, 29.97002997…), else to the microsecond. Nil when out of range.
    static func seconds(value: Double, rate: Double) -> MediaTime? {
        guard MediaTime.isRepresentable(seconds: value / rate) else { return nil }
        if value == value.rounded(), let r = exactRate(rate) {
            return MediaTime(value: Int64(value) * r.den, timescale: r.num)
        }
        return MediaTime(seconds: value / rate)
    }

    /// `rate` as an exact fraction (num, den) when it is whole or an NTSC rate; nil otherwise.
    static func exactRate(_ rate: Double) -> (num: Int64, den: Int64)? {
        guard rate > 0, rate < 1e6 else { return nil }
        if abs(rate - rate.rounded()) < 1e-9 { return (Int64(rate.rounded()), 1) }
        let ntsc = rate * 1001 / 1000
        if abs(ntsc - ntsc.rounded()) < 1e-6 { return (Int64(ntsc.rounded()) * 1000, 1001) }
        return nil
    }

    /// The frame rate of a `rate` field, exact for whole and NTSC rates.
    static func frameRate(_ rate: Double) -> FrameRate? {
        if let r = exactRate(rate), r.num <= Int64(Int32.max) { return FrameRate(Int32(r.num), Int32(r.den)) }
        return FrameRate.fromDecimal(rate)
    }
}
