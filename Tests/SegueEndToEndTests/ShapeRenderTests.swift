import Foundation
import XCTest
import SegueCore
import SegueEdit
import SegueGL
@testable import SeguePipeline
import SegueReference
import SegueTestSupport

/// Shape items (issue 36, item 3) as rendered: white shapes over black, where each pixel's red is its coverage, so
/// the frame's sum is the covered area (against the analytic area within 1 %), a stroke's profile its width, a
/// progress bar's row its eased width; a gradient's ends their stops' colours; the GPU draws what the CPU draws.
final class ShapeRenderTests: XCTestCase {
    /// Frames `frames` of the edit `json`, by `renderer` (default: the CPU reference).
    func frames(_ json: String, _ frames: [Int64], renderer: CompositeRenderer = ReferenceRenderer()) throws -> [RGBAImage] {
        let edit = try EditFile.parse(data: Data(json.utf8), baseDirectory: "/")
        return try RenderJob.renderFrames(try RenderJob.resolve(edit), frames: frames, renderer: renderer).images
    }

    /// Σ red / 255 over `image`'s pixels where `take(x, y)`: the area white covers over black, in pixels.
    func covered(_ image: RGBAImage, where take: (Int, Int) -> Bool = { _, _ in true }) -> Double {
        var sum = 0
        for y in 0..<image.height { for x in 0..<image.width where take(x, y) { sum += Int(image.pixels[4 * (y * image.width + x)]) } }
        return Double(sum) / 255
    }

    func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [Int] { (0..<3).map { Int(image.pixels[4 * (y * image.width + x) + $0]) } }

