import XCTest
import SegueCore
import SegueEdit
import SegueMedia
import SeguePipeline
@testable import SegueFarm
import SegueTestSupport

/// Render-farm chunks: plan, render each chunk on its own, stitch, and compare with a single pass.
final class ChunkTests: EndToEndTestCase {
    /// Three 1 s clips with audio (440/660/880 Hz) joined by a 0.6 s crossfade and a 0.3 s push: 63 frames at 30 fps.
    /// Split in 4 chunks ([0,15), [15,31), [31,47), [47,63)) the seam at 15 falls inside the crossfade [12, 30).
    func makeEdit(codec: String = "h264", crf: Int = 18) throws -> String {
        let dir = self.dir
        _ = try TestSupport.concurrentMap(Array([440, 660, 880].enumerated())) { k, f in
            try TestSupport.makeClip("\(dir)/c\(k).mp4", video: "testsrc2=s=96x64:r=30:d=1,hue=h=\(k * 120)",
                                     audio: "sine=f=\(f):d=1:r=48000", extra: ["-g", "8"])
        }
        let e = path("edit.json")
        try Data("""
        {"renderSize": {"width": 64, "height": 48}, "frameRate": 30,
         "clips": [{"path": "c0.mp4"},
                   {"path": "c1.mp4", "transition": {"type": "crossfade", "duration": 0.6}},
                   {"path": "c2.mp4", "transition": {"type": "push", "duration": 0.3, "direction": "up"}}],
         "output": {"codec": "\(codec)", "crf": \(crf), "preset": "medium"}}
        """.utf8).write(to: URL(fileURLWithPath: e))
        return e
    }

    func assertIdentical(_ chunked: String, _ single: String, frames: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let a = try framemd5(chunked, "v"), b = try framemd5(single, "v")
        XCTAssertEqual(a.count, frames, file: file, line: line)
        XCTAssertEqual(a, b, "video frames or timestamps differ", file: file, line: line)
        // Presentation times 0, 1, …, frames − 1 in the 1/30 time base: continuous and unique.
        let pts = a.compactMap { Int($0.split(separator: ",")[2].trimmingCharacters(in: .whitespaces)) }
        XCTAssertEqual(pts, Array(0..<frames), file: file, line: line)
        let audioA = try framemd5(chunked, "a"), audioB = try framemd5(single, "a")
        XCTAssertGreaterThan(audioA.count, 0, file: file, line: line)
        XCTAssertEqual(audioA, audioB, "audio differs", file: file, line: line)
    }

    func testLosslessX264ChunksStitchToTheSinglePassFrameForFrame() throws {
        let edit = try makeEdit(crf: 0)
        let planPath = path("plan.json")
        let p = try segue(["plan", edit, "--chunks", "4", "-o", planPath])
        XCTAssertEqual(p.status, 0, p.stderr)
        let plan = try ChunkPlanner.load(planPath)
        XCTAssertEqual(plan.totalFrames, 63)
        XCTAssertEqual(plan.chunks.map(\.start), [0, 15, 31, 47])
        // A seam inside the crossfade: frame 15 blends both clips.
        let report = TimelineReport(try RenderJob.resolve(try EditFile.load(path: edit)))
        let fade = try XCTUnwrap(report.clips[1].transition)
        XCTAssertTrue((fade.firstFrame..<fade.endFrame).contains(15), "\(fade)")

        try renderChunked(planPath, chunks: path("chunks"), out: path("chunked.mp4"), backend: "gpu")
        let single = try segue(["render", edit, "-o", path("single.mp4"), "--backend", "gpu"])
        XCTAssertEqual(single.status, 0, single.stderr)
        try assertIdentical(path("chunked.mp4"), path("single.mp4"), frames: 63)
        let probe = try TestSupport.ffprobe(path("chunked.mp4"), "stream=duration,nb_frames")
        XCTAssertEqual(Double(probe["duration"] ?? "") ?? 0, 2.1, accuracy: 0.0001)
    }

