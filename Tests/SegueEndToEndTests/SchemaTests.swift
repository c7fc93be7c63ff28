import XCTest
import SegueEdit
import SegueTestSupport

/// `segue schema` against Python's `jsonschema` (draft 2020-12; the virtual environment `make test` makes:
/// `.build/schema-venv`): the schema is valid, every fixture, every edit in the docs and Tests/Schema/valid-edits.json
/// validate, and every edit of Tests/Schema/invalid-edits.json (misspelt fields, wrong types, out of range: the parser
/// refuses each too, EditSchemaTests) fails.
final class SchemaTests: EndToEndTestCase {
    static var venv: String {
        ProcessInfo.processInfo.environment["SEGUE_SCHEMA_VENV"] ?? TestSupport.packageRoot + "/.build/schema-venv"
    }

    func testThePrintedSchemaValidatesEveryShippedEditAndRefusesMisspeltFields() throws {
        let python = try TestSupport.venvPython("schema-venv", variable: "SEGUE_SCHEMA_VENV")
        let printed = try segue(["schema"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout, EditSchema.json, "segue schema prints the library's schema")
        try printed.stdout.write(to: URL(fileURLWithPath: path("edit.schema.json")))

        let r = try TestSupport.run(python, [TestSupport.packageRoot + "/Tests/Schema/schema_check.py", path("edit.schema.json"), TestSupport.packageRoot])
        XCTAssertEqual(r.status, 0, r.text + r.stderr)
        // What was checked: the five fixtures, the docs' edits (docs/motion-graphics.md's Lottie items and docs/effects.md's
        // matte among them) and their item example, every case.
        for expected in ["fixtures 5,", "docs edits 17,", "docs items 1,", "valid edits 8,", "invalid edits refused 69"] {
            XCTAssertTrue(r.text.contains(expected), r.text)
        }

        let extra = try segue(["schema", "edit.json"])
        XCTAssertEqual(extra.status, 2, extra.stderr)
        let option = try segue(["schema", "--json"])
        XCTAssertEqual(option.status, 2, option.stderr)
    }
}
