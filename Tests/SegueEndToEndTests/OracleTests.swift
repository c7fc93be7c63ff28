import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// FFmpeg as an independent oracle: autorotation, crop, xfade.
final class OracleTests: EndToEndTestCase {
    /// Our output is BT.709 limited range; the generated sources are untagged SD (BT.601). Comparisons are made in
    /// Y′CbCr with the oracle's matrix change done explicitly: comparing in RGB instead would measure the CLI's default
    /// 4:2:0 → RGB chroma upsampling (which differs from ours at sharp colour edges), not the geometry under test.
    let to709 = TestSupport.bt601ToBT709

    /// Rewrites the first `tkhd` matrix of an MP4 (FFmpeg 5.1's CLI cannot write a mirrored display matrix).
    func setTrackMatrix(_ file: String, _ m: [Int32]) throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: file))
        guard let r = data.range(of: Data("tkhd".utf8)) else { return XCTFail("no tkhd box") }
        let version = data[r.upperBound]
        let offset = r.upperBound + (version == 1 ? 52 : 40)
        for (i, v) in m.enumerated() {
            let be = UInt32(bitPattern: v).bigEndian
            withUnsafeBytes(of: be) { data.replaceSubrange((offset + 4 * i)..<(offset + 4 * i + 4), with: $0) }
        }
        try data.write(to: URL(fileURLWithPath: file))
    }

    func testRotationMatchesFFmpegAutorotate() throws {
        let src = try cornerClip("corners.mp4")
        for degrees in [90, -90, 180] {
            let rotated = path("rot\(degrees).mp4")
            try TestSupport.rotated(src, degrees: degrees, to: rotated)
            var edit = Edit(clips: [clip(rotated)])
            edit.output.codec = .ffv1
            let out = path("seg\(degrees).mkv")
            let r = try render(edit, to: out, backend: .gpu, audio: false)
            let size = r.timeline.renderSize
            XCTAssertEqual(size, degrees == 180 ? PixelSize(width: 96, height: 64) : PixelSize(width: 64, height: 96))
            let ours = try TestSupport.decodeFrames(out, width: size.width, height: size.height)
            let oracle = try TestSupport.decodeFrames(rotated, width: size.width, height: size.height, filter: to709)
            TestSupport.assertYUVSequencesMatch(ours, oracle, width: size.width, height: size.height, minPSNR: 40, label: "rotation \(degrees) vs ffmpeg autorotate")
        }
    }

    func testMirroredMatrixMatchesHflip() throws {
        let src = try cornerClip("corners.mp4")
        let mirrored = path("mirrored.mp4")
        try FileManager.default.copyItem(atPath: src, toPath: mirrored)
        // a = -1, d = 1: a horizontal mirror (negative determinant). FFmpeg 5.1 ignores the flip when it
        // autorotates, so the oracle is the stored picture passed through hflip.
        try setTrackMatrix(mirrored, [-65536, 0, 0, 0, 65536, 0, 96 << 16, 0, 1 << 30])
        var edit = Edit(clips: [clip(mirrored)])
        edit.output.codec = .ffv1
        let out = path("mirror.mkv")
        try render(edit, to: out, backend: .gpu, audio: false)
        let ours = try TestSupport.decodeFrames(out, width: 96, height: 64)
        let oracle = try TestSupport.decodeFrames(mirrored, width: 96, height: 64, filter: "hflip," + to709, autorotate: false)
        TestSupport.assertYUVSequencesMatch(ours, oracle, width: 96, height: 64, minPSNR: 40, label: "mirrored matrix vs hflip")
        // And it is not the unflipped picture.
        let plain = try TestSupport.decodeFrames(mirrored, width: 96, height: 64, filter: to709, autorotate: false)
        XCTAssertLessThan(PlaneDifference(ours[0], plain[0]).psnr, 25)
    }

    func testSquareCropMatchesFFmpegCrop() throws {
        let src = try cornerClip("wide.mp4", size: "192x108")
        var edit = Edit(clips: [clip(src)])
        edit.square = true
        edit.output.codec = .ffv1
        let out = path("square.mkv")
        for backend in [Backend.gpu, .cpu] {
            let r = try render(edit, to: out, backend: backend, audio: false)
            XCTAssertEqual(r.timeline.renderSize, PixelSize(width: 108, height: 108))
            let ours = try TestSupport.decodeFrames(out, width: 108, height: 108)
            let oracle = try TestSupport.decodeFrames(src, width: 108, height: 108, filter: "crop=108:108," + to709)
            TestSupport.assertYUVSequencesMatch(ours, oracle, width: 108, height: 108, minPSNR: 40, label: "\(backend) square crop vs ffmpeg crop")
        }
    }

    func testCrossfadeMidpointMatchesXfade() throws {
        let a = path("a.mp4"), b = path("b.mp4")
        try TestSupport.makeClip(a, video: "testsrc2=s=128x96:r=30:d=2")
        try TestSupport.makeClip(b, video: "smptebars=s=128x96:r=30:d=2")
        var edit = Edit(clips: [clip(a), clip(b, tr(.crossfade, 1))])
        edit.output.codec = .ffv1
        let out = path("xf.mkv")
        try render(edit, to: out, backend: .gpu, audio: false)
        let ours = try TestSupport.decodeFrames(out, width: 128, height: 96)
        // FFmpeg's xfade runs its progress 1 → 0; at the midpoint both agree on p = 0.5.
        let oracle = path("xfade.mkv")
        // xfade (5.1) works in yuv444p: the chroma goes up and back down with nearest-neighbour scaling, so that
        // the oracle keeps each 2×2 block's chroma sample as Segue does instead of smearing colour edges.
        let to444 = "scale=flags=neighbor,format=yuv444p"
        try TestSupport.ffmpeg(["-i", a, "-i", b, "-filter_complex",
                                "[0:v]\(to444)[a];[1:v]\(to444)[b];[a][b]xfade=transition=fade:duration=1:offset=1,scale=flags=neighbor,format=yuv420p",
                                "-c:v", "ffv1", oracle])
        let ref = try TestSupport.decodeFrames(oracle, width: 128, height: 96, filter: to709)
        XCTAssertEqual(ours.count, 90)
        XCTAssertEqual(ref.count, 90)
        // Frame 45 is t = 1.5 s: p = 0.5.
        TestSupport.assertYUVSequencesMatch([ours[45]], [ref[45]], width: 128, height: 96, minPSNR: 40, label: "crossfade midpoint vs xfade")
        // Outside the transition both show one clip.
        TestSupport.assertYUVSequencesMatch([ours[10], ours[80]], [ref[10], ref[80]], width: 128, height: 96, minPSNR: 40, label: "outside the transition vs xfade")
    }
}
