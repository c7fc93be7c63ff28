import XCTest
import SegueCore
import SegueEdit
@testable import SegueFarm
import SegueTestSupport

/// Delivery presets (`--delivery`, `output.delivery`) and loudness normalisation (`--loudness`, `output.loudness`),
/// each output probed by `ffprobe` and its loudness read by FFmpeg's own `ebur128` (the independent oracle).
final class DeliveryTests: EndToEndTestCase {
    /// A 64×48 clip at 24 fps with a 1 kHz tone, `seconds` long.
    func toneClip(_ name: String = "clip.mp4", seconds: Double = 0.5) throws -> String {
        let p = path(name)
        try TestSupport.makeClip(p, video: "testsrc2=s=64x48:r=24:d=\(seconds)", audio: "sine=f=1000:d=\(seconds):sample_rate=44100")
        return p
    }

    /// `segue plan ARGS --json` as JSON.
    func plan(_ args: [String]) throws -> [String: Any] {
        let r = try segue(["plan"] + args + ["--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return (try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]) ?? [:]
    }

    /// What `ebur128=peak=true` reports of `file`'s audio: integrated loudness (LUFS) and true peak (dBTP).
    func ebur128(_ file: String) throws -> (integrated: Double, truePeak: Double) {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-nostats", "-i", file, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let summary = r.stderr.components(separatedBy: "Summary:").last ?? ""
        func value(_ label: String) -> Double {
            guard let line = summary.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) }) else { return .nan }
            return Double(line.split(separator: " ").dropFirst().first { Double($0) != nil } ?? "") ?? .nan
        }
        return (value("I:"), value("Peak:"))
    }

    func testEachPresetsPlanSaysWhatItDecided() throws {
        let clip = try toneClip()
        for preset in DeliveryPreset.all {
            let p = try plan([clip, "--delivery", preset.name])
            let size = preset.size ?? PixelSize(width: 64, height: 48)
            XCTAssertEqual(p["width"] as? Int, size.width, preset.name)
            XCTAssertEqual(p["height"] as? Int, size.height, preset.name)
            XCTAssertEqual(p["frameRate"] as? String, (preset.frameRate ?? FrameRate(24)).description, preset.name)
            let o = p["output"] as? [String: Any] ?? [:]
            XCTAssertEqual(o["delivery"] as? String, preset.name)
            XCTAssertEqual(o["codec"] as? String, preset.codec.rawValue, preset.name)
            XCTAssertEqual(o["sampleRate"] as? Int, 48000, preset.name)
            XCTAssertEqual(o["channels"] as? Int, 2, preset.name)
            XCTAssertEqual(o["loudness"] as? Double, preset.loudness?.integrated, preset.name)
            XCTAssertEqual(o["truePeak"] as? Double, preset.loudness?.truePeak, preset.name)
        }
        // The figures the issue names.
        XCTAssertEqual(DeliveryPreset.named("youtube-1080p")?.loudness, LoudnessTarget(integrated: -14, truePeak: -1))
        XCTAssertEqual(DeliveryPreset.named("broadcast-ebu-r128")?.loudness, LoudnessTarget(integrated: -23, truePeak: -1))
        XCTAssertEqual(DeliveryPreset.named("instagram-reel")?.size, PixelSize(width: 1080, height: 1920))
        XCTAssertEqual(DeliveryPreset.named("youtube-4k")?.size, PixelSize(width: 3840, height: 2160))
        XCTAssertNil(DeliveryPreset.named("prores-master")?.loudness)
        let text = try segue(["plan", clip, "--delivery", "tiktok"])
        XCTAssertTrue(text.text.contains("delivery preset tiktok"), text.text)
        XCTAssertTrue(text.text.contains("-14 LUFS"), text.text)
    }

    /// Every preset's output, probed: its codec, frame rate and audio (the size is shrunk here to keep the test fast,
    /// the preset's own size checked by the plan above; the orientation kept).
    func testEachPresetsOutputIsWhatItSays() throws {
        let clip = try toneClip()
        for preset in DeliveryPreset.all {
            let portrait = (preset.size.map { $0.height > $0.width }) ?? false
            let out = path("\(preset.name).\(preset.codec == .prores ? "mov" : "mp4")")
            let r = try segue(["render", clip, "--delivery", preset.name, "--size", portrait ? "36x64" : "64x36", "-o", out, "--backend", "cpu"])
            XCTAssertEqual(r.status, 0, "\(preset.name): \(r.stderr)")
            let v = try TestSupport.ffprobe(out, "stream=codec_name,width,height,r_frame_rate,profile")
            XCTAssertEqual(v["codec_name"], preset.codec == .prores ? "prores" : "h264", preset.name)
            XCTAssertEqual(v["width"], portrait ? "36" : "64", preset.name)
            XCTAssertEqual(v["r_frame_rate"], (preset.frameRate ?? FrameRate(24)).description.contains("/") ? (preset.frameRate ?? FrameRate(24)).description
                           : "\((preset.frameRate ?? FrameRate(24)).description)/1", preset.name)
            if preset.codec == .prores { XCTAssertEqual(v["profile"], "HQ", preset.name) }
            let a = try TestSupport.ffprobe(out, "stream=codec_name,sample_rate,channels,bit_rate", stream: "a:0")
            XCTAssertEqual(a["codec_name"], preset.codec == .prores ? "pcm_s16le" : "aac", preset.name)
            XCTAssertEqual(a["sample_rate"], "48000", preset.name)
            XCTAssertEqual(a["channels"], "2", preset.name)
        }
    }

    func testExplicitSettingsOverrideThePreset() throws {
        let clip = try toneClip()
        // On the command line.
        var p = try plan([clip, "--delivery", "youtube-1080p", "--size", "320x180", "--fps", "25", "--codec", "ffv1", "--loudness", "-20"])
        XCTAssertEqual(p["width"] as? Int, 320)
        XCTAssertEqual(p["frameRate"] as? String, "25")
        var o = p["output"] as? [String: Any] ?? [:]
        XCTAssertEqual(o["codec"] as? String, "ffv1")
        XCTAssertEqual(o["loudness"] as? Double, -20)
        XCTAssertEqual(o["truePeak"] as? Double, -1)
        // In the edit file, and an edit file's own settings under a command line's --delivery.
        let edit = path("edit.json")
        try #"{"clips": [{"path": "clip.mp4"}], "renderSize": {"width": 640, "height": 360}, "output": {"delivery": "tiktok", "crf": 18, "truePeak": -2}}"#
            .write(toFile: edit, atomically: true, encoding: .utf8)
        p = try plan([edit])
        XCTAssertEqual(p["width"] as? Int, 640)
        XCTAssertEqual(p["frameRate"] as? String, "30")
        o = p["output"] as? [String: Any] ?? [:]
        XCTAssertEqual(o["crf"] as? Int, 18)
        XCTAssertEqual(o["loudness"] as? Double, -14)
        XCTAssertEqual(o["truePeak"] as? Double, -2)
        let plain = path("plain.json")
        try #"{"clips": [{"path": "clip.mp4"}], "output": {"codec": "ffv1"}, "audio": {"sampleRate": 44100}}"#.write(toFile: plain, atomically: true, encoding: .utf8)
        p = try plan([plain, "--delivery", "web-720p"])
        XCTAssertEqual(p["width"] as? Int, 1280)
        o = p["output"] as? [String: Any] ?? [:]
        XCTAssertEqual(o["codec"] as? String, "ffv1")
        XCTAssertEqual(o["sampleRate"] as? Int, 44100)
        XCTAssertEqual(o["loudness"] as? Double, -14)
        // segue resolve keeps the preset and what overrides it: the resolved edit plans the same.
        let resolved = path("resolved.json")
        let r = try segue(["resolve", edit, "-o", resolved])
        XCTAssertEqual(r.status, 0, r.stderr)
        let again = try plan([resolved])
        XCTAssertEqual(again["width"] as? Int, 640)
        XCTAssertEqual((again["output"] as? [String: Any])?["crf"] as? Int, 18)
        XCTAssertEqual((again["output"] as? [String: Any])?["truePeak"] as? Double, -2)
    }

    func testAnUnknownPresetIsExit2NamingTheValidOnes() throws {
        let clip = try toneClip()
        let r = try segue(["plan", clip, "--delivery", "youtube"])
        XCTAssertEqual(r.status, 2)
        for p in DeliveryPreset.all { XCTAssertTrue(r.stderr.contains(p.name), r.stderr) }
        let edit = path("edit.json")
        try #"{"clips": [{"path": "clip.mp4"}], "output": {"delivery": "vimeo"}}"#.write(toFile: edit, atomically: true, encoding: .utf8)
        let e = try segue(["plan", edit])
        XCTAssertEqual(e.status, 2)
        XCTAssertTrue(e.stderr.contains("output.delivery"), e.stderr)
        for p in DeliveryPreset.all { XCTAssertTrue(e.stderr.contains(p.name), e.stderr) }
        let tp = try segue(["plan", clip, "--true-peak", "-2"])
        XCTAssertEqual(tp.status, 2, "--true-peak without a loudness target")
    }

    /// A loud edit (white noise near full scale) and a quiet one (a −40 dBFS tone with one-sample clicks that the
    /// gain would push past the limit: the limiter must hold them) normalised to −14 and −23 LUFS: FFmpeg's `ebur128` reads
    /// the integrated loudness within ±0.5 LU of the target and the true peak at most the limit.
    func testLoudAndQuietEditsAreNormalised() throws {
        let loud = path("loud.mkv"), quiet = path("quiet.mkv")
        try TestSupport.makeClip(loud, video: "color=c=gray:s=32x32:r=10:d=2", audio: "anoisesrc=d=2:a=0.9:r=48000:c=white:seed=7", extra: ["-c:a", "pcm_f32le"])
        try TestSupport.makeClip(quiet, video: "color=c=gray:s=32x32:r=10:d=2",
                                 audio: "aevalsrc=0.01*sin(2*PI*440*t)+0.1*lt(mod(t\\,0.5)\\,1/48000):d=2:s=48000", extra: ["-c:a", "pcm_f32le"])
        let before = try ebur128(loud)
        XCTAssertGreaterThan(before.integrated, -12, "the loud clip is loud")
        for (clip, target, peak) in [(loud, -14.0, -1.0), (quiet, -14.0, -1.0), (loud, -23.0, -1.0), (quiet, -23.0, -3.0)] {
            let out = path("out.mkv")
            let r = try segue(["render", clip, "--codec", "ffv1", "--loudness", "\(target)", "--true-peak", "\(peak)", "-o", out, "--backend", "cpu"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let m = try ebur128(out)
            XCTAssertEqual(m.integrated, target, accuracy: 0.5, "\(clip) to \(target) LUFS")
            XCTAssertLessThanOrEqual(m.truePeak, peak, "\(clip) to \(target) LUFS: true peak")
            XCTAssertEqual(Double(try TestSupport.ffprobe(out, "format=duration", stream: "a:0")["duration"] ?? "") ?? 0, 2, accuracy: 0.01, "every sample kept")
        }
    }

    /// A chunked render measures over the whole edit: its audio pass is the single pass's, sample for sample, and on
    /// target (the edit loud in its first half, quiet in its second: chunk by chunk the halves would differ).
    func testChunkedRenderIsNormalisedOverTheWholeEdit() throws {
        let loud = path("loud.mkv"), quiet = path("quiet.mkv")
        try TestSupport.makeClip(loud, video: "color=c=gray:s=32x32:r=10:d=1", audio: "sine=f=440:d=1:sample_rate=48000,volume=2", extra: ["-c:a", "pcm_f32le"])
        try TestSupport.makeClip(quiet, video: "color=c=gray:s=32x32:r=10:d=1", audio: "sine=f=440:d=1:sample_rate=48000,volume=0.05", extra: ["-c:a", "pcm_f32le"])
        let edit = path("edit.json")
        try #"{"clips": [{"path": "loud.mkv"}, {"path": "quiet.mkv"}], "output": {"codec": "ffv1", "loudness": -16}}"#
            .write(toFile: edit, atomically: true, encoding: .utf8)
        let planPath = path("plan.json")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "2", "-o", planPath]).status, 0)
        try renderChunked(planPath, chunks: path("chunks"), out: path("chunked.mkv"))
        XCTAssertEqual(try segue(["render", edit, "-o", path("single.mkv"), "--backend", "cpu"]).status, 0)
        XCTAssertEqual(try framemd5(path("chunked.mkv"), "a"), try framemd5(path("single.mkv"), "a"))
        XCTAssertEqual(try ebur128(path("chunked.mkv")).integrated, -16, accuracy: 0.5)
    }
}