    /// A rect, an ellipse and a polygon at fractional sizes, one a second: the frame's coverage is the shape's area.
    func testCoveredAreaIsTheAnalyticArea() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "frameRate": 1, "clips": [
              {"shape": "rect", "width": 60.5, "height": 40.25, "duration": 1, "layer": {"x": 0.4, "y": 0.55}},
              {"shape": "ellipse", "width": 70, "height": 50, "fill": "#ffffff", "duration": 1, "layer": {"x": 0.52}},
              {"shape": "polygon", "points": [{"x": 0, "y": 0}, {"x": 80, "y": 10}, {"x": 30, "y": 60}], "duration": 1}]}
            """#
        let images = try frames(json, [0, 1, 2])
        let areas: [Double] = [60.5 * 40.25, Double.pi * 35 * 25, (80.0 * 60 - 10 * 30) / 2]
        let names = ["rect", "ellipse", "polygon"]
        for k in 0..<3 {
            let image = images[k], area = areas[k], name = names[k]
            let c = covered(image)
            print("shape \(name): covered \(c) px², analytic \(area) px²")
            XCTAssertEqual(c, area, accuracy: area * 0.01, name)
        }
        // Antialiased: the ellipse's edge has partly covered pixels.
        XCTAssertTrue(images[1].pixels.enumerated().contains { $0.offset % 4 == 0 && $0.element > 20 && $0.element < 235 })
    }

    /// A shape shown at layer scale 3 is drawn 3 × larger (its picture 60 × 30 for a 20 × 10 rect), not scaled up: its
    /// edges stay sharp (no partly covered pixel along a row) and its area is 9 × its own; a keyframed scale draws it
    /// at the largest.
    func testAScaledShapeIsDrawnAtOutputResolution() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "frameRate": 1, "clips": [
              {"shape": "rect", "width": 20, "height": 10, "duration": 1, "layer": {"scale": 3}},
              {"shape": "ellipse", "width": 20, "height": 10, "duration": 1,
               "layer": {"scale": {"keyframes": [{"time": 0, "value": 1}, {"time": 1, "value": 4}]}}}]}
            """#
        let timeline = try RenderJob.resolve(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/"))
        XCTAssertEqual(timeline.placements.map(\.source.codedSize), [PixelSize(width: 60, height: 30), PixelSize(width: 80, height: 40)])
        let image = try frames(json, [0])[0]
        XCTAssertEqual(covered(image), 1800, accuracy: 18)
        let row = (0..<160).map { pixel(image, $0, 60)[0] }
        XCTAssertEqual(row.filter { $0 > 0 && $0 < 255 }.count, 0, "\(row)")
        XCTAssertEqual(row.filter { $0 == 255 }.count, 60)
    }

    /// A stroked rect's outline is strokeWidth across (centred on the edge), its inside empty; a line's too.
    func testStrokeWidths() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "frameRate": 1, "clips": [
              {"shape": "rect", "width": 80, "height": 40, "stroke": "#ffffff", "strokeWidth": 6, "duration": 1},
              {"shape": "line", "points": [{"x": 0, "y": 0}, {"x": 100, "y": 0}], "strokeWidth": 5, "duration": 1}]}
            """#
        let images = try frames(json, [0, 1])
        let rect = images[0]
        // The rect spans x 40…120, y 40…80; its outline ±3 px about those edges.
        XCTAssertEqual(covered(rect) { x, y in y == 60 && x < 80 }, 6, accuracy: 0.06, "left edge")
        XCTAssertEqual(covered(rect) { x, y in x == 80 && y < 60 }, 6, accuracy: 0.06, "top edge")
        XCTAssertEqual(pixel(rect, 37, 60), [255, 255, 255])
        XCTAssertEqual(pixel(rect, 42, 60), [255, 255, 255])
        XCTAssertEqual(pixel(rect, 36, 60), [0, 0, 0])
        XCTAssertEqual(pixel(rect, 43, 60), [0, 0, 0])
        XCTAssertEqual(covered(rect), 86 * 46 - 74 * 34, accuracy: 1, "the whole outline")
        XCTAssertEqual(covered(images[1]) { x, _ in x == 80 }, 5, accuracy: 0.05, "line")
        XCTAssertEqual(covered(images[1]), 500, accuracy: 5, "line")
    }

    /// A progress bar: a rect whose width goes 0 → 100 px over 1 s (ease-in-out) grows right from a fixed left edge;
    /// each frame's bar is the eased width ± 1 px.
    func testKeyframedRectIsAProgressBar() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 40}, "frameRate": 10, "clips": [{"shape": "rect", "height": 10, "duration": 1.5,
              "width": {"keyframes": [{"time": 0, "value": 0, "easing": "ease-in-out"}, {"time": 1, "value": 100}]}}]}
            """#
        let picked: [Int64] = [0, 2, 5, 8, 10, 14]
        let images = try frames(json, picked)
        let easing = try Easing.parse("ease-in-out", field: "")
        for (n, image) in zip(picked, images) {
            let expected = 100 * easing(min(1, Double(n) / 10))
            let width = covered(image) { _, y in y == 20 }
            print("progress bar frame \(n): \(width) px, eased \(expected) px")
            XCTAssertEqual(width, expected, accuracy: 1, "frame \(n)")
            XCTAssertEqual(covered(image), width * 10, accuracy: 10 * 1, "frame \(n): 10 rows of it")
            if expected > 2 {
                XCTAssertEqual(pixel(image, 30, 20), [255, 255, 255], "frame \(n): left edge at x 30")
                XCTAssertEqual(pixel(image, 29, 20), [0, 0, 0], "frame \(n)")
            }
        }
    }

    /// A constant shape is drawn once for its whole time; a keyframed one once per frame where its numbers move and not
    /// again while they hold (1 s of growth at 10 fps, then 1 s held: 11 pictures, frames 0…10, the last held after).
    func testShapesAreDrawnOnlyWhenTheyChange() throws {
        let json = #"""
            {"renderSize": {"width": 64, "height": 48}, "frameRate": 10, "tracks": [
              {"clips": [{"shape": "ellipse", "width": 20, "height": 20, "duration": 2, "layer": {"opacity": {"keyframes": [{"time": 0, "value": 0.2}, {"time": 2, "value": 1}]}}}]},
              {"clips": [{"shape": "rect", "height": 4, "duration": 2, "width": {"keyframes": [{"time": 0, "value": 0}, {"time": 1, "value": 40}]}}]}]}
            """#
        let t = try RenderJob.resolve(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/"))
        let source = FrameSource(timeline: t)
        var identities: [Int: Set<UInt64>] = [:]
        for n in 0..<t.frameCount {
            let (plan, pictures) = try source.frame(n)
            for (layer, picture) in zip(plan.layers, pictures) { identities[layer.clipIndex, default: []].insert(picture.identity) }
        }
        XCTAssertEqual(t.frameCount, 20)
        XCTAssertEqual(identities[0]?.count, 1, "the constant ellipse")
        XCTAssertEqual(identities[1]?.count, 11, "the growing rect")
        XCTAssertEqual(source.shapePicturesMade, 12)
    }

    /// A linear gradient's ends are its stops' colours, its middle their mix; a radial one's centre its first stop.
    func testGradientEnds() throws {
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "frameRate": 1, "clips": [
              {"shape": "rect", "width": 100, "height": 20, "duration": 1,
               "gradient": {"stops": [{"offset": 0, "colour": "#ff0000"}, {"offset": 1, "colour": "#0000ff"}]}},
              {"shape": "ellipse", "width": 60, "height": 60, "duration": 1,
               "gradient": {"type": "radial", "stops": [{"offset": 0, "colour": "#00ff00"}, {"offset": 1, "colour": "#000080"}]}}]}
            """#
        let images = try frames(json, [0, 1])
        // The rect spans x 30…130 at y 60.
        func near(_ a: [Int], _ b: [Int], _ tolerance: Int, _ what: String) {
            XCTAssertTrue(zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }, "\(what): \(a), expected \(b)")
        }
        near(pixel(images[0], 30, 60), [255, 0, 0], 4, "left end")
        near(pixel(images[0], 129, 60), [0, 0, 255], 4, "right end")
        near(pixel(images[0], 80, 60), [128, 0, 128], 4, "middle")
        near(pixel(images[1], 80, 60), [0, 255, 0], 8, "radial centre")
    }

    /// A frame of shapes (rotated, half transparent, stroked, with gradients) on the GPU and on the CPU: ≥ 45 dB.
    func testGPUDrawsWhatTheCPUDraws() throws {
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        let json = #"""
            {"renderSize": {"width": 160, "height": 120}, "background": "#203040", "tracks": [
              {"clips": [{"shape": "rect", "width": 90, "height": 50, "cornerRadius": 8, "stroke": "#ffd020", "strokeWidth": 3,
                          "gradient": {"angle": 30, "stops": [{"offset": 0, "colour": "#ff000080"}, {"offset": 1, "colour": "#00ffff"}]},
                          "layer": {"rotation": 20, "x": 0.45}}]},
              {"clips": [{"shape": "ellipse", "width": 50, "height": 30, "fill": "#40c060", "layer": {"opacity": 0.6, "x": 0.7, "y": 0.3, "scale": 1.3}}]},
              {"clips": [{"shape": "polygon", "points": [{"x": 0, "y": 0}, {"x": 40, "y": 5}, {"x": 10, "y": 30}], "stroke": "white", "strokeWidth": 1.5, "fill": "#8040ff"}]},
              {"clips": [{"shape": "line", "points": [{"x": 0, "y": 0}, {"x": 60, "y": 25}, {"x": 120, "y": 0}], "stroke": "#ffffffc0", "strokeWidth": 2.5, "layer": {"y": 0.8}}]}]}
            """#
        let cpu = try frames(json, [3])[0]
        let gpuImage = try frames(json, [3], renderer: gpu)[0]
        let db = PlaneDifference(gpuImage.pixels, cpu.pixels).psnr
        print("shapes GPU against CPU: \(db) dB")
        XCTAssertGreaterThanOrEqual(db, 45)
        XCTAssertGreaterThan(covered(cpu), 160 * 120 * Double(0x20) / 255 + 1000, "the shapes are drawn")
    }
}
