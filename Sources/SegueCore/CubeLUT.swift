import Foundation

/// A colour look-up table from an Adobe/Resolve `.cube` file (the Cube LUT Specification 1.0, Adobe 2013; Resolve's
/// `LUT_1D_INPUT_RANGE`/`LUT_3D_INPUT_RANGE`): a 1D table (one curve per channel) or a 3D table (a lattice of R′G′B′
/// colours), read once and shared by every frame. Applied as FFmpeg's `lut1d=interp=linear` and
/// `lut3d=interp=tetrahedral` apply one (libavfilter/vf_lut3d.c): the input scaled from the domain to table
/// positions `(c − min) · (N − 1) / (max − min)`, clamped to the table; 1D linear between the two entries around it,
/// 3D tetrahedral between the four lattice points of the tetrahedron of the cube around it that holds it.
/// `effects.glsl`'s `segue_lut1d`/`segue_lut3d` are the GLSL twins.
public final class CubeLUT: Equatable, @unchecked Sendable, CustomStringConvertible {
    /// The file it was read from (absolute).
    public let path: String
    public let title: String?
    /// Entries per axis (3D: the lattice is size³; 1D: size entries).
    public let size: Int
    public let is3D: Bool
    public let domainMin: SIMD3<Float>, domainMax: SIMD3<Float>
    /// The entries, R′G′B′, in the file's order (3D: red fastest, then green, then blue).
    public let table: [SIMD3<Float>]

    /// The largest 3D lattice read (65³, what Resolve and most cameras write; FFmpeg takes up to 256).
    public static let max3DSize = 65
    /// The largest 1D table read (FFmpeg's limit).
    public static let max1DSize = 65536

    public init(path: String, title: String?, size: Int, is3D: Bool, domainMin: SIMD3<Float>, domainMax: SIMD3<Float>, table: [SIMD3<Float>]) {
        self.path = path; self.title = title; self.size = size; self.is3D = is3D
        self.domainMin = domainMin; self.domainMax = domainMax; self.table = table
        positionScale = SIMD3(repeating: Float(size - 1)) / (domainMax - domainMin)
    }

    public static func == (a: CubeLUT, b: CubeLUT) -> Bool { a === b || (a.path == b.path && a.size == b.size && a.table == b.table) }

