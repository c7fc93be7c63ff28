import XCTest
import SegueCore

/// Issue 15 #2: one row per output format; everything that differs between formats is read from it.
final class OutputFormatTests: XCTestCase {
    func testOneRowPerCodecWithDistinctFileNames() {
        XCTAssertEqual(OutputFormat.all.map(\.codec), OutputSettings.Codec.allCases)
        for f in OutputFormat.all {
            XCTAssertEqual(OutputFormat.of(f.codec), f)
            XCTAssertEqual(OutputSettings.Codec(rawValue: f.codec.rawValue)?.rawValue, f.codec.rawValue)
            for ext in f.extensions {
                // A name chooses the first row that has its extension (.mov: H.264; .webm: VP9); sequences take patterns.
                let name = f.isImageSequence ? "/a/b/%05d.\(ext.uppercased())" : "/a/b/out.\(ext.uppercased())"
                XCTAssertTrue(f.accepts(fileName: name), name)
                XCTAssertEqual(OutputFormat.forFileName(name), OutputFormat.all.first { $0.extensions.contains(ext) && $0.isImageSequence == f.isImageSequence }, ext)
                if f.isImageSequence { XCTAssertFalse(f.accepts(fileName: "/a/b/out.\(ext)"), "\(f.name): one picture is not a sequence") }
            }
            XCTAssertTrue(f.dynamicRanges.contains(.sdr), "\(f.name) writes SDR")
            XCTAssertEqual(Set(f.defaultEncoders.keys), f.dynamicRanges, "\(f.name): an encoder for every range it writes")
            XCTAssertEqual(f.hasAudio, !f.audioCodec.isEmpty && !f.audioSampleFormat.isEmpty && !f.audioName.isEmpty, f.name)
            if f.chunkable { XCTAssertTrue(f.hasAudio && !f.chunkExtension.isEmpty && !f.audioPassExtension.isEmpty, f.name) }
            XCTAssertFalse(f.isImageSequence && (f.hasAudio || f.chunkable), "\(f.name): an image sequence has no audio and no chunks")
        }
        let chunkFiles = OutputFormat.all.filter(\.chunkable).flatMap { [$0.chunkExtension, $0.audioPassExtension] }
        XCTAssertEqual(chunkFiles.count, Set(chunkFiles).count, "a chunk's or audio pass's extension belongs to one format")
        XCTAssertEqual(OutputFormat.all.filter(\.chunkable).map(\.codec), [.h264, .ffv1])
        XCTAssertEqual(OutputFormat.all.filter { $0.alphaPixelFormat != nil }.map(\.codec), [.ffv1, .vp9, .prores, .png, .tiff, .exr])
        XCTAssertNil(OutputFormat.forFileName("out.avi"))
        XCTAssertNil(OutputFormat.forFileName(".mp4"))
        XCTAssertNil(OutputFormat.forFileName("still.png"), "one picture is not an image sequence")
        XCTAssertEqual(OutputFormat.forFileName("frames/%05d.png")?.codec, .png)
        XCTAssertEqual(OutputFormat.forFileName("clip.webm")?.codec, .vp9)
        XCTAssertEqual(OutputFormat.forFileName("clip.mov")?.codec, .h264)
        XCTAssertEqual(OutputFormat.forFileName("take_%03d.mp4")?.codec, .h264, "segments of a recording")
        XCTAssertEqual(OutputFormat.fileExtension("dir.d/x"), "")
        XCTAssertEqual(OutputFormat.mp4.extensionsInWords, ".mp4 (or .m4v, .mov)")
        XCTAssertEqual(OutputFormat.png.extensionsInWords, "numbered pattern such as frames/%05d.png")
        XCTAssertEqual(OutputFormat.codecNames, "h264, ffv1, vp9, av1, prores, gif, png, tiff or exr")
    }

    func testEncoderPixelFormatAndAudioFollowTheRow() {
        var o = OutputSettings()
        XCTAssertEqual(o.format.videoEncoder(o), "libx264")
        XCTAssertEqual(o.format.pixelFormat(o.dynamicRange), "yuv420p")
        XCTAssertNil(o.format.pixelFormat(.sdr, alpha: true), "H.264 keeps no alpha")
        XCTAssertEqual(OutputFormat.prores.pixelFormat(.sdr, alpha: true), "yuva444p10le")
        XCTAssertEqual(OutputFormat.prores.alphaEncoderOptions["profile"], "4")
        XCTAssertNil(OutputFormat.gif.pixelFormat(.hlg))
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
