import Foundation
import SegueCore

/// What Foundation's JSON parser lets through and an edit file must not have: a key given twice in one object (the
/// parser silently keeps the last) and a trailing comma before `}` or `]` (not JSON, RFC 8259 §4–5). Run after the
/// document has parsed, so the rest of its syntax is known to be sound.
enum StrictJSON {
    /// Throws `EditError` naming the field (`clips[0].start`) and the line and column of the problem.
    static func check(_ data: Data) throws {
        var s = Scanner(bytes: [UInt8](data))
        s.skipSpace()
        try s.value(path: "")
    }

    struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(bytes: [UInt8]) { self.bytes = bytes }

        var location: String {
            var line = 1, column = 1
            for b in bytes[..<min(i, bytes.count)] { if b == 0x0A { line += 1; column = 1 } else { column += 1 } }
            return "line \(line), column \(column)"
        }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
        mutating func skipSpace() { while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 } }

        mutating func value(path: String) throws {
            switch peek {
            case UInt8(ascii: "{"): try object(path: path)
            case UInt8(ascii: "["): try array(path: path)
            case UInt8(ascii: "\""): _ = string()
            default: while let b = peek, !",]} \t\r\n".utf8.contains(b) { i += 1 }
            }
            skipSpace()
        }

        mutating func object(path: String) throws {
            i += 1
            skipSpace()
            var keys = Set<String>()
            if peek == UInt8(ascii: "}") { i += 1; return }
            while true {
                let at = location
                let key = string()
                let field = path.isEmpty ? key : "\(path).\(key)"
                if !keys.insert(key).inserted {
                    throw EditError(field, "the key \"\(key)\" appears twice in one object (\(at)); keep one")
                }
                skipSpace()
                i += 1   // ':'
                skipSpace()
                try value(path: field)
                if peek == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                    if peek == UInt8(ascii: "}") { throw EditError(path, "a trailing comma before } (\(location)) is not JSON; remove it") }
                    continue
                }
                i += 1   // '}'
                return
            }
        }

        mutating func array(path: String) throws {
            i += 1
            skipSpace()
            if peek == UInt8(ascii: "]") { i += 1; return }
            var k = 0
            while true {
                try value(path: "\(path)[\(k)]")
                k += 1
                if peek == UInt8(ascii: ",") {
                    i += 1
                    skipSpace()
                    if peek == UInt8(ascii: "]") { throw EditError(path, "a trailing comma before ] (\(location)) is not JSON; remove it") }
                    continue
                }
                i += 1   // ']'
                return
            }
        }

        /// A string's text (escapes decoded by Foundation), the scanner past its closing quote.
        mutating func string() -> String {
            let start = i
            i += 1
            while let b = peek, b != UInt8(ascii: "\"") { i += b == UInt8(ascii: "\\") ? 2 : 1 }
            i += 1
            let raw = Data(bytes[start..<min(i, bytes.count)])
            return (try? JSONSerialization.jsonObject(with: Data("[".utf8) + raw + Data("]".utf8)) as? [String])?.first
                ?? String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
        }
    }
}
