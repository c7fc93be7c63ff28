import Foundation
import SegueCore

/// The edit file's shape items (`{"shape": "rect", "width", "height", "fill", …}`, `EditSchema.shape`): read and written.
extension EditFile {
    /// A shape item's shape. Defaults: a rect, ellipse or polygon with neither fill, gradient nor stroke is filled
    /// white; a line's stroke is white; a stroke's width is 2 px.
    /// - Throws: `EditError` naming the field: a rect or an ellipse without width or height, a field its kind does not
    ///   take (`EditSchema.shapeConditions`), a polygon of fewer than 3 points or a line of fewer than 2, both fill and
    ///   gradient, a gradient stop with no colour (or two), keyframes out of order.
    static func shapeItem(_ r: EditFields) throws -> ShapeSpec {
        let kind = r.choice("shape", ShapeSpec.Kind.self) ?? .rect
        for rule in EditSchema.shapeConditions where rule.values.contains(kind.rawValue) {
            for (name, type) in rule.then {
                guard let v = r[name] else { continue }
                guard let type else { throw EditError(r.path(name), "a \(kind.rawValue) takes no \(name)") }
                if case .array(_, let least) = type, let list = v as? [Any], list.count < least {
                    throw EditError(r.path(name), "a \(kind.rawValue) needs at least \(least) \(name) (got \(list.count))")
                }
            }
        }
        var s = ShapeSpec(kind: kind)
        if kind == .rect || kind == .ellipse {
            for name in ["width", "height"] where r[name] == nil {
                throw EditError(r.path(name), "is required for a \(kind.rawValue): its \(name) in output pixels, or keyframes")
            }
            s.width = try animated(r, "width") ?? .constant(0)
            s.height = try animated(r, "height") ?? .constant(0)
        }
        s.points = try (r.objects("points") ?? []).map { p in
            ShapeSpec.Point(x: try animated(p, "x") ?? .constant(0), y: try animated(p, "y") ?? .constant(0))
        }
        s.fill = r.string("fill").flatMap(TextColour.parse)
        s.stroke = r.string("stroke").flatMap(TextColour.parse) ?? (kind == .line ? .white : nil)
        s.strokeWidth = try animated(r, "strokeWidth") ?? .constant(s.stroke == nil ? 0 : 2)
        s.cornerRadius = try animated(r, "cornerRadius") ?? .constant(0)
        if let g = r.object("gradient") {
            if s.fill != nil { throw EditError(r.path("gradient"), "paints the inside instead of fill: give one of them") }
            s.gradient = try gradient(g)
        }
        if s.fill == nil, s.gradient == nil, s.stroke == nil { s.fill = .white }
        return s
    }

    /// `{"type", "stops": [{"offset", "colour"}, …], "angle"}`.
    static func gradient(_ g: EditFields) throws -> ShapeSpec.Gradient {
        var out = ShapeSpec.Gradient(kind: g.choice("type", ShapeSpec.Gradient.Kind.self) ?? .linear, stops: [])
        out.stops = try (g.objects("stops") ?? []).map { stop in
            let given = ["colour", "color"].filter { stop[$0] != nil }
            guard given.count == 1, let colour = stop.string(given[0]).flatMap(TextColour.parse) else {
                throw EditError(stop.path("colour"), given.isEmpty ? "is required: the stop's colour" : "give colour or color, not both")
            }
            return ShapeSpec.Stop(offset: try animated(stop, "offset") ?? .constant(0), colour: colour)
        }
        out.angle = try animated(g, "angle") ?? .constant(0)
        return out
    }
}

extension EditFileWriter {
    /// A shape item's fields, as `EditFile.shapeItem` reads them back.
    func shape(_ s: ShapeSpec, into o: inout DeclaredObject) throws {
        try o.set("shape", .string(s.kind.rawValue))
        if s.kind == .rect || s.kind == .ellipse {
            try o.set("width", animated(s.width, range: EditSchema.shapeSize, field: o.path("width")))
            try o.set("height", animated(s.height, range: EditSchema.shapeSize, field: o.path("height")))
        }
        if !s.points.isEmpty {
            try o.set("points", .array(s.points.enumerated().map { k, p in
                var point = DeclaredObject(EditSchema.shapePoint, "\(o.path("points"))[\(k)]")
                try point.set("x", animated(p.x, range: EditSchema.shapeCoordinate, field: point.path("x")))
                try point.set("y", animated(p.y, range: EditSchema.shapeCoordinate, field: point.path("y")))
                return point.value
            }))
        }
        if let f = s.fill { try o.set("fill", .string(f.description)) }
        if let c = s.stroke { try o.set("stroke", .string(c.description)) }
        if s.stroke != nil || s.strokeWidth != .constant(0) {
            try o.set("strokeWidth", animated(s.strokeWidth, range: EditSchema.strokeWidthRange, field: o.path("strokeWidth")))
        }
        if s.cornerRadius != .constant(0) {
            try o.set("cornerRadius", animated(s.cornerRadius, range: EditSchema.cornerRadiusRange, field: o.path("cornerRadius")))
        }
        if let g = s.gradient {
            var x = DeclaredObject(EditSchema.gradient, o.path("gradient"))
            try x.set("type", .string(g.kind.rawValue))
            try x.set("stops", .array(g.stops.enumerated().map { k, stop in
                var st = DeclaredObject(EditSchema.gradientStop, "\(x.path("stops"))[\(k)]")
                try st.set("offset", animated(stop.offset, range: 0...1, field: st.path("offset")))
                try st.set("colour", .string(stop.colour.description))
                return st.value
            }))
            if g.angle != .constant(0) { try x.set("angle", animated(g.angle, range: EditSchema.angleRange, field: x.path("angle"))) }
            try o.set("gradient", x.value)
        }
    }
}
