import XCTest
import Segue
@testable import SegueMedia
import SegueTestSupport

/// `CaptureSession` (the library's recording) and the recording's parts that need no source: source parsing, file
/// names, timestamp jumps, the AAC configuration written for ADTS streams, the presets.
final class RecordLibraryTests: EndToEndTestCase {
    /// start, progress while it records (monotonic), stop from another task: a finished take of about the time it ran.
    func testCaptureSessionStartsAndStops() async throws {
        let out = path("lib.mp4")
        var options = CaptureOptions()
        options.preset = .low
        let session = CaptureSession(sources: ["lavfi:testsrc2=s=96x64:r=30"], outputPath: out, options: options)
        let take = Task { try await session.start() }
        var seen: [RecordingProgress] = []
        let stopper = Task { try await Task.sleep(nanoseconds: 2_500_000_000); session.stop() }
        for await p in session.progress { seen.append(p) }
        let result = try await take.value
        _ = try await stopper.value
        XCTAssertEqual(result.ended, .stopped)
        XCTAssertEqual(result.files, [out])
        XCTAssertFalse(result.videoCopied)   // raw frames: re-encoded
        XCTAssertEqual(result.seconds, 2.5, accuracy: 0.8)
        XCTAssertEqual(Double(result.videoFrames), result.seconds * 30, accuracy: 2)
        XCTAssertEqual(try TestSupport.ffprobe(out, "stream=nb_read_frames", count: true)["nb_read_frames"].flatMap(Int64.init), result.videoFrames)
        XCTAssertEqual(seen.last?.stage, "done")
        XCTAssertGreaterThan(seen.count, 2)
        XCTAssertEqual(seen.map(\.seconds), seen.map(\.seconds).sorted(), "progress never goes back")
        // One session records once.
        do { _ = try await session.start(); XCTFail("started twice") } catch is UsageError {}
    }

    func testSourcesAreParsed() throws {
        let v = try CaptureSource("v4l2:/dev/video0")
        XCTAssertEqual(v.format, "video4linux2")
        XCTAssertEqual(v.url, "/dev/video0")
        XCTAssertEqual(try CaptureSource("x11grab::0.0").url, ":0.0")
        XCTAssertEqual(try CaptureSource("kmsgrab").url, "-")
        XCTAssertEqual(try CaptureSource("alsa:default").format, "alsa")
        let rtsp = try CaptureSource("rtsp://127.0.0.1:8554/live?listen=1&x=2")
        XCTAssertEqual(rtsp.url, "rtsp://127.0.0.1:8554/live?x=2")
        XCTAssertEqual(rtsp.options["rtsp_flags"], "listen")
        XCTAssertTrue(try CaptureSource("srt://h:1?mode=listener").isNetwork)
        XCTAssertTrue(try CaptureSource("https://h/live.m3u8").isPaced)
        XCTAssertThrowsError(try CaptureSource("gopher://x"))
        XCTAssertThrowsError(try CaptureSource("v4l2:"))
        XCTAssertThrowsError(try CaptureSource("take.mp4"))
    }

    func testSegmentNames() {
        XCTAssertEqual(TakeSegmenter.format("take_%03d.mp4", 7), "take_007.mp4")
        XCTAssertEqual(TakeSegmenter.format("t%d.mp4", 12), "t12.mp4")
        XCTAssertTrue(TakeSegmenter.isPattern("take_%03d.mp4"))
        XCTAssertFalse(TakeSegmenter.isPattern("take.mp4"))
        XCTAssertFalse(TakeSegmenter.isPattern("a%d_%d.mp4"))
    }

    /// A sender restarting (timestamps back to 0) or jumping ahead keeps the take continuous; small steps pass.
    func testTimestampJumpsAreSmoothed() {
        var c = InputClock()
        c.join(sourceUS: 10_000_000, takeUS: 0)
        XCTAssertEqual(c.map(stream: 0, dtsUS: 10_000_000, durationUS: 33_333), 0)
        XCTAssertEqual(c.map(stream: 0, dtsUS: 10_033_333, durationUS: 33_333), 33_333)
        // Back to 0 (a restart): placed right after the last frame.
        XCTAssertEqual(c.map(stream: 0, dtsUS: 0, durationUS: 33_333), 66_666)
        XCTAssertEqual(c.map(stream: 0, dtsUS: 33_333, durationUS: 33_333), 99_999)
        // A jump of an hour ahead (a wrap the demuxer did not correct).
        XCTAssertEqual(c.map(stream: 0, dtsUS: 3_600_000_000, durationUS: 33_333), 133_332)
        XCTAssertEqual(c.jumps, 2)
        // Another stream of the input follows the moved offset without a jump of its own.
        XCTAssertEqual(c.map(stream: 1, dtsUS: 3_600_010_000, durationUS: 21_333), 143_332)
        XCTAssertEqual(c.jumps, 2)
        // A gap of two seconds is kept (frames missing), not smoothed.
        XCTAssertEqual(c.map(stream: 0, dtsUS: 3_602_000_000, durationUS: 33_333), 2_133_332)
        XCTAssertEqual(c.jumps, 2)
    }

    /// The AudioSpecificConfig of AAC-LC 48 kHz stereo is 0x11 0x90 (object type 2, index 3, 2 channels), as FFmpeg's
    /// `aac_adtstoasc` writes it.
    func testAudioSpecificConfig() {
        XCTAssertEqual(LiveTake.audioSpecificConfig(sampleRate: 48000, channels: 2, profile: 1), [0x11, 0x90])
        XCTAssertEqual(LiveTake.audioSpecificConfig(sampleRate: 44100, channels: 1, profile: 1), [0x12, 0x08])
        XCTAssertNil(LiveTake.audioSpecificConfig(sampleRate: 12345, channels: 1, profile: 1))
    }

    func testPresetsScaleTheBitRateWithThePixelRate() {
        XCTAssertEqual(LivePreset.high.bitRate(size: PixelSize(width: 1920, height: 1080), fps: 30), 8_000_000)
        XCTAssertEqual(LivePreset.medium.bitRate(size: PixelSize(width: 1280, height: 720), fps: 30), 2_222_222)
        XCTAssertEqual(LivePreset.low.bitRate(size: PixelSize(width: 160, height: 120), fps: 30), 200_000)
        XCTAssertEqual(LivePreset.allCases.map(\.x264Preset), ["veryfast", "superfast", "ultrafast"])
    }
}
