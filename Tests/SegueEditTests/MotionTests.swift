import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Pan and zoom (`Motion`): windows over time, presets, the map it gives the renderers, and the edit file.
final class MotionTests: XCTestCase {
    func testWindowsMoveLinearlyInEasedProgress() {
        let m = Motion(from: Motion.Window(x: 0.5, y: 0.5, zoom: 1), to: Motion.Window(x: 0.6, y: 0.4, zoom: 1.3), easing: .easeInOut)
        XCTAssertEqual(m.window(at: 0), m.from)
        XCTAssertEqual(m.window(at: 1), m.to)
        let e = Easing.easeInOut(0.25)
        let w = m.window(at: 0.25)
        XCTAssertEqual(w.x, 0.5 + 0.1 * e, accuracy: 1e-12)
        XCTAssertEqual(w.y, 0.5 - 0.1 * e, accuracy: 1e-12)
        XCTAssertEqual(w.zoom, 1 + 0.3 * e, accuracy: 1e-12)
        XCTAssertEqual(m.window(at: -1), m.from, "clamped")
    }

    /// The window's centre lands on the output's centre and the picture is magnified by the zoom.
    func testMapPutsTheWindowCentreAtTheOutputCentre() {
        let size = PixelSize(width: 1600, height: 1200), out = PixelSize(width: 320, height: 240)
        let w = Motion.Window(x: 0.3, y: 0.6, zoom: 2)
        let m = LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: out, fit: .fill, window: w)
        let (u, v) = m.apply(160, 120)
        XCTAssertEqual(u, 0.3, accuracy: 1e-12)
        XCTAssertEqual(v, 0.6, accuracy: 1e-12)
        // One output pixel is 1/(0.2·2) = 2.5 stored pixels.
        let (u2, _) = m.apply(161, 120)
        XCTAssertEqual((u2 - u) * 1600, 2.5, accuracy: 1e-9)
        // The fit window is the identity framing.
        XCTAssertEqual(LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: out, fit: .fill, window: .fit),
                       LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: out, fit: .fill))
        // A quarter turn: the window is in the displayed (upright) picture's coordinates.
        let turned = LayerGeometry.outputToSource(codedSize: PixelSize(width: 1200, height: 1600), sar: 1, orientation: Orientation(a: 0, b: 1, c: -1, d: 0),
                                                  renderSize: out, fit: .fill, window: Motion.Window(x: 0.25, y: 0.5, zoom: 1))
        let fitted = LayerGeometry.outputToSource(codedSize: PixelSize(width: 1200, height: 1600), sar: 1, orientation: Orientation(a: 0, b: 1, c: -1, d: 0),
                                                  renderSize: out, fit: .fill)
        // Output centre shows what the fit showed a quarter of the way across the displayed picture (x = 0.25·320 = 80).
        let a = turned.apply(160, 120), b = fitted.apply(80, 120)
        XCTAssertEqual(a.0, b.0, accuracy: 1e-12)
        XCTAssertEqual(a.1, b.1, accuracy: 1e-12)
    }

    /// Presets pan from edge to edge of what the picture has beyond the frame, at zoom 1.2.
    func testPresetsFitTheClip() {
        // A 16:9 picture filling a square: 56.25 % of its width shows at zoom 1.
        let visible = LayerGeometry.visibleFraction(codedSize: PixelSize(width: 1920, height: 1080), sar: 1, orientation: .identity,
                                                    renderSize: PixelSize(width: 1080, height: 1080), fit: .fill)
        XCTAssertEqual(visible.width, 0.5625, accuracy: 1e-12)
        XCTAssertEqual(visible.height, 1, accuracy: 1e-12)
        let left = Motion.Preset.panLeft.motion(visible: visible, easing: .linear)
        let h = 0.5625 / (2 * 1.2)
        XCTAssertEqual(left.from.x, 1 - h, accuracy: 1e-12)   // the window touches the right edge
        XCTAssertEqual(left.to.x, h, accuracy: 1e-12)         // then the left edge
        XCTAssertEqual(left.from.zoom, 1.2)
        let up = Motion.Preset.panUp.motion(visible: visible, easing: .linear)
        XCTAssertEqual(up.from.y, 1 - 1 / 2.4, accuracy: 1e-12)
        XCTAssertEqual(Motion.Preset.zoomIn.motion(visible: visible, easing: .linear), Motion(from: .fit, to: Motion.Window(zoom: 1.25)))
        XCTAssertEqual(Motion.Preset.zoomOut.motion(visible: visible, easing: .linear).from.zoom, 1.25)
    }

    /// Power-of-two prefilter levels for moving layers: at least the shown size, at most twice it.
    func testPrefilterLevels() {
        let size = PixelSize(width: 1600, height: 1200)
        for zoom in [1.0, 1.3, 1.9, 2.5, 4.0] {
            let m = LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: PixelSize(width: 320, height: 240),
                                                 fit: .fill, window: Motion.Window(zoom: zoom))
            let shown = 1600 * 0.2 * zoom
            if let level = LayerGeometry.prefilterLevel(m, codedSize: size) {
                XCTAssertGreaterThanOrEqual(Double(level.width), shown - 1e-9, "zoom \(zoom)")
                XCTAssertLessThan(Double(level.width), 2 * shown + 1, "zoom \(zoom)")
                XCTAssertEqual(1600 % level.width, 0, "a power-of-two level")
            } else {
                XCTAssertGreaterThanOrEqual(shown / 1600, 0.5, "zoom \(zoom)")
            }
        }
    }

    func testEditFileMotion() throws {
        func parse(_ json: String) throws -> Edit { try EditFile.parse(data: Data(json.utf8), baseDirectory: "/m") }
        let e = try parse(#"{"clips": [{"path": "a.jpg", "motion": {"from": {"x": 0.5, "y": 0.5, "zoom": 1.0}, "to": {"x": 0.6, "y": 0.4, "zoom": 1.3}, "easing": "ease-in-out"}}, {"path": "b.jpg", "motion": "pan-left"}, {"path": "c.jpg", "motion": {"preset": "zoom-out", "easing": "ease"}}]}"#)
        XCTAssertEqual(e.clips[0].motion, .windows(Motion(from: Motion.Window(x: 0.5, y: 0.5, zoom: 1), to: Motion.Window(x: 0.6, y: 0.4, zoom: 1.3), easing: .easeInOut)))
        XCTAssertEqual(e.clips[1].motion, .preset(.panLeft, .linear))
        XCTAssertEqual(e.clips[2].motion, .preset(.zoomOut, .ease))
        for (json, field, words) in [
            (#"{"clips": [{"path": "a", "motion": "spin"}]}"#, "clips[0].motion", "zoom-in, zoom-out, pan-left"),
            (#"{"clips": [{"path": "a", "motion": {"to": {"x": 1.5}}}]}"#, "clips[0].motion.to.x", "0…1"),
            (#"{"clips": [{"path": "a", "motion": {"to": {"zoom": 0}}}]}"#, "clips[0].motion.to.zoom", "0.1…100"),
            (#"{"clips": [{"path": "a", "motion": {"easing": "ease"}}]}"#, "clips[0].motion", "needs a preset"),
            (#"{"clips": [{"path": "a", "motion": {"to": {"zom": 2}}}]}"#, "clips[0].motion.to.zom", "did you mean \"zoom\""),
        ] {
            XCTAssertThrowsError(try parse(json), json) { e in
                XCTAssertEqual((e as? EditError)?.field, field, "\(e)")
                XCTAssertTrue("\(e)".contains(words), "\(e)")
            }
        }
    }
}
