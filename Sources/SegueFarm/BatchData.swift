import Foundation
import SegueCore
import SegueEdit

/// One row of a batch's data (`BatchData.read`).
public struct BatchRow: Sendable, Equatable {
    /// From 1: the first row after a CSV header, or the first object of JSON Lines.
    public let number: Int
    /// Its values by column name.
    public let values: TemplateValues
}

/// Error in a batch's data file (not CSV, a row of another width, a line that is not a JSON object). Exit status 2.
public struct BatchDataError: SegueError, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: Int32 { ExitStatus.invalid }
}

/// A batch's rows from CSV (`.csv`: RFC 4180, a header row of names, fields quoted with `"` where they hold commas,
/// quotes or line breaks; every value text) or JSON Lines (`.jsonl`, `.ndjson`: one JSON object a line of names to
/// strings, numbers or booleans; blank lines skipped).
public enum BatchData {
    /// The rows of the file at `path`, by its extension. Throws `BatchDataError`.
    public static func read(path: String) throws -> [BatchRow] {
        guard let data = FileManager.default.contents(atPath: path) else { throw BatchDataError("\(path): cannot read the batch's data") }
        guard let text = String(data: data, encoding: .utf8) else { throw BatchDataError("\(path): not UTF-8 text") }
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return try csvRows(text, source: path)
        case "jsonl", "ndjson": return try jsonLines(text, source: path)
        default: throw BatchDataError("\(path): the batch's data is CSV (.csv) or JSON Lines (.jsonl, .ndjson)")
        }
    }

    /// CSV with a header row as rows of values (text). Throws `BatchDataError` (no header, a header name twice or not
    /// a placeholder's name, a row with another number of fields).
    public static func csvRows(_ text: String, source: String) throws -> [BatchRow] {
        let records = try csvFields(text, source: source)
        guard let header = records.first?.map(\.text) else { throw BatchDataError("\(source): empty: the first row names the columns") }
        for (k, name) in header.enumerated() {
            guard Template.isName(name) else { throw BatchDataError("\(source): column \(k + 1) of the header (\"\(name)\") is not a name (letters, digits, _, - and .)") }
            guard header.firstIndex(of: name) == k else { throw BatchDataError("\(source): the header names \(name) twice") }
        }
        return try records.dropFirst().enumerated().map { k, fields in
            guard fields.count == header.count else {
                throw BatchDataError("\(source): row \(k + 1) has \(fields.count) field(s); the header has \(header.count)")
            }
            // An empty cell gives no value (the placeholder's default, as a spreadsheet's blank cell means); `""` the
            // empty text.
            let given = zip(header, fields).filter { !$0.1.text.isEmpty || $0.1.quoted }.map { ($0.0, TemplateValue.string($0.1.text)) }
            return BatchRow(number: k + 1, values: TemplateValues(Dictionary(uniqueKeysWithValues: given)))
        }
    }

    /// RFC 4180 records: fields separated by commas, records by CRLF or LF (a last line break optional); a field in
    /// double quotes may hold commas, line breaks and `""` (one quote). Empty lines are skipped. Throws
    /// `BatchDataError` (a quote inside an unquoted field, an unclosed quote).
    public static func csv(_ text: String, source: String) throws -> [[String]] {
        try csvFields(text, source: source).map { $0.map(\.text) }
    }

    /// `csv`'s records with each field's text and whether it was in quotes (an empty cell and `""` differ).
    static func csvFields(_ text: String, source: String) throws -> [[(text: String, quoted: Bool)]] {
        var records: [[(text: String, quoted: Bool)]] = [], record: [(text: String, quoted: Bool)] = [], field = ""
        var quoted = false, wasQuoted = false, line = 1
        var it = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? { if let p = pending { pending = nil; return p }; return it.next() }
        func endRecord() {
            record.append((field, wasQuoted))
            if !(record.count == 1 && record[0].text.isEmpty && !wasQuoted) { records.append(record) }
            record = []; field = ""; wasQuoted = false
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let d = next() {
                        if d == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = d }
                    } else { quoted = false }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                guard field.isEmpty && !wasQuoted else { throw BatchDataError("\(source): line \(line): a quote inside an unquoted field (quote the whole field and double the quote)") }
                quoted = true; wasQuoted = true
            case ",": record.append((field, wasQuoted)); field = ""; wasQuoted = false
            case "\r":
                if let d = next(), d != "\n" { pending = d }
                endRecord(); line += 1
            case "\n": endRecord(); line += 1
            default:
                guard !wasQuoted else { throw BatchDataError("\(source): line \(line): text after a quoted field's closing quote") }
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw BatchDataError("\(source): a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty || wasQuoted { endRecord() }
        return records
    }

    /// JSON Lines: each non-blank line an object of names to strings, numbers or booleans. Throws `BatchDataError`.
    public static func jsonLines(_ text: String, source: String) throws -> [BatchRow] {
        var rows: [BatchRow] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { continue }
            do {
                rows.append(BatchRow(number: rows.count + 1, values: try TemplateValues.json(Data(line.utf8), source: "line \(k + 1)")))
            } catch let e as EditError {
                throw BatchDataError("\(source): \(e)")
            }
        }
        return rows
    }
}
