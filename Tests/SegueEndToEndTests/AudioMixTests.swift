import XCTest
import SegueCore
import SeguePipeline
import SegueTestSupport

/// The audio mix, measured on lossless output (FFV1 + 32-bit float PCM), with FFmpeg as an oracle where it can be.
final class AudioMixTests: EndToEndTestCase {
    /// Decodes the first audio stream as interleaved float at 48 kHz with `channels` channels.
    func samples(_ file: String, channels: Int = 2, extra: [String] = []) throws -> [Float] {
        let r = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file] + extra + ["-map", "0:a:0", "-f", "f32le", "-ac", "\(channels)", "-ar", "48000", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
    func rmsDB(_ a: [Float], _ b: [Float]) -> Double {
        let n = min(a.count, b.count)
        var s = 0.0
        for i in 0..<n { let d = Double(a[i] - b[i]); s += d * d }
        return 10 * log10(max(1e-30, s / Double(n)))
    }
    /// A clip with a tone: 48 kHz unless given.
    func toneClip(_ name: String, freq: Int, seconds: Double, rate: Int = 48000, layout: String = "stereo") throws -> String {
        let p = path(name)
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=32x32:r=30:d=\(seconds)",
                                "-f", "lavfi", "-i", "sine=f=\(freq):r=\(rate):d=\(seconds)", "-af", "aformat=channel_layouts=\(layout)",
                                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_s16le", "-shortest", p])
        return p
    }

    func testLinearCrossfadeMatchesAcrossfade() throws {
        let a = try toneClip("a.mov", freq: 440, seconds: 2), b = try toneClip("b.mov", freq: 660, seconds: 2)
        var e = Edit(clips: [clip(a), clip(b, tr(.crossfade, 1))])
        e.output.codec = .ffv1
        try render(e, to: path("x.mkv"), backend: .cpu)
        let ours = try samples(path("x.mkv"))
        XCTAssertEqual(ours.count, 3 * 48000 * 2)
        let oracle = path("oracle.wav")
        try TestSupport.ffmpeg(["-i", a, "-i", b, "-filter_complex", "[0:a][1:a]acrossfade=d=1:c1=tri:c2=tri", "-c:a", "pcm_f32le", oracle])
        let ref = try samples(oracle)
        XCTAssertEqual(ref.count, ours.count)
        let db = rmsDB(ours, ref)
        XCTAssertLessThan(db, -50, "RMS difference against acrossfade: \(db) dBFS")
        // The midpoint (1.5 s) is A/2 + B/2 exactly.
        let aS = try samples(a), bS = try samples(b)
        let k = 72000 * 2
        XCTAssertEqual(ours[k], aS[k] * 0.5 + bS[k - 48000 * 2] * 0.5, accuracy: 1e-4)
    }

    /// A transition's `easing` shapes the picture only: the audio crossfade stays linear in time unless the
    /// transition has an `audioEasing`, which shapes p before the curve. Checked at a quarter and at half time.
    func testEasingShapesThePictureAndAudioEasingTheSound() throws {
        let a = try toneClip("a.mov", freq: 440, seconds: 2), b = try toneClip("b.mov", freq: 660, seconds: 2)
        let aS = try samples(a), bS = try samples(b)
        for audioEasing in [nil, Easing.easeIn] {
            var t = tr(.crossfade, 1)
            t.easing = .ease
            t.audioEasing = audioEasing
            var e = Edit(clips: [clip(a), clip(b, t)])
            e.output.codec = .ffv1
            try render(e, to: path("x.mkv"), backend: .cpu)
            let ours = try samples(path("x.mkv"))
            for s in [60000, 72000] {   // p = 0.25, 0.5 (the overlap is 48000…96000)
                let g = (audioEasing ?? .linear)(Double(s - 48000) / 48000)
                let k = s * 2
                XCTAssertEqual(Double(ours[k]), Double(aS[k]) * (1 - g) + Double(bS[k - 96000]) * g, accuracy: 1e-4,
                               "audioEasing \(audioEasing?.description ?? "none") at sample \(s)")
            }
        }
    }

    func testEqualPowerCrossfadeClosedForm() throws {
        let a = try toneClip("a.mov", freq: 440, seconds: 2), b = try toneClip("b.mov", freq: 660, seconds: 2)
        var t = tr(.crossfade, 1)
        t.audioCurve = .equalPower
        var e = Edit(clips: [clip(a), clip(b, t)])
        e.output.codec = .ffv1
        try render(e, to: path("x.mkv"), backend: .cpu)
        let ours = try samples(path("x.mkv")), aS = try samples(a), bS = try samples(b)
        var expected = [Float](repeating: 0, count: ours.count)
        for s in 0..<(3 * 48000) {
            for c in 0..<2 {
                var v: Double = 0
                if s < 96000 { v += Double(aS[s * 2 + c]) * (s < 48000 ? 1 : cos(Double(s - 48000) / 48000 * .pi / 2)) }
                if s >= 48000 { v += Double(bS[(s - 48000) * 2 + c]) * (s >= 96000 ? 1 : sin(Double(s - 48000) / 48000 * .pi / 2)) }
                expected[s * 2 + c] = Float(v)
            }
        }
        XCTAssertLessThan(rmsDB(ours, expected), -90)
    }

    /// Music of constant value 0.5 (lossless WAV), so the output sample is 0.5 × gain.
    func dcMusic(seconds: Int = 20) throws -> String {
        let p = path("dc.wav")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "aevalsrc=0.5|0.5:s=48000:d=\(seconds)", "-c:a", "pcm_f32le", p])
        return p
    }

    func testMusicRampsVolumeAndLoop() throws {
        let v = path("v.mp4")
        try TestSupport.makeClip(v, video: "color=c=gray:s=32x32:r=30:d=5")   // no audio
        var m = MusicSpec(path: try dcMusic(seconds: 2))
        m.volume = 0.8
        m.loop = true
        m.ramps = [VolumeRamp(from: 0, to: 1, start: .zero, duration: MediaTime(seconds: 1)),
                   VolumeRamp(from: 1, to: 0, start: MediaTime(seconds: -2), duration: MediaTime(seconds: 2))]
        var e = Edit(clips: [clip(v)])
        e.music = m
        e.output.codec = .ffv1
        try render(e, to: path("m.mkv"), backend: .cpu)
        let s = try samples(path("m.mkv"))
        XCTAssertEqual(s.count, 5 * 48000 * 2)
        func gain(at t: Double) -> Double { Double(s[Int(t * 48000) * 2]) / (0.5 * 0.8) }
        XCTAssertEqual(gain(at: 0), 0, accuracy: 0.001)
        XCTAssertEqual(gain(at: 0.25), 0.25, accuracy: 0.001)
        XCTAssertEqual(gain(at: 0.5), 0.5, accuracy: 0.001)
        XCTAssertEqual(gain(at: 2.5), 1, accuracy: 0.001)    // past the 2 s song: it looped
        XCTAssertEqual(gain(at: 3.5), 0.75, accuracy: 0.001)  // fade-out from 3 s to 5 s
        XCTAssertEqual(gain(at: 4.5), 0.25, accuracy: 0.001)
        // Without loop, silence after the song ends.
        e.music?.loop = false
        try render(e, to: path("n.mkv"), backend: .cpu)
        let n = try samples(path("n.mkv"))
        XCTAssertEqual(Double(n[Int(1.5 * 48000) * 2]), 0.4, accuracy: 0.001)
        XCTAssertEqual(n[Int(2.5 * 48000) * 2], 0)
    }

    func testDuckingUnderSpeechLikeBursts() throws {
        // Clip audio: 1 kHz bursts, 0.5 s on / 1 s off, starting at 1 s; music: constant 0.5.
        let v = path("talk.mov")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=32x32:r=30:d=4",
                                "-f", "lavfi", "-i", "aevalsrc='0.4*sin(2*PI*1000*t)*between(t,1,1.5)+0.4*sin(2*PI*1000*t)*between(t,2.5,3)|0.4*sin(2*PI*1000*t)*between(t,1,1.5)+0.4*sin(2*PI*1000*t)*between(t,2.5,3)':s=48000:d=4",
                                "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "pcm_f32le", "-shortest", v])
        var m = MusicSpec(path: try dcMusic())
        var d = Ducking()
        d.level = 0.25; d.attack = 0.2; d.release = 0.3
        m.duck = d
        var e = Edit(clips: [clip(v)])
        e.music = m
        e.output.codec = .ffv1
        try render(e, to: path("d.mkv"), backend: .cpu)
        let s = try samples(path("d.mkv"))
        // Music gain: the mean over one 1 kHz period (48 samples) removes the tone.
        func gain(at t: Double) -> Double {
            let k = Int(t * 48000)
            return (0..<48).reduce(0.0) { $0 + Double(s[(k + $1) * 2]) } / 48 / 0.5
        }
        XCTAssertEqual(gain(at: 0.9), 1, accuracy: 0.01, "full volume before speech")
        XCTAssertEqual(gain(at: 1 + 0.2 + 0.03), 0.25, accuracy: 0.02, "ducked within attack")
        XCTAssertEqual(gain(at: 1.45), 0.25, accuracy: 0.02)
        XCTAssertGreaterThan(gain(at: 1.5 + 0.1), 0.3, "recovering")
        XCTAssertEqual(gain(at: 1.5 + 0.3 + 0.04), 1, accuracy: 0.02, "recovered within release")
        XCTAssertEqual(gain(at: 2.4), 1, accuracy: 0.01)
        XCTAssertEqual(gain(at: 2.5 + 0.25), 0.25, accuracy: 0.02, "second burst")
        // A clip without audio leaves the music at full volume.
        let silent = path("silent.mp4")
        try TestSupport.makeClip(silent, video: "color=c=gray:s=32x32:r=30:d=2")
        e.clips = [clip(silent)]
        try render(e, to: path("s.mkv"), backend: .cpu)
        let q = try samples(path("s.mkv"))
        XCTAssertEqual(Double(q[48000]), 0.5, accuracy: 0.001)
    }

    func testMixedLayoutsAndRatesRenderWithExactSampleCounts() throws {
        let none = path("none.mp4")
        try TestSupport.makeClip(none, video: "color=c=red:s=32x32:r=30:d=1.5")
        let mono = try toneClip("mono.mov", freq: 300, seconds: 1.5, rate: 44100, layout: "mono")
        let surround = try toneClip("surround.mov", freq: 500, seconds: 1.5, rate: 48000, layout: "5.1")
        let low = try toneClip("low.mov", freq: 200, seconds: 1.5, rate: 8000, layout: "mono")
        var e = Edit(clips: [clip(none), clip(mono, tr(.crossfade, 0.5)), clip(surround, tr(.wipe, 0.5)), clip(low, tr(.push, 0.5))])
        e.frameRate = FrameRate(30)
        e.output.codec = .ffv1
        let r = try render(e, to: path("mix.mkv"), backend: .cpu)
        XCTAssertEqual(r.frames, 135)   // 6 − 1.5 = 4.5 s
        let s = try samples(path("mix.mkv"))
        XCTAssertEqual(s.count / 2, 4 * 48000 + 24000, "exactly the video's 4.5 s")
        // The mono clip plays alone from 1.5 s to 2.0 s: both channels carry the tone (RMS 0.125 × 0.707 / √2 = 0.0625).
        let k = Int(1.7 * 48000) * 2
        let rms = ((0..<480).reduce(0.0) { $0 + Double(s[k + 2 * $1] * s[k + 2 * $1]) } / 480).squareRoot()
        XCTAssertEqual(rms, 0.0625, accuracy: 0.005, "the mono tone (amplitude 1/8, upmixed to both channels)")
        XCTAssertEqual(s[k], s[k + 1], accuracy: 1e-6)
        // Output format from the edit: 44.1 kHz mono.
        e.audio.sampleRate = 44100
        e.audio.channels = 1
        e.output.codec = .h264
        try render(e, to: path("mix.mp4"), backend: .cpu)
        let a = try TestSupport.ffprobe(path("mix.mp4"), "stream=sample_rate,channels", stream: "a:0")
        XCTAssertEqual(a["sample_rate"], "44100")
        XCTAssertEqual(a["channels"], "1")
        let n = try samples(path("mix.mp4"), channels: 1, extra: []).count
        XCTAssertEqual(Double(n), 4.5 * 48000, accuracy: 1024 * 48000 / 44100)
    }
}
