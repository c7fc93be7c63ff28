import XCTest
import Segue
import SegueFarm
import SegueTestSupport

/// What the one option table gives the `segue` command (issue 31 #3): per-command help, suggestions, shell completion
/// checked and driven by the shells themselves, the man page rendered by `man` and `groff` with warnings on and
/// regenerated without drift, and `--version` with the versions of the libraries loaded, against FFmpeg's and
/// HarfBuzz's own programs.
final class CLIHelpTests: EndToEndTestCase {
    /// The option names a help text lists (its lines "  -o, --output PATH  …", "  --size WxH  …").
    func optionNames(_ help: String) -> Set<String> {
        var names: Set<String> = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for part in line.dropFirst(2).split(separator: " ").prefix(2) where part.hasPrefix("-") {
                names.insert(String(part.hasSuffix(",") ? part.dropLast() : part))
            }
        }
        return names
    }

    /// The commands `segue help` lists.
    func listedCommands() throws -> [String] {
        let r = try segue(["help"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "commands:") else { XCTFail(r.text); return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.map { String($0.split(separator: " ")[0]) }
    }

    func testVersionNamesTheLibrariesFoundAtRunTime() throws {
        let r = try segue(["--version"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try segue(["version"]).text, r.text)
        var lines: [String: String] = [:]
        for line in r.text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            XCTAssertEqual(parts.count, 2, "\(line): a name and a version")
            if parts.count == 2 { lines[parts[0]] = parts[1] }
        }
        XCTAssertEqual(Set(lines.keys), ["segue", "FFmpeg", "libx264", "Mesa", "HarfBuzz"], r.text)
        XCTAssertEqual(lines["segue"], Segue.version)
        XCTAssertNotNil(Segue.version.range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression))
        // FFmpeg's own program, built on the same libraries: "ffmpeg version 5.1.9-0+deb12u1 Copyright …".
        let ffmpeg = try TestSupport.run("ffmpeg", ["-version"]).text.split(separator: "\n").first.map(String.init) ?? ""
        let release = ffmpeg.split(separator: " ").dropFirst(2).first.map(String.init) ?? "?"
        XCTAssertTrue(lines["FFmpeg"]?.hasPrefix(release + " (libavcodec ") ?? false, "\(lines["FFmpeg"] ?? "") against \(ffmpeg)")
        // x264 as ffmpeg's libx264 names itself in the stream it writes.
        let h264 = try TestSupport.run("ffmpeg", ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=s=16x16:d=0.04", "-frames:v", "1",
                                                   "-c:v", "libx264", "-f", "h264", "-"])
        let sei = String(decoding: h264.stdout, as: UTF8.self)
        let core = try XCTUnwrap(sei.range(of: #"x264 - core \d+ r\d+ [0-9a-f]+"#, options: .regularExpression).map { String(sei[$0].dropFirst(7)) })
        XCTAssertEqual(lines["libx264"], core)
        // HarfBuzz's own hb-view: "hb-view (HarfBuzz) 6.0.0".
        let hb = try TestSupport.run("hb-view", ["--version"]).text.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertEqual(hb.split(separator: " ").last.map(String.init), lines["HarfBuzz"], hb)
        // Mesa (llvmpipe here) from an EGL context ("not in use" where NVIDIA's driver answers); without EGL it says
        // so, and the command still succeeds.
        if let mesa = lines["Mesa"], !mesa.hasPrefix("no EGL") {
            XCTAssertNotNil(mesa.range(of: #"^(\d+\.\d+(\.\d+)? \(OpenGL ES \d\.\d Mesa |not in use \(OpenGL ES \d\.\d )"#, options: .regularExpression), mesa)
        } else if TestSupport.inCI {
            XCTFail("CI has Mesa's llvmpipe: \(r.text)")
        }
        let noEGL = try segue(["--version"], env: ["SEGUE_DISABLE_EGL": "1"])
        XCTAssertEqual(noEGL.status, 0, noEGL.stderr)
        XCTAssertTrue(noEGL.text.contains("\nMesa no EGL: EGL is disabled by SEGUE_DISABLE_EGL=1\n"), noEGL.text)
    }

    func testHelpListsOnlyTheCommandsOptions() throws {
        let overview = try segue(["help"])
        XCTAssertEqual(overview.status, 0, overview.stderr)
        XCTAssertEqual(try segue(["--help"]).text, overview.text)
        XCTAssertLessThan(overview.text.split(separator: "\n").count, 40, "an overview, not every option")
        XCTAssertEqual(try listedCommands().prefix(3), ["render", "record", "probe"])
        // segue help COMMAND and segue COMMAND --help: the same, exit 0, that command's options only.
        for command in ["render", "probe", "transitions", "sheet"] {
            let help = try segue(["help", command]), flag = try segue([command, "--help"])
            XCTAssertEqual(help.status, 0, help.stderr)
            XCTAssertEqual(flag.status, 0, flag.stderr)
            XCTAssertEqual(help.text, flag.text)
            XCTAssertTrue(help.text.hasPrefix("usage:\n  segue \(command)"), help.text)
        }
        XCTAssertEqual(optionNames(try segue(["help", "probe"]).text),
                       ["--json", "--tone-map", "--root", "--allow-indirect-inputs", "--max-megapixels", "-v", "--verbose", "-h", "--help"])
        XCTAssertEqual(optionNames(try segue(["transitions", "-h"]).text), ["--json", "-v", "--verbose", "-h", "--help"])
        let render = optionNames(try segue(["help", "render"]).text)
        XCTAssertTrue(render.isSuperset(of: ["-o", "--output", "--backend", "--size", "--crf", "--music", "--root", "--frame-timeout", "--plan"]), "\(render)")
        XCTAssertTrue(render.isDisjoint(with: ["--cols", "--partition", "--jobs", "--json", "--at", "--duration"]), "\(render)")
        // Help groups them.
        let renderHelp = try segue(["render", "--help"]).text
        for group in ["\npicture:\n", "\nencoding:\n", "\naudio:\n", "\nGPU and decoding:\n", "\nuntrusted edits (docs/untrusted-edits.md):\n"] {
            XCTAssertTrue(renderHelp.contains(group), group)
        }
        // farm's subcommands each have their own; farm alone marks which take what.
        let slurm = optionNames(try segue(["farm", "slurm", "--help"]).text), local = optionNames(try segue(["help", "farm", "local"]).text)
        XCTAssertTrue(slurm.contains("--partition") && !slurm.contains("--jobs"), "\(slurm)")
        XCTAssertTrue(local.contains("--jobs") && !local.contains("--partition"), "\(local)")
        XCTAssertEqual(optionNames(try segue(["help", "farm", "status"]).text), ["--json", "-v", "--verbose", "-h", "--help"])
        let farm = try segue(["help", "farm"]).text
        XCTAssertTrue(farm.contains("processes at once (default: cores/8; batch: cores/2) [local]"), farm)
        XCTAssertEqual(Set(try segue(["help", "farm"]).text.components(separatedBy: "subcommands:\n")[1].split(separator: "\n")
                            .prefix { $0.hasPrefix("  ") }.map { String($0.split(separator: " ")[0]) }),
                       Set(FarmEngines.all.map(\.name) + ["status", "resume", "cancel"]))
        for (args, message) in [(["help", "rendr"], "unknown command rendr; did you mean render?"),
                                (["help", "farm", "slurmm"], "farm has no subcommand slurmm")] {
            let r = try segue(args)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(message), r.stderr)
        }
    }

    /// Unknown options and commands name the nearest; an option another command takes is refused as before.
    func testMisspeltOptionsAndCommandsGetTheNearestName() throws {
        for (args, message) in [(["render", "a.mp4", "--siz", "64x64", "-o", "x.mp4"], "segue: unknown option --siz; did you mean --size?"),
                                (["probe", "--jsn", "a.mp4"], "unknown option --jsn; did you mean --json?"),
                                (["farm", "local", "e.json", "--jbs", "2"], "unknown option --jbs; did you mean --jobs?"),
                                (["render", "--frobnicate"], "unknown option --frobnicate\n"),
                                // Issue 37 #10: the beginning of a name, a value after "=", another command's option.
                                (["render", "a.mp4", "--trans", "wipe:1", "-o", "x.mp4"], "unknown option --trans; did you mean --transition?"),
                                (["render", "a.mp4", "--siz=64x64", "-o", "x.mp4"], "unknown option --siz=64x64; give the value after a space: --size 64x64"),
                                (["plan", "a.mp4", "--size=64x64"], "unknown option --size=64x64; give the value after a space: --size 64x64"),
                                (["probe", "--siz", "64x64", "a.mp4"], "unknown option --siz; segue probe does not take --size"),
                                (["rendr", "a.mp4"], "segue: unknown command rendr; did you mean render?"),
                                (["farm", "slurmm", "e.json"], "(got slurmm; did you mean slurm?)"),
                                (["render", "a.mp4", "-o"], "-o needs a value"),
                                (["probe", "--crf", "20", "a.mp4"], "segue probe does not take --crf (it takes --allow-indirect-inputs, --json, --max-megapixels, --root, --tone-map)")] {
            let r = try segue(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "expected \"\(message)\" in \(r.stderr)")
        }
    }

    /// The bash script passes `bash -n` and, driven as bash drives it, completes commands, options by command,
    /// enumerated values and files by extension.
    func testBashCompletion() throws {
        let script = path("segue.bash")
        let r = try segue(["completion", "bash"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try r.stdout.write(to: URL(fileURLWithPath: script))
        let check = try TestSupport.run("bash", ["-n", script])
        XCTAssertEqual(check.status, 0, check.stderr)
        let files = path("files")
        try FileManager.default.createDirectory(atPath: "\(files)/sub", withIntermediateDirectories: true)
        for f in ["a.json", "b.MP4", "c.txt", "d.srt", "e.otioz"] { try Data().write(to: URL(fileURLWithPath: "\(files)/\(f)")) }
        let lines: [(String, [String])] = [("segue re", ["record", "render", "render-audio", "resolve"]),
                                           ("segue render --ba", ["--background", "--backend"]),
                                           ("segue render --backe", ["--backend"]),
                                           ("segue render --backend ''", ["auto", "cpu", "gpu"]),
                                           ("segue render --progress p", ["plain"]),
                                           ("segue frame a.json --ba", ["--background", "--backend"]),
                                           ("segue probe --", ["--allow-indirect-inputs", "--help", "--json", "--max-megapixels", "--root",
                                                               "--tone-map", "--verbose"]),
                                           ("segue farm s", ["slurm", "status", "sub"]),   // farm EDIT.json: folders too, to reach an edit
                                           ("segue farm slurm --par", ["--partition"]),
                                           ("segue farm local --par", []),
                                           ("segue farm e.json --jo", ["--jobs"]),
                                           ("segue completion ''", ["bash", "fish", "zsh"]),
                                           ("segue help farm ''", ["cancel", "local", "resume", "slurm", "status"]),
                                           ("segue render --size ''", []),
                                           ("segue render ''", ["a.json", "b.MP4", "e.otioz", "sub"]),
                                           ("segue render a.json --captions ''", ["a.json", "d.srt", "sub"]),   // a .json transcript too
                                           ("segue render a.json --root ''", ["sub"]),
                                           ("segue stitch --plan a.json ''", ["sub"])]
        var driver = "source '\(script)'\ncd '\(files)'\n"
        for (line, _) in lines {
            driver += "COMP_WORDS=(\(line)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _segue; "
                + "printf '%s\\n' \"$(printf '%s\\n' \"${COMPREPLY[@]}\" | LC_ALL=C sort | paste -sd ' ')\"\n"
        }
        let out = try TestSupport.run("bash", ["-c", driver])
        XCTAssertEqual(out.stderr, "")
        let results = out.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (k, (line, expected)) in lines.enumerated() {
            XCTAssertEqual(k < results.count ? results[k] : "?", expected.sorted().joined(separator: " "), line)
        }
        // The commands offered are the command table's: a command added there is completed with nothing else to write.
        let all = try TestSupport.run("bash", ["-c", "source '\(script)'; COMP_WORDS=(segue ''); COMP_CWORD=1; _segue; printf '%s\\n' \"${COMPREPLY[@]}\""])
        XCTAssertEqual(Set(all.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-") }), Set(try listedCommands()))
    }

    /// zsh and fish accept their scripts (`-n`); fish, which can complete a line itself (`complete -C`), is driven.
    func testZshAndFishCompletion() throws {
        let zsh = path("_segue"), fish = path("segue.fish")
        try segue(["completion", "zsh"]).stdout.write(to: URL(fileURLWithPath: zsh))
        try segue(["completion", "fish"]).stdout.write(to: URL(fileURLWithPath: fish))
        for (shell, script) in [("zsh", zsh), ("fish", fish)] {
            let r = try TestSupport.run(shell, ["-n", script])
            XCTAssertEqual(r.status, 0, "\(shell): \(r.stderr)")
        }
        let text = try String(contentsOfFile: zsh, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#compdef segue\n") && text.contains("compdef _segue segue"), text)
        XCTAssertTrue(text.contains("--backend) compadd -- auto cpu gpu; return ;;"), text)
        func complete(_ line: String) throws -> [String] {
            let r = try TestSupport.run("fish", ["--no-config", "-c", "source '\(fish)'; complete -C '\(line)'"])
            XCTAssertEqual(r.stderr, "", line)
            return r.text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }.sorted()
        }
        XCTAssertEqual(try complete("segue re"), ["record", "render", "render-audio", "resolve"])
        XCTAssertEqual(try complete("segue render --backend "), ["auto", "cpu", "gpu"])
        XCTAssertEqual(try complete("segue render --backe"), ["--backend"])
        XCTAssertEqual(try complete("segue farm slurm --par"), ["--partition"])
        XCTAssertEqual(try complete("segue farm local --par"), [])
        XCTAssertEqual(try complete("segue probe --j"), ["--json"])
    }

    /// The man page renders with `man -l` and `groff` warnings on, without one; docs/segue.1 and
    /// docs/cli-reference.md are what `segue man` prints now.
    func testManPageRendersWithoutWarningsAndIsCommitted() throws {
        let roff = try segue(["man"])
        XCTAssertEqual(roff.status, 0, roff.stderr)
        let page = path("segue.1")
        try roff.stdout.write(to: URL(fileURLWithPath: page))
        let groff = try TestSupport.run("groff", ["-ww", "-man", "-Tutf8", "-z", page])
        XCTAssertEqual(groff.status, 0, groff.stderr)
        XCTAssertEqual(groff.stderr, "", "groff warnings")
        let man = try TestSupport.run("man", ["--warnings", "-l", page], environment: ["MANWIDTH": "80", "PAGER": "cat"])
        XCTAssertEqual(man.status, 0, man.stderr)
        XCTAssertEqual(man.stderr, "", "man warnings")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "SEE ALSO"] {
            XCTAssertTrue(man.text.contains("\n\(section)\n"), section)
        }
        XCTAssertTrue(man.text.contains("frame-timeout") && man.text.contains("SEGUE(1)"), man.text)
        XCTAssertFalse(man.text.split(separator: "\n").contains { $0.count > 80 }, "MANWIDTH=80")
        let markdown = try segue(["man", "--format", "markdown"])
        XCTAssertEqual(markdown.status, 0, markdown.stderr)
        for (file, generated) in [("docs/segue.1", roff.text), ("docs/cli-reference.md", markdown.text)] {
            let committed = try String(contentsOfFile: "\(TestSupport.packageRoot)/\(file)", encoding: .utf8)
            XCTAssertTrue(committed == generated, "\(file) differs from what `segue man` prints: run `make man` and commit it")
        }
    }

    /// The options docs/cli.md names are the table's (or the commands' aliases), and the reference names them all.
    func testDocsNameOnlyOptionsThatExist() throws {
        let reference = try segue(["man", "--format", "markdown"]).text
        let doc = try String(contentsOfFile: "\(TestSupport.packageRoot)/docs/cli.md", encoding: .utf8)
        let regex = try NSRegularExpression(pattern: "(?<![A-Za-z0-9-])--[a-z][a-z0-9-]*")
        let named = Set(regex.matches(in: doc, range: NSRange(doc.startIndex..., in: doc)).map { String(doc[Range($0.range, in: doc)!]) })
        // --siz: the example of a misspelt option, --trans of an option's beginning; --version: the version command's
        // other name.
        for option in named.subtracting(["--siz", "--trans", "--version"]) {
            XCTAssertTrue(reference.contains("`\(option) ") || reference.contains("`\(option)`"), "docs/cli.md names \(option), which segue does not have")
        }
    }
}
