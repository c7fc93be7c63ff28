import XCTest
import SegueTestSupport

/// docs/architecture.md against the code: its module section is what docs/make-modules.py writes from Package.swift
/// (the modules, what each depends on, the layers), and every type and function its path of one frame names exists.
final class ArchitectureDocTests: XCTestCase {
    let root = TestSupport.packageRoot

    func testModuleSectionIsPackageSwifts() throws {
        let r = try TestSupport.run("/usr/bin/env", ["python3", "\(root)/docs/make-modules.py", "--check"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The script reads what it should: every Swift target of Package.swift that is not a test or tool has a row.
        let doc = try String(contentsOfFile: "\(root)/docs/architecture.md", encoding: .utf8)
        let package = try String(contentsOfFile: "\(root)/Package.swift", encoding: .utf8)
        let names = package.matches(of: /\.(?:target|executableTarget)\(name: "(Segue\w*|segue)"/).map { String($0.1) }
        XCTAssertGreaterThanOrEqual(names.count, 10)
        for name in names where name != "SegueTestSupport" {
            XCTAssertTrue(doc.contains("| `\(name)` |"), "\(name) has no row in docs/architecture.md")
        }
    }

    func testThePathOfOneFrameNamesWhatExists() throws {
        let doc = try String(contentsOfFile: "\(root)/docs/architecture.md", encoding: .utf8)
        let start = try XCTUnwrap(doc.range(of: "The path of one frame"))
        let block = doc[start.upperBound...]
        let fence = try XCTUnwrap(block.range(of: "```"))
        let body = block[fence.upperBound...]
        let diagram = String(body[..<(try XCTUnwrap(body.range(of: "```"))).lowerBound])
        let sources = try FileManager.default.subpathsOfDirectory(atPath: "\(root)/Sources").filter { $0.hasSuffix(".swift") }
            .map { try String(contentsOfFile: "\(root)/Sources/\($0)", encoding: .utf8) }.joined(separator: "\n")
        var checked = 0
        for m in diagram.matches(of: /\b([A-Z][A-Za-z0-9]+)(?:\.([a-z][A-Za-z0-9]*))?/) {
            let type = String(m.1)
            if ["OTIO", "Swift", "CPU", "GPU", "GLSL"].contains(type) { continue }
            XCTAssertNotNil(sources.firstMatch(of: try Regex("(class|struct|enum|protocol|typealias|actor) \(type)\\b")), "no type \(type)")
            if let member = m.2 {
                XCTAssertNotNil(sources.firstMatch(of: try Regex("(func|var|let|case) \(member)\\b")), "no member \(type).\(member)")
            }
            checked += 1
        }
        for m in diagram.matches(of: /\b(probeSource)\b/) {
            XCTAssertNotNil(sources.firstMatch(of: try Regex("func \(m.1)\\b")), "no function \(m.1)")
        }
        XCTAssertGreaterThan(checked, 20)
    }
}
