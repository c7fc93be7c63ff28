import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Shape items in the edit model and the planner (issue 36, item 3): the edit file's `shape` fields and their errors,
/// the SVG document written for each instant (numbers and re-written colours only), the picture's size and place, a
/// keyframed shape's document changing only while its numbers move, the plan's line.
final class ShapeEditTests: XCTestCase {
    func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e") }
    func item(_ fields: String) -> String { ##"{"renderSize": {"width": 160, "height": 120}, "clips": [{"shape": "## + fields + "}]}" }

    func testFieldsAndDefaults() throws {
        let e = try parse(item(##""rect", "width": 100, "height": {"keyframes": [{"time": 0, "value": 10}, {"time": 1, "value": 20}]}, "stroke": "#00000080", "cornerRadius": 4"##))
        let s = try XCTUnwrap(e.tracks[0].clips[0].shape)
        XCTAssertEqual(s.kind, .rect)
        XCTAssertEqual(s.width, .constant(100))
        XCTAssertEqual(s.height.keyValues, [10, 20])
        XCTAssertNil(s.fill)   // a stroke without fill: outline only
        XCTAssertEqual(s.stroke, TextColour(.black, alpha: 128.0 / 255))
        XCTAssertEqual(s.strokeWidth, .constant(2))
        XCTAssertEqual(s.cornerRadius, .constant(4))
        XCTAssertFalse(s.isConstant)
        // Picture: the largest box (100 × 20) plus half the stroke on each side.
        XCTAssertEqual(s.pictureSize, PixelSize(width: 102, height: 22))
        // Defaults: filled white; a line stroked white, 2 px.
        XCTAssertEqual(try parse(item(##""ellipse", "width": 10, "height": 10"##)).tracks[0].clips[0].shape?.fill, .white)
        let line = try XCTUnwrap(try parse(item(##""line", "points": [{"x": 0, "y": 0}, {"x": 30, "y": 40}]"##)).tracks[0].clips[0].shape)
        XCTAssertEqual(line.stroke, .white)
        XCTAssertEqual(line.strokeWidth, .constant(2))
        XCTAssertEqual(line.pictureSize, PixelSize(width: 32, height: 42))
        // Gradient stops take colour or color.
        let g = try XCTUnwrap(try parse(item(##""rect", "width": 10, "height": 10, "gradient": {"type": "radial", "stops": [{"offset": 0, "color": "red"}, {"offset": 1, "colour": "#0000ff80"}]}"##)).tracks[0].clips[0].shape?.gradient)
        XCTAssertEqual(g.kind, .radial)
        XCTAssertEqual(g.stops.map(\.colour.description), ["#ff0000", "#0000ff80"])
    }

    /// A bad shape is an edit error naming the field.
    func testBadShapesNameTheField() {
        for (fields, field) in [
            (##""hexagon", "width": 10, "height": 10"##, "clips[0].shape"),
            (##""rect", "width": -5, "height": 10"##, "clips[0].width"),
            (##""rect", "width": 10"##, "clips[0].height"),
            (##""rect", "width": {"keyframes": [{"time": 0, "value": -1}]}, "height": 10"##, "clips[0].width.keyframes[0].value"),
            (##""polygon", "points": [{"x": 0, "y": 0}, {"x": 10, "y": 0}]"##, "clips[0].points"),
            (##""line", "points": [{"x": 0, "y": 0}]"##, "clips[0].points"),
            (##""polygon", "points": [{"x": 0, "y": 0}, {"x": 10, "y": 0}, {"x": 5}]"##, "clips[0].points[2].y"),
            (##""ellipse", "width": 10, "height": 10, "points": [{"x": 0, "y": 0}, {"x": 1, "y": 1}]"##, "clips[0].points"),
            (##""line", "points": [{"x": 0, "y": 0}, {"x": 1, "y": 1}], "fill": "red""##, "clips[0].fill"),
            (##""rect", "width": 10, "height": 10, "fill": "red", "gradient": {"stops": [{"offset": 0, "colour": "red"}, {"offset": 1, "colour": "blue"}]}"##, "clips[0].gradient"),
            (##""rect", "width": 10, "height": 10, "gradient": {"stops": [{"offset": 0, "colour": "red"}, {"offset": 1}]}"##, "clips[0].gradient.stops[1].colour"),
            (##""rect", "width": 10, "height": 10, "fill": "#fff\"/><script>""##, "clips[0].fill"),
            (##""rect", "width": 10, "height": 10, "strokeWidth": 2000"##, "clips[0].strokeWidth"),
        ] {
            XCTAssertThrowsError(try parse(item(fields)), fields) { e in XCTAssertEqual((e as? EditError)?.field, field, "\(e)") }
        }
    }

    /// The document: numbers and colours Segue writes, the shape centred in its picture.
    func testTheDocumentHoldsOnlyNumbersAndRewrittenColours() throws {
        let rect = try XCTUnwrap(try parse(item(##""rect", "width": 40, "height": 20, "fill": "RED", "stroke": "#0000ff80", "strokeWidth": 3, "cornerRadius": 5"##)).tracks[0].clips[0].shape)
        XCTAssertEqual(ShapeSVG.document(rect, at: .zero),
                       ##"<svg xmlns="http://www.w3.org/2000/svg" width="43" height="23" viewBox="0 0 43 23"><rect x="1.5" y="1.5" width="40" height="20" rx="5" ry="5" fill="#ff0000" stroke="#0000ff" stroke-opacity="0.502" stroke-width="3"/></svg>"##)
        let g = try XCTUnwrap(try parse(item(##""polygon", "points": [{"x": 0, "y": 0}, {"x": 30, "y": 0}, {"x": 0, "y": 9.5}], "gradient": {"angle": 90, "stops": [{"offset": 0.6, "colour": "white"}, {"offset": 0.2, "colour": "black"}]}"##)).tracks[0].clips[0].shape)
        XCTAssertEqual(g.pictureSize, PixelSize(width: 30, height: 10))
        XCTAssertEqual(ShapeSVG.document(g, at: .zero),
                       ##"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="10" viewBox="0 0 30 10"><defs><linearGradient id="g" x1="0.5" y1="0" x2="0.5" y2="1"><stop offset="0.6" stop-color="#ffffff"/><stop offset="0.6" stop-color="#000000"/></linearGradient></defs><polygon points="0,0.25 30,0.25 0,9.75" fill="url(#g)" stroke-linejoin="round"/></svg>"##)
    }

    /// A keyframed rect's document follows its width; a constant shape's is the same every frame; the picture is
    /// placed at the layer's centre, one picture pixel per output pixel; the plan lists the shape.
    func testPlannerDrawsEachInstantsDocument() throws {
        let e = try parse(#"""
            {"renderSize": {"width": 160, "height": 40}, "frameRate": 10, "clips": [{"shape": "rect", "height": 10, "duration": 2,
              "width": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 100}]}}]}
            """#)
        let t = try Timeline(edit: e, sources: [])
        XCTAssertEqual(t.placements[0].source.codedSize, PixelSize(width: 100, height: 10))
        func svg(_ n: Int64) -> String {
            guard case .shape(let svg) = t.plan(frame: n).passes[0].from.content else { XCTFail("not a shape"); return "" }
            return svg
        }
        XCTAssertTrue(svg(5).contains(##"width="50""##), svg(5))
        XCTAssertNotEqual(svg(3), svg(4))
        XCTAssertEqual(svg(10), svg(15))   // held after the last keyframe: drawn once more, not per frame
        // The picture's top-left on a whole pixel: 100 × 10 centred at (80, 20) spans x 30…130, y 15…25 (the bounds
        // keep a pixel more on each side for the filter), one picture pixel per output pixel.
        let layer = t.plan(frame: 5).passes[0].from
        XCTAssertEqual(layer.bounds, PixelRect(x0: 29, y0: 14, x1: 131, y1: 26))
        let (x0, y0) = layer.outputToSource.apply(30, 15), (x1, y1) = layer.outputToSource.apply(130, 25)
        XCTAssertEqual([x0, y0, x1, y1].map { ($0 * 1e6).rounded() / 1e6 }, [0, 0, 1, 1])
        XCTAssertTrue(t.notes.contains { $0.contains("shape, rect, width 0@0s → 100@1s, height 10") && $0.contains("at each frame its numbers change") }, "\(t.notes)")
        let report = TimelineReport(t)
        XCTAssertEqual(report.clips[0].kind, "shape")
        XCTAssertTrue(report.text.contains("shape rect, width 0@0s → 100@1s, height 10, fill #ffffff, picture 100x10"), report.text)
    }

    /// Placeholders in a shape are typed by the shape's fields (its `fill` names the shape, not a fill item).
    func testTemplateValuesFillAShape() throws {
        var values = TemplateValues()
        values["w"] = .string("120")
        values["paint"] = .string("#ff000080")
        let json = ##"{"renderSize": {"width": 160, "height": 120}, "clips": [{"shape": "rect", "width": "{{w}}", "height": 10, "fill": "{{paint}}"}]}"##
        let s = try XCTUnwrap(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/e", values: values).tracks[0].clips[0].shape)
        XCTAssertEqual(s.width, .constant(120))
        XCTAssertEqual(s.fill?.description, "#ff000080")
    }

    func testRoundTrip() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "clips": [
              {"shape": "rect", "width": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 100, "easing": "ease-in-out"}]}, "height": 10,
               "stroke": "#ff000080", "strokeWidth": 3, "cornerRadius": 2, "gradient": {"type": "linear", "angle": 45,
               "stops": [{"offset": 0, "colour": "red"}, {"offset": {"keyframes": [{"time": 0, "value": 0.5}, {"time": 1, "value": 1}]}, "color": "#00ff00"}]},
               "layer": {"x": 0.3}},
              {"shape": "polygon", "points": [{"x": 0, "y": 0}, {"x": 10, "y": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 5}]}}, {"x": 0, "y": 10}], "fill": "blue"},
              {"shape": "line", "points": [{"x": 0, "y": 0}, {"x": 10, "y": 10}], "stroke": "white", "strokeWidth": 1.5, "duration": 1}]}
            """#
        let edit = try parse(json)
        let back = try EditFile.parse(data: try EditFileWriter.data(edit), baseDirectory: "/e")
        XCTAssertEqual(back, edit)
    }
}
