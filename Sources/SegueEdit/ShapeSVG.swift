import Foundation
import SegueCore

/// The SVG document that draws a shape item at one instant (librsvg draws it at output resolution: `SVGStill`).
///
/// Only numbers and colours re-written by Segue go into the document, never text from the edit file: colours were
/// parsed (`TextColour.parse`) and are written as `#rrggbb` with a separate opacity; numbers are finite (the schema's
/// ranges) and written with at most four decimals.
///
/// The document is `pictureSize(scale: k)` pixels (`width`, `height`), its `viewBox` those divided by k (one user unit
/// one of the shape's pixels; k the layer's largest scale, `Timeline.shapeScale`, so that librsvg draws it as large
/// as it is shown); the shape's (0, 0) sits at `ShapeSpec.origin(scale: k)`, (ox, oy). With w, h, r, s the width,
/// height, corner radius and stroke width at the instant:
/// - rect: `<rect x=ox y=oy width=w height=h rx=ry=r>` (librsvg clamps r to half the shorter side); mitred corners;
/// - ellipse: `<ellipse cx=ox+w/2 cy=oy+h/2 rx=w/2 ry=h/2>`;
/// - line: `<polyline points="x+ox,y+oy …" fill="none">`, butt ends, round joins;
/// - polygon: `<polygon points="x+ox,y+oy …">`, round joins (no join reaches further than s/2 from the edge);
/// - paint: `fill="#rrggbb" fill-opacity=a` (or `fill="none"`); `stroke="#rrggbb" stroke-opacity=a stroke-width=s`
///   when a stroke is given and s > 0 (centred on the edge: the rect's outline spans ox − s/2 … ox + w + s/2);
/// - gradient: `<linearGradient id="g">` from (½ − cos θ/2, ½ − sin θ/2) to (½ + cos θ/2, ½ + sin θ/2) of the shape's
///   bounding box (SVG's `objectBoundingBox` units: θ = 45° runs corner to corner), or `<radialGradient id="g">`
///   (centre ½, ½, radius ½ of the box); each stop `<stop offset=o stop-color="#rrggbb" stop-opacity=a>`, offsets
///   clamped to 0…1 and made non-decreasing (SVG's rule); the shape's `fill="url(#g)"`.
public enum ShapeSVG {
    /// The document for `shape` at `t` (seconds from the item's first instant), drawn at `scale` (its pixels per
    /// shape pixel).
    public static func document(_ shape: ShapeSpec, at t: MediaTime, scale k: Double = 1) -> String {
        let size = shape.pictureSize(scale: k), (ox, oy) = shape.origin(scale: k)
        var defs = ""
        var fill = paint(shape.fill)
        if let g = shape.gradient {
            defs = "<defs>" + gradient(g, at: t) + "</defs>"
            fill = "fill=\"url(#g)\""
        }
        let s = shape.strokeWidth.value(at: t)
        var stroke = ""
        if let c = shape.stroke, s > 0 { stroke = " " + paint(c, "stroke") + " stroke-width=\"\(number(s))\"" }
        let w = max(0, shape.width.value(at: t)), h = max(0, shape.height.value(at: t))
        let element: String
        switch shape.kind {
        case .rect:
            let r = max(0, shape.cornerRadius.value(at: t))
            element = "<rect x=\"\(number(ox))\" y=\"\(number(oy))\" width=\"\(number(w))\" height=\"\(number(h))\""
                + (r > 0 ? " rx=\"\(number(r))\" ry=\"\(number(r))\"" : "") + " \(fill)\(stroke)/>"
        case .ellipse:
            element = "<ellipse cx=\"\(number(ox + w / 2))\" cy=\"\(number(oy + h / 2))\" rx=\"\(number(w / 2))\" ry=\"\(number(h / 2))\" \(fill)\(stroke)/>"
        case .line, .polygon:
            let points = shape.points.map { "\(number($0.x.value(at: t) + ox)),\(number($0.y.value(at: t) + oy))" }.joined(separator: " ")
            element = shape.kind == .line
                ? "<polyline points=\"\(points)\" fill=\"none\"\(stroke) stroke-linejoin=\"round\"/>"
                : "<polygon points=\"\(points)\" \(fill)\(stroke) stroke-linejoin=\"round\"/>"
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size.width)\" height=\"\(size.height)\" viewBox=\"0 0 \(number(Double(size.width) / k)) \(number(Double(size.height) / k))\">"
            + defs + element + "</svg>"
    }

    /// `fill="#rrggbb" fill-opacity="a"` (the attribute `name`), or `fill="none"` for no colour.
    static func paint(_ c: TextColour?, _ name: String = "fill") -> String {
        guard let c else { return "\(name)=\"none\"" }
        return "\(name)=\"\(c.rgb.description)\"" + (c.alpha < 1 ? " \(name)-opacity=\"\(number(max(0, c.alpha)))\"" : "")
    }

    /// The gradient `g` at `t`, id "g".
    static func gradient(_ g: ShapeSpec.Gradient, at t: MediaTime) -> String {
        var last = 0.0
        let stops = g.stops.map { stop -> String in
            last = max(last, min(1, max(0, stop.offset.value(at: t))))
            let c = stop.colour
            return "<stop offset=\"\(number(last))\" stop-color=\"\(c.rgb.description)\"" + (c.alpha < 1 ? " stop-opacity=\"\(number(max(0, c.alpha)))\"" : "") + "/>"
        }.joined()
        switch g.kind {
        case .linear:
            let a = g.angle.value(at: t) * .pi / 180, dx = cos(a) / 2, dy = sin(a) / 2
            return "<linearGradient id=\"g\" x1=\"\(number(0.5 - dx))\" y1=\"\(number(0.5 - dy))\" x2=\"\(number(0.5 + dx))\" y2=\"\(number(0.5 + dy))\">"
                + stops + "</linearGradient>"
        case .radial:
            return "<radialGradient id=\"g\" cx=\"0.5\" cy=\"0.5\" r=\"0.5\">" + stops + "</radialGradient>"
        }
    }

    /// A finite number with at most four decimals, without trailing zeros ("12", "0.5", "-3.25").
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        var s = String(format: "%.4f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}
