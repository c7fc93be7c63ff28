import Foundation
import XCTest
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SeguePipeline
import SegueReference
import SegueTestSupport

/// SVG items (issue 36, item 1): drawn by librsvg at the size they are shown, alpha applied once, external references
/// not loaded. The oracle is CairoSVG (PyPI, in `make schema-venv`'s environment: another SVG implementation).
final class SVGStillTests: EndToEndTestCase {
    static let shapes = """
        <svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48">
        <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ff0000"/>
        <stop offset="1" stop-color="#0000ff" stop-opacity="0.5"/></linearGradient></defs>
        <rect x="4.5" y="4.5" width="30" height="20" fill="url(#g)"/>
        <circle cx="44" cy="30" r="13.3" fill="#ffd020"/>
        <path d="M6 44 L30 28 L34 46 Z" fill="#20c040" fill-opacity="0.7"/>
        </svg>
        """

    func write(_ text: String, _ name: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Frame `frame` of the edit file `json` (written to edit.json beside the pictures), by `renderer` (default: CPU).
    func frame(_ json: String, _ frame: Int64 = 0, renderer: CompositeRenderer = ReferenceRenderer()) throws -> RGBAImage {
        let edit = try write(json, "edit.json")
        return try RenderJob.renderFrames(try RenderJob.resolve(try EditFile.load(path: edit)), frames: [frame], renderer: renderer).images[0]
    }

    func rgb(_ image: RGBAImage) -> [UInt8] { image.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }

    func testReaderDescribesTheDocumentAtItsOwnSize() throws {
        let reader = try VideoReader(path: try write(Self.shapes, "logo.svg"))
        XCTAssertTrue(reader.isStill)
        XCTAssertEqual(reader.info.codedSize, PixelSize(width: 64, height: 48))
        XCTAssertTrue(reader.info.hasAlpha)
        let p = try reader.picture(at: .zero)
        XCTAssertEqual(p.size, PixelSize(width: 64, height: 48))
        XCTAssertTrue(p.hasAlpha)
        // Drawn at the size shown (k× its own size), a power of two in motion, capped at 4 × the render area.
        func shown(_ k: Double, levels: Bool = false) -> PixelSize? {
            reader.drawnSize(.scale(1 / (64 * k), 1 / (48 * k)), renderSize: PixelSize(width: 256, height: 192), maxSide: nil, levels: levels)
        }
        XCTAssertEqual(shown(4), PixelSize(width: 256, height: 192))
        XCTAssertEqual(shown(0.5), PixelSize(width: 32, height: 24))
        XCTAssertEqual(shown(3, levels: true), PixelSize(width: 256, height: 192))
        XCTAssertEqual(shown(100), PixelSize(width: 512, height: 384))
        let probe = try ProbeReport(path: path("logo.svg"))
        XCTAssertEqual(probe.container, "svg (librsvg, drawn at the size it is shown)")
        XCTAssertEqual(probe.video?.codedWidth, 64)
        XCTAssertThrowsError(try VideoReader(path: try write("<svg nonsense", "bad.svg"))) { error in
            XCTAssertTrue("\(error)".contains("bad.svg") && "\(error)".contains("XML parse error"), "\(error)")
        }
        let noSize = try write(##"<svg xmlns="http://www.w3.org/2000/svg" width="100%"><rect width="10" height="10"/></svg>"##, "nosize.svg")
        XCTAssertThrowsError(try VideoReader(path: noSize)) { XCTAssertTrue("\($0)".contains("no size"), "\($0)") }
        // The input policy holds for the .svg itself: outside --root it is refused, over the picture limit too.
        try assertInputPolicyRefuses("logo.svg")
    }

    /// Against CairoSVG's PNG of the same document at the same size, composited over the same background.
    func testAgreesWithCairoSVGOverABackground() throws {
        let python = SchemaTests.venv + "/bin/python"
        guard (try? TestSupport.run(python, ["-c", "import cairosvg"]))?.status == 0 else {
            throw XCTSkip("no CairoSVG in \(SchemaTests.venv): run `make schema-venv`")
        }
        let svg = try write(Self.shapes, "logo.svg")
        let script = """
            import cairosvg, io, sys
            from PIL import Image
            png = cairosvg.svg2png(url=sys.argv[1], output_width=64, output_height=48)
            im = Image.open(io.BytesIO(png)).convert('RGBA')
            bg = (0x20, 0x60, 0xa0)
            out = bytearray()
            for r, g, b, a in im.getdata():
                out += bytes((c * a + k * (255 - a) + 127) // 255 for c, k in zip((r, g, b), bg))
            open(sys.argv[2], 'wb').write(out)
            """
        let r = try TestSupport.run(python, ["-c", script, svg, path("oracle.rgb")])
        XCTAssertEqual(r.status, 0, r.stderr)
        let oracle = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("oracle.rgb"))))
        let json = ##"{"renderSize": {"width": 64, "height": 48}, "fit": "fit", "frameRate": 10, "background": "#2060a0", "clips": [{"path": "logo.svg", "duration": 0.5}]}"##
        let cpu = try frame(json)
        XCTAssertEqual(oracle.count, 64 * 48 * 3)
        let db = PlaneDifference(rgb(cpu), oracle).psnr
        XCTAssertGreaterThanOrEqual(db, 35, "CPU against CairoSVG")
        print("SVG against CairoSVG: \(db) dB")
        // The same edit on the GPU.
        let gpu: GPURenderer
        do { gpu = try GPURenderer() } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
            throw XCTSkip("no EGL context: \(error)")
        }
        let gpuDB = PlaneDifference(rgb(try frame(json, renderer: gpu)), rgb(cpu)).psnr
        XCTAssertGreaterThanOrEqual(gpuDB, 45, "GPU against CPU")
        print("SVG GPU against CPU: \(gpuDB) dB")
    }

    /// A half-covered edge pixel of (200, 100, 50): over black (100, 50, 25), over white (227.5, 177.5, 152.5), within
    /// a few codes (alpha premultiplied twice would give 50 over black).
    func testAntialiasedEdgeAlphaIsAppliedOnce() throws {
        _ = try write(##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"><rect x="0" y="0" width="32.5" height="48" fill="#c86432"/></svg>"##, "edge.svg")
        for (background, expected) in [("#000000", [100.0, 50, 25]), ("#ffffff", [227.5, 177.5, 152.5])] {
            let image = try frame(##"{"renderSize": {"width": 64, "height": 48}, "fit": "fit", "frameRate": 10, "background": "\##(background)", "clips": [{"path": "edge.svg", "duration": 0.5}]}"##)
            let i = (20 * 64 + 32) * 4
            print("SVG half-covered edge over \(background): \(Array(image.pixels[i..<i + 3]))")
            for c in 0..<3 { XCTAssertEqual(Double(image.pixels[i + c]), expected[c], accuracy: 3, "\(background) channel \(c)") }
            XCTAssertEqual(Array(image.pixels[(20 * 64 + 10) * 4..<(20 * 64 + 10) * 4 + 3]), [200, 100, 50])
        }
    }

    /// Pixels of one row strictly between 10 % and 90 % of a white-on-black step: the edge's width.
    func edgeWidth(_ image: RGBAImage, row: Int) -> Int {
        (0..<image.width).filter { x in let v = Int(image.pixels[(row * image.width + x) * 4]); return v > 25 && v < 230 }.count
    }

    /// A 16×12 document shown 4× (fit to 64×48, then a keyframed scale growing to 1): crisp where a 16×12 PNG of it blurs.
    func testCrispAtFourTimesItsSizeUnderKeyframedScale() throws {
        let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="12"><rect x="0" y="0" width="8.3" height="12" fill="#ffffff"/></svg>"##
        _ = try write(svg, "edge.svg")
        func edit(_ name: String) -> String {
            ##"{"renderSize": {"width": 64, "height": 48}, "fit": "fit", "frameRate": 10, "background": "#000000", "tracks": [{"clips": [{"path": "\##(name)", "duration": 1, "layer": {"scale": {"keyframes": [{"time": 0, "value": 0.25}, {"time": 0.5, "value": 1}]}}}]}]}"##
        }
        let vector = try frame(edit("edge.svg"), 9)
        XCTAssertEqual(vector.pixels[(24 * 64 + 20) * 4], 255)
        XCTAssertEqual(vector.pixels[(24 * 64 + 50) * 4], 0)
        XCTAssertLessThanOrEqual(edgeWidth(vector, row: 24), 1, "the SVG's edge (at x = 33.2)")
        // The same picture as a 16×12 raster still, scaled up: its edge spreads over several pixels.
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=16x12:d=1,format=rgba,geq=r='if(lt(X,8),255,if(lt(X,9),77,0))':g='if(lt(X,8),255,if(lt(X,9),77,0))':b='if(lt(X,8),255,if(lt(X,9),77,0))':a=255", "-frames:v", "1", path("edge.png")])
        let raster = try frame(edit("edge.png"), 9)
        XCTAssertGreaterThanOrEqual(edgeWidth(raster, row: 24), 2, "a raster still's edge")
        print("SVG edge width at 4×: \(edgeWidth(vector, row: 24)) px; the PNG's: \(edgeWidth(raster, row: 24)) px")
    }

    /// `<image href="other.png">` and `file://` references beside the SVG are not loaded: nothing of the PNG shows.
    func testExternalReferencesAreNotLoaded() throws {
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=0x00ff00:s=64x48:d=1", "-frames:v", "1", path("other.png")])
        _ = try write("""
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="48">
            <image href="other.png" x="0" y="0" width="32" height="48"/>
            <image xlink:href="file://\(path("other.png"))" x="32" y="0" width="32" height="48"/>
            <rect x="0" y="40" width="64" height="8" fill="#ff0000"/>
            </svg>
            """, "refs.svg")
        let image = try frame(##"{"renderSize": {"width": 64, "height": 48}, "fit": "fit", "frameRate": 10, "background": "#000000", "clips": [{"path": "refs.svg", "duration": 0.5}]}"##)
        for y in 0..<38 {
            for x in 0..<64 { XCTAssertLessThanOrEqual(image.pixels[(y * 64 + x) * 4 + 1], 2, "green at (\(x), \(y)): the PNG was loaded") }
        }
        XCTAssertEqual(Array(image.pixels[(44 * 64 + 10) * 4..<(44 * 64 + 10) * 4 + 3]), [255, 0, 0], "the document itself is drawn")
    }

    /// An OpenTimelineIO media reference to an .svg file is an SVG item: drawn as the edit file's item is.
    func testOTIOMediaReferenceToAnSVG() throws {
        _ = try write(Self.shapes, "logo.svg")
        let otio = try write(#"""
            {"OTIO_SCHEMA": "Timeline.1", "tracks": {"OTIO_SCHEMA": "Stack.1", "children": [{"OTIO_SCHEMA": "Track.1", "kind": "Video", "children": [{"OTIO_SCHEMA": "Clip.1", "name": "logo", "source_range": {"OTIO_SCHEMA": "TimeRange.1", "start_time": {"OTIO_SCHEMA": "RationalTime.1", "value": 0, "rate": 10}, "duration": {"OTIO_SCHEMA": "RationalTime.1", "value": 5, "rate": 10}}, "media_reference": {"OTIO_SCHEMA": "ExternalReference.1", "target_url": "logo.svg"}}]}]}}
            """#, "logo.otio")
        let timeline = try RenderJob.resolve(try EditFile.load(path: otio))
        XCTAssertEqual(timeline.renderSize, PixelSize(width: 64, height: 48))
        let fromOTIO = try RenderJob.renderFrames(timeline, frames: [0], renderer: ReferenceRenderer()).images[0]
        let fromEdit = try frame(##"{"renderSize": {"width": 64, "height": 48}, "frameRate": 10, "clips": [{"path": "logo.svg", "duration": 0.5}]}"##)
        XCTAssertTrue(fromOTIO == fromEdit, "the OTIO clip is not drawn as the edit file's item")
        // With frame blending it is the same picture, drawn as asked (not the reader's 1×1 stand-in).
        for retime in [#""frameBlend": true"#] {
            let retimed = try frame(##"{"renderSize": {"width": 64, "height": 48}, "frameRate": 10, "clips": [{"path": "logo.svg", "duration": 0.5, "##
                                    + retime + "}]}", 2)
            XCTAssertTrue(retimed == fromEdit, "\(retime): not the picture the item draws without it")
        }
        XCTAssertEqual(Array(fromOTIO.pixels[(30 * 64 + 44) * 4..<(30 * 64 + 44) * 4 + 3]), [255, 208, 32], "the circle's centre")
    }
}
