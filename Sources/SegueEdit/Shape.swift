import Foundation
import SegueCore

/// A shape item (`{"shape": "rect", "width": 200, "height": 20, "fill": "#ffffff"}`, docs/motion-graphics.md): a
/// rectangle, an ellipse, a line or a polygon, sizes in output pixels, drawn by librsvg at output resolution from the
/// SVG document `ShapeSVG` writes for each instant. Every number is a value or keyframes (`Animated`), timed from the
/// item's first instant like its `layer`.
///
/// Coordinates: a rect or an ellipse spans (0, 0)–(width, height); a line's and a polygon's `points` are in the same
/// pixels. Its picture (`pictureSize`) is the box of its largest extent over all its keyframes, plus half the widest
/// stroke on each side, rounded up to whole pixels with the shape centred in it; `layer` places that picture's centre
/// like any item's (its `x`, `y`, `scale`, `rotation`, `opacity`). A rect whose width grows (a progress bar) grows to
/// the right from a fixed left edge.
public struct ShapeSpec: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Sendable { case rect, ellipse, line, polygon }

    /// A point of a line or a polygon, output pixels.
    public struct Point: Equatable, Sendable {
        public var x: Animated, y: Animated
        public init(x: Animated, y: Animated) { self.x = x; self.y = y }
    }

    /// A colour along a gradient: `offset` 0 (its start) … 1 (its end).
    public struct Stop: Equatable, Sendable {
        public var offset: Animated
        public var colour: TextColour
        public init(offset: Animated, colour: TextColour) { self.offset = offset; self.colour = colour }
    }

    /// The inside painted by a gradient across the shape's box: linear from one side to the other at `angle` degrees
    /// (0: left → right, 90: top → bottom), or radial from the box's centre (offset 0) to its edge (offset 1).
    public struct Gradient: Equatable, Sendable {
        public enum Kind: String, CaseIterable, Sendable { case linear, radial }
        public var kind: Kind
        public var stops: [Stop]
        public var angle = Animated.constant(0)
        public init(kind: Kind, stops: [Stop]) { self.kind = kind; self.stops = stops }
    }

    public var kind: Kind
    /// A rect's or an ellipse's size, output pixels (0 draws nothing).
    public var width = Animated.constant(0), height = Animated.constant(0)
    /// A line's (two or more: a polyline) or a polygon's (three or more) corners.
    public var points: [Point] = []
    /// The inside's colour (nil: none); `gradient` paints it instead when given.
    public var fill: TextColour?
    public var gradient: Gradient?
    /// The outline's colour (nil: none) and width in output pixels, centred on the edge (half inside, half outside).
    public var stroke: TextColour?
    public var strokeWidth = Animated.constant(0)
    /// A rect's corners' radius, output pixels (at most half its shorter side).
    public var cornerRadius = Animated.constant(0)

    public init(kind: Kind) { self.kind = kind }

    /// Every number of the shape (to tell whether it ever changes).
    var numbers: [Animated] {
        [width, height, strokeWidth, cornerRadius] + points.flatMap { [$0.x, $0.y] } + (gradient.map { [$0.angle] + $0.stops.map(\.offset) } ?? [])
    }

    /// Whether it looks the same at every instant (drawn once).
    public var isConstant: Bool { numbers.allSatisfy(\.isConstant) }

    /// The box the shape's own coordinates span at its largest: x from `min.0` to `max.0`, y likewise.
    var extent: (min: (Double, Double), max: (Double, Double)) {
        switch kind {
        case .rect, .ellipse:
            return ((0, 0), (max(0, width.keyValues.max() ?? 0), max(0, height.keyValues.max() ?? 0)))
        case .line, .polygon:
            let xs = points.flatMap(\.x.keyValues), ys = points.flatMap(\.y.keyValues)
            return ((xs.min() ?? 0, ys.min() ?? 0), (xs.max() ?? 0, ys.max() ?? 0))
        }
    }

    /// Half the widest stroke (joins and caps round or square-cornered: no stroke reaches further from the edge).
    var margin: Double { stroke == nil ? 0 : max(0, strokeWidth.keyValues.max() ?? 0) / 2 }

    /// The picture's size at scale 1 (`pictureSize(scale:)`).
    public var pictureSize: PixelSize { pictureSize(scale: 1) }

    /// The picture's size drawn `scale` times larger than its own pixels (the layer's largest scale, so that it is
    /// shown at output resolution): the largest extent plus `margin` on each side, times `scale`, rounded up (at least
    /// 1 × 1).
    public func pictureSize(scale k: Double) -> PixelSize {
        let e = extent, m = margin
        func side(_ a: Double, _ b: Double) -> Int { max(1, Int(((b - a + 2 * m) * k - 1e-9).rounded(.up))) }
        return PixelSize(width: side(e.min.0, e.max.0), height: side(e.min.1, e.max.1))
    }

    /// Where the shape's (0, 0) lies in its picture drawn at `scale`, in the shape's own pixels: the extent centred in
    /// `pictureSize(scale:) / scale`.
    func origin(scale k: Double) -> (Double, Double) {
        let e = extent, p = pictureSize(scale: k)
        return ((Double(p.width) / k - (e.max.0 - e.min.0)) / 2 - e.min.0, (Double(p.height) / k - (e.max.1 - e.min.1)) / 2 - e.min.1)
    }

    /// "rect 200×20, fill #ffffff, stroke #000000 2 px" for plans and messages.
    public var summary: String {
        var parts = [kind.rawValue]
        switch kind {
        case .rect, .ellipse:
            parts[0] += width.isConstant && height.isConstant ? " \(width)×\(height)" : ", width \(width), height \(height)"
        case .line, .polygon: parts[0] += " of \(points.count) points"
        }
        if let g = gradient { parts.append("\(g.kind.rawValue) gradient of \(g.stops.count) stops") } else if let f = fill { parts.append("fill \(f)") }
        if let s = stroke { parts.append("stroke \(s) \(strokeWidth) px") }
        if cornerRadius != .constant(0) { parts.append("corner radius \(cornerRadius)") }
        return parts.joined(separator: ", ")
    }
}

extension ClipSpec {
    /// The shape item's description, nil for other items.
    public var shape: ShapeSpec? { if case .shape(let s) = content { return s } else { return nil } }
}

extension Timeline {
    /// The scale a shape item's picture is drawn at: the layer's largest (`rasterScale`), so that it is shown at output
    /// resolution, but no picture side above 16384 pixels nor more than 4 × the render area (a shape shown larger is
    /// drawn at that size and scaled up).
    static func shapeScale(_ spec: ClipSpec, renderSize: PixelSize) -> Double {
        guard let shape = spec.shape else { return 1 }
        let own = shape.pictureSize(scale: 1)
        let w = Double(own.width), h = Double(own.height)
        let area = 4 * Double(renderSize.width) * Double(renderSize.height)
        return min(rasterScale(spec.layer), 16384 / max(w, h), (area / (w * h)).squareRoot())
    }
}
