import XCTest
@testable import SegueCore

/// `CubeLUT.parse` reads entries from the text's bytes (`CubeLUTLines`) and everything else as text: the same table
/// and the same errors, on the same lines, whichever way a line is read.
final class CubeLUTParseTests: XCTestCase {
    func parse(_ text: String) throws -> CubeLUT { try CubeLUT.parse(text, path: "/t.cube") }

    /// The message of the error `text` is refused with.
    func refusal(_ text: String) -> String {
        do { _ = try parse(text); return "accepted" } catch { return "\(error)" }
    }

    /// CRLF and LF lines, tabs, comments, blank lines, a title, a domain; numbers with signs, exponents and bare points.
    func testEntriesAndKeywords() throws {
        let text = "# a comment\r\nTITLE \"two\"\r\n\r\nLUT_1D_SIZE 2\nDOMAIN_MIN 0 0 0\n\tDOMAIN_MAX 2 2 2 \n+0.5\t1e-1  -.25\r\n  # between\n1 2.5E0 3\n\n"
        let lut = try parse(text)
        XCTAssertEqual(lut.title, "two")
        XCTAssertEqual(lut.size, 2)
        XCTAssertFalse(lut.is3D)
        XCTAssertEqual(lut.domainMax, SIMD3(2, 2, 2))
        XCTAssertEqual(lut.table, [SIMD3(0.5, 0.1, -0.25), SIMD3(1, 2.5, 3)])
    }

    /// Malformed entries are refused with the line they are on and what they hold, as the text path words it.
    func testMalformedEntriesNameTheirLine() {
        let head = "LUT_1D_SIZE 2\n0 0 0\n"
        XCTAssertEqual(refusal(head + "0.1 0.2\n"), "line 3: entry 2: expected three numbers, found \"0.1 0.2\"")
        XCTAssertEqual(refusal(head + "0.1 0.2 0.3 0.4\n"), "line 3: entry 2: expected three numbers, found \"0.1 0.2 0.3 0.4\"")
        XCTAssertEqual(refusal(head + "0.1 1e 0.3\n"), "line 3: entry 2: expected three numbers, found \"0.1 1e 0.3\"")
        XCTAssertEqual(refusal(head + "0.1 1e99 0.3\n"), "line 3: entry 2: expected three numbers, found \"0.1 1e99 0.3\"")
        XCTAssertEqual(refusal(head + "nan 0 0\n"), "line 3: nan after the table's entries")
        XCTAssertEqual(refusal("LUT_1D_SIZE 2\nnan 0 0\n"), "line 2: unknown keyword nan")
        XCTAssertEqual(refusal(head + "1 1 1\n1 1 1\n"), "line 4: more than the 2 entries its size gives")
        XCTAssertEqual(refusal("0 0 0\nLUT_1D_SIZE 2\n"), "line 1: an entry before LUT_3D_SIZE or LUT_1D_SIZE")
        XCTAssertEqual(refusal("LUT_3D_SIZE 2\n0 0 0\n"), "line 2: the table ends after 1 entries where its size gives 8")
    }

    /// A 65³ table (274 625 entries) reads to the values written.
    func testLargestTable() throws {
        var text = "LUT_3D_SIZE 65\n"
        text.reserveCapacity(65 * 65 * 65 * 24)
        for b in 0..<65 { for g in 0..<65 { for r in 0..<65 { text += "\(Double(r) / 64) \(Double(g) / 64) \(1 - Double(b) / 64)\n" } } }
        let lut = try parse(text)
        XCTAssertEqual(lut.table.count, 274_625)
        XCTAssertEqual(lut.table[1 + 65 * (2 + 65 * 3)], SIMD3(1.0 / 64, 2.0 / 64, 1 - 3.0 / 64))
        XCTAssertEqual(lut.table.last, SIMD3(1, 1, 0))
    }
}