    /// "33³ 3D LUT grade.cube" / "1024-entry 1D LUT curve.cube".
    public var description: String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return is3D ? "\(size)³ 3D LUT \(name)" : "\(size)-entry 1D LUT \(name)"
    }

    /// Reads a `.cube` file's text. Keywords: `TITLE`, `LUT_1D_SIZE`, `LUT_3D_SIZE`, `DOMAIN_MIN`, `DOMAIN_MAX`,
    /// `LUT_1D_INPUT_RANGE`, `LUT_3D_INPUT_RANGE`; `#` comments; then size (1D) or size³ (3D) lines of three numbers.
    /// - Throws: `CubeLUTError` naming the line for an unknown keyword, a line that is not three numbers, a size out of
    ///   range (3D 2…65, 1D 2…65536), a domain whose maximum is not above its minimum, or too few or too many entries.
    public static func parse(_ text: String, path: String) throws -> CubeLUT {
        var title: String? = nil
        var size: Int? = nil, is3D = true
        var lo = SIMD3<Float>(repeating: 0), hi = SIMD3<Float>(repeating: 1)
        var table: [SIMD3<Float>] = []
        var lineNumber = 0, lastLine = 0, domainLine = 0
        func numbers(_ parts: [Substring], _ what: String) throws -> SIMD3<Float> {
            guard parts.count == 3, let a = Float(parts[0]), let b = Float(parts[1]), let c = Float(parts[2]), a.isFinite, b.isFinite, c.isFinite else {
                throw CubeLUTError(line: lineNumber, "\(what): expected three numbers, found \"\(parts.joined(separator: " "))\"")
            }
            return SIMD3(a, b, c)
        }
        var expected = 0
        for raw in CubeLUTLines(text) {
            lineNumber += 1
            // An entry of plain ASCII numbers (all but a few lines of a table) is read from its bytes.
            if case .entry(let v) = raw {
                guard let n = size else { throw CubeLUTError(line: lineNumber, "an entry before LUT_3D_SIZE or LUT_1D_SIZE") }
                if expected == 0 { expected = is3D ? n * n * n : n; table.reserveCapacity(expected) }
                guard table.count < expected else { throw CubeLUTError(line: lineNumber, "more than the \(expected) entries its size gives") }
                lastLine = lineNumber
                table.append(v)
                continue
            }
            guard case .text(let text) = raw else { continue }
            let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            lastLine = lineNumber
            let parts = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let keyword = String(parts[0])
            if let first = keyword.first, first.isLetter {
                guard table.isEmpty else { throw CubeLUTError(line: lineNumber, "\(keyword) after the table's entries") }
                let rest = Array(parts.dropFirst())
                switch keyword {
                case "TITLE":
                    title = line.dropFirst(5).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                case "LUT_3D_SIZE", "LUT_1D_SIZE":
                    guard size == nil else { throw CubeLUTError(line: lineNumber, "a second size (\(keyword))") }
                    let three = keyword == "LUT_3D_SIZE"
                    let limit = three ? max3DSize : max1DSize
                    guard rest.count == 1, let n = Int(rest[0]), n >= 2, n <= limit else {
                        throw CubeLUTError(line: lineNumber, "\(keyword) must be a whole number 2…\(limit), found \"\(rest.joined(separator: " "))\"")
                    }
                    size = n; is3D = three
                case "DOMAIN_MIN": lo = try numbers(rest, keyword); domainLine = lineNumber
                case "DOMAIN_MAX": hi = try numbers(rest, keyword); domainLine = lineNumber
                case "LUT_1D_INPUT_RANGE", "LUT_3D_INPUT_RANGE":
                    guard rest.count == 2, let a = Float(rest[0]), let b = Float(rest[1]) else {
                        throw CubeLUTError(line: lineNumber, "\(keyword): expected two numbers, found \"\(rest.joined(separator: " "))\"")
                    }
                    lo = SIMD3(repeating: a); hi = SIMD3(repeating: b); domainLine = lineNumber
                default:
                    throw CubeLUTError(line: lineNumber, "unknown keyword \(keyword)")
                }
                continue
            }
            guard let n = size else { throw CubeLUTError(line: lineNumber, "an entry before LUT_3D_SIZE or LUT_1D_SIZE") }
            let entries = is3D ? n * n * n : n
            guard table.count < entries else { throw CubeLUTError(line: lineNumber, "more than the \(entries) entries its size gives") }
            table.append(try numbers(parts, "entry \(table.count + 1)"))
        }
        guard let n = size else { throw CubeLUTError(line: lastLine, "no LUT_3D_SIZE or LUT_1D_SIZE") }
        let entries = is3D ? n * n * n : n
        guard table.count == entries else { throw CubeLUTError(line: lastLine, "the table ends after \(table.count) entries where its size gives \(entries)") }
        guard all(hi .> lo) else {
            func text(_ v: SIMD3<Float>) -> String { "\(v.x) \(v.y) \(v.z)" }
            throw CubeLUTError(line: domainLine, "the domain's maximum (\(text(hi))) is not above its minimum (\(text(lo))) in every channel")
        }
        return CubeLUT(path: path, title: title, size: n, is3D: is3D, domainMin: lo, domainMax: hi, table: table)
    }

    /// The scale from the domain to table positions and the domain's minimum, as the shader gets them:
    /// (`(N − 1) / (max − min)` per channel, `min` per channel).
    public let positionScale: SIMD3<Float>

    /// The table's value for R′G′B′ `c`.
    public func apply(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let top = SIMD3<Float>(repeating: Float(size - 1))
        let s = ((c - domainMin) * positionScale).clamped(lowerBound: SIMD3(repeating: 0), upperBound: top)
        let prev = SIMD3<Int>(Int(s.x), Int(s.y), Int(s.z))
        let next = SIMD3<Int>(Swift.min(prev.x + 1, size - 1), Swift.min(prev.y + 1, size - 1), Swift.min(prev.z + 1, size - 1))
        let d = s - SIMD3<Float>(Float(prev.x), Float(prev.y), Float(prev.z))
        if !is3D {
            let a = SIMD3(table[prev.x].x, table[prev.y].y, table[prev.z].z), b = SIMD3(table[next.x].x, table[next.y].y, table[next.z].z)
            return a + (b - a) * d
        }
        @inline(__always) func at(_ p: SIMD3<Int>) -> SIMD3<Float> { table[(p.z * size + p.y) * size + p.x] }
        // vf_lut3d.c interp_tetrahedral: the tetrahedron is chosen by the order of the fractions (its six cases, as
        // the axes taken largest first); from c000, step along the largest axis, then the next, to c111.
        let (a, b, c) = CubeLUT.tetrahedron(d)
        var v1 = prev
        v1[a] = next[a]
        var v2 = v1
        v2[b] = next[b]
        let w0: Float = 1 - d[a], w1: Float = d[a] - d[b], w2: Float = d[b] - d[c], w3: Float = d[c]
        let c000: SIMD3<Float> = at(prev), c1: SIMD3<Float> = at(v1), c2: SIMD3<Float> = at(v2), c111: SIMD3<Float> = at(next)
        return w0 * c000 + w1 * c1 + w2 * c2 + w3 * c111
    }

    /// The axes (0 red, 1 green, 2 blue) by their fraction `d`, largest first, ties broken as FFmpeg's cases break
    /// them (`effects.glsl`'s `segue_tetrahedron`).
    @inline(__always) static func tetrahedron(_ d: SIMD3<Float>) -> (Int, Int, Int) {
        if d.x > d.y { return d.y > d.z ? (0, 1, 2) : d.x > d.z ? (0, 2, 1) : (2, 0, 1) }
        return d.z > d.y ? (2, 1, 0) : d.z > d.x ? (1, 2, 0) : (1, 0, 2)
    }
}

/// A `.cube` file that cannot be read: the line and what is wrong with it.
public struct CubeLUTError: Error, CustomStringConvertible {
    public let line: Int
    public let message: String
    init(line: Int, _ message: String) { self.line = line; self.message = message }
    public var description: String { "line \(line): \(message)" }
}
