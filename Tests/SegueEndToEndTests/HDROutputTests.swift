import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// HDR output (`output.dynamicRange` "hlg" / "pq"): what is written (10-bit BT.2020, HEVC Main 10, tags, PQ's
/// metadata), an HLG clip through an HLG edit against its own source, SDR white at BT.2408's reference white.
final class HDROutputTests: EndToEndTestCase {
    func hlgBars() throws -> String {
        let bars = path("hlg-bars.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=192x108:r=30:d=0.5",
                                "-vf", "zscale=tin=bt709:t=arib-std-b67:pin=bt709:p=bt2020:min=bt709:m=bt2020nc:rin=tv:r=tv:npl=100,format=yuv420p10le",
                                "-c:v", "ffv1"] + HDRTests.hlgTags + [bars])
        return bars
    }

    func edit(_ clips: [ClipSpec], _ range: DynamicRange, ffv1: Bool = true) -> Edit {
        var e = Edit(clips: clips)
        e.output.dynamicRange = range
        if ffv1 { e.output.codec = .ffv1 }
        return e
    }

    func testHLGClipThroughAnHLGEditKeepsItsSource() throws {
        let bars = try hlgBars()
        let source = try TestSupport.decodeFrames(bars, width: 192, height: 108, pixFmt: "yuv420p10le")
        XCTAssertEqual(source.count, 15)
        for backend in [Backend.gpu, .cpu] {
            let out = path("hlg-\(backend).mkv")
            try render(edit([clip(bars)], .hlg), to: out, backend: backend, audio: false)
            let tags = try TestSupport.ffprobe(out, "stream=pix_fmt,color_transfer,color_primaries,color_space,color_range")
            XCTAssertEqual(tags["pix_fmt"], "yuv420p10le")
            XCTAssertEqual(tags["color_transfer"], "arib-std-b67")
            XCTAssertEqual(tags["color_primaries"], "bt2020")
            XCTAssertEqual(tags["color_space"], "bt2020nc")
            XCTAssertEqual(tags["color_range"], "tv")
            let ours = try TestSupport.decodeFrames(out, width: 192, height: 108, pixFmt: "yuv420p10le")
            TestSupport.assertYUVSequencesMatch(ours, source, width: 192, height: 108, minPSNR: 45, bitDepth: 10, label: "\(backend): HLG through HLG vs its source")
        }
        // HEVC Main 10 in MP4 (libx265, CRF 18), tagged; within the lossy encode of its source.
        let mp4 = path("hlg.mp4")
        let r = try render(edit([clip(bars)], .hlg, ffv1: false), to: mp4, backend: .gpu, audio: false)
        XCTAssertEqual(r.frames, 15)
        let tags = try TestSupport.ffprobe(mp4, "stream=codec_name,profile,codec_tag_string,pix_fmt,color_transfer,color_primaries,color_space")
        XCTAssertEqual(tags["codec_name"], "hevc")
        XCTAssertEqual(tags["profile"], "Main 10")
        XCTAssertEqual(tags["codec_tag_string"], "hvc1")
        XCTAssertEqual(tags["pix_fmt"], "yuv420p10le")
        XCTAssertEqual(tags["color_transfer"], "arib-std-b67")
        XCTAssertEqual(tags["color_primaries"], "bt2020")
        XCTAssertEqual(tags["color_space"], "bt2020nc")
        let encoded = try TestSupport.decodeFrames(mp4, width: 192, height: 108, pixFmt: "yuv420p10le")
        TestSupport.assertYUVSequencesMatch(encoded, source, width: 192, height: 108, minPSNR: 40, bitDepth: 10, label: "HLG through HLG, libx265")
    }

    func testIPhoneClipThroughAnHLGEditKeepsItsSource() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let clip = "\(media)/iphone14pro_hevc10_hlg_dolbyvision_rot-90.mov"
        let out = path("iphone-hlg.mkv")
        try render(edit([self.clip(clip)], .hlg), to: out, backend: .gpu, audio: false)
        let ours = try TestSupport.decodeFrames(out, width: 720, height: 1280, pixFmt: "yuv420p10le")
        // FFmpeg's autorotated decode of the same first three pictures: the quarter turn is exact, so are the samples.
        let source = Array(try TestSupport.decodeFrames(clip, width: 720, height: 1280, pixFmt: "yuv420p10le").prefix(3))
        TestSupport.assertYUVSequencesMatch(ours, source, width: 720, height: 1280, minPSNR: 45, bitDepth: 10, label: "iPhone HLG through HLG vs its source")
    }

    func testSDRWhiteInAnHDREditIsReferenceWhite() throws {
        let white = path("white.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=white:s=64x32:r=10:d=0.3,format=yuv420p", "-c:v", "ffv1", white])
        for (range, code) in [(DynamicRange.hlg, 721), (.pq, 573)] {
            let out = path("white-\(range).mkv")
            try render(edit([clip(white)], range), to: out, backend: .gpu, audio: false)
            let f = try XCTUnwrap(try TestSupport.decodeFrames(out, width: 64, height: 32, pixFmt: "yuv420p10le").first)
            let y = Int(f[2 * 100]) | Int(f[2 * 100 + 1]) << 8, cb = Int(f[2 * 64 * 32]) | Int(f[2 * 64 * 32 + 1]) << 8
            XCTAssertEqual(y, code, "\(range): SDR white at BT.2408's reference white (203 cd/m²)")
            XCTAssertEqual(cb, 512)
        }
    }

    func testPQOutputCarriesItsMetadata() throws {
        let bars = try hlgBars()
        let white = path("white.mp4")
        try TestSupport.makeClip(white, video: "color=white:s=192x108:r=30:d=0.5")
        let out = path("pq.mp4")
        let r = try TestSupport.run(TestSupport.segueBinary, ["render", white, bars, "--transition", "crossfade:0.2", "--dynamic-range", "pq",
                                                              "--no-audio", "--verbose", "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("output HDR (PQ): BT.2020 limited range, 10-bit 4:2:0, SMPTE ST 2084 tagged, mastering display 0.0001–1000 cd/m², MaxCLL 1000 cd/m², libx265"), r.stderr)
        XCTAssertTrue(r.stderr.contains("clip 0 white.mp4: SDR, white at 203 cd/m² (BT.2408) in PQ, BT.709 → BT.2020 primaries"), r.stderr)
        XCTAssertTrue(r.stderr.contains("clip 1 hlg-bars.mkv: HDR (HLG) in PQ"), r.stderr)
        let tags = try TestSupport.ffprobe(out, "stream=codec_name,profile,pix_fmt,color_transfer,color_primaries,color_space")
        XCTAssertEqual(tags["profile"], "Main 10")
        XCTAssertEqual(tags["color_transfer"], "smpte2084")
        XCTAssertEqual(tags["color_primaries"], "bt2020")
        // ST 2086 and CTA-861.3 metadata: in the MP4's boxes (stream side data) and the HEVC stream's SEI (frame side data).
        let stream = try TestSupport.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream_side_data", "-of", "flat", out]).text
        let frame = try TestSupport.run("ffprobe", ["-v", "error", "-select_streams", "v", "-read_intervals", "%+#1", "-show_entries", "frame_side_data", "-of", "flat", out]).text
        for text in [stream, frame] {
            XCTAssertTrue(text.contains("Mastering display metadata") && text.contains("max_luminance=\"10000000/10000\"")
                          && text.contains("red_x=\"35400/50000\"") && text.contains("white_point_x=\"15635/50000\""), text)
            XCTAssertTrue(text.contains("Content light level metadata") && text.contains("max_content=1000"), text)
        }
        // HLG output has no such metadata.
        let hlg = path("hlg.mp4")
        XCTAssertEqual(try TestSupport.run(TestSupport.segueBinary, ["render", bars, "--dynamic-range", "hlg", "--no-audio", "-o", hlg]).status, 0)
        XCTAssertFalse(try TestSupport.run("ffprobe", ["-v", "error", "-show_entries", "stream_side_data", "-of", "flat", hlg]).text.contains("Mastering"))
    }

    func testBadDynamicRangeSettingsAreRefused() throws {
        let clip = try cornerClip("a.mp4")
        let bad = try TestSupport.run(TestSupport.segueBinary, ["render", clip, "--dynamic-range", "hdr10", "-o", path("x.mp4")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--dynamic-range must be sdr, hlg or pq"), bad.stderr)
        try Data(#"{"clips": [{"path": "a.mp4"}], "output": {"dynamicRange": "dolby"}}"#.utf8).write(to: URL(fileURLWithPath: path("e.json")))
        let badEdit = try TestSupport.run(TestSupport.segueBinary, ["render", path("e.json"), "-o", path("x.mp4")])
        XCTAssertEqual(badEdit.status, 2)
        XCTAssertTrue(badEdit.stderr.contains("output.dynamicRange: must be sdr, hlg or pq"), badEdit.stderr)
        // An 8-bit-only encoder cannot write HDR.
        let eightBit = try TestSupport.run(TestSupport.segueBinary, ["render", clip, "--dynamic-range", "hlg", "--encoder", "mpeg4", "-o", path("x.mp4")])
        XCTAssertEqual(eightBit.status, 2)
        XCTAssertTrue(eightBit.stderr.contains("output.encoder") && eightBit.stderr.contains("yuv420p10le"), eightBit.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("x.mp4")))
    }
}
