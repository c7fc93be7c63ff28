import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// The colour functions and blend modes against a browser (issue 35): headless Chromium draws CSS `filter:
/// brightness() contrast() saturate() hue-rotate()` on one picture and `mix-blend-mode` of a second over it, every case
/// a tile of one page and one screenshot (one browser launch); each tile against Segue's render of the same two PNG
/// pictures, R′G′B′ PSNR ≥ 40 dB. Chromium (Debian's `chromium`, in the Makefile's DEB_PACKAGES) composites in sRGB
/// (`--force-color-profile=srgb`) as Segue blends and filters R′G′B′; `add` is CSS's `plus-lighter` (`min(1, Cb + Cs)`
/// over an opaque backdrop).
final class BrowserOracleTests: EndToEndTestCase {
    static let tile = PixelSize(width: 96, height: 64)
    static let columns = 6

    /// The filter cases: CSS `filter` and the same as Segue's colour effect (brightness, contrast, saturation, hue,
    /// which apply in the order CSS lists them here).
    static let filters: [(css: String, b: Double, k: Double, s: Double, h: Double)] = [
        ("brightness(1.4)", 1.4, 1, 1, 0), ("brightness(0.6)", 0.6, 1, 1, 0), ("contrast(1.6)", 1, 1.6, 1, 0), ("contrast(0.4)", 1, 0.4, 1, 0),
        ("saturate(0.3)", 1, 1, 0.3, 0), ("saturate(2)", 1, 1, 2, 0), ("hue-rotate(120deg)", 1, 1, 1, 120),
        ("brightness(0.8) contrast(1.3) saturate(1.5) hue-rotate(-45deg)", 0.8, 1.3, 1.5, -45),
        ("brightness(1.2) contrast(0.7) saturate(0.5) hue-rotate(200deg)", 1.2, 0.7, 0.5, 200),
    ]

