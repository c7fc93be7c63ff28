import XCTest
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SeguePipeline
import SegueReference
import SegueTestSupport

/// Still pictures as clips (issue 12): JPEG, PNG, WebP, TIFF and HEIC are clips whose `duration` is how long they
/// show; EXIF orientation is applied as a display matrix is; alpha is composited over the edit's background.
final class StillImageTests: EndToEndTestCase {
    /// The renderers to check: the CPU reference, and the GPU where an EGL context can be made (in CI it must).
    func renderers() throws -> [CompositeRenderer] {
        var list: [CompositeRenderer] = [ReferenceRenderer()]
        do { list.append(try GPURenderer()) } catch {
            if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(error)") }
        }
        return list
    }

    /// A 96×64 picture with four differently coloured corners (TL red, TR lime, BL blue, BR white) over a gradient,
    /// so that every one of the eight orientations looks different.
    func cornerPicture(_ name: String, codec: [String] = [], format: String = "yuv444p") throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "gradients=s=96x64:c0=0x404040:c1=0xA0A0A0:x0=0:y0=0:x1=96:y1=64:d=1:r=1,format=\(format),"
                                + "drawbox=x=0:y=0:w=32:h=32:color=red:t=fill,drawbox=x=64:y=0:w=32:h=32:color=lime:t=fill,"
                                + "drawbox=x=0:y=32:w=32:h=32:color=blue:t=fill,drawbox=x=64:y=32:w=32:h=32:color=white:t=fill",
                                "-frames:v", "1"] + codec + [p])
        return p
    }

    /// Writes EXIF orientation `value` into a copy of `source` with exiftool (libimage-exiftool-perl).
    func oriented(_ source: String, _ value: Int, as name: String) throws -> String {
        try oriented(source, value...value) { _ in name }[value]!
    }

    /// Copies of `source`, one for each EXIF orientation value, named by `name(value)`, written in one exiftool run
    /// (libimage-exiftool-perl; `-execute` between the files: Perl starts once, not once per file).
    func oriented(_ source: String, _ values: ClosedRange<Int>, as name: (Int) -> String) throws -> [Int: String] {
        var files: [Int: String] = [:], args: [String] = []
        for v in values {
            let p = path(name(v))
            try FileManager.default.copyItem(atPath: source, toPath: p)
            files[v] = p
            args += (args.isEmpty ? [] : ["-execute"]) + ["-Orientation=\(v)", p]
        }
        let r = try TestSupport.run("exiftool", args + ["-common_args", "-q", "-overwrite_original", "-n"])
        XCTAssertEqual(r.status, 0, "exiftool: \(r.stderr)")
        return files
    }

    /// The frame at `n` of an edit of `clips`, rendered as R′G′B′A by `renderer`.
    func frame(_ clips: [ClipSpec], size: PixelSize, n: Int64 = 0, background: RGBColour = .black, fit: FitMode = .fill,
               renderer: CompositeRenderer) throws -> RGBAImage {
        var edit = Edit(clips: clips)
        edit.renderSize = size
        edit.background = background
        edit.fit = fit
        let timeline = try RenderJob.resolve(edit)
        return try RenderJob.renderFrames(timeline, frames: [n], renderer: renderer).images[0]
    }

    /// FFmpeg's own picture of `file` after `filter` (the oracle), as RGBA.
    static func reference(_ file: String, filter: String, width: Int, height: Int) throws -> [UInt8] {
        try TestSupport.decodeFrames(file, width: width, height: height, pixFmt: "rgba", filter: filter + ",format=rgba")[0]
    }

    /// What each EXIF orientation means, as FFmpeg filters on the stored picture.
    static let orientationFilters = [1: "null", 2: "hflip", 3: "hflip,vflip", 4: "vflip", 5: "transpose=cclock_flip",
                                     6: "transpose=clock", 7: "transpose=clock_flip", 8: "transpose=cclock"]

    func testEveryExifOrientationMatchesARotatedReference() throws {
        // 4:4:4 (identical to FFmpeg's conversion) and 4:2:0, as phones write JPEGs (chroma upsampled differently).
        for (format, minimum) in [("yuv444p", 50.0), ("yuv420p", 45.0)] {
            try checkEveryOrientation(format: format, minimum: minimum)
        }
    }

    func checkEveryOrientation(format: String, minimum: Double) throws {
        let base = try cornerPicture("base-\(format).jpg", codec: ["-q:v", "2"], format: format)
        // FFmpeg's eight pictures, two FFmpeg processes at a time.
        let filters = StillImageTests.orientationFilters.sorted { $0.key < $1.key }
        let pictures = try TestSupport.concurrentMap(filters) { v, f in
            try Self.reference(base, filter: f, width: v >= 5 ? 64 : 96, height: v >= 5 ? 96 : 64)
        }
        let references = Dictionary(uniqueKeysWithValues: zip(filters.map(\.key), pictures))
        let photos = try oriented(base, 1...8) { "o\($0)-\(format).jpg" }
        for v in 1...8 { XCTAssertEqual(try probeSource(path: photos[v]!).exifOrientation, v) }
        for renderer in try renderers() {
            for v in 1...8 {
                let photo = photos[v]!
                let quarter = v >= 5
                let size = PixelSize(width: quarter ? 64 : 96, height: quarter ? 96 : 64)
                let image = try frame([clip(photo)], size: size, renderer: renderer)
                let right = PlaneDifference(image.pixels, references[v]!).psnr
                print("EXIF orientation \(v), \(format) JPEG, on \(renderer.name.prefix(3)): \(String(format: "%.2f", right)) dB against FFmpeg's \(StillImageTests.orientationFilters[v]!)")
                XCTAssertGreaterThanOrEqual(right, minimum, "orientation \(v) of a \(format) JPEG on \(renderer.name)")
                // Every other orientation of the same shape is far off: the test tells them apart.
                for (w, other) in references where w != v && (w >= 5) == quarter {
                    XCTAssertLessThan(PlaneDifference(image.pixels, other).psnr, 20, "orientation \(v) looks like \(w)")
                }
            }
        }
    }

    func testPNGWebPAndTIFFCarryTheirOrientationToo() throws {
        // PNG: eXIf chunk (libexif); WebP: EXIF chunk (FFmpeg); TIFF: its own Orientation tag (libtiff).
        for (ext, codec, v) in [("png", [String](), 5), ("webp", ["-c:v", "libwebp", "-lossless", "1"], 7), ("tiff", [], 8)] {
            let base = try cornerPicture("base.\(ext)", codec: codec)
            let photo = try oriented(base, v, as: "o\(v).\(ext)")
            let report = try ProbeReport(path: photo)
            XCTAssertEqual(report.video?.exifOrientation, v, ext)
            XCTAssertEqual(report.video?.still, true, ext)
            XCTAssertTrue(report.text.contains("EXIF orientation \(v)"), report.text)
            let image = try frame([clip(photo)], size: PixelSize(width: 64, height: 96), renderer: ReferenceRenderer())
            let psnr = PlaneDifference(image.pixels, try Self.reference(base, filter: StillImageTests.orientationFilters[v]!, width: 64, height: 96)).psnr
            print("\(ext) orientation \(v): \(String(format: "%.2f", psnr)) dB")
            XCTAssertGreaterThanOrEqual(psnr, 30, ext)
        }
    }

    /// A 16×16 PNG (or lossless WebP) whose every pixel is R′G′B′ (200, 100, 50) at alpha 128.
    func halfTransparent(_ name: String, codec: [String] = []) throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=16x16:d=1:r=1,format=rgba,geq=r=200:g=100:b=50:a=128",
                                "-frames:v", "1"] + codec + [p])
        return p
    }

    func testAlphaIsCompositedOverTheBackground() throws {
        // Straight alpha "over" in 8 bits: round((c·a + bg·(255 − a)) / 255).
        // Over black: 200·128/255 = 100.4 → 100, 50.2 → 50, 25.1 → 25. Over white: 227.4 → 227, 177.2 → 177, 152.1 → 152.
        let png = try halfTransparent("half.png"), webp = try halfTransparent("half.webp", codec: ["-c:v", "libwebp", "-lossless", "1"])
        XCTAssertTrue(try probeSource(path: png).hasAlpha)
        for renderer in try renderers() {
            for picture in [png, webp] {
                for (bg, expected) in [(RGBColour.black, (100, 50, 25)), (RGBColour.white, (227, 177, 152)), (RGBColour(r: 0, g: 0, b: 255), (100, 50, 152))] {
                    // 16×16 fitted into 32×16: 8-pixel bars of the background either side.
                    let image = try frame([clip(picture)], size: PixelSize(width: 32, height: 16), background: bg, fit: .fit, renderer: renderer)
                    let p = image.pixel(16, 8)
                    XCTAssertEqual([Int(p.0), Int(p.1), Int(p.2)], [expected.0, expected.1, expected.2], "\(picture) over \(bg) on \(renderer.name)")
                    let bar = image.pixel(2, 8)
                    XCTAssertEqual([bar.0, bar.1, bar.2], [bg.r, bg.g, bg.b], "letterbox bar on \(renderer.name)")
                }
            }
        }
        // An opaque picture is untouched by the background.
        let opaque = try cornerPicture("opaque.png")
        XCTAssertFalse(try probeSource(path: opaque).hasAlpha)
        let black = try frame([clip(opaque)], size: PixelSize(width: 96, height: 64), renderer: ReferenceRenderer())
        let white = try frame([clip(opaque)], size: PixelSize(width: 96, height: 64), background: .white, renderer: ReferenceRenderer())
        XCTAssertEqual(black, white)
    }

    func testHEICIsReadWithLibheifWithItsTransformations() throws {
        // A plain HEIC from heif-enc (libheif-examples) shows like the PNG it was made from (lossy HEVC: ≥ 30 dB).
        let png = try cornerPicture("corners.png")
        let heic = path("corners.heic")
        let r = try TestSupport.run("heif-enc", ["-q", "95", png, "-o", heic])
        XCTAssertEqual(r.status, 0, r.stderr)
        let report = try ProbeReport(path: heic)
        XCTAssertEqual(report.video?.still, true)
        XCTAssertTrue(report.container.contains("image/heic"), report.container)
        XCTAssertEqual(report.video?.displayWidth, 96)
        let source = try Self.reference(png, filter: "null", width: 96, height: 64)
        for renderer in try renderers() {
            let image = try frame([clip(heic)], size: PixelSize(width: 96, height: 64), renderer: renderer)
            let psnr = PlaneDifference(image.pixels, source).psnr
            print("HEIC on \(renderer.name): \(String(format: "%.2f", psnr)) dB against the source PNG")
            XCTAssertGreaterThanOrEqual(psnr, 30)
        }
        // HEIF with alpha (heif-enc keeps the PNG's alpha as an auxiliary image): composited like a PNG's, within the
        // lossy coding's error; and a 10-bit HEIC (from a 16-bit PNG) decodes too.
        let halfHEIC = path("half.heic")
        XCTAssertEqual(try TestSupport.run("heif-enc", ["-q", "95", try halfTransparent("half.png"), "-o", halfHEIC]).status, 0)
        XCTAssertTrue(try probeSource(path: halfHEIC).hasAlpha)
        let p = try frame([clip(halfHEIC)], size: PixelSize(width: 16, height: 16), background: .white, renderer: ReferenceRenderer()).pixel(8, 8)
        for (got, want) in zip([p.0, p.1, p.2], [227, 177, 152]) { XCTAssertEqual(Double(got), Double(want), accuracy: 4, "HEIC alpha over white: \(p)") }
        // The same pixel stored premultiplied (100, 50, 25 at alpha 128) and flagged so: divided back, then composited.
        let pre = path("pre.png"), preHEIC = path("pre.heic")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=16x16:d=1:r=1,format=rgba,geq=r=100:g=50:b=25:a=128", "-frames:v", "1", pre])
        XCTAssertEqual(try TestSupport.run("heif-enc", ["-q", "95", "--premultiplied-alpha", pre, "-o", preHEIC]).status, 0)
        let q = try frame([clip(preHEIC)], size: PixelSize(width: 16, height: 16), background: .white, renderer: ReferenceRenderer()).pixel(8, 8)
        for (got, want) in zip([q.0, q.1, q.2], [227, 177, 152]) { XCTAssertEqual(Double(got), Double(want), accuracy: 4, "premultiplied HEIC over white: \(q)") }
        let deep = path("deep.heic"), png16 = path("corners16.png")
        try TestSupport.ffmpeg(["-i", png, "-pix_fmt", "rgb48be", png16])
        XCTAssertEqual(try TestSupport.run("heif-enc", ["-b", "10", "-q", "95", png16, "-o", deep]).status, 0)
        XCTAssertTrue(try ProbeReport(path: deep).text.contains("from 10-bit"))
        let deepPSNR = PlaneDifference(try frame([clip(deep)], size: PixelSize(width: 96, height: 64), renderer: ReferenceRenderer()).pixels, source).psnr
        print("10-bit HEIC: \(String(format: "%.2f", deepPSNR)) dB against the source PNG")
        XCTAssertGreaterThanOrEqual(deepPSNR, 30)
        // HEIF's own irot/imir: written with libheif (heif-enc 1.15 cannot), applied by libheif when decoding.
        let image = try StillImage.readPNG(png)
        for v in [6, 7, 2] {
            let turned = path("o\(v).heic")
            try StillImage.writeHEIC(image, to: turned, orientation: v, quality: 95)
            let quarter = v >= 5
            let size = PixelSize(width: quarter ? 64 : 96, height: quarter ? 96 : 64)
            XCTAssertEqual(try probeSource(path: turned).displaySize, size)
            let shown = try frame([clip(turned)], size: size, renderer: ReferenceRenderer())
            let psnr = PlaneDifference(shown.pixels, try Self.reference(png, filter: StillImageTests.orientationFilters[v]!, width: size.width, height: size.height)).psnr
            print("HEIC irot/imir for orientation \(v): \(String(format: "%.2f", psnr)) dB")
            XCTAssertGreaterThanOrEqual(psnr, 30, "HEIF orientation \(v)")
        }
    }

    func testDurationsStartAndTransitions() throws {
        let photo = try cornerPicture("p.jpg"), png = try cornerPicture("p.png")
        try TestSupport.makeClip(path("v.mp4"), video: "testsrc2=s=96x64:r=25:d=2", audio: "sine=f=440:d=2:r=48000")
        func timeline(_ clips: [ClipSpec]) throws -> Timeline {
            var e = Edit(clips: clips)
            e.renderSize = PixelSize(width: 96, height: 64)
            return try RenderJob.resolve(e)
        }
        // Default 4 s; no frame rate of its own: an edit of stills alone runs at 30 fps.
        let alone = try timeline([clip(photo)])
        XCTAssertEqual(alone.duration, MediaTime(value: 4, timescale: 1))
        XCTAssertEqual(alone.frameCount, 120)
        XCTAssertEqual(alone.frameRate, FrameRate(30))
        // With a video the video's rate wins (25), and the still shows exactly its duration.
        let mixed = try timeline([clip(photo, duration: 2.5), clip(path("v.mp4"), tr(.crossfade, 1)), clip(png, tr(.push, 0.5, .left), duration: 1.5)])
        XCTAssertEqual(mixed.frameRate, FrameRate(25))
        // T = 0, 1.5, 3; 2.5 + 2 + 1.5 − 1 − 0.5 = 4.5 s → 112.5 → 113 frames (rounded to the nearest).
        XCTAssertEqual(mixed.duration, MediaTime(seconds: 4.5))
        XCTAssertEqual(mixed.frameCount, 113)
        XCTAssertEqual(mixed.transitionFrames(into: 1), 38..<63)   // 1.5 s … 2.5 s at 25 fps
        XCTAssertEqual(mixed.transitionFrames(into: 2), 75..<88)   // 3 s … 3.5 s
        XCTAssertEqual(mixed.plan(frame: 50).progress, 0.5, accuracy: 1e-9)
        XCTAssertEqual(mixed.plan(frame: 80).progress, 0.4, accuracy: 1e-9)
        XCTAssertEqual(mixed.plan(frame: 80).to?.clipIndex, 2)
        // A still can be longer than any video: a 60 s photo is fine.
        XCTAssertEqual(try timeline([clip(photo, duration: 60)]).frameCount, 1800)
        // start makes no sense for a still.
        XCTAssertThrowsError(try timeline([clip(photo, start: 1)])) { e in
            let message = "\(e)"
            XCTAssertTrue(message.contains("clips[0].start") && message.contains("still picture"), message)
        }
        // A transition longer than the still is refused as for video.
        XCTAssertThrowsError(try timeline([clip(photo, duration: 0.5), clip(png, tr(.crossfade, 1))])) { e in
            XCTAssertTrue("\(e)".contains("clips[1].transition.duration"), "\(e)")
        }
        // On the command line: exit 2, naming the field.
        let edit = path("start.json")
        try Data(#"{"clips": [{"path": "p.jpg", "start": 1}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        let r = try TestSupport.run(TestSupport.segueBinary, ["render", edit, "-o", path("out.mp4")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("clips[0].start") && r.stderr.contains("still picture"), r.stderr)
        // `plan` says what a still is.
        let plan = TimelineReport(mixed).text
        XCTAssertTrue(plan.contains("clip 0 [A] p.jpg: still, shown 2.500 s → timeline 0.000–2.500 s, frames 0–62"), plan)
    }
}

extension StillImage {
    /// Reads a PNG (or any picture FFmpeg decodes) as RGBA, for tests.
    static func readPNG(_ path: String) throws -> RGBAImage {
        try VideoReader(path: path).frame(at: .zero)
    }
}
