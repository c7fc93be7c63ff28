import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Templates (issue 34): placeholders in every kind of position of an edit file, filled from values; typed by the
/// field they fill; defaults; a missing value names the field and the placeholder; values are inert data.
final class TemplateTests: XCTestCase {
    func parse(_ json: String, _ values: [String: TemplateValue] = [:]) throws -> Edit {
        try EditFile.parse(data: Data(json.utf8), baseDirectory: "/media/edits", values: TemplateValues(values))
    }

    func testEveryKindOfPosition() throws {
        let json = """
        {"renderSize": {"width": "{{w}}", "height": 180}, "frameRate": "{{rate}}", "background": "{{bg}}", "square": "{{sq}}",
         "tracks": [
           {"clips": [{"path": "photos/{{photo}}", "duration": "{{secs}}", "transition": null},
                      {"fill": "{{colour}}", "duration": 1, "transition": {"type": "{{kind}}", "duration": "{{tsecs}}", "direction": "left"}}]},
           {"clips": [{"text": "Hello {{name}}, {{age}} today", "duration": "{{secs}}",
                       "style": {"color": "{{ink}}", "size": "{{size}}", "italic": "{{italic}}", "shadow": {"x": "{{dx}}"}},
                       "layer": {"x": {"keyframes": [{"time": 0, "value": "{{x0}}"}, {"time": 1, "value": 0.75}]}}}]}],
         "captions": {"path": "{{subs}}.srt"},
         "output": {"crf": "{{crf}}"}}
        """
        let e = try parse(json, ["w": .string("320"), "rate": .string("25"), "bg": .string("#102030"), "sq": .string("false"),
                                 "photo": .string("alice.jpg"), "secs": .string("2.5"), "colour": .string("red"), "kind": .string("push"),
                                 "tsecs": .number(0.5), "name": .string("Alice"), "age": .number(30), "ink": .string("#ffcc00"),
                                 "size": .string("48"), "italic": .bool(true), "dx": .string("-3"), "x0": .string("0.25"),
                                 "subs": .string("alice"), "crf": .string("23")])
        XCTAssertEqual(e.renderSize, PixelSize(width: 320, height: 180))
        XCTAssertEqual(e.frameRate, FrameRate(25, 1))
        XCTAssertEqual(e.background, RGBColour.parse("#102030"))
        XCTAssertFalse(e.square)
        XCTAssertEqual(e.output.crf, 23)
        let bottom = e.tracks[0].clips, top = e.tracks[1].clips
        XCTAssertEqual(bottom[0].path, "/media/edits/photos/alice.jpg")
        XCTAssertEqual(bottom[0].duration, MediaTime(value: 5, timescale: 2))
        XCTAssertEqual(bottom[1].transition, Transition(kind: .push, duration: MediaTime(value: 1, timescale: 2), direction: .left))
        guard case .fill(let fill) = bottom[1].content else { return XCTFail("\(bottom[1].content)") }
        XCTAssertEqual(fill, RGBColour.parse("red"))
        guard case .text(let t) = top[0].content else { return XCTFail("\(top[0].content)") }
        XCTAssertEqual(t.text, "Hello Alice, 30 today")
        XCTAssertEqual(t.style.size, 48)
        XCTAssertEqual(t.style.colour, TextColour.parse("#ffcc00"))
        XCTAssertTrue(t.style.italic)
        XCTAssertEqual(t.style.shadow?.x, -3)
        XCTAssertEqual(top[0].duration, MediaTime(value: 5, timescale: 2))
        XCTAssertEqual(top[0].layer.x.keyValues.first, 0.25)
        XCTAssertEqual(e.captions?.path, "/media/edits/alice.srt")
    }

