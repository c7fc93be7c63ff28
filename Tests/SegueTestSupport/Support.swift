import Foundation
import XCTest
import SegueCore

/// Helpers shared by Segue's test targets: running FFmpeg and the CLI, generating clips, comparing frames.
public enum TestSupport {
    /// An FFmpeg filter that converts untagged SD frames (BT.601 limited) to BT.709 limited the way Segue's
    /// output is written: oracles compare in Y′CbCr after this. `colorspace` with only the matrix changing
    /// (`fast=1`) converts each 2×2 block with its own chroma sample, without resampling the chroma planes, as
    /// Segue reads stored pictures in the cheap (pixel-exact) cases the oracle tests cover; libswscale's
    /// `full_chroma_int` path would instead upsample and re-subsample chroma, smearing sharp colour edges
    /// by a chroma sample or two.
    public static let bt601ToBT709 = "colorspace=ispace=bt470bg:space=bt709:itrc=bt709:trc=bt709:iprimaries=bt709:primaries=bt709:irange=tv:range=tv:fast=1"

    /// True when running under CI (`CI` set): GPU tests must not skip there.
    public static var inCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false }

    /// The Python of a virtual environment of test oracles that the Makefile makes (`make NAME`, run by `make test`):
    /// `$variable` if set, else the package's `.build/NAME`, then `bin/python`. Skips the test when it is missing;
    /// fails it under CI, where `make test` has made it.
    public static func venvPython(_ name: String, variable: String) throws -> String {
        let venv = ProcessInfo.processInfo.environment[variable] ?? packageRoot + "/.build/" + name
        let python = venv + "/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            if inCI { XCTFail("the virtual environment \(venv) is missing: `make test` makes it") }
            throw XCTSkip("no virtual environment at \(venv): run `make \(name)`")
        }
        return python
    }

    /// `../shared/media` relative to the package root, if present.
    public static var sharedMedia: String? {
        let root = packageRoot
        let p = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent("shared/media").path
        return FileManager.default.fileExists(atPath: p) ? p : nil
    }

    public static var packageRoot: String {
        // Tests/SegueTestSupport/Support.swift → package root
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The built `segue` executable beside the test bundle.
    public static var segueBinary: String {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let p = candidate.appendingPathComponent("segue").path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        return URL(fileURLWithPath: packageRoot).appendingPathComponent(".build/debug/segue").path
    }

    public struct ProcessResult {
        public let status: Int32
        public let stdout: Data
        public let stderr: String
        public var text: String { String(decoding: stdout, as: UTF8.self) }
    }

    /// Runs a program and waits; output is captured.
    @discardableResult
    public static func run(_ path: String, _ args: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path.hasPrefix("/") ? path : "/usr/bin/\(path)")
        p.arguments = args
        if let env = environment { p.environment = ProcessInfo.processInfo.environment.merging(env) { $1 } }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes concurrently so that neither fills up.
        // Written by the reader thread before `group.leave()`, read after `group.wait()`: never at once.
        final class Box: @unchecked Sendable { var data = Data() }
        let errData = Box(), group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return ProcessResult(status: p.terminationStatus, stdout: outData, stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// Runs `ffmpeg -v error -y ARGS`, failing the test with FFmpeg's message on error.
    public static func ffmpeg(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try run("ffmpeg", ["-nostdin", "-v", "error", "-y"] + args)
        if r.status != 0 { XCTFail("ffmpeg \(args.joined(separator: " ")) failed: \(r.stderr)", file: file, line: line) }
    }

    /// `ffprobe` one entry of the first video (or given) stream, e.g. `nb_read_frames` with `-count_frames`.
    public static func ffprobe(_ path: String, _ entries: String, stream: String = "v:0", count: Bool = false) throws -> [String: String] {
        var args = ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "default=noprint_wrappers=1"]
        if count { args.insert("-count_frames", at: 0) }
        let r = try run("ffprobe", args + [path])
        var d: [String: String] = [:]
        for l in r.text.split(separator: "\n") {
            let kv = l.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { d[kv[0]] = kv[1] }
        }
        return d
    }

    /// A fresh temporary folder, removed at process exit by the OS's tmp cleaning; tests remove it themselves.
    public static func tempDir(_ name: String = "segue-test") -> String {
        let p = NSTemporaryDirectory() + "\(name)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    /// Every frame of a video decoded by FFmpeg as raw planes of `pixFmt` (e.g. yuv420p, yuv420p10le, rgb24).
    /// `autorotate: false` passes `-noautorotate`; `input` are input options (e.g. `-start_number 1001` for a numbered
    /// picture sequence).
    public static func decodeFrames(_ path: String, width: Int, height: Int, pixFmt: String = "yuv420p",
                                    filter: String? = nil, autorotate: Bool = true, input: [String] = []) throws -> [[UInt8]] {
        var args = ["-nostdin", "-v", "error"]
        if !autorotate { args.append("-noautorotate") }
        args += input
        args += ["-i", path, "-fps_mode", "passthrough"]
        if let f = filter { args += ["-vf", f] }
        args += ["-f", "rawvideo", "-pix_fmt", pixFmt, "-"]
        let r = try run("ffmpeg", args)
        guard r.status == 0 else { throw NSError(domain: "ffmpeg", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: r.stderr]) }
        let frameBytes: Int
        switch pixFmt {
        case "yuv420p": frameBytes = width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2)
        case "yuv420p10le": frameBytes = 2 * (width * height + 2 * ((width + 1) / 2) * ((height + 1) / 2))
        case "rgb24": frameBytes = width * height * 3
        case "rgba": frameBytes = width * height * 4
        case "gray": frameBytes = width * height
        default: fatalError("unsupported pix_fmt \(pixFmt)")
        }
        let bytes = [UInt8](r.stdout)
        return stride(from: 0, to: bytes.count - frameBytes + 1, by: frameBytes).map { Array(bytes[$0..<($0 + frameBytes)]) }
    }

    /// Compares two yuv420p frame sequences plane by plane; fails with the worst frame, plane and pixel
    /// when any plane's PSNR is under `minPSNR`.
    /// `bitDepth` > 8: yuv420p10le-style frames (two bytes per sample), PSNR against `2^N − 1`.
    public static func assertYUVSequencesMatch(_ a: [[UInt8]], _ b: [[UInt8]], width: Int, height: Int, minPSNR: Double, bitDepth: Int = 8,
                                              label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, "\(label): frame counts differ", file: file, line: line)
        let bps = bitDepth > 8 ? 2 : 1
        let ySize = width * height * bps, cw = (width + 1) / 2, cSize = cw * ((height + 1) / 2) * bps
        var worst: (psnr: Double, frame: Int, plane: String, x: Int, y: Int, diff: Int) = (.infinity, -1, "", 0, 0, 0)
        for k in 0..<min(a.count, b.count) {
            let planes: [(String, Range<Int>, Int)] = [("Y", 0..<ySize, width), ("U", ySize..<(ySize + cSize), cw), ("V", (ySize + cSize)..<(ySize + 2 * cSize), cw)]
            for (name, r, w) in planes {
                let d = PlaneDifference(Array(a[k][r]), Array(b[k][r]), bitDepth: bitDepth)
                if d.psnr < worst.psnr {
                    worst = (d.psnr, k, name, d.worstIndex % w, d.worstIndex / w, d.maxAbsDifference)
                }
            }
        }
        let msg = String(format: "%@: worst PSNR %.2f dB at frame %d plane %@ (max |Δ| %d at x=%d y=%d)", label, worst.psnr, worst.frame, worst.plane, worst.diff, worst.x, worst.y)
        print(msg)
        XCTAssertGreaterThanOrEqual(worst.psnr, minPSNR, msg, file: file, line: line)
    }

    /// Compares two rgb24 frame sequences (as decoded by FFmpeg, each file's colour tags honoured);
    /// fails naming the worst frame and pixel when a frame's PSNR is under `minPSNR`.
    public static func assertRGBSequencesMatch(_ a: [[UInt8]], _ b: [[UInt8]], width: Int, minPSNR: Double,
                                              label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, "\(label): frame counts differ", file: file, line: line)
        var worst: (psnr: Double, frame: Int, x: Int, y: Int, diff: Int) = (.infinity, -1, 0, 0, 0)
        for k in 0..<min(a.count, b.count) {
            let d = PlaneDifference(a[k], b[k])
            if d.psnr < worst.psnr { worst = (d.psnr, k, (d.worstIndex / 3) % width, (d.worstIndex / 3) / width, d.maxAbsDifference) }
        }
        let msg = String(format: "%@: worst PSNR %.2f dB at frame %d (max |Δ| %d at x=%d y=%d)", label, worst.psnr, worst.frame, worst.diff, worst.x, worst.y)
        print(msg)
        XCTAssertGreaterThanOrEqual(worst.psnr, minPSNR, msg, file: file, line: line)
    }

    /// Generates a clip with FFmpeg from a lavfi source: `video` is a lavfi graph (e.g. `testsrc2=s=160x120:r=30:d=2`),
    /// `audio` an optional lavfi audio source; extra output arguments may follow.
    public static func makeClip(_ path: String, video: String, audio: String? = nil, extra: [String] = []) throws {
        var args = ["-f", "lavfi", "-i", video]
        if let a = audio { args += ["-f", "lavfi", "-i", a, "-shortest"] }
        args += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        if audio != nil { args += ["-c:a", "aac", "-b:a", "96k"] }
        try ffmpeg(args + extra + [path])
    }

    /// Remuxes with a display-matrix rotation (`-metadata:s:v:0 rotate=DEG`; FFmpeg writes the matrix on stream copy).
    public static func rotated(_ src: String, degrees: Int, to dst: String) throws {
        try ffmpeg(["-i", src, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)", dst])
    }
}

