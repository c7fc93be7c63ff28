import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// `clips[].colour` replaces a clip's colour tags (and the guesses for untagged clips): the colours that come out are
/// the ones the camera meant, checked against the RGB the clip was made from.
final class ColourOverrideTests: EndToEndTestCase {
    static let rgb = (r: 192, g: 48, b: 32)   // a saturated orange-red: matrix and range errors move it far

    /// A 1280×720 clip of one colour, converted to Y′CbCr with `matrix`/`range` by libswscale and written with the
    /// given tags (nil: untagged).
    func flatClip(_ name: String, matrix: String, range: String, tagMatrix: String?, tagRange: String?) throws -> String {
        let out = path(name)
        var args = ["-f", "lavfi", "-i", "color=c=0xC03020:s=1280x720:r=30:d=0.1",
                    "-vf", "scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv420p",
                    "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast"]
        if let m = tagMatrix { args += ["-colorspace", m] }
        if let r = tagRange { args += ["-color_range", r] }
        try TestSupport.ffmpeg(args + [out])
        return out
    }

    /// The output's centre pixel as R′G′B′, decoded by FFmpeg with the output's own BT.709 limited tags.
    func centreRGB(of clip: String, colour: ColourOverride?) throws -> (Int, Int, Int) {
        var c = ClipSpec(path: clip)
        c.colour = colour
        var edit = Edit(clips: [c])
        edit.renderSize = PixelSize(width: 64, height: 36)
        edit.output.codec = .ffv1
        let out = path("out-\(UUID().uuidString.prefix(6)).mkv")
        try render(edit, to: out, backend: .cpu, audio: false)
        let f = try TestSupport.decodeFrames(out, width: 64, height: 36, pixFmt: "rgb24")[0]
        let i = (18 * 64 + 32) * 3
        return (Int(f[i]), Int(f[i + 1]), Int(f[i + 2]))
    }

    func assertColour(_ c: (Int, Int, Int), near e: (r: Int, g: Int, b: Int), within tol: Int, _ label: String) {
        XCTAssertLessThanOrEqual(max(abs(c.0 - e.r), abs(c.1 - e.g), abs(c.2 - e.b)), tol, "\(label): got \(c), want \(e)")
    }
    func distance(_ c: (Int, Int, Int), _ e: (r: Int, g: Int, b: Int)) -> Int { max(abs(c.0 - e.r), abs(c.1 - e.g), abs(c.2 - e.b)) }

    /// An HD clip converted with BT.601 and left untagged (as some tools write it) is guessed BT.709 and comes out
    /// wrong; `"matrix": "bt601"` makes it right. A clip tagged BT.709 whose pixels are BT.601 likewise.
    func testMatrixOverride() throws {
        let untagged = try flatClip("untagged601.mp4", matrix: "bt601", range: "tv", tagMatrix: nil, tagRange: nil)
        let guessed = try centreRGB(of: untagged, colour: nil)
        XCTAssertGreaterThan(distance(guessed, Self.rgb), 10, "the BT.709 guess must be visibly wrong for this clip: \(guessed)")
        assertColour(try centreRGB(of: untagged, colour: ColourOverride(matrix: .bt601)), near: Self.rgb, within: 3, "untagged + bt601")
        let lying = try flatClip("lying709.mp4", matrix: "bt601", range: "tv", tagMatrix: "bt709", tagRange: "tv")
        XCTAssertGreaterThan(distance(try centreRGB(of: lying, colour: nil), Self.rgb), 10)
        assertColour(try centreRGB(of: lying, colour: ColourOverride(matrix: .bt601)), near: Self.rgb, within: 3, "tagged bt709, really bt601")
        // An override that repeats the truth changes nothing.
        let honest = try flatClip("honest709.mp4", matrix: "bt709", range: "tv", tagMatrix: "bt709", tagRange: "tv")
        XCTAssertEqual(distance(try centreRGB(of: honest, colour: nil), try centreRGB(of: honest, colour: ColourOverride(matrix: .bt709))), 0)
    }

    /// Full-range samples tagged limited (a phone that tags wrongly) come out with crushed blacks and clipped
    /// colours; `"range": "full"` makes them right.
    func testRangeOverride() throws {
        let wrong = try flatClip("fullTaggedLimited.mp4", matrix: "bt709", range: "pc", tagMatrix: "bt709", tagRange: "tv")
        XCTAssertGreaterThan(distance(try centreRGB(of: wrong, colour: nil), Self.rgb), 10)
        // The same samples correctly tagged are the reference: the override must give exactly what the tag gives.
        let right = try flatClip("fullTaggedFull.mp4", matrix: "bt709", range: "pc", tagMatrix: "bt709", tagRange: "pc")
        let reference = try centreRGB(of: right, colour: nil)
        assertColour(reference, near: Self.rgb, within: 5, "correctly tagged full range")
        XCTAssertEqual(distance(try centreRGB(of: wrong, colour: ColourOverride(range: .full)), (reference.0, reference.1, reference.2)), 0, "range full")
    }

    /// The edit file's `colour` field: parsed, checked (names the field), shown by `plan` and `probe`.
    func testEditFileAndReports() throws {
        let untagged = try flatClip("untagged601.mp4", matrix: "bt601", range: "tv", tagMatrix: nil, tagRange: nil)
        let edit = path("edit.json")
        try Data(#"{"clips": [{"path": "untagged601.mp4", "colour": {"matrix": "bt601", "range": "limited"}}]}"#.utf8).write(to: URL(fileURLWithPath: edit))
        let parsed = try EditFile.load(path: edit)
        XCTAssertEqual(parsed.clips[0].colour, ColourOverride(matrix: .bt601, range: .limited))
        let plan = try TestSupport.run(TestSupport.segueBinary, ["plan", edit])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.contains("colour BT.601 limited, SDR, BT.709 primaries (matrix, range from the edit)"), plan.text)
        let probe = try TestSupport.run(TestSupport.segueBinary, ["probe", untagged])
        XCTAssertTrue(probe.text.contains("colour used: matrix BT.709, range limited, primaries bt709, transfer sdr (guessed: matrix, range, transfer, primaries)"), probe.text)
        for (json, field, words) in [
            (#"{"clips": [{"path": "a.mp4", "colour": {"matrix": "bt2021"}}]}"#, "clips[0].colour.matrix", "bt601, bt709 or bt2020"),
            (#"{"clips": [{"path": "a.mp4", "colour": {"range": "studio"}}]}"#, "clips[0].colour.range", "limited or full"),
            (#"{"clips": [{"path": "a.mp4", "colour": {"transfer": "gamma22"}}]}"#, "clips[0].colour.transfer", "sdr, hlg or pq"),
            (#"{"clips": [{"path": "a.mp4", "colour": {"matrx": "bt601"}}]}"#, "clips[0].colour.matrx", "did you mean \"matrix\""),
        ] {
            XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: dir)) { e in
                XCTAssertEqual((e as? EditError)?.field, field)
                XCTAssertTrue("\(e)".contains(words), "\(e)")
            }
        }
    }
}
