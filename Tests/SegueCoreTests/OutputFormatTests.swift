import XCTest
import SegueCore

/// Issue 15 #2: one row per output format; everything that differs between formats is read from it.
final class OutputFormatTests: XCTestCase {
    func testOneRowPerCodecWithDistinctFileNames() {
        XCTAssertEqual(OutputFormat.all.map(\.codec), OutputSettings.Codec.allCases)
        for f in OutputFormat.all {
            XCTAssertEqual(OutputFormat.of(f.codec), f)
            XCTAssertEqual(OutputSettings.Codec(rawValue: f.codec.rawValue)?.rawValue, f.codec.rawValue)
            for ext in f.extensions { XCTAssertEqual(OutputFormat.forFileName("/a/b/out.\(ext.uppercased())"), f, ext) }
            XCTAssertEqual(Set(DynamicRange.allCases), Set(f.defaultEncoders.keys), "\(f.name): an encoder for every dynamic range")
            XCTAssertEqual(Set(DynamicRange.allCases), Set(f.pixelFormats.keys), "\(f.name): a pixel format for every dynamic range")
        }
        let extensions = OutputFormat.all.flatMap(\.extensions) + OutputFormat.all.map(\.audioPassExtension)
        XCTAssertEqual(extensions.count, Set(extensions).count, "an extension belongs to one format")
        XCTAssertNil(OutputFormat.forFileName("out.avi"))
        XCTAssertNil(OutputFormat.forFileName(".mp4"))
        XCTAssertEqual(OutputFormat.fileExtension("dir.d/x"), "")
        XCTAssertEqual(OutputFormat.mp4.extensionsInWords, ".mp4 (or .m4v, .mov)")
        XCTAssertEqual(OutputFormat.codecNames, "h264 or ffv1")
    }

    func testEncoderPixelFormatAndAudioFollowTheRow() {
        var o = OutputSettings()
        XCTAssertEqual(o.format.videoEncoder(o), "libx264")
        XCTAssertEqual(o.format.pixelFormat(o.dynamicRange), "yuv420p")
        o.dynamicRange = .hlg
        XCTAssertEqual(o.format.videoEncoder(o), "libx265")
        XCTAssertEqual(o.format.pixelFormat(o.dynamicRange), "yuv420p10le")
        o.encoder = "h264_nvenc"
        XCTAssertEqual(o.format.videoEncoder(o), "h264_nvenc")
        // FFV1 takes no encoder settings: the row's encoder, whatever is named.
        o.codec = .ffv1
        XCTAssertEqual(o.format.videoEncoder(o), "ffv1")
        XCTAssertEqual(o.format.pixelFormat(.pq), "yuv420p10le")
        XCTAssertEqual([OutputFormat.mp4.audioCodec, OutputFormat.mkv.audioCodec], ["aac", "pcm_f32le"])
        XCTAssertEqual([OutputFormat.mp4.audioSampleFormat, OutputFormat.mkv.audioSampleFormat], ["fltp", "flt"])
        XCTAssertEqual(OutputFormat.mp4.muxOptions, ["movflags": "+faststart"])
        XCTAssertEqual(OutputFormat.mp4.codecTags["hevc"], "hvc1")
    }

    /// A chunk's lookahead is its encoder's `rc-lookahead` for the preset; none when lossless or without settings.
    func testChunkLookaheadIsTheEncodersOwn() {
        var o = OutputSettings()
        XCTAssertEqual(o.format.lookahead(for: o), 40)          // x264 medium
        o.preset = "veryfast"
        XCTAssertEqual(o.format.lookahead(for: o), 10)
        o.preset = "ultrafast"
        XCTAssertEqual(o.format.lookahead(for: o), 0)
        o.preset = "medium"
        o.dynamicRange = .pq                                    // libx265 medium
        XCTAssertEqual(o.format.lookahead(for: o), 20)
        o.preset = "slower"
        XCTAssertEqual(o.format.lookahead(for: o), 40)
        o.crf = 0                                                // lossless: every frame exact anyway
        XCTAssertEqual(o.format.lookahead(for: o), 0)
        o.crf = 18
        o.encoder = "libvpx-vp9"                                 // no table: none
        XCTAssertEqual(o.format.lookahead(for: o), 0)
        o.codec = .ffv1
        XCTAssertEqual(o.format.lookahead(for: o), 0)
    }
}
