import Foundation
import SegueCore

/// The edit file's shape items (`{"shape": "rect", …}`, docs/motion-graphics.md): what the parser (`EditFile.shapeItem`)
/// reads and the JSON Schema says. What a schema cannot say (a rect's or an ellipse's width and height are required)
/// the parser checks itself.
extension EditSchema {
    /// Sizes and coordinates of shapes, output pixels.
    static let shapeSize = 0.0...16384
    static let shapeCoordinate = -16384.0...16384
    static let strokeWidthRange = 0.0...1024
    static let cornerRadiusRange = 0.0...8192
    static let angleRange = -36000.0...36000

    public static let shapePoint = SchemaObject("shapePoint", "a corner of a line or a polygon, output pixels", [
        SchemaField("x", animated(shapeCoordinate), "across, pixels (or keyframes)"),
        SchemaField("y", animated(shapeCoordinate), "down, pixels (or keyframes)"),
    ], required: ["x", "y"])

    public static let gradientStop = SchemaObject("gradientStop", "a colour along a gradient", [
        SchemaField("offset", animated(0...1), "where along the gradient, 0 (its start) … 1 (its end), or keyframes"),
        SchemaField("colour", textColour, "its colour: \"#rrggbb\", \"#rrggbbaa\" (with alpha) or a name"),
        SchemaField("color", textColour, "the same as colour"),
    ], required: ["offset"])

    public static let gradient = SchemaObject("gradient", "paints the shape's inside across its box", [
        SchemaField("type", choice(SchemaChoice(ShapeSpec.Gradient.Kind.self)), "linear (default: from one side to the other) or radial (from the centre out)"),
        SchemaField("stops", .array(.object(gradientStop), minItems: 2), "its colours, at least two, in order of offset"),
        SchemaField("angle", animated(angleRange), "a linear gradient's direction, degrees clockwise from left → right (90: top → bottom; default 0), or keyframes"),
    ], required: ["stops"])

    /// What each kind of shape takes (the parser checks the same, and that a rect and an ellipse have a size).
    static let shapeConditions: [SchemaCondition] = [
        SchemaCondition(field: "shape", values: ["rect"], then: [("points", nil)]),
        SchemaCondition(field: "shape", values: ["ellipse"], then: [("points", nil), ("cornerRadius", nil)]),
        SchemaCondition(field: "shape", values: ["line"], then: [("width", nil), ("height", nil), ("cornerRadius", nil), ("fill", nil), ("gradient", nil),
                                                               ("points", .array(.object(shapePoint), minItems: 2))]),
        SchemaCondition(field: "shape", values: ["polygon"], then: [("width", nil), ("height", nil), ("cornerRadius", nil),
                                                                  ("points", .array(.object(shapePoint), minItems: 3))]),
    ]

    public static let shape = SchemaObject("shape", "a rectangle, an ellipse, a line or a polygon drawn at output resolution; sizes in output pixels", [
        SchemaField("shape", choice(SchemaChoice(ShapeSpec.Kind.self)), "rect, ellipse, line or polygon"),
        SchemaField("width", animated(shapeSize), "a rect's or an ellipse's width, pixels (required for them), or keyframes"),
        SchemaField("height", animated(shapeSize), "a rect's or an ellipse's height, pixels (required for them), or keyframes"),
        SchemaField("points", .array(.object(shapePoint), minItems: 2), "a line's points (two or more) or a polygon's corners (three or more), pixels"),
        SchemaField("fill", textColour, "the inside's colour (default white, unless a stroke or a gradient is given)"),
        SchemaField("stroke", textColour, "the outline's colour (default none; a line's white)"),
        SchemaField("strokeWidth", animated(strokeWidthRange), "the outline's width in pixels, centred on the edge (default 2), or keyframes"),
        SchemaField("cornerRadius", animated(cornerRadiusRange), "a rect's corners' radius in pixels (default 0), or keyframes"),
        SchemaField("gradient", .object(gradient), "a linear or radial gradient painting the inside instead of fill"),
        shownDuration, at, videoTransition, layerField, pictureEffectsField, matteField, untilEnd,
    ], required: ["shape"], conditions: shapeConditions)
}
