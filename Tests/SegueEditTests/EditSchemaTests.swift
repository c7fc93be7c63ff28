import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// The edit file's declarations (`EditSchema`): the parser reads every field they declare and refuses what they do
/// not; the JSON Schema written from them is draft 2020-12 with no field left open; its patterns say what the
/// parsers say. (Python's `jsonschema` validates the fixtures, the docs' examples and these edits against the
/// printed schema: SchemaTests.)
final class EditSchemaTests: XCTestCase {
    static let cases = TestSupport.packageRoot + "/Tests/Schema"

    func load(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(Self.cases)/\(name)"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    /// Every "object.field" a declaration reachable from the edit declares (the `if`/`then` rules' objects are the
    /// JSON Schema's view of `TransitionKind`'s tables, which the parser reads itself).
    static func declaredFields() -> Set<String> {
        var out = Set<String>(), seen = Set<String>()
        func walk(_ t: SchemaType) {
            switch t {
            case .object(let o): walk(o)
            case .array(let item, _): walk(item)
            case .anyOf(let types): types.forEach(walk)
            case .variants(let v): v.variants.forEach { walk($0.object) }
            case .boolean, .number, .string, .parameters: break
            }
        }
        func walk(_ o: SchemaObject) {
            // Objects of one name have the same fields (a layer property's keyframes differ only in their range).
            guard seen.insert(o.name).inserted else { return }
            for f in o.fields { out.insert("\(o.name).\(f.name)"); walk(f.type) }
        }
        walk(EditSchema.edit)
        return out
    }

    /// The parser reads every field the schema declares: over edits that give them all (Tests/Schema/valid-edits.json,
    /// which the JSON Schema also accepts), each declared field is looked up. (The other way round, a field the
    /// parser would read and the schema lacks cannot be in an edit: the keys are checked against the declarations.)
    func testTheParserReadsEveryDeclaredField() throws {
        let dir = TestSupport.tempDir("segue-schema")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("uniform float size; // = 0.2\nvec4 transition(vec2 uv) { return mix(getFromColor(uv), getToColor(uv), step(size, progress)); }\n".utf8)
            .write(to: URL(fileURLWithPath: "\(dir)/wipe.glsl"))
        EditSchema.coverage.start()
        for c in try load("valid-edits.json") {
            let data = try JSONSerialization.data(withJSONObject: try XCTUnwrap(c["edit"]))
            XCTAssertNoThrow(try EditFile.parse(data: data, baseDirectory: dir), "\(c["name"] ?? "")")
        }
        let read = EditSchema.coverage.stop()
        let declared = Self.declaredFields()
        XCTAssertGreaterThan(declared.count, 150)
        XCTAssertEqual(declared.subtracting(read).sorted(), [], "declared fields the parser never read")
    }

    /// Misspelt fields, wrong types and values out of range: the parser refuses each naming the field (and the JSON
    /// Schema refuses the same edits: SchemaTests).
    func testTheParserRefusesWhatTheSchemaRefuses() throws {
        let cases = try load("invalid-edits.json")
        XCTAssertGreaterThan(cases.count, 30)
        for c in cases {
            let data = try JSONSerialization.data(withJSONObject: try XCTUnwrap(c["edit"]))
            let field = try XCTUnwrap(c["field"] as? String)
            XCTAssertThrowsError(try EditFile.parse(data: data, baseDirectory: "/m"), field) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
            }
        }
    }

