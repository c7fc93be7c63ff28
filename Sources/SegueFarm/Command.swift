import Foundation
import SegueCore

/// A failure to run or of an external command (sbatch, squeue, scontrol), or of the farm's own files (the work
/// folder, `farm.json`, the job scripts cannot be written or read). Exit status 1.
public struct FarmError: SegueError {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
    public var exitStatus: Int32 { ExitStatus.failed }
}

/// Runs external programs and captures their output.
enum ExternalCommand {
    /// The program's path on `PATH`, or nil.
    static func which(_ name: String) -> String? {
        let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return dirs.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `name args`; returns its standard output.
    /// - Throws: `FarmError` with the program's standard error when it is missing or exits non-zero.
    @discardableResult
    static func run(_ name: String, _ args: [String]) throws -> String {
        guard let exe = which(name) else { throw FarmError("\(name) is not on PATH: is this a Slurm submit host?") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        // Read both pipes at once so that neither fills up.
        // Written by the reader thread before `group.leave()`, read after `group.wait()`: never at once.
        final class Box: @unchecked Sendable { var data = Data() }
        let e = Box(), group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { e.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        let stdout = String(decoding: o, as: UTF8.self)
        if p.terminationStatus != 0 {
            let msg = String(decoding: e.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw FarmError("\(name) \(args.joined(separator: " ")) failed (exit \(p.terminationStatus)): \(msg)")
        }
        return stdout
    }
}
