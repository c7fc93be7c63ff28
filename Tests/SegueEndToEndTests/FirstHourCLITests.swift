import XCTest
import SegueCore
import SegueEdit
import SegueTestSupport

/// Issue 37 ("the first hour of a new user"), through the command line: an item until the edit's end and the warning
/// for one that lengthens it (#1), the dissolve names (#2), the default render size and why (#3), one rule for inputs
/// that are missing, empty or not media (#6).
final class FirstHourCLITests: EndToEndTestCase {
    func write(_ json: String, _ name: String = "edit.json") throws -> String {
        try Data(json.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// #1: a logo given 30 s over a 1 s clip: `plan` and `render` warn, naming it; `"duration": "edit"` ends it with the
    /// edit, and the render has the clip's frames.
    func testALogoUntilTheEditsEnd() throws {
        _ = try cornerClip("a.mp4", size: "64x48")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=red:s=16x16:d=1", "-frames:v", "1", path("logo.png")])
        let long = try write(#"{"tracks": [{"clips": [{"path": "a.mp4"}]}, {"clips": [{"path": "logo.png", "at": 0, "duration": 3, "layer": {"scale": 0.25}}]}]}"#)
        let plan = try segue(["plan", long, "--json"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let warning = "tracks[1].clips[0] (logo.png) on an upper track ends at 3 s, after the bottom track and the audio tracks (1 s): it makes the edit longer"
        XCTAssertTrue(plan.stderr.contains("warning: " + warning), plan.stderr)
        let report = try JSONDecoder().decode(TimelineReport.self, from: plan.stdout)
        XCTAssertEqual(report.frameCount, 90)
        XCTAssertEqual(report.warnings?.count, 1)
        XCTAssertTrue(report.warnings?.first?.hasPrefix(warning) == true, "\(report.warnings ?? [])")
        // A --title of its default 4 s over the 1 s clip: how to give it its length on the command line.
        let titled = try segue(["plan", path("a.mp4"), "--title", "Part 2: the end"])
        XCTAssertTrue(titled.stderr.contains("(text \"Part 2: the end\") on an upper track ends at 4 s") && titled.stderr.contains("(a --title: give its seconds, \"TEXT\":SECONDS)"), titled.stderr)

        let fitted = try write(#"{"tracks": [{"clips": [{"path": "a.mp4"}]}, {"clips": [{"path": "logo.png", "at": 0, "duration": "edit", "layer": {"scale": 0.25}}]}]}"#, "fitted.json")
        let r = try segue(["render", fitted, "--backend", "cpu", "--no-audio", "-o", path("fitted.mp4")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("warning:"), r.stderr)
        XCTAssertEqual(try TestSupport.decodeFrames(path("fitted.mp4"), width: 64, height: 48).count, 30)
        let warned = try segue(["render", long, "--backend", "cpu", "--no-audio", "-o", path("long.mp4")])
        XCTAssertEqual(warned.status, 0, warned.stderr)
        XCTAssertTrue(warned.stderr.contains("warning: " + warning), warned.stderr)
    }

    /// #2 and #3 in `plan`: a dissolve is a crossfade, FFmpeg's is pixeldissolve; the size and why.
    func testPlanSaysTheDissolveAndTheSize() throws {
        _ = try cornerClip("wide.mp4", size: "96x64", seconds: 2)
        _ = try cornerClip("tall.mp4", size: "48x64", seconds: 1)
        let edit = try write(#"{"clips": [{"path": "wide.mp4"}, {"path": "tall.mp4", "transition": {"type": "dissolve", "duration": 0.5}}, {"path": "wide.mp4", "transition": {"type": "xfade:dissolve", "duration": 0.5}}]}"#)
        let plan = try segue(["plan", edit])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.text.hasPrefix("render size 96x54, 30 fps"), plan.text)
        XCTAssertTrue(plan.text.contains("\nrender size 96x54: the clips differ in size; landscape prevails (4 s of 5 s): its standard size 1920x1080, scaled down to the largest source (96 pixels long, 64 short)\n"), plan.text)
        XCTAssertTrue(plan.text.contains("\n  crossfade 0.500 s: "), plan.text)
        XCTAssertTrue(plan.text.contains("\n  pixeldissolve (FFmpeg xfade's dissolve: random pixels, not a cross-dissolve) 0.500 s: "), plan.text)
        let list = try segue(["transitions"])
        XCTAssertTrue(list.text.hasPrefix("crossfade ") && list.text.contains("also named: dissolve\n"), list.text)
        XCTAssertTrue(list.text.contains("\npixeldissolve "), list.text)
        // On the command line too; a misspelt one suggests.
        let cli = try segue(["plan", path("wide.mp4"), path("wide.mp4"), "--transition", "dissolve:0.5"])
        XCTAssertTrue(cli.text.contains("\n  crossfade 0.500 s: "), cli.text + cli.stderr)
        let xfade = try segue(["plan", path("wide.mp4"), path("wide.mp4"), "--transition", "xfade:dissolve:0.5"])
        XCTAssertTrue(xfade.text.contains("\n  pixeldissolve (FFmpeg xfade's dissolve: random pixels, not a cross-dissolve) 0.500 s: "), xfade.text + xfade.stderr)
        let typo = try segue(["plan", path("wide.mp4"), path("wide.mp4"), "--transition", "pixeldisolve:0.5"])
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("did you mean \"pixeldissolve\""), typo.stderr)
    }

    /// #6: an input that is missing, empty (0 bytes), a directory, a FIFO or not a media file (a text file, whatever
    /// its name says) is an invalid edit (exit status 2), the message naming the field, the path and what it is; a
    /// damaged media file is a failed render (1).
    func testInputsThatAreNotMediaAreEditErrors() throws {
        _ = try cornerClip("good.mp4", size: "64x48")
        XCTAssertTrue(FileManager.default.createFile(atPath: path("empty.mp4"), contents: Data()))
        try FileManager.default.createDirectory(atPath: path("folder.mp4"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(path("fifo.mp4"), 0o644), 0)
        try Data("eggs, milk, bread\n".utf8).write(to: URL(fileURLWithPath: path("list.mp4")))
        for (name, what) in [("missing.mp4", "is missing: file not found"), ("empty.mp4", "is empty (0 bytes), not a media file"),
                             ("folder.mp4", "is a directory, not a media file"), ("fifo.mp4", "is a FIFO (named pipe), not a media file"),
                             ("list.mp4", "is a text file, not a media file")] {
            let edit = try write(#"{"clips": [{"path": "good.mp4"}, {"path": "\#(name)"}]}"#, "\(name).json")
            for command in ["plan", "render"] {
                let r = try segue([command, edit] + (command == "render" ? ["-o", path("out.mp4")] : []))
                XCTAssertEqual(r.status, 2, "\(command) \(name): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("segue: invalid edit: clips[1].path: \(path(name)) \(what)"), "\(command) \(name): \(r.stderr)")
                XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.mp4")))
            }
        }
        // The same for the music and for clips given on the command line.
        let music = try segue(["plan", path("good.mp4"), "--music", path("empty.mp4")])
        XCTAssertEqual(music.status, 2, music.stderr)
        XCTAssertTrue(music.stderr.contains("music.path: \(path("empty.mp4")) is empty (0 bytes), not a media file"), music.stderr)
        let clips = try segue(["plan", path("good.mp4"), path("list.mp4")])
        XCTAssertEqual(clips.status, 2, clips.stderr)
        XCTAssertTrue(clips.stderr.contains("clips[1].path: \(path("list.mp4")) is a text file"), clips.stderr)
        // A media file cut before its index is damaged, not a mistake in the edit: a failed render.
        try TestSupport.makeClip(path("moovlast.mp4"), video: "testsrc2=s=64x48:r=30:d=1")   // the index (moov) at the end
        let data = try Data(contentsOf: URL(fileURLWithPath: path("moovlast.mp4")))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path("cut.mp4")))
        let cut = try segue(["plan", path("cut.mp4")])
        XCTAssertEqual(cut.status, 1, cut.stderr)
        XCTAssertTrue(cut.stderr.contains("cut.mp4") && cut.stderr.contains("cannot open"), cut.stderr)
    }
}