    func testMisspeltFieldsSuggestTheNearestName() {
        for (json, field, near) in [
            (#"{"clps": [{"path": "a.mp4"}]}"#, "clps", "clips"),
            (#"{"clips": [{"path": "a.mp4"}, {"path": "b.mp4", "transtion": {"type": "wipe"}}]}"#, "clips[1].transtion", "transition"),
            (#"{"clips": [{"path": "a.mp4", "layer": {"scal": 2}}]}"#, "clips[0].layer.scal", "scale"),
            (#"{"clips": [{"path": "a.mp4", "efects": []}]}"#, "clips[0].efects", "effects"),
            (#"{"clips": [{"path": "a.mp4", "effects": [{"type": "revers"}]}]}"#, "clips[0].effects[0].type", "reverse"),
            (#"{"clips": [{"pth": "a.mp4"}]}"#, "clips[0].pth", "path"),
        ] {
            XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/m"), json) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
                XCTAssertTrue("\(e)".contains("did you mean \"\(near)\""), "\(e)")
            }
        }
        // Wrong types say what the field takes.
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4", "speed": true}]}"#.utf8), baseDirectory: "/m")) { e in
            XCTAssertEqual("\(e)", "clips[0].speed: must be a number, capture or an object, got a boolean")
        }
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"clips": [{"path": "a.mp4"}], "output": {"crf": 60}}"#.utf8), baseDirectory: "/m")) { e in
            XCTAssertTrue("\(e)".hasPrefix("output.crf: must be 0…51 (got 60): "), "\(e)")
        }
    }

    /// The schema: draft 2020-12, every object closed (`additionalProperties: false`, so a misspelt field fails),
    /// every object of the edit under `$defs`, and the library's JSON the same object.
    func testTheSchemaIsClosedDraft202012() throws {
        let schema = EditSchema.jsonObject
        XCTAssertEqual(schema["$schema"] as? String, "https://json-schema.org/draft/2020-12/schema")
        let defs = try XCTUnwrap(schema["$defs"] as? [String: Any])
        for name in ["clip", "gap", "fill", "text", "audioClip", "audioGap", "track", "audioTrack", "transition", "audioTransition", "layer",
                     "crop", "motion", "colour", "style", "output", "music", "audio", "captions", "renderSize", "speedEffect", "reverseEffect", "freezeEffect"] {
            XCTAssertNotNil(defs[name], name)
        }
        var objects = 0
        func walk(_ v: Any, _ path: String) {
            if let o = v as? [String: Any] {
                // A declared object (not an `if`/`then` rule's properties, nor the wrapper that picks an effect's shape).
                if o["type"] as? String == "object", o["description"] != nil, o["properties"] != nil {
                    objects += 1
                    XCTAssertEqual(o["additionalProperties"] as? Bool, false, path)
                }
                for (k, x) in o { walk(x, "\(path)/\(k)") }
            } else if let list = v as? [Any] {
                for (k, x) in list.enumerated() { walk(x, "\(path)/\(k)") }
            }
        }
        walk(schema, "#")
        XCTAssertGreaterThan(objects, 30)
        let reparsed = try XCTUnwrap(JSONSerialization.jsonObject(with: EditSchema.json) as? [String: Any])
        XCTAssertEqual(NSDictionary(dictionary: reparsed), NSDictionary(dictionary: schema))
    }

    /// A union's alternatives are of different JSON kinds, so the parser (and a reader) know which one a value is.
    func testUnionsTellTheirAlternativesApartByKind() {
        var unions = 0
        func walk(_ t: SchemaType, _ path: String) {
            switch t {
            case .anyOf(let types):
                unions += 1
                let kinds = types.map { $0.kind.map { "\($0)" } ?? "union" }
                XCTAssertEqual(Set(kinds).count, kinds.count, "\(path): \(kinds)")
                types.forEach { walk($0, path) }
            case .object(let o): o.fields.forEach { walk($0.type, "\(path).\($0.name)") }
            case .array(let item, _): walk(item, path + "[]")
            case .variants(let v): v.variants.forEach { variant in variant.object.fields.forEach { walk($0.type, "\(path)<\(variant.tag)>.\($0.name)") } }
            case .boolean, .number, .string, .parameters: break
            }
        }
        walk(.object(EditSchema.edit), "edit")
        XCTAssertGreaterThan(unions, 10)
    }

    /// The patterns the JSON Schema gives for strings the parser reads with a function agree with that function.
    func testPatternsAgreeWithTheParsers() throws {
        func matches(_ pattern: String, _ s: String) throws -> Bool {
            let re = try NSRegularExpression(pattern: pattern)
            return re.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
        }
        let colours = ["#fff", "#FFFFFF", "#12ab3C", " red ", "Navy", "GREY", "#12", "#1234", "#12345678", "#ggg", "rouge", "", "#", "transparent", "Transparent", "#abcd"]
        for s in colours {
            XCTAssertEqual(try matches(SchemaPattern.colour(alpha: false, also: []), s), RGBColour.parse(s) != nil, "colour \(s)")
            XCTAssertEqual(try matches(SchemaPattern.colour(alpha: true, also: []), s), TextColour.parse(s) != nil, "text colour \(s)")
            XCTAssertEqual(try matches(SchemaPattern.colour(alpha: false, also: ["transparent"]), s), RGBColour.parse(s) != nil || s.lowercased() == "transparent", s)
        }
        // A frame rate's syntax (its range, 0.01…1000, is the parser's).
        for s in ["30", "29.97", "30000/1001", ".5", "5.", "1e2", "24/1", "+25"] {
            XCTAssertNotNil(FrameRate.parse(s), s)
            XCTAssertTrue(try matches(SchemaPattern.frameRate, s), s)
        }
        for s in ["thirty", "30/", "/2", "30 fps", "", "1/2/3"] {
            XCTAssertNil(FrameRate.parse(s), s)
            XCTAssertFalse(try matches(SchemaPattern.frameRate, s), s)
        }
        for s in ["linear", "EASE-in", " ease-out ", "step-start", "cubic-bezier(0.4, 0, 0.2, 1)", "steps(4, jump-end)", "Steps (2)", "bouncy", "ease in", "cubic(1)"] {
            let parses = (try? Easing.parse(s, field: "f")) != nil
            if parses { XCTAssertTrue(try matches(SchemaPattern.easing, s), s) }
        }
        for s in ["bouncy", "ease in", "cubic(1)"] { XCTAssertFalse(try matches(SchemaPattern.easing, s), s) }
        // Names in any case: every spelling, in any case, and nothing else.
        let matrix = SchemaPattern.anyCase(YCbCrMatrix.spellings.keys.sorted())
        for s in YCbCrMatrix.spellings.keys { XCTAssertTrue(try matches(matrix, s.uppercased()), s) }
        XCTAssertFalse(try matches(matrix, "bt2020x"))
        XCTAssertTrue(try matches(SchemaPattern.anyCase(["bt.2390"]), "BT.2390"))
        XCTAssertFalse(try matches(SchemaPattern.anyCase(["bt.2390"]), "BTx2390"))
    }
}
