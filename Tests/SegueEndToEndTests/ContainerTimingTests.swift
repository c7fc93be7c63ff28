import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Segue's frame rule against the containers users have: every source frame is shown at the output frame due for it,
/// whatever clock the container rounds timestamps to (Matroska/WebM and FLV: milliseconds; QuickTime: a timescale of
/// 600; MPEG-TS: 90 kHz, or milliseconds carried over from a Matroska source).
///
/// The clips carry a burnt-in counter: every pixel of source frame `n` has luma `16 + 2n` (grey, so any Y′CbCr matrix
/// keeps it), encoded losslessly; each output frame's mean luma names the source frame it shows.
final class ContainerTimingTests: EndToEndTestCase {
    /// (label, frame rate as FFmpeg takes it, Segue's exact rate).
    static let rates: [(String, String, FrameRate)] = [
        ("23.976", "24000/1001", FrameRate(24000, 1001)), ("24", "24", FrameRate(24)), ("25", "25", FrameRate(25)),
        ("29.97", "30000/1001", FrameRate(30000, 1001)), ("30", "30", FrameRate(30)), ("50", "50", FrameRate(50)),
        ("59.94", "60000/1001", FrameRate(60000, 1001)), ("60", "60", FrameRate(60)),
    ]

    /// A counter clip: `frames` pictures of 64×48 at `rate`, lossless, in the container `ext` names.
    /// `.mov` is written with a 600 timescale, as cameras and Apple's tools write it; `mkv.ts` is an MPEG-TS remuxed
    /// from Matroska (a 90 kHz clock carrying millisecond timestamps).
    func counterClip(_ name: String, rate: String, frames: Int, ext: String, select: String? = nil) throws -> String {
        if ext == "mkv.ts" {
            let mkv = try counterClip(name, rate: rate, frames: frames, ext: "mkv", select: select)
            let ts = path("\(name)-from-mkv.ts")
            try TestSupport.ffmpeg(["-i", mkv, "-c", "copy", ts])
            return ts
        }
        let out = path("\(name).\(ext)")
        var filter = "color=c=black:s=64x48:r=\(rate),format=yuv420p,geq=lum='16+2*N':cb=128:cr=128"
        if let s = select { filter += ",select='\(s)'" }
        var args = ["-f", "lavfi", "-i", filter, "-frames:v", "\(frames)", "-fps_mode", "passthrough"]
        switch ext {
        case "webm": args += ["-c:v", "libvpx-vp9", "-lossless", "1", "-row-mt", "0", "-cpu-used", "8"]
        default: args += ["-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        }
        if ext == "mov" { args += ["-video_track_timescale", "600"] }
        try TestSupport.ffmpeg(args + [out])
        return out
    }

    /// The counter value of each decoded frame (`(mean Y − 16) / 2`, rounded).
    func counters(_ file: String) throws -> [Int] {
        try TestSupport.decodeFrames(file, width: 64, height: 48).map { f in
            let mean = Double(f[0..<(64 * 48)].reduce(0) { $0 + Int($1) }) / Double(64 * 48)
            return Int(((mean - 16) / 2).rounded())
        }
    }

    /// Each rate in each container, at the clip's own rate (the default): output frame n shows source frame n, for
    /// every n, and no frame is lost. Before the timestamp tolerance, a 30 fps Matroska clip lost 10 of 30 frames.
    func testEveryFrameOfEveryContainerAtItsOwnRate() throws {
        // The rates at once, as many as there are cores (each its own clips and renders; the library renders at once
        // as a library user's may); a rate's containers in turn (mkv.ts is remuxed from the rate's mkv).
        nonisolated(unsafe) let test = self
        let failures = try TestSupport.concurrentMap(Array(Self.rates.indices)) { k in
            try test.checkEveryContainer(at: k)
        }.flatMap { $0 }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// The failures of `testEveryFrameOfEveryContainerAtItsOwnRate` at `rates[k]`.
    func checkEveryContainer(at k: Int) throws -> [String] {
        var failures: [String] = []
        let (label, ffRate, rate) = Self.rates[k]
        let frames = Int((rate.framesPerSecond * 1.5).rounded(.down))  // 1.5 s
        for ext in ["mkv", "webm", "mp4", "mov", "ts", "flv", "mkv.ts"] {
            let src = try counterClip("count-\(label)", rate: ffRate, frames: frames, ext: ext)
            var edit = Edit(clips: [clip(src)])
            edit.output.codec = .ffv1
            let out = path("out-\(label)-\(ext).mkv")
            let r = try render(edit, to: out, backend: .cpu, audio: false)
            if r.timeline.frameRate != rate {
                failures.append("\(label) fps \(ext): default rate \(r.timeline.frameRate), not \(rate)")
            }
            let shown = try counters(out)
            let expected = Array(0..<frames)
            if shown != expected {
                let missing = Set(expected).subtracting(shown).sorted()
                failures.append("\(label) fps \(ext): \(shown.count) output frames for \(frames) source frames; never shown: \(missing.prefix(12)); first mismatches: "
                                + zip(expected, shown).filter { $0 != $1 }.prefix(4).map { "out \($0.0) shows \($0.1)" }.joined(separator: ", "))
            }
            try? FileManager.default.removeItem(atPath: out)
        }
        return failures
    }

    /// The same rule mid-clip, with a start offset, in a longer edit at the clip's rate with a crossfade: the frames
    /// either side of the transition still map one to one.
    func testMatroskaClipsInAnEditWithStartOffsets() throws {
        let a = try counterClip("a", rate: "30", frames: 45, ext: "mkv")
        let b = try counterClip("b", rate: "30", frames: 45, ext: "webm")
        var edit = Edit(clips: [clip(a, start: 0.2), clip(b, tr(.wipe, 0.5), start: 0.1)])
        edit.output.codec = .ffv1
        let out = path("edit.mkv")
        let r = try render(edit, to: out, backend: .cpu, audio: false)
        XCTAssertEqual(r.timeline.frameRate, FrameRate(30))
        // Clip a: 1.3 s from frame 6 (0.2 s); clip b from frame 3 (0.1 s), starting at 0.8 s (frame 24).
        XCTAssertEqual(r.frames, 24 + 42)
        let shown = try counters(out)
        XCTAssertEqual(Array(shown[0..<24]), Array(6..<30), "clip a before the wipe")
        // After the wipe (0.8 + 0.5 s = frame 39), clip b's frame 3 + (n − 24).
        XCTAssertEqual(Array(shown[39...]), Array((3 + 15)..<(3 + 42)), "clip b after the wipe")
        // A preview of one frame (seeking to the keyframe before it) agrees with the full render.
        var o = RenderOptions()
        o.backend = .cpu
        o.audio = false
        let frames: [Int64] = [7, 40, 55]
        let (images, _) = try RenderJob.renderFrames(r.timeline, frames: frames, renderer: RenderJob.makeRenderer(o))
        for (k, n) in frames.enumerated() {
            // RGBA preview: grey R′G′B′ = (Y − 16) / 219 of the counter's luma.
            let px = images[k].pixels
            let mean = Double(stride(from: 0, to: px.count, by: 4).reduce(0) { $0 + Int(px[$1]) }) / Double(px.count / 4)
            XCTAssertEqual(Int(((mean * 219 / 255) / 2).rounded()), shown[Int(n)], "preview of frame \(n)")
        }
    }

    /// A cut after a trimmed clip: the clip before ends a fraction of a millisecond past an output frame (its length
    /// comes from rounded timestamps), so the next clip's start moves back onto that frame (`Timeline.clipStarts`).
    /// Without that, the next clip's pictures were looked up just before their own times and the rounding of each
    /// timestamp decided: after a 29.97 fps clip remuxed from Matroska to MPEG-TS, 22 of 60 frames were never shown;
    /// in Matroska, QuickTime and WebM its first frame was lost and the frame before the cut shown twice.
    func testCutsAfterTrimmedClipsKeepEveryFrame() throws {
        // The three rates at once, as many as there are cores; a rate's containers in turn.
        nonisolated(unsafe) let test = self
        let failures = try TestSupport.concurrentMap(Self.rates.indices.filter { ["23.976", "29.97", "59.94"].contains(Self.rates[$0].0) }) { k in
            try test.checkCutsAfterTrimmedClips(at: k)
        }.flatMap { $0 }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    }

    /// The failures of `testCutsAfterTrimmedClipsKeepEveryFrame` at `rates[k]`.
    func checkCutsAfterTrimmedClips(at k: Int) throws -> [String] {
        var failures: [String] = []
        let (label, ffRate, rate) = Self.rates[k]
        let frames = Int((rate.framesPerSecond * 2).rounded(.down))
        for ext in ["mkv", "webm", "mov", "mkv.ts"] {
            let src = try counterClip("trim-\(label)", rate: ffRate, frames: frames, ext: ext)
            var edit = Edit(clips: [clip(src, start: 0.5), clip(src)])
            edit.output.codec = .ffv1
            let out = path("trim-\(label)-\(ext).mkv")
            _ = try render(edit, to: out, backend: .cpu, audio: false)
            // 0.5 s is half a millisecond before a frame at these rates (15/29.97 s = 0.5005 s): that frame is
            // the first shown, within the timestamp tolerance.
            let first = Int((0.5 * rate.framesPerSecond).rounded(.up))
            let expected = Array(first..<frames) + Array(0..<frames)
            let shown = try counters(out)
            if shown != expected {
                failures.append("\(label) fps \(ext): \(shown.count) frames for \(expected.count); first mismatches: "
                                + zip(expected, shown).enumerated().filter { $0.element.0 != $0.element.1 }.prefix(4)
                                    .map { "out \($0.offset) shows \($0.element.1), not \($0.element.0)" }.joined(separator: ", "))
            }
            try? FileManager.default.removeItem(atPath: out)
        }
        return failures
    }

    /// Issue 11: a clip on a 30 fps clock with every fifth frame dropped (60 frames over 2.5 s, average 24 fps) gets a
    /// 30 fps edit by default, and every one of its 60 frames is shown (in a 24 fps edit, 11 would never be).
    func testVariableFrameRateClipGetsItsHighestRate() throws {
        for ext in ["mp4", "mkv"] {
            let src = try counterClip("vfr", rate: "30", frames: 60, ext: ext, select: "not(eq(mod(n\\,5)\\,4))")
            var edit = Edit(clips: [clip(src)])
            edit.output.codec = .ffv1
            let out = path("vfr-\(ext).mkv")
            let r = try render(edit, to: out, backend: .cpu, audio: false)
            XCTAssertEqual(r.timeline.frameRate, FrameRate(30), ext)
            XCTAssertTrue(r.timeline.notes.contains { $0.contains("frame rate 30") && $0.contains("spaced for 30") }, "\(r.timeline.notes)")
            let shown = try counters(out)
            // The counter is the frame's index on the 30 fps clock (drawn before `select` drops every fifth frame):
            // output frame n shows n, or n − 1 where frame n was dropped. The last kept frame is 73, so the clip
            // lasts 74/30 s: 74 output frames.
            let expected = (0..<74).map { $0 % 5 == 4 ? $0 - 1 : $0 }
            XCTAssertEqual(shown.count, 74, ext)
            XCTAssertEqual(shown, expected, ext)
            XCTAssertEqual(Set(shown).count, 60, "\(ext): every frame shown")
        }
    }

    /// Cameras stamp frames late on their own clock (an iPhone 4S clip's frames from the 26th on lie a whole 600 tick
    /// after k/30 s), and users remux such files: FFmpeg writes the MP4 on a 19 200 clock with the frames still
    /// 1/600 s late, Matroska rounds them to the millisecond (up to 2 ms late). Every frame is shown once in each.
    /// (With a 1 ms slack the MP4 showed frame 24 twice and never showed 25, and so on every frame after.)
    func testLateQuickTimeStampsInEveryRemux() throws {
        let mov = path("late.mov")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i",
                                "color=c=black:s=64x48:r=30,format=yuv420p,geq=lum='16+2*N':cb=128:cr=128,settb=1/600,setpts='N*20+gte(N\\,25)'",
                                "-frames:v", "45", "-fps_mode", "passthrough", "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast",
                                "-pix_fmt", "yuv420p", "-video_track_timescale", "600", mov])
        var files = [("mov", mov)]
        for ext in ["mp4", "mkv"] {
            let out = path("late-remuxed.\(ext)")
            try TestSupport.ffmpeg(["-i", mov, "-c", "copy", out])
            files.append((ext, out))
        }
        XCTAssertEqual(try TestSupport.ffprobe(files[1].1, "stream=time_base")["time_base"], "1/19200", "FFmpeg's MP4 clock")
        for (ext, file) in files {
            var edit = Edit(clips: [clip(file)])
            edit.frameRate = FrameRate(30)
            edit.output.codec = .ffv1
            let out = path("late-out-\(ext).mkv")
            _ = try render(edit, to: out, backend: .cpu, audio: false)
            XCTAssertEqual(try counters(out), Array(0..<45), ext)
        }
    }

    /// The iPhone 4S clip of `../shared/media` (1/600 s late frames, turned −90°) remuxed into MP4 by FFmpeg renders
    /// exactly as the original: the same 66 output frames at 30 fps, each a different picture.
    func testRemuxedPhoneClipRendersAsTheOriginal() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media not present") }
        let mov = "\(media)/iphone4s_rot-90_audiofirst.mov"
        let mp4 = path("iphone4s-remuxed.mp4")
        try TestSupport.ffmpeg(["-i", mov, "-map", "0:v", "-c", "copy", mp4])
        var hashes: [[String]] = []
        for file in [mov, mp4] {
            var edit = Edit(clips: [clip(file)])
            edit.frameRate = FrameRate(30)
            edit.renderSize = PixelSize(width: 72, height: 128)
            edit.output.codec = .ffv1
            let out = path("phone-\(hashes.count).mkv")
            _ = try render(edit, to: out, backend: .cpu, audio: false)
            hashes.append(try framemd5(out, "v"))
        }
        XCTAssertEqual(hashes[0].count, 66)
        let pictures = hashes[0].map { $0.split(separator: ",").last!.trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(Set(pictures).count, 66, "every output frame a different picture of the phone")
        XCTAssertEqual(hashes[1], hashes[0], "the remux shows the same pictures at the same frames")
    }
}