    func testFFV1ChunksStitchToTheSinglePassFrameForFrame() throws {
        let edit = try makeEdit(codec: "ffv1")
        let planPath = path("plan.json")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "4", "-o", planPath]).status, 0)
        XCTAssertEqual(try ChunkPlanner.load(planPath).audio?.file, "audio.mka")
        try renderChunked(planPath, chunks: path("chunks"), out: path("chunked.mkv"))
        XCTAssertEqual(try segue(["render", edit, "-o", path("single.mkv"), "--backend", "cpu"]).status, 0)
        try assertIdentical(path("chunked.mkv"), path("single.mkv"), frames: 63)
    }

    func testLossyChunkSeamsAreWithin1dBOfTheSinglePass() throws {
        let edit = try makeEdit()
        let planPath = path("plan.json")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "4", "-o", planPath]).status, 0)
        // The single pass and the lossless picture both encodes started from, in the background meanwhile.
        nonisolated(unsafe) let test = self
        let others = Background { [try test.segue(["render", edit, "-o", test.path("single.mp4"), "--backend", "cpu"]),
                                   try test.segue(["render", edit, "--codec", "ffv1", "--no-audio", "-o", test.path("reference.mkv"), "--backend", "cpu"])] }
        try renderChunked(planPath, chunks: path("chunks"), out: path("chunked.mp4"))
        XCTAssertEqual(try others.value().map(\.status), [0, 0])
        let ref = try TestSupport.decodeFrames(path("reference.mkv"), width: 64, height: 48)
        let chunked = try TestSupport.decodeFrames(path("chunked.mp4"), width: 64, height: 48)
        let single = try TestSupport.decodeFrames(path("single.mp4"), width: 64, height: 48)
        XCTAssertEqual(chunked.count, 63)
        XCTAssertEqual(single.count, 63)
        let plan = try ChunkPlanner.load(planPath)
        for seam in plan.chunks.dropFirst().map({ Int($0.start) }) {
            for f in (seam - 2)...(seam + 2) {
                let c = PlaneDifference(chunked[f], ref[f]).psnr, s = PlaneDifference(single[f], ref[f]).psnr
                print(String(format: "seam %d frame %d: chunked %.2f dB, single pass %.2f dB", seam, f, c, s))
                XCTAssertGreaterThanOrEqual(c, s - 1, String(format: "frame %d next to the seam at %d: chunked %.2f dB, single pass %.2f dB", f, seam, c, s))
            }
        }
        let probe = try TestSupport.ffprobe(path("chunked.mp4"), "stream=duration")
        XCTAssertEqual(Double(probe["duration"] ?? "") ?? 0, 2.1, accuracy: 0.0001)
        XCTAssertEqual(try framemd5(path("chunked.mp4"), "a"), try framemd5(path("single.mp4"), "a"), "audio differs")
    }

    func testStitchRefusesMissingAndWrongChunksNamingTheCommands() throws {
        let edit = try makeEdit(codec: "ffv1")
        let planPath = path("plan.json"), chunks = path("chunks")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "4", "--no-audio", "-o", planPath]).status, 0)
        let plan = try ChunkPlanner.load(planPath)
        var options = RenderOptions()
        options.backend = .cpu
        let edited = try EditFile.load(path: edit)
        for c in plan.chunks { _ = try RenderJob.renderChunk(edited, plan: plan, index: c.index, directory: chunks, options: options) }
        XCTAssertEqual(Stitcher.problems(plan, directory: chunks).count, 0)

        // A temporary file left by a killed attempt goes when the chunk is rendered again.
        let leftover = "\(chunks)/.chunk_0002.mkv.segue-999999.tmp"
        XCTAssertTrue(FileManager.default.createFile(atPath: leftover, contents: Data("partial".utf8)))
        try FileManager.default.removeItem(atPath: "\(chunks)/chunk_0002.json")
        _ = try RenderJob.renderChunk(edited, plan: plan, index: 2, directory: chunks, options: options)
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover))

        // Re-running a finished chunk does nothing.
        let before = try FileManager.default.attributesOfItem(atPath: "\(chunks)/chunk_0001.mkv")[.modificationDate] as? Date
        guard case .alreadyDone = try RenderJob.renderChunk(edited, plan: plan, index: 1, directory: chunks, options: options) else {
            return XCTFail("a finished chunk was rendered again")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: "\(chunks)/chunk_0001.mkv")[.modificationDate] as? Date, before)

        // Chunk 2 missing, chunk 1 from other settings, chunk 3 replaced by chunk 0 (wrong frame count).
        try FileManager.default.removeItem(atPath: "\(chunks)/chunk_0002.mkv")
        let sidecar = "\(chunks)/chunk_0001.json"
        let changed = try String(contentsOfFile: sidecar, encoding: .utf8).replacingOccurrences(of: plan.settingsHash, with: String(repeating: "0", count: 64))
        try changed.write(toFile: sidecar, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: "\(chunks)/chunk_0003.mkv")
        try FileManager.default.copyItem(atPath: "\(chunks)/chunk_0000.mkv", toPath: "\(chunks)/chunk_0003.mkv")

        let problems = Stitcher.problems(plan, directory: chunks)
        XCTAssertEqual(problems.map(\.index), [1, 2, 3])
        XCTAssertTrue(problems[0].reason.contains("settings"), problems[0].reason)
        XCTAssertTrue(problems[1].reason.contains("missing"), problems[1].reason)
        XCTAssertTrue(problems[2].reason.contains("has 15 frames, the plan says 16"), problems[2].reason)

        let out = path("out.mkv")
        let r = try segue(["stitch", "--plan", planPath, chunks, "-o", out])
        XCTAssertEqual(r.status, 2, r.stderr)
        for i in 1...3 { XCTAssertTrue(r.stderr.contains("segue render --plan \(planPath) --chunk \(i) -o \(chunks)"), r.stderr) }
        XCTAssertFalse(r.stderr.contains("--chunk 0 "), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))

        // Following the listed commands mends it.
        for i in 1...3 {
            XCTAssertEqual(try segue(["render", "--plan", planPath, "--chunk", "\(i)", "-o", chunks, "--backend", "cpu"]).status, 0)
        }
        XCTAssertEqual(try segue(["stitch", "--plan", planPath, chunks, "-o", out]).status, 0)
        XCTAssertEqual(try framemd5(out, "v").count, 63)

        // Chunks 1 and 3 (16 frames each) swapped, sidecars kept; chunk 2 damaged in place (same size).
        let fm = FileManager.default
        try fm.moveItem(atPath: "\(chunks)/chunk_0001.mkv", toPath: "\(chunks)/swap.mkv")
        try fm.moveItem(atPath: "\(chunks)/chunk_0003.mkv", toPath: "\(chunks)/chunk_0001.mkv")
        try fm.moveItem(atPath: "\(chunks)/swap.mkv", toPath: "\(chunks)/chunk_0003.mkv")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(chunks)/chunk_0002.mkv"))
        for k in (bytes.count / 2)..<(bytes.count / 2 + 64) { bytes[k] = 0 }
        try bytes.write(to: URL(fileURLWithPath: "\(chunks)/chunk_0002.mkv"))
        let found = Stitcher.problems(plan, directory: chunks)
        XCTAssertEqual(found.map(\.index), [1, 2, 3])
        XCTAssertTrue(found.allSatisfy { $0.reason.contains("not the one its sidecar describes") }, "\(found)")
        // A damaged chunk is not taken for a finished one.
        guard case .rendered = try RenderJob.renderChunk(edited, plan: plan, index: 2, directory: chunks, options: options) else {
            return XCTFail("a damaged chunk was taken for a finished one")
        }
    }

    func testTheAudioPassIsCheckedAgainstThePlanAndNoOutputReplacesAnInput() throws {
        let edit = try makeEdit(codec: "ffv1")
        let planPath = path("plan.json"), chunks = path("chunks")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "2", "-o", planPath]).status, 0)
        for i in 0...1 { XCTAssertEqual(try segue(["render", "--plan", planPath, "--chunk", "\(i)", "-o", chunks, "--backend", "cpu"]).status, 0) }
        // An audio file without the plan's sidecar (rendered from the edit, not the plan) is refused.
        XCTAssertEqual(try segue(["render-audio", edit, "-o", "\(chunks)/audio.mka"]).status, 0)
        var r = try segue(["stitch", "--plan", planPath, chunks, "-o", path("out.mkv")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("the audio pass: no readable sidecar"), r.stderr)
        XCTAssertTrue(r.stderr.contains("segue render-audio --plan \(planPath) -o \(chunks)/audio.mka"), r.stderr)
        // Outputs may not replace an input: a clip, the edit file, a chunk, the audio pass.
        for (command, out) in [(["render-audio", "--plan", planPath], path("c0.mp4")),
                               (["stitch", "--plan", planPath, chunks], path("c1.mp4")),
                               (["stitch", "--plan", planPath, chunks], "\(chunks)/chunk_0000.mkv"),
                               (["stitch", "--plan", planPath, chunks], "\(chunks)/audio.mka")] {
            let before = try Data(contentsOf: URL(fileURLWithPath: out))
            r = try segue(command + ["-o", out])
            XCTAssertEqual(r.status, 2, "\(command) -o \(out): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("choose another output path"), r.stderr)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), before)
        }
        XCTAssertEqual(try segue(["render-audio", "--plan", planPath, "-o", "\(chunks)/audio.mka"]).status, 0)
        r = try segue(["stitch", "--plan", planPath, chunks, "-o", path("out.mkv")])
        XCTAssertEqual(r.status, 0, r.stderr)
        // A clip changes after planning: the audio pass is refused too (the plan holds the edit: the edit file's own
        // changes do not matter).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path("c0.mp4"))
        r = try segue(["render-audio", "--plan", planPath, "-o", "\(chunks)/audio.mka"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("c0.mp4 changed (its modification time"), r.stderr)
        // A plan without audio has no audio pass to render.
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "2", "--no-audio", "-o", path("silent.json")]).status, 0)
        r = try segue(["render-audio", "--plan", path("silent.json"), "-o", path("a.mka")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("no audio pass"), r.stderr)
    }

    func testAPlanWhoseChunksOverlapIsRefused() throws {
        let edit = try makeEdit(codec: "ffv1")
        let planPath = path("plan.json")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "3", "-o", planPath]).status, 0)
        let text = try String(contentsOfFile: planPath, encoding: .utf8)
        try text.replacingOccurrences(of: "\"end\" : 42", with: "\"end\" : 45").write(toFile: planPath, atomically: true, encoding: .utf8)
        let r = try segue(["stitch", "--plan", planPath, path("chunks"), "-o", path("out.mkv")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("chunk 2 covers [42, 63); it must start at frame 45"), r.stderr)
    }

    func testChunkExitCodesForRetriesAndInvalidInput() throws {
        let edit = try makeEdit(codec: "ffv1")
        let planPath = path("plan.json"), chunks = path("chunks")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "3", "--size", "32x32", "-o", planPath]).status, 0)
        let base = ["render", "--plan", planPath, "-o", chunks, "--backend", "cpu"]
        // Fails once (transient), then succeeds.
        let once = ["SEGUE_TEST_FAIL_CHUNK": "1:1"]
        var r = try segue(base + ["--chunk", "1"], env: once)
        XCTAssertEqual(r.status, 75, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(chunks)/chunk_0001.mkv"))
        r = try segue(base + ["--chunk", "1"], env: once)
        XCTAssertEqual(r.status, 0, r.stderr)
        // --chunk auto reads the engine's index.
        r = try segue(base + ["--chunk", "auto"], env: ["SLURM_ARRAY_TASK_ID": "2", "SEGUE_TEST_FAIL_CHUNK": "2:always"])
        XCTAssertEqual(r.status, 75, r.stderr)
        r = try segue(base + ["--chunk", "auto"], env: ["JOB_COMPLETION_INDEX": "2"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("chunk 2"), r.stderr)
        // No GPU context (EGL start-up): worth a retry elsewhere.
        r = try segue(["render", "--plan", planPath, "-o", chunks, "--backend", "gpu", "--chunk", "0"], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(r.status, 75, r.stderr)
        XCTAssertTrue(r.stderr.contains("transient"), r.stderr)
        // Invalid: out of range, a plan made with other settings, options the plan fixes, a broken plan.
        r = try segue(base + ["--chunk", "3"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("not in the plan (0…2)"), r.stderr)
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "3", "--size", "48x48", "-o", path("other.json")]).status, 0)
        r = try segue(["render", edit, "--plan", path("other.json"), "--chunk", "0", "-o", chunks, "--backend", "cpu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        r = try segue(base + ["--chunk", "0", "--crf", "30"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--crf 30 would change them"), r.stderr)
        // Options that repeat what the plan fixes (the edit file's codec, the plan's size) are accepted.
        r = try segue(base + ["--chunk", "0", "--codec", "ffv1", "--size", "32x32"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: path("broken.json")))
        r = try segue(["render", "--plan", path("broken.json"), "--chunk", "0", "-o", chunks])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("not a Segue chunk plan"), r.stderr)
        // The edit file changed after planning: the plan holds the edit it was made from, which the workers render.
        let changed = try String(contentsOfFile: edit, encoding: .utf8).replacingOccurrences(of: "\"duration\": 0.6", with: "\"duration\": 0.5")
        try changed.write(toFile: edit, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: "\(chunks)/chunk_0000.mkv")
        r = try segue(base + ["--chunk", "0"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // A clip changed after planning (a new modification time): refused, exit 2, naming it.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path("c1.mp4"))
        r = try segue(base + ["--chunk", "1"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(path("c1.mp4")) changed (its modification time"), r.stderr)
        XCTAssertTrue(r.stderr.contains("since the edit was resolved"), r.stderr)
    }

    /// Issue 15: a clip re-encoded to the same size (and given back its old modification time) is noticed: the plan's
    /// edit hash covers each file's head and tail, not only its size, so a worker refuses the plan (exit 2).
    func testSameSizeClipSwapIsNoticed() throws {
        let edit = try makeEdit()
        let planPath = path("plan.json")
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "2", "-o", planPath]).status, 0)
        // Another clip of c1's length, padded with zeros to c1's exact size (players ignore trailing bytes).
        let c1 = path("c1.mp4"), other = path("other.mp4")
        try TestSupport.makeClip(other, video: "testsrc=s=96x64:r=30:d=1", audio: "sine=f=660:d=1:r=48000", extra: ["-g", "8"])
        let original = try Data(contentsOf: URL(fileURLWithPath: c1)), another = try Data(contentsOf: URL(fileURLWithPath: other))
        let size = max(original.count, another.count)
        let padded = original + Data(count: size - original.count), replacement = another + Data(count: size - another.count)
        // Plan again with the padded original, so that only the content differs from what replaces it.
        try padded.write(to: URL(fileURLWithPath: c1))
        XCTAssertEqual(try segue(["plan", edit, "--chunks", "2", "-o", planPath]).status, 0)
        let mtime = try FileManager.default.attributesOfItem(atPath: c1)[.modificationDate] as! Date
        try replacement.write(to: URL(fileURLWithPath: c1))
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: c1)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: c1)).count, padded.count, "same size")
        let r = try segue(["render", "--plan", planPath, "--chunk", "0", "-o", path("chunks")])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("c1.mp4 changed (its content"), r.stderr)
        // Putting the planned content back makes the plan good again.
        try padded.write(to: URL(fileURLWithPath: c1))
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: c1)
        let ok = try segue(["render", "--plan", planPath, "--chunk", "0", "-o", path("chunks"), "--backend", "cpu"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testFarmDryRunWritesThePlanAndBatchScripts() throws {
        let edit = try makeEdit()
        let work = path("work")
        let r = try segue(["farm", "slurm", edit, "--chunks", "3", "-o", path("final.mp4"), "--work-dir", work, "--max-parallel", "2",
                           "--retries", "3", "--partition", "render", "--gres", "gpu:1", "--time", "0:30:00", "--square", "--dry-run"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let plan = try ChunkPlanner.load("\(work)/plan.json")
        XCTAssertEqual(plan.chunks.count, 3)
        // The plan holds the resolved edit, --square folded in: the workers replay no command line.
        XCTAssertEqual(plan.resolvedEdit["square"], .bool(true))
        XCTAssertNotNil(plan.resolvedEdit["resolved"]?["media"])
        let chunks = try String(contentsOfFile: "\(work)/chunks.sbatch", encoding: .utf8)
        for line in ["#SBATCH --array=0-2%2", "#SBATCH --requeue", "#SBATCH --partition=render", "#SBATCH --gres=gpu:1",
                     "#SBATCH --time=0:30:00", "--chunk auto -o \(work)/chunks", "\"$attempt\" -lt 3", "scontrol requeue"] {
            XCTAssertTrue(chunks.contains(line), "chunks.sbatch lacks \(line):\n\(chunks)")
        }
        let stitch = try String(contentsOfFile: "\(work)/stitch.sbatch", encoding: .utf8)
        XCTAssertTrue(stitch.contains("stitch --plan \(work)/plan.json \(work)/chunks -o \(path("final.mp4"))"), stitch)
        XCTAssertFalse(stitch.contains("--gres"), "only chunks need a GPU")
        XCTAssertTrue(r.stderr.contains("--dependency=afterok:CHUNKS:AUDIO --kill-on-invalid-dep=yes"), r.stderr)
        // The work folder is under the temporary directory: node-local, said so.
        XCTAssertTrue(r.stderr.contains("node-local"), r.stderr)
        // A clip changes: resuming would fail every chunk again, so resume refuses before asking Slurm.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path("c1.mp4"))
        let resumed = try segue(["farm", "resume", work])
        XCTAssertEqual(resumed.status, 2, resumed.stderr)
        XCTAssertTrue(resumed.stderr.contains("run `segue farm slurm` again"), resumed.stderr)
    }
}
