import XCTest
import SegueCore
import SegueEdit
import SegueMedia
@testable import SegueFarm
import SegueTestSupport

/// Templates on the command line and batches (issue 34): `segue batch` renders a row per output, names read back by
/// OCR; bad rows fail alone; the results file; a second run skips what is there; posters are `segue frame`'s frames;
/// `--set` fills `plan`; a `../` value is refused by `--root`.
final class BatchTests: EndToEndTestCase {
    /// The rows' names, read back by OCR.
    static let names = ["Alice", "Bruno", "Chloe", "Daniel", "Emma", "Frank", "Grace", "Henry", "Irene", "Julia",
                        "Karl", "Laura", "Maria", "Nora", "Oscar", "Peter", "Quinn", "Rosa", "Simon", "Tessa"]

    /// A template of a photo under a title (320x180, 10 fps, 1 s), its photo and a row file: 20 rows (issue 34's
    /// batch; `count` of them), rows 2 and 5 naming a photo that is not there, row 4's name quoted.
    func makeBatch(rows count: Int = 20) throws -> (template: String, data: String) {
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "color=c=white:s=320x180", "-frames:v", "1", path("white.png")])
        let template = path("card.json")
        try Data(#"""
        {"renderSize": {"width": 320, "height": 180}, "frameRate": 10,
         "tracks": [{"clips": [{"path": "{{photo}}", "duration": "{{secs|1}}"}]},
                    {"clips": [{"text": "{{name}}", "duration": "{{secs|1}}", "style": {"color": "{{ink|black}}", "size": 56}}]}]}
        """#.utf8).write(to: URL(fileURLWithPath: template))
        let data = path("rows.csv")
        let rows = BatchTests.names.prefix(count).enumerated().map { k, name in
            let id = k + 1
            return "\(id),\(id == 4 ? "\"\(name)\"" : name),\(id == 2 ? "missing.png" : id == 5 ? "nope.png" : "white.png")\r\n"
        }
        try Data(("id,name,photo\r\n" + rows.joined()).utf8).write(to: URL(fileURLWithPath: data))
        return (template, data)
    }

    func ocr(_ png: String) throws -> String {
        let r = try TestSupport.run("tesseract", [png, "-", "--psm", "7"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func results(_ file: String) throws -> [BatchResult] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map { try JSONDecoder().decode(BatchResult.self, from: Data($0.utf8)) }
    }

    func testBatchRendersGoodRowsAndSkipsThemAfter() throws {
        let (template, data) = try makeBatch()
        let args = ["batch", template, data, "-o", path("out/{{id}}.mp4"), "--poster", path("out/{{id}}.png"), "--poster-at", "0.5",
                    "--jobs", "2", "--backend", "cpu", "--no-audio", "--progress", "json"]
        let r = try segue(args)
        XCTAssertEqual(r.status, 1, r.stderr)
        let progress = r.stderr.split(separator: "\n").filter { $0.hasPrefix("{") }
        XCTAssertEqual(progress.count, 20, r.stderr)
        XCTAssert(progress.last?.contains(#""done":20"#) == true && progress.last?.contains(#""failed":2"#) == true, r.stderr)
        let first = try results(path("out/batch-results.jsonl"))
        let expected = (1...20).map { [2, 5].contains($0) ? "failed" : "ok" }
        XCTAssertEqual(first.map(\.row), Array(1...20))
        XCTAssertEqual(first.map(\.status), expected)
        XCTAssert(first[1].error?.contains("missing.png") == true, "\(first[1])")
        let good = first.filter { $0.status == "ok" }
        XCTAssertEqual(good.count, 18)
        let dir = self.dir
        let read = try TestSupport.concurrentMap(good) { r -> (BatchResult, String, String?, String) in
            let still = "\(dir)/frame\(r.row).png"
            try TestSupport.ffmpeg(["-i", r.output, "-frames:v", "1", still])
            let frames = try TestSupport.ffprobe(r.output, "stream=nb_read_frames", count: true)["nb_read_frames"]
            let text = try TestSupport.run("tesseract", [still, "-", "--psm", "7"]).text.trimmingCharacters(in: .whitespacesAndNewlines)
            return (r, text, frames, Digest.sha256(file: r.output) ?? "")
        }
        for (r, text, frames, hash) in read {
            XCTAssertEqual(r.output, path("out/\(r.row).mp4"))
            XCTAssertEqual(r.sha256, hash)
            XCTAssertEqual(frames, "10")
            XCTAssertEqual(text, BatchTests.names[r.row - 1], "row \(r.row)'s title")
        }
        for bad in [2, 5] { XCTAssertFalse(FileManager.default.fileExists(atPath: path("out/\(bad).mp4"))) }
        // Each row's process recorded its own result (what an array task leaves behind), and the runner took it.
        for r in first {
            let own = try JSONDecoder().decode(BatchResult.self, from: Data(contentsOf: URL(fileURLWithPath: path("out/batch-results.jsonl.rows/\(r.row).json"))))
            XCTAssertEqual(own, r)
        }

        // The poster is the frame `segue frame` draws at that instant, pixel for pixel.
        let frame = path("frame-at.png")
        let f = try segue(["frame", template, "--set", "name=Chloe", "--set", "photo=white.png", "--at", "0.5", "--backend", "cpu", "-o", frame])
        XCTAssertEqual(f.status, 0, f.stderr)
        let poster = try StillImage.read(path("out/3.png")), single = try StillImage.read(frame)
        XCTAssertEqual(poster.width, 320)
        XCTAssertEqual(poster.pixels, single.pixels)
        XCTAssertEqual(try ocr(path("out/3.png")), "Chloe")

        // Again: the rendered rows are skipped (their files untouched), the bad ones fail again.
        let before = try FileManager.default.attributesOfItem(atPath: path("out/1.mp4"))[.modificationDate] as? Date
        let again = try segue(args)
        XCTAssertEqual(again.status, 1, again.stderr)
        let second = try results(path("out/batch-results.jsonl"))
        XCTAssertEqual(second.map(\.status), expected.map { $0 == "ok" ? "skipped" : $0 })
        XCTAssertEqual(second[0].sha256, first[0].sha256)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path("out/1.mp4"))[.modificationDate] as? Date, before)

        // One row as an array task runs it.
        let one = try segue(["batch", template, data, "-o", path("one/{{id}}.mp4"), "--row", "4", "--poster", path("one/{{name}}.jpg"),
                             "--backend", "cpu", "--no-audio"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("one/4.mp4")))
        // A JPEG poster: the same frame, within JPEG's loss.
        let jpeg = try StillImage.read(path("one/Daniel.jpg"))
        XCTAssertEqual(jpeg.width, 320)
        XCTAssertEqual(try ocr(path("one/Daniel.jpg")), "Daniel")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("one/3.mp4")))
    }

    /// `--set` fills `plan`'s edit (the words and the path it shows); a missing value is an edit error naming the
    /// field; a `../` value is a path like any other, refused outside `--root`.
    func testSetFillsPlanAndPolicyJudgesPaths() throws {
        let (template, _) = try makeBatch()
        let plan = try segue(["plan", template, "--set", "name=Zoe \"the\" \\ }} {{name}}", "--set", "photo=white.png", "--set", "secs=0.5"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssert(plan.text.contains(#"Zoe "the" \ }} {{name}}"#), plan.text)
        XCTAssert(plan.text.contains("white.png: still"), plan.text)
        XCTAssert(plan.text.contains("5 frames"), plan.text)
        let missing = try segue(["plan", template, "--set", "photo=white.png"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssert(missing.stderr.contains("tracks[1].clips[0].text") && missing.stderr.contains("{{name}}"), missing.stderr)
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: template, toPath: "\(root)/card.json")
        let refused = try segue(["plan", "\(root)/card.json", "--root", root, "--set", "name=X", "--set", "photo=../white.png"])
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssert(refused.stderr.contains("\(path("white.png")) is outside the root"), refused.stderr)
        let values = path("values.json")
        try Data(#"{"name": "Yan", "photo": "white.png", "secs": 0.3}"#.utf8).write(to: URL(fileURLWithPath: values))
        let fromFile = try segue(["plan", template, "--values", values])
        XCTAssertEqual(fromFile.status, 0, fromFile.stderr)
        XCTAssert(fromFile.text.contains("Yan") && fromFile.text.contains("3 frames"), fromFile.text)
    }

    func testCSVAndJSONLines() throws {
        let records = try BatchData.csv("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",\n", source: "t.csv")
        XCTAssertEqual(records, [["a", "b"], ["x, y", "say \"hi\""], ["two\nlines", ""]])
        XCTAssertThrowsError(try BatchData.csv("a\n\"open\n", source: "t.csv"))
        XCTAssertThrowsError(try BatchData.csvRows("a,b\n1\n", source: "t.csv")) { XCTAssert("\($0)".contains("row 1"), "\($0)") }
        // A blank cell gives no value (the placeholder's default); quoted, it is the empty text.
        let blank = try BatchData.csvRows("a,b,c\nx,,\"\"\n", source: "t.csv")
        XCTAssertEqual(blank[0].values["a"], .string("x"))
        XCTAssertNil(blank[0].values["b"])
        XCTAssertEqual(blank[0].values["c"], .string(""))
        XCTAssertEqual(try Template.fill("{{b|1}} {{c|2}}", values: blank[0].values, field: "t"), "1 ")
        let rows = try BatchData.jsonLines("{\"id\": 1, \"vip\": true}\n\n{\"id\": \"b\"}\n", source: "t.jsonl")
        XCTAssertEqual(rows.map(\.number), [1, 2])
        XCTAssertEqual(rows[0].values["vip"], .bool(true))
        XCTAssertEqual(rows[1].values["id"], .string("b"))
        XCTAssertThrowsError(try Batch(rows: rows + [BatchRow(number: 3, values: TemplateValues(["id": .number(1)]))], output: "o/{{id}}.mp4", poster: nil, results: nil))
    }

    /// A value fills a file name, never a path: a row whose values would put its output outside the pattern's folders
    /// (`../`, `/`, `.`) or put a control character in its name fails alone; the results file goes in the pattern's
    /// folder before its first placeholder whatever the rows hold, and is checked against `--output-root`; a data file
    /// without rows is refused.
    func testValuesNameFilesNotPaths() throws {
        let rows = try BatchData.csvRows("id,name\n1,ok\n2,../../escape\n3,/tmp/abs\n4,\"two\nlines\"\n5,..\n6,a.b\n", source: "t.csv")
        let batch = try Batch(rows: rows, output: path("o/{{name}}.mp4"), poster: nil, results: nil)
        // (".." as a name's part is a name: "...mp4".)
        XCTAssertEqual(batch.jobs.map(\.output), [path("o/ok.mp4"), "", "", "", path("o/...mp4"), path("o/a.b.mp4")])
        XCTAssert(batch.jobs[1].nameError?.contains("may not hold /") == true, "\(batch.jobs[1])")
        XCTAssert(batch.jobs[3].nameError?.contains("two\\u000Alines") == true, "\(batch.jobs[3])")
        XCTAssertEqual(batch.resultsPath, path("o/batch-results.jsonl"))
        XCTAssertEqual(Batch.fixedFolder(of: "out/{{country}}/{{id}}.mp4"), "out")
        XCTAssertEqual(Batch.fixedFolder(of: "{{id}}.mp4"), ".")
        XCTAssertEqual(Batch.fixedFolder(of: "/{{id}}.mp4"), "/")
        // A folder of the pattern may be a value (one name, not a path).
        let nested = try Batch(rows: try BatchData.csvRows("id,c\n1,fr\n2,../x\n", source: "t.csv"), output: "out/{{c}}/{{id}}.mp4", poster: nil, results: nil)
        XCTAssertEqual(nested.jobs.map(\.output), ["out/fr/1.mp4", ""])
        XCTAssertEqual(nested.resultsPath, FileManager.default.currentDirectoryPath + "/out/batch-results.jsonl")

        let template = path("t.json")
        try Data(#"{"renderSize": {"width": 64, "height": 48}, "frameRate": 10, "clips": [{"fill": "{{c}}", "duration": 0.2}]}"#.utf8)
            .write(to: URL(fileURLWithPath: template))
        // A value no placeholder uses is said, with the nearest name used; a batch says so once for a column.
        let unused = try segue(["plan", template, "--set", "c=red", "--set", "d=x"])
        XCTAssertEqual(unused.status, 0, unused.stderr)
        XCTAssert((unused.stderr + unused.text).contains("--set/--values d: the template has no placeholder {{d}} (did you mean c?)"), unused.stderr + unused.text)
        try Data("c,nom\nred,x\nblue,y\n".utf8).write(to: URL(fileURLWithPath: path("nom.csv")))
        let column = try segue(["batch", template, path("nom.csv"), "-o", path("n/{{c}}.mp4"), "--progress", "none"])
        XCTAssertEqual(column.status, 0, column.stderr)
        XCTAssertEqual(column.stderr.components(separatedBy: "column or --set nom: the template has no placeholder {{nom}}").count, 2, column.stderr)
        try Data("c\n".utf8).write(to: URL(fileURLWithPath: path("empty.csv")))
        let empty = try segue(["batch", template, path("empty.csv"), "-o", path("e/{{c}}.mp4")])
        XCTAssertEqual(empty.status, 2, empty.stderr)
        XCTAssert(empty.stderr.contains("has no rows"), empty.stderr)
        try Data("c\nred\n".utf8).write(to: URL(fileURLWithPath: path("red.csv")))
        let root = path("root")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let outside = try segue(["batch", template, path("red.csv"), "-o", "\(root)/{{c}}.mp4", "--output-root", root, "--results", path("r.jsonl")])
        XCTAssertEqual(outside.status, 2, outside.stderr)
        XCTAssert(outside.stderr.contains("--results \(path("r.jsonl")) is outside the output root"), outside.stderr)
    }

    /// The runner alone, rows "rendered" by writing their names: a failure fails its row alone; a second run skips
    /// what is there with its recorded hash and renders again an output that changed or went missing; a row whose
    /// output name lacks a value fails without rendering.
    func testRunnerSkipsOnlyWhatIsThereWithItsHash() throws {
        let rows = try BatchData.csvRows("id,word\n1,a\n2,fail\n3,c\n4,d\n", source: "t.csv")
            + [BatchRow(number: 5, values: TemplateValues(["word": .string("e")]))]
        let batch = try Batch(rows: rows, output: path("r/{{id}}.txt"), poster: nil, results: nil)
        XCTAssertEqual(batch.resultsPath, path("r/batch-results.jsonl"))
        let rendered = Collected<[Int]>([])
        let render: @Sendable (Batch.Job) -> String? = { job in
            rendered.update { $0.append(job.row.number) }
            if job.row.values["word"] == .string("fail") { return "no such word" }
            FileManager.default.createFile(atPath: job.output, contents: Data(job.row.values["word"]!.text.utf8))
            return nil
        }
        let first = batch.run(jobs: 2, render: render, progress: { _ in })
        XCTAssertEqual(first.map(\.status), ["ok", "failed", "ok", "ok", "failed"])
        XCTAssertEqual(first[1].error, "no such word")
        XCTAssert(first[4].error?.contains("{{id}}") == true, "\(first[4])")
        XCTAssertEqual(first[0].sha256, Digest.sha256("a"))
        XCTAssertEqual(Set(rendered.value), [1, 2, 3, 4])
        try Data("changed".utf8).write(to: URL(fileURLWithPath: path("r/3.txt")))
        try FileManager.default.removeItem(atPath: path("r/4.txt"))
        rendered.update { $0 = [] }
        let second = batch.run(jobs: 2, render: render, progress: { _ in })
        XCTAssertEqual(second.map(\.status), ["skipped", "failed", "ok", "ok", "failed"])
        XCTAssertEqual(Set(rendered.value), [2, 3, 4])
        XCTAssertEqual(try String(contentsOfFile: path("r/3.txt"), encoding: .utf8), "c")
        XCTAssertEqual(try results(batch.resultsPath), second)
    }

    /// `--engine slurm --dry-run`: the array's script (a task per row, `--row "$SLURM_ARRAY_TASK_ID"`, the options
    /// passed on, paths quoted) and the `sbatch` command for the rows to render, nothing submitted; after a local
    /// run, only the rows that failed. (The real array runs in Tests/Farm/farm-test.sh.)
    func testSlurmDryRunWritesTheArray() throws {
        let (template, data) = try makeBatch(rows: 6)
        let common = ["batch", template, data, "-o", path("out/{{id}}.mp4"), "--backend", "cpu", "--no-audio", "--set", "note=two words"]
        let dry = try segue(common + ["--engine", "slurm", "--dry-run", "--partition", "render", "--max-parallel", "3", "--time", "10"])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssert(dry.stderr.contains("sbatch --parsable '--array=1-6%3'") || dry.stderr.contains("sbatch --parsable --array=1-6%3"), dry.stderr)
        let script = try String(contentsOfFile: path("out/batch-results.jsonl.slurm/batch.sbatch"), encoding: .utf8)
        XCTAssert(script.contains("#SBATCH --partition=render\n#SBATCH --time=10\n"), script)
        XCTAssert(script.contains(" batch \(template) \(data) -o '\(path("out/{{id}}.mp4"))' --backend cpu --no-audio --set 'note=two words' --row \"$row\""), script)
        XCTAssertEqual(try String(contentsOfFile: path("out/batch-results.jsonl.slurm/rows.txt"), encoding: .utf8), "1\n2\n3\n4\n5\n6\n")
        // The task's lines of rows.txt, as bash reads them: task 2 of a script grouping 4 rows a task has rows 5 and 6.
        let grouped = try Batch(rows: try BatchData.read(path: data), output: path("g/{{id}}.mp4"), poster: nil, results: nil)
            .slurmScript(segue: "/bin/echo", arguments: ["batch"], options: FarmOptions(), perTask: 4)
        try FileManager.default.createDirectory(atPath: path("g/batch-results.jsonl.slurm"), withIntermediateDirectories: true)
        try Data("1\n2\n3\n4\n5\n6\n".utf8).write(to: URL(fileURLWithPath: path("g/batch-results.jsonl.slurm/rows.txt")))
        let task = try TestSupport.run("/bin/bash", ["-c", grouped], environment: ["SLURM_ARRAY_TASK_ID": "2", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(task.status, 0, task.stderr)
        XCTAssertEqual(task.text, "batch --row 5\nbatch --row 6\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out/batch-results.jsonl")), "nothing ran")
        XCTAssertEqual(try segue(common + ["--progress", "none"]).status, 1)
        let again = try segue(common + ["--engine", "slurm", "--dry-run"])
        XCTAssert(again.stderr.contains("--array=1-2 "), again.stderr)
        XCTAssertEqual(try String(contentsOfFile: path("out/batch-results.jsonl.slurm/rows.txt"), encoding: .utf8), "2\n5\n")
    }
}
