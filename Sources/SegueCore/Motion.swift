import Foundation

/// Pan and zoom over a clip's time on screen (the "Ken Burns" effect), on a photo or a video.
///
/// A `Window` is the part of the fitted picture the output shows: its centre (`x`, `y`) in the picture's normalized
/// coordinates after rotation and the edit's fit (0…1 across the fitted picture, top-left origin; (0.5, 0.5) is the
/// fit's own framing) and its `zoom` (1 = the fit's framing; 2 = half as wide and high, everything twice as large).
/// Over the clip's time on screen, from its first instant on the timeline (including the transition into it) to its
/// last, with eased progress `e = easing(u)`, `u = (t − T) / D`: centre and zoom move from `from` to `to`, each
/// linearly in `e` (`x(e) = x₀ + (x₁ − x₀)·e`, likewise `y` and `zoom`). Positions are real numbers all the way to the
/// renderers (no pixel snapping); a window that leaves the picture shows the edit's background there.
public struct Motion: Equatable, Sendable {
    public struct Window: Equatable, Sendable {
        public var x: Double
        public var y: Double
        public var zoom: Double
        public init(x: Double = 0.5, y: Double = 0.5, zoom: Double = 1) { self.x = x; self.y = y; self.zoom = zoom }
        /// The fit's own framing.
        public static let fit = Window()
    }

    /// A motion given by name (`"motion": "zoom-in"`), resolved against each clip's geometry when the edit is resolved.
    public enum Preset: String, CaseIterable, Sendable {
        /// Centred, zoom 1 → 1.25.
        case zoomIn = "zoom-in"
        /// Centred, zoom 1.25 → 1.
        case zoomOut = "zoom-out"
        /// At zoom 1.2, the window travels from the picture's right edge to its left edge (the camera pans left).
        case panLeft = "pan-left"
        /// At zoom 1.2, from the left edge to the right edge.
        case panRight = "pan-right"
        /// At zoom 1.2, from the bottom edge to the top edge.
        case panUp = "pan-up"
        /// At zoom 1.2, from the top edge to the bottom edge.
        case panDown = "pan-down"

        /// The zoom of the presets that pan, and the far end of the zooming ones.
        public static let panZoom = 1.2, zoomTo = 1.25

        /// The windows for a clip whose fitted picture shows `visible` of itself (width, height as fractions of the
        /// fitted picture, at zoom 1: 1 where the picture fills that axis exactly; less where `fill` crops it).
        public func motion(visible: (width: Double, height: Double), easing: Easing) -> Motion {
            let z = Preset.panZoom
            // The centre may go as far as keeps the window inside the picture: half the window from each edge.
            let hx = min(0.5, visible.width / (2 * z)), hy = min(0.5, visible.height / (2 * z))
            switch self {
            case .zoomIn: return Motion(from: .fit, to: Window(zoom: Preset.zoomTo), easing: easing)
            case .zoomOut: return Motion(from: Window(zoom: Preset.zoomTo), to: .fit, easing: easing)
            case .panLeft: return Motion(from: Window(x: 1 - hx, zoom: z), to: Window(x: hx, zoom: z), easing: easing)
            case .panRight: return Motion(from: Window(x: hx, zoom: z), to: Window(x: 1 - hx, zoom: z), easing: easing)
            case .panUp: return Motion(from: Window(y: 1 - hy, zoom: z), to: Window(y: hy, zoom: z), easing: easing)
            case .panDown: return Motion(from: Window(y: hy, zoom: z), to: Window(y: 1 - hy, zoom: z), easing: easing)
            }
        }
    }

    public var from: Window
    public var to: Window
    public var easing: Easing
    public init(from: Window, to: Window, easing: Easing = .linear) { self.from = from; self.to = to; self.easing = easing }

    /// The window at clip progress `u` (0…1, linear in time; clamped).
    public func window(at u: Double) -> Window {
        let e = easing(min(1, max(0, u)))
        return Window(x: from.x + (to.x - from.x) * e, y: from.y + (to.y - from.y) * e, zoom: from.zoom + (to.zoom - from.zoom) * e)
    }

    public var description: String {
        func w(_ v: Window) -> String { String(format: "(%.3f, %.3f) ×%.3f", v.x, v.y, v.zoom) }
        return "\(w(from)) → \(w(to))\(easing == .linear ? "" : ", \(easing)")"
    }
}

/// How a clip asks for motion in the edit: explicit windows, or a preset resolved per clip.
public enum MotionSpec: Equatable, Sendable {
    case windows(Motion)
    case preset(Motion.Preset, Easing)
}