    func testDefaults() throws {
        let e = try parse(#"{"clips": [{"text": "Hi {{name|friend}}!", "duration": "{{secs|1.5}}"}, {"fill": "{{c|blue}}"}]}"#, ["c": .string("green")])
        guard case .text(let t) = e.clips[0].content, case .fill(let f) = e.clips[1].content else { return XCTFail() }
        XCTAssertEqual(t.text, "Hi friend!")
        XCTAssertEqual(e.clips[0].duration, MediaTime(value: 3, timescale: 2))
        XCTAssertEqual(f, RGBColour.parse("green"))
    }

    func testMissingValueNamesFieldAndPlaceholder() {
        let json = #"{"tracks": [{"clips": [{"fill": "red"}]}, {"clips": [{"gap": 1}, {"fill": "red"}, {"text": "Hello {{name}}"}]}]}"#
        XCTAssertThrowsError(try parse(json)) { error in
            let e = error as? EditError
            XCTAssertEqual(e?.field, "tracks[1].clips[2].text")
            XCTAssert(e?.message.contains("{{name}}") == true, "\(error)")
            XCTAssertEqual(e?.exitStatus, 2)
        }
        // A number field's placeholder: the same, and a value that is no number is the field's own error.
        XCTAssertThrowsError(try parse(#"{"clips": [{"fill": "red", "duration": "{{secs}}"}]}"#)) { error in
            XCTAssertEqual((error as? EditError)?.field, "clips[0].duration")
            XCTAssert("\(error)".contains("{{secs}}"), "\(error)")
        }
        XCTAssertThrowsError(try parse(#"{"clips": [{"fill": "red"}], "square": "{{sq}}"}"#, ["sq": .string("yes")])) { error in
            XCTAssertEqual((error as? EditError)?.field, "square")
            XCTAssertEqual((error as? EditError)?.message, #"must be true or false, got "yes" (the value of {{sq}})"#)
        }
        XCTAssertThrowsError(try parse(#"{"clips": [{"fill": "red"}], "renderSize": {"width": "{{w}}", "height": 48}}"#, ["w": .string("0x10")])) { error in
            XCTAssertEqual("\(error)", #"renderSize.width: must be a whole number, got "0x10" (the value of {{w}})"#)
        }
        // Every placeholder without a value is named at once, the first by field path (the same every run).
        let three = #"{"clips": [{"fill": "{{colour}}", "duration": "{{secs}}"}, {"text": "{{name}} and {{other}}"}]}"#
        XCTAssertThrowsError(try parse(three)) { error in
            XCTAssertEqual((error as? EditError)?.field, "clips[0].duration")
            XCTAssert("\(error)".hasSuffix("; also without a value: {{colour}} (clips[0].fill), {{name}} (clips[1].text)"), "\(error)")
        }
    }

    /// Values are data: `}}`, quotes, backslashes and a placeholder inside a value go in as they are, into the one
    /// string they fill; an edit without placeholders reads as before.
    func testValuesAreInert() throws {
        let nasty = #"Bob}} "quoted" \back\slash {{name}} ", "fill": "red"#
        let e = try parse(#"{"clips": [{"text": "Hi {{name}}.", "duration": 1}]}"#, ["name": .string(nasty)])
        XCTAssertEqual(e.clips.count, 1)
        guard case .text(let t) = e.clips[0].content else { return XCTFail() }
        XCTAssertEqual(t.text, "Hi \(nasty).")
        let p = try parse(#"{"clips": [{"path": "{{photo}}"}]}"#, ["photo": .string("../../etc/passwd")])
        XCTAssertEqual(p.clips[0].path, "/etc/passwd", "a ../ value is a path like any other, for the input policy to judge")
        // `{{` that begins no placeholder is text; a whole edit without placeholders is unchanged.
        let literal = try parse(#"{"clips": [{"text": "{{ }} and {{a b}}"}]}"#)
        guard case .text(let l) = literal.clips[0].content else { return XCTFail() }
        XCTAssertEqual(l.text, "{{ }} and {{a b}}")
    }

    func testValuesFileAndNames() throws {
        let v = try TemplateValues.json(Data(#"{"name": "Alice", "age": 30, "vip": true}"#.utf8), source: "v.json")
        XCTAssertEqual(v["name"], .string("Alice"))
        XCTAssertEqual(v["age"], .number(30))
        XCTAssertEqual(v["vip"], .bool(true))
        XCTAssertThrowsError(try TemplateValues.json(Data(#"{"a": [1]}"#.utf8), source: "v.json")) { XCTAssertEqual(($0 as? EditError)?.field, "v.json: a") }
        XCTAssertThrowsError(try TemplateValues.json(Data("[1]".utf8), source: "v.json"))
        XCTAssertEqual(Template.names(in: "out/{{id}}-{{ name }}-{{id}}.mp4"), ["id", "name"])
        XCTAssertEqual(try Template.fill("out/{{id}}.mp4", values: TemplateValues(["id": .number(7)]), field: "-o"), "out/7.mp4")
    }

    /// An OpenTimelineIO timeline's strings take placeholders too: a media path, a clip's name, `metadata.segue`.
    func testOTIOTimeline() throws {
        let dir = TestSupport.tempDir("segue-template")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        FileManager.default.createFile(atPath: "\(dir)/alice.mkv", contents: Data())
        let rt = #"{"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 24}"#, len = #"{"OTIO_SCHEMA": "RationalTime.1", "value": 48, "rate": 24}"#
        let text = """
            {"OTIO_SCHEMA": "Timeline.1", "name": "card", "metadata": {"segue": {"background": "{{bg}}", "square": "{{sq}}", "frameRate": "{{fps}}"}},
             "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [
               {"OTIO_SCHEMA": "Clip.1", "name": "{{who}}", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": \(rt), "duration": \(len)},
                "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "{{who}}.mkv"}}]}]}}
            """
        let values = TemplateValues(["who": .string("alice"), "bg": .string("#204060"), "sq": .string("true"), "fps": .string("25")])
        let file = try OTIOFile.parse(data: Data(text.utf8), baseDirectory: dir, options: OTIOReadOptions(values: values))
        XCTAssertEqual(file.edit.clips.map(\.path), ["\(dir)/alice.mkv"])
        XCTAssertEqual(file.edit.background, RGBColour.parse("#204060"))
        XCTAssertTrue(file.edit.square, "metadata.segue's fields are typed by their declarations")
        XCTAssertEqual(file.edit.frameRate, FrameRate(25, 1))
        XCTAssertThrowsError(try OTIOFile.parse(data: Data(text.utf8), baseDirectory: dir)) { error in
            XCTAssert("\(error)".contains("{{"), "\(error)")
        }
    }
}