    /// The two pictures (tile-sized PNGs, no colour chunks: sRGB to the browser): four-colour gradients with flat
    /// patches and a grey ramp (the backdrop, and the filters' picture), and testsrc2 (the source blended over it).
    func pictures() throws -> (backdrop: String, source: String) {
        let (w, h) = (BrowserOracleTests.tile.width, BrowserOracleTests.tile.height)
        let backdrop = path("a.png"), source = path("b.png")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=\(w)x\(h):c0=0xff5020:c1=0x2070ff:c2=0x40d060:c3=0xffe040:nb_colors=4:seed=3,format=rgb24",
                                "-vf", "drawbox=x=8:y=8:w=20:h=20:c=0xe0b090:t=fill,drawbox=x=38:y=8:w=20:h=20:c=0xc02030:t=fill,drawbox=x=68:y=8:w=20:h=20:c=0xffffff:t=fill,drawbox=x=0:y=\(h - 12):w=\(w):h=12:c=0x000000:t=fill,drawgrid=w=8:h=12:t=8:c=0x808080@0.6",
                                "-frames:v", "1", backdrop])
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=\(w)x\(h),format=rgb24", "-frames:v", "1", source])
        return (backdrop, source)
    }

    /// Segue's frame 0 of `tracks` (each a list of one item), RGBA, on `backend`.
    func segue(_ items: [ClipSpec], backend: Backend) throws -> [UInt8] {
        var edit = Edit(tracks: items.map { var c = $0; c.duration = MediaTime(seconds: 1); return VideoTrack(clips: [c]) })
        edit.renderSize = BrowserOracleTests.tile
        return try renderedFrames(edit, [0], backend: backend)[0].pixels
    }

    /// R′G′B′ PSNR of two RGBA pictures.
    func rgbPSNR(_ a: [UInt8], _ b: [UInt8]) -> Double {
        let rgb = { (p: [UInt8]) in p.enumerated().filter { $0.offset % 4 != 3 }.map(\.element) }
        return PlaneDifference(rgb(a), rgb(b)).psnr
    }

    /// Every blend mode (17: `add` as `plus-lighter`) and nine filter combinations, drawn by Chromium in one
    /// screenshot, each tile ≥ 40 dB from Segue's CPU and GPU renders.
    func testFiltersAndBlendModesMatchChromium() throws {
        let browser = try chromium()
        let (backdrop, source) = try pictures()
        let tile = BrowserOracleTests.tile, columns = BrowserOracleTests.columns
        enum Case { case blend(BlendMode), filter(Int) }
        let cases = BlendMode.allCases.map(Case.blend) + BrowserOracleTests.filters.indices.map(Case.filter)
        let rows = (cases.count + columns - 1) / columns
        var html = "<!doctype html><html><head><style>html,body{margin:0;background:#000}div{position:absolute;isolation:isolate;width:\(tile.width)px;height:\(tile.height)px}img{position:absolute;left:0;top:0;display:block}</style></head><body>"
        for (k, c) in cases.enumerated() {
            let place = "left:\((k % columns) * tile.width)px;top:\((k / columns) * tile.height)px"
            switch c {
            case .blend(let m):
                let css = m == .add ? "plus-lighter" : m.rawValue
                html += "<div style=\"\(place)\"><img src=\"a.png\"><img src=\"b.png\" style=\"mix-blend-mode:\(css)\"></div>"
            case .filter(let f):
                html += "<div style=\"\(place)\"><img src=\"a.png\" style=\"filter:\(BrowserOracleTests.filters[f].css)\"></div>"
            }
        }
        html += "</body></html>"
        try html.write(toFile: path("page.html"), atomically: true, encoding: .utf8)
        let (width, height) = (columns * tile.width, rows * tile.height)
        let shot = path("shot.png")
        let r = try TestSupport.run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--force-color-profile=srgb", "--force-device-scale-factor=1",
                                              "--hide-scrollbars", "--user-data-dir=\(path("profile"))", "--screenshot=\(shot)",
                                              "--window-size=\(width),\(height)", "file://\(path("page.html"))"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let page = try XCTUnwrap(TestSupport.decodeFrames(shot, width: width, height: height, pixFmt: "rgba").first)
        func cut(_ k: Int) -> [UInt8] {
            let (x0, y0) = ((k % columns) * tile.width, (k / columns) * tile.height)
            var out: [UInt8] = []
            for y in y0..<(y0 + tile.height) { out += page[((y * width + x0) * 4)..<((y * width + x0 + tile.width) * 4)] }
            return out
        }
        // The browser drew each case: a tile is neither picture as it is (but `normal`, the source itself).
        let plain = try [backdrop, source].map { try XCTUnwrap(TestSupport.decodeFrames($0, width: tile.width, height: tile.height, pixFmt: "rgba").first) }
        for (k, c) in cases.enumerated() {
            if case .blend(.normal) = c { XCTAssertGreaterThan(rgbPSNR(cut(k), plain[1]), 60, "normal is the source"); continue }
            XCTAssertLessThan(plain.map { rgbPSNR(cut(k), $0) }.max()!, 35, "case \(k) is drawn")
        }
        var worst = Double.infinity
        for backend in [Backend.cpu, .gpu] {
            for (k, c) in cases.enumerated() {
                let ours: [UInt8], label: String
                switch c {
                case .blend(let m):
                    var top = ClipSpec(path: source)
                    top.layer.blend = m
                    ours = try segue([ClipSpec(path: backdrop), top], backend: backend)
                    label = "blend \(m.rawValue)"
                case .filter(let f):
                    let spec = BrowserOracleTests.filters[f]
                    var effect = ColourEffect()
                    effect.brightness = .constant(spec.b); effect.contrast = .constant(spec.k); effect.saturation = .constant(spec.s); effect.hue = .constant(spec.h)
                    var item = ClipSpec(path: backdrop)
                    item.effects = [.colour(effect)]
                    ours = try segue([item], backend: backend)
                    label = "filter: \(spec.css)"
                }
                let p = rgbPSNR(ours, cut(k))
                worst = min(worst, p)
                print("\(label) on \(backend): \(String(format: "%.2f", p)) dB against Chromium")
                XCTAssertGreaterThanOrEqual(p, 40, "\(label) on \(backend)")
            }
        }
        print("worst: \(String(format: "%.2f", worst)) dB")
    }
}
