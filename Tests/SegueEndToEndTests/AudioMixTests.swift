import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// The audio mix, measured on lossless output (FFV1 + 32-bit float PCM), with FFmpeg as an oracle where it can be.
final class AudioMixTests: EndToEndTestCase {
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

    func testDuckingIsAtTheLevelAtEveryOnsetAndReleasesAfter() throws {
        // Clip 0: 1 kHz bursts at 0.4–0.6 s and 1.2–1.4 s of 2.2 s; clip 1, after a cut at 2.2 s, speaks from its first
        // sample to 0.4 s. Music: constant 0.5. Level 0.25, attack 0.2 s, release 0.3 s.
        let burst = "0.4*sin(2*PI*1000*t)*(between(t,0.4,0.6)+between(t,1.2,1.4))"
        let a = try exprClip("talk.mov", "\(burst)|\(burst)", seconds: 2.2, codec: "pcm_f32le")
        let b = try exprClip("start.mov", "0.4*sin(2*PI*1000*t)*lt(t,0.4)|0.4*sin(2*PI*1000*t)*lt(t,0.4)", seconds: 1.2, codec: "pcm_f32le")
        var m = MusicSpec(path: try dcMusic())
        var d = Ducking()
        d.level = 0.25; d.attack = 0.2; d.release = 0.3
        m.duck = d
        var e = Edit(clips: [clip(a), clip(b)])
        e.music = m
        let mixed = try renderedAudio(e, "d.mkv")
        // The same edit with the music silenced (ducking runs the same): the difference is 0.5 × the music gain.
        e.music?.volume = 0
        let dry = try renderedAudio(e, "dry.mkv")
        XCTAssertEqual(mixed.count, dry.count)
        XCTAssertEqual(mixed.count, Int(3.4 * 48000) * 2)
        func gain(_ k: Int) -> Double { Double(mixed[k * 2] - dry[k * 2]) / 0.5 }
        // Onsets: the first sample above 1e-3 after 0.1 s of quiet.
        var onsets: [Int] = [], ends: [Int] = [], lastLoud = -48000
        for k in 0..<(dry.count / 2) where abs(dry[k * 2]) > 1e-3 {
            if k - lastLoud > 4800 { onsets.append(k); if lastLoud >= 0 { ends.append(lastLoud) } }
            lastLoud = k
        }
        ends.append(lastLoud)
        XCTAssertEqual(onsets.count, 3, "onsets at \(onsets)")
        for (k, t) in zip(onsets, [0.4, 1.2, 2.2]) { XCTAssertEqual(Double(k) / 48000, t, accuracy: 0.001) }
        for (onset, end) in zip(onsets, ends) {
            let t = String(format: "%.3f s", Double(onset) / 48000)
            print(String(format: "duck gain at the onset %@: %.4f (level 0.25)", t, gain(onset)))
            XCTAssertLessThanOrEqual(gain(onset), d.level + 0.02, "music at the duck level when the speech at \(t) starts")
            XCTAssertEqual(gain(onset - 4800), d.level + 0.75 * 0.09 / 0.2, accuracy: 0.01, "100 ms before \(t): halfway through the attack")
            XCTAssertEqual(gain(onset - Int(0.25 * 48000)), 1, accuracy: 1e-6, "the attack starts 0.2 s (+ half the 20 ms window) before \(t)")
            XCTAssertLessThanOrEqual((onset..<end).map(gain).max()!, d.level + 1e-6, "ducked until the speech ends")
            XCTAssertEqual(gain(end + 4800), d.level + 0.75 * 0.09 / 0.3, accuracy: 0.01, "released 0.1 s after the speech")
            XCTAssertEqual(gain(end + Int(0.32 * 48000)), 1, accuracy: 1e-6, "back up 0.3 s (+ half the window) after")
        }
        // A clip without audio leaves the music at full volume.
        let silent = path("silent.mp4")
        try TestSupport.makeClip(silent, video: "color=c=gray:s=32x32:r=30:d=2")
        e.clips = [clip(silent)]
        e.music?.volume = 1
        let q = try renderedAudio(e, "s.mkv")
        XCTAssertEqual(Double(q[48000]), 0.5, accuracy: 0.001)
    }

    /// The single-pass render (audio a frame at a time) and the separate audio pass (`render-audio`, a second at a
    /// time) write the same samples: cuts, crossfades, music and look-ahead ducking included.
    func testAudioPassEqualsSinglePass() throws {
        let talk = "0.4*sin(2*PI*700*t)*between(t,0.3,0.9)"
        let a = try exprClip("a.mov", "\(talk)|\(talk)", seconds: 1.5, rate: 44100)
        let b = try toneClip("b.mov", freq: 300, seconds: 1.5, rate: 8000, layout: "mono")
        var m = MusicSpec(path: try dcMusic())
        m.duck = Ducking()
        m.duck?.attack = 1.3   // longer than a second: the look-ahead spans several blocks of either pass
        var e = Edit(clips: [clip(a), clip(b), clip(a, tr(.crossfade, 0.5))])
        e.music = m
        e.output.codec = .ffv1
        try render(e, to: path("single.mkv"), backend: .cpu)
        try RenderJob.renderAudio(e, to: path("pass.mka"))
        let single = try samples(path("single.mkv")), pass = try samples(path("pass.mka"))
        XCTAssertEqual(single.count, Int(4.0 * 48000) * 2)
        XCTAssertEqual(single.count, pass.count)
        XCTAssertTrue(single == pass, "the audio pass differs from the single pass")
        XCTAssertGreaterThan(single.map { abs($0) }.max()!, 0.5, "the clips and the music are in the mix")
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
        // The mono clip plays alone from 1.5 s to 2.0 s: both channels carry the tone at full level (RMS 0.125 / √2 = 0.0884).
        let k = Int(1.7 * 48000) * 2
        let rms = ((0..<480).reduce(0.0) { $0 + Double(s[k + 2 * $1] * s[k + 2 * $1]) } / 480).squareRoot()
        XCTAssertEqual(rms, 0.125 / 2.0.squareRoot(), accuracy: 0.002, "the mono tone (amplitude 1/8, in both channels at full level)")
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
