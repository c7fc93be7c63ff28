import Foundation
import Segue

// How frames are made (the GPU options, passed on to chunk renders) and what an edit may read (the input policy and
// its limits, recorded in chunk plans); see OptionTable.swift.

extension OptionTable {
    static let gpuOptions: [OptionSpec] = [
        .choice("--backend", Backend.allCases, defaultValue: "auto", help: "the renderer; auto: the GPU when an EGL context can be made, else the CPU",
                group: .gpu, commands: Scopes.drawing, effect: .forwarded) { a, b in a.options.backend = b },
        .choice("--egl-platform", EGLOptions.Platform.allCases, defaultValue: "the first of them that works", help: "force an EGL platform",
                group: .gpu, commands: Scopes.drawing, effect: .forwarded) { a, p in a.options.egl.platform = p },
        OptionSpec(name: "--gpu-device", value: "PATH|N", help: "a render node (/dev/dri/renderD129) or an EGL device index; it must exist",
                   group: .gpu, commands: Scopes.drawing, effect: .forwarded, completion: .anyFile) { a, v in a.options.egl.device = v.text },
        .choice("--hwaccel", HardwareDecoding.allCases, defaultValue: "none", help: "decode on an NVIDIA GPU (NVDEC) where there is one",
                group: .gpu, commands: ["render"], effect: .forwarded) { a, h in a.options.hardwareDecoding = h },
    ]

    static let inputOptions: [OptionSpec] = [
        OptionSpec(name: "--root", value: "DIR", help: "every file the edit names must lie inside DIR (after resolving .. and symbolic links)",
                   group: .inputs, commands: Scopes.resolving.union(["probe"]), effect: .policy, completion: .directory) { a, v in
            a.inputPolicy.root = try v.folder()
        },
        OptionSpec(name: "--output-root", value: "DIR", help: "every file written must lie inside DIR", group: .inputs,
                   commands: Scopes.resolving.subtracting(["compare"]), effect: .policy, completion: .directory) { a, v in
            a.inputPolicy.outputRoot = try v.folder()
        },
        OptionSpec(name: "--allow-indirect-inputs", help: "open HLS/DASH playlists, ffconcat lists and concat: paths (what they read obeys --root)",
                   group: .inputs, commands: Scopes.resolving.union(["probe"]), effect: .policy) { a, _ in a.inputPolicy.allowIndirectInputs = true },
        OptionSpec(name: "--max-megapixels", value: "N", defaultValue: "200 decoded whole, 1000 for a PNG/JPEG read shrunk on load",
                   help: "the largest picture (sets both limits)", group: .inputs, commands: Scopes.resolving.union(["probe"]), effect: .policy) { a, v in
            let n = try v.number()
            guard n > 0, n <= 1e6 else { throw UsageError("--max-megapixels must be > 0 (megapixels per picture; got \(n))") }
            a.inputPolicy.limits.maxPicturePixels = Int(n * 1e6)
            a.inputPolicy.limits.maxLargeStillPixels = Int(n * 1e6)
        },
        OptionSpec(name: "--max-duration", value: "SECONDS", defaultValue: "7200", help: "the longest edit", group: .inputs,
                   commands: Scopes.resolving, effect: .policy) { a, v in
            let s = try v.number()
            guard s > 0, MediaTime.isRepresentable(seconds: s) else { throw UsageError("--max-duration must be > 0 seconds (got \(s))") }
            a.inputPolicy.limits.maxDuration = s
        },
        OptionSpec(name: "--max-clips", value: "N", defaultValue: "1000", help: "the most clips", group: .inputs, commands: Scopes.resolving,
                   effect: .policy) { a, v in a.inputPolicy.limits.maxClips = try v.count(min: 1) },
        OptionSpec(name: "--max-picture-memory", value: "MIB", defaultValue: "2048", help: "decoded pictures on screen at once, 4 bytes a pixel",
                   group: .inputs, commands: Scopes.resolving, effect: .policy) { a, v in
            let m = try v.number()
            guard m > 0, m <= Double(1 << 30) else { throw UsageError("--max-picture-memory must be > 0 MiB (got \(m))") }
            a.inputPolicy.limits.maxPictureMemory = Int(m * Double(1 << 20))
        },
        OptionSpec(name: "--frame-timeout", value: "SECONDS", defaultValue: "120; 0: no watchdog",
                   help: "a frame that takes longer ends the render (exit status 1, the temporary file removed); each glsl shader is tried first",
                   group: .inputs, commands: Scopes.drawing.subtracting(["record", "bench-composite"]).union(["resolve"]), effect: .forwarded) { a, v in
            let s = try v.number()
            guard s >= 0, s <= 1e6 else { throw UsageError("--frame-timeout must be 0 (no watchdog) or more seconds (got \(s))") }
            a.options.frameTimeout = s == 0 ? nil : s
        },
    ]
}
