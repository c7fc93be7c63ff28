import Foundation
import Segue
import SegueService

// `segue serve`: the render service (docs/service.md), its options; see OptionTable.swift.

extension OptionTable {
    static let serveOptions: [OptionSpec] = [
        OptionSpec(name: "--listen", value: "HOST:PORT", defaultValue: "127.0.0.1:8080", help: "serve: the address to listen on (port 0: any free port, printed)",
                   group: .command, commands: ["serve"]) { a, v in a.serve.listen = v.text },
        OptionSpec(name: "--data", value: "DIR", help: "serve: the queue (queue.sqlite3), uploads and outputs (created if missing)",
                   group: .command, commands: ["serve"], completion: .directory) { a, v in a.serve.data = v.text },
        OptionSpec(name: "--token-file", value: "FILE", defaultValue: "a token made in DIR/token",
                   help: "serve: the bearer tokens, one a line: TENANT:TOKEN or a bare token", group: .command, commands: ["serve"],
                   completion: .anyFile) { a, v in a.serve.tokenFile = v.text },
        OptionSpec(name: "--max-upload", value: "MB", defaultValue: "1024", help: "serve: the largest upload (POST /v1/assets), MiB; larger ones get 413",
                   group: .command, commands: ["serve"]) { a, v in a.serve.maxUploadMiB = try v.count(min: 1) },
        OptionSpec(name: "--rate-limit", value: "N", defaultValue: "50", help: "serve: requests a second a token may make (bursts of twice that); more get 429",
                   group: .command, commands: ["serve"]) { a, v in a.serve.rateLimit = try v.count(min: 1) },
        OptionSpec(name: "--allow-private-callbacks",
                   help: "serve: send webhooks to loopback, private and link-local addresses too (receivers on this machine or network); by default such callbacks are refused",
                   group: .command, commands: ["serve"]) { a, _ in a.serve.allowsPrivateCallbacks = true },
    ]
}

/// `segue serve`'s settings, as the options give them.
struct ServeArguments {
    var listen = "127.0.0.1:8080", data: String?, tokenFile: String?, maxUploadMiB = 1024, rateLimit = 50
    var allowsPrivateCallbacks = false
}

/// `segue serve`: listens until killed; renders run as this executable's `segue render` (`--engine slurm`: `segue farm
/// slurm --wait`).
func serveCommand(_ a: Arguments) throws {
    guard a.positional.isEmpty else { throw UsageError("serve takes no arguments (--listen HOST:PORT --data DIR)") }
    guard let data = a.serve.data else { throw UsageError("serve needs --data DIR (the queue, uploads and outputs)") }
    let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var configuration = ServiceConfiguration(data: data, executable: executable, openAPI: OpenAPIDocument.bytes)
    configuration.listen = a.serve.listen
    configuration.tokenFile = a.serve.tokenFile
    configuration.engine = a.batchEngine
    configuration.chunks = a.chunks ?? 4
    if let p = a.farm.partition { configuration.farmArguments += ["--partition", p] }
    configuration.jobs = a.farm.maxParallel ?? max(1, ProcessInfo.processInfo.activeProcessorCount / 8)
    configuration.maxUpload = Int64(a.serve.maxUploadMiB) << 20
    configuration.rateLimit = Double(a.serve.rateLimit)
    configuration.allowsPrivateCallbacks = a.serve.allowsPrivateCallbacks
    signal(SIGPIPE, SIG_IGN)
    let service: RenderService, server: HTTPServer
    do {
        service = try RenderService(configuration)
        server = try service.start()
    } catch let e as ServiceError {
        throw UsageError(e.message)
    }
    // SIGTERM and SIGINT: stop the renders (their children get SIGTERM and remove their temporary outputs; the renders
    // are queued again for the next start), exit 0. Requests answered meanwhile are durable as ever.
    try onStopSignal {
        service.shutDown()
        _exit(0)   // no atexit handlers while the server's threads run: the queue is committed
    }
    let host = a.serve.listen.split(separator: ":").dropLast().joined(separator: ":")
    FileHandle.standardOutput.write(Data("segue serve: listening on http://\(host):\(server.port) (renders at once: \(configuration.jobs))\n".utf8))
    withExtendedLifetime(server) { while true { sleep(3600) } }
}

/// The pipe the stop signals' handler writes to (a handler may only do async-signal-safe things: `write`).
nonisolated(unsafe) private var stopSignalPipe: (read: Int32, write: Int32) = (-1, -1)

/// Runs `body` on a thread of its own when SIGTERM or SIGINT arrives (whichever thread the kernel delivers it to: the
/// handler writes a byte to a close-on-exec pipe, the thread reads it). Replaces `SignalCleanup`'s handlers, which
/// remove a render's temporary files: the server has none. Throws `UsageError` when the pipe cannot be made.
func onStopSignal(_ body: @escaping @Sendable () -> Void) throws {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw UsageError("serve: cannot make a pipe (\(String(cString: strerror(errno))))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    stopSignalPipe = (fds[0], fds[1])
    for number in [SIGTERM, SIGINT] {
        signal(number) { _ in
            var byte: UInt8 = 1
            _ = write(stopSignalPipe.write, &byte, 1)
        }
    }
    let waiter = Thread {
        var byte: UInt8 = 0
        while read(stopSignalPipe.read, &byte, 1) != 1 {}
        body()
    }
    waiter.name = "segue serve: stop signals"
    waiter.start()
}