/// A value the closures of a render (its log, progress and `onFrame`, called on its threads) add to, and the test
/// reads afterwards: `@unchecked Sendable` because every access goes through the lock.
public final class Collected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    public init(_ value: Value) { stored = value }
    /// Changes the value under the lock.
    @discardableResult
    public func update<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
    /// The value now.
    public var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

/// Work started on another thread at once, its result taken later with `value()`: independent work (an FFmpeg oracle's
/// process, a render) that overlaps the test's own. Nothing a test asserts may depend on when it runs.
public final class Background<Value>: @unchecked Sendable {
    private let group = DispatchGroup()
    // Written by the worker before `group.leave()`, read after `group.wait()`: never at once.
    private var result: Result<Value, Error>?
    public init(_ body: @escaping @Sendable () throws -> Value) {
        group.enter()
        DispatchQueue.global().async {
            self.result = Result { try body() }
            self.group.leave()
        }
    }
    /// Waits for the work: its value, or the error it threw.
    public func value() throws -> Value {
        group.wait()
        return try result!.get()
    }
}

extension TestSupport {
    /// `body` of each item, on as many threads as the machine has cores (`DispatchQueue.concurrentPerform`), in the
    /// items' order; the first error thrown (by item order) is rethrown after all have run. For independent sub-cases
    /// whose results do not depend on timing.
    public static func concurrentMap<T: Sendable, U>(_ items: [T], _ body: @Sendable (T) throws -> U) throws -> [U] {
        let results = Collected([Result<U, Error>?](repeating: nil, count: items.count))
        DispatchQueue.concurrentPerform(iterations: items.count) { k in
            let r = Result { try body(items[k]) }
            results.update { $0[k] = r }
        }
        return try results.value.map { try $0!.get() }
    }
}
