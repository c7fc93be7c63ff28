// swift-tools-version:6.0
import PackageDescription

// Layers: dependencies point one way. The comment above each Segue target is its row in docs/architecture.md's module
// table, which docs/make-modules.py writes from this file (ArchitectureDocTests fails when the two drift).
let package = Package(
    name: "Segue",
    products: [
        .executable(name: "segue", targets: ["segue"]),
        // The library: build an edit in code, resolve it, render it (async progress, Task cancellation), one frame, probe.
        .library(name: "Segue", targets: ["Segue"]),
    ],
    targets: [
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg", pkgConfig: "libavformat",
                       providers: [.apt(["libavformat-dev", "libavdevice-dev", "libavcodec-dev", "libavfilter-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"])]),
        .systemLibrary(name: "CEGL", path: "Sources/CEGL", pkgConfig: "libdrm",
                       providers: [.apt(["libegl-dev", "libgles-dev", "libgbm-dev", "libdrm-dev"])]),
        .systemLibrary(name: "CStillImage", path: "Sources/CStillImage", pkgConfig: "libheif",
                       providers: [.apt(["libheif-dev", "libexif-dev", "libtiff-dev"])]),
        // librsvg (over cairo): SVG stills drawn from their vectors at the size they are shown, read by SegueMedia's SVGStill.
        .systemLibrary(name: "CSVG", path: "Sources/CSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        // rlottie: Lottie animations (Bodymovin JSON, .lottie archives) drawn frame by frame at the size they are shown, read by SegueMedia's LottieAnimation.
        .systemLibrary(name: "CLottie", path: "Sources/CLottie", pkgConfig: "rlottie", providers: [.apt(["librlottie-dev"])]),
        // libzip: .otioz bundles (OpenTimelineIO timelines with their media in a zip), read by SegueMedia's ZipArchive.
        .systemLibrary(name: "CZip", path: "Sources/CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        // libcurl: the webhooks `segue serve` POSTs when a render ends, read by SegueService's WebhookDelivery.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL's libcrypto: HMAC-SHA256 signatures of those webhooks (SegueService's WebhookSignature).
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Text shaping (libraqm over FriBidi and HarfBuzz, FreeType, fontconfig, libunibreak) and captions (libass),
        // imported by SegueText only.
        .systemLibrary(name: "CTextShaping", path: "Sources/CTextShaping", pkgConfig: "raqm",
                       providers: [.apt(["libraqm-dev", "libharfbuzz-dev", "libfribidi-dev", "libfreetype-dev", "libfontconfig-dev", "libunibreak-dev"])]),
        .systemLibrary(name: "CASS", path: "Sources/CASS", pkgConfig: "libass", providers: [.apt(["libass-dev"])]),
        // `segue serve`: GNU libmicrohttpd (the HTTP/1.1 server) and SQLite (the durable queue), imported by SegueService only.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Pictures larger than FFmpeg decodes, read shrunk on load: libpng row by row, libjpeg-turbo's DCT scaling.
        .target(name: "CLargeStill", path: "Sources/CLargeStill",
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("exif")]),
        // SegueCore: pure maths and data every layer shares: rational time, geometry and layer transforms, the per-frame plan (FramePlan), each frame's strategy (FrameStrategy) and each pass's recipe (PassRecipe), colour science (transfer functions, gamut and tone mapping, ColourStage), the transition table (TransitionKind) and easing, the output-format table, the input policy, errors
        .target(name: "SegueCore"),
        // SegueEdit: the edit model (tracks, items and their effects, layers, keyframes, audio tracks), the edit file (its declared fields, JSON Schema and writer, templates filled from values) and OpenTimelineIO, the timeline and its planner (Timeline.plan(frame:))
        .target(name: "SegueEdit", dependencies: ["SegueCore"]),
        // SegueMedia: the only code that calls FFmpeg (probing, decoding, deinterlacing, resampling, the one writer: OutputFile and Encoder) and the still-picture libraries (libheif, libexif, libtiff; libpng and libjpeg-turbo through CLargeStill; librsvg through CSVG), Lottie animations (rlottie through CLottie), image sequences, GIF palettes
        .target(name: "SegueMedia", dependencies: ["SegueCore", "CFFmpeg", "CStillImage", "CSVG", "CLottie", "CZip", "CLargeStill"]),
        // SegueReference: the CPU renderer, exact and fast: passes evaluated row by row on threads (PassEvaluator), layers read a row at a time (LayerRows) or point by point (ReferenceLayer), one file per transition in Transitions/
        .target(name: "SegueReference", dependencies: ["SegueCore"]),
        // SegueText: titles and captions, the only code that calls the text libraries: text items shaped and rasterised once, caption files read (and ASS drawn by libass)
        .target(name: "SegueText", dependencies: ["SegueCore", "SegueEdit", "CTextShaping", "CASS"]),
        // The whole shader folder is embedded; the plugin indexes it by file name (a new .frag needs no listing here).
        .executableTarget(name: "EmbedShaderFolderTool", path: "Plugins/EmbedShaderFolderTool"),
        .plugin(name: "EmbedShaderFolder", capability: .buildTool(), dependencies: ["EmbedShaderFolderTool"]),
        // SegueShaders: the GLSL files of Shaders/glsl, embedded; the plugin indexes the folder by file name (a new .frag needs no listing here)
        .target(name: "SegueShaders", dependencies: ["SegueCore"], path: "Shaders", resources: [.embedInCode("glsl")], plugins: ["EmbedShaderFolder"]),
        // SegueGL: the only code that calls EGL/GLES: the headless context, the GPU renderer, gl-transitions shaders hosted in its programs
        .target(name: "SegueGL", dependencies: ["SegueCore", "SegueShaders", "CEGL"]),
        // SeguePipeline: an edit resolved (probed once, saved as a resolved edit), frames decoded, each frame's strategy executed (FrameDrawer), encoded; the audio mix; recording's frames
        .target(name: "SeguePipeline", dependencies: ["SegueCore", "SegueEdit", "SegueMedia", "SegueReference", "SegueGL", "SegueText"]),
        // SegueFarm: chunked renders: chunk plans, chunk and audio passes, stitching, and the engines that run them (local processes, Slurm job arrays); batches of a template over data rows
        .target(name: "SegueFarm", dependencies: ["SeguePipeline", "SegueEdit", "SegueMedia", "SegueGL", "SegueCore"]),
        // Segue: the library product: build an edit in code, resolve it, render it (ExportSession: async progress, Task cancellation), one frame, probe, record
        .target(name: "Segue", dependencies: ["SeguePipeline", "SegueMedia", "SegueGL", "SegueText", "SegueEdit", "SegueCore"]),
        // SegueService: `segue serve`, the render service: the HTTP API (libmicrohttpd through CMicroHTTPD), the durable queue (SQLite through CSQLite), renders run as child `segue render` (or `segue farm slurm`) processes under the untrusted-edit policy, tenants' tokens and assets, webhooks signed with HMAC-SHA256 (OpenSSL's libcrypto through CCrypto), POSTed through libcurl (CCurl) to public addresses only (`CallbackAddresses`, checked at submit and before each connection) and retried with backoff
        .target(name: "SegueService", dependencies: ["SegueEdit", "SegueMedia", "SegueCore", "CMicroHTTPD", "CSQLite", "CCurl", "CCrypto"], resources: [.embedInCode("openapi.json")]),
        // segue: the command line, a client of Segue and SegueFarm: the option table, help, completion, man page
        .executableTarget(name: "segue", dependencies: ["Segue", "SegueFarm", "SegueService", "SeguePipeline", "SegueEdit", "SegueCore"]),
        // A library program for the exit test (issue 22 #11): renders on the GPU and exits at once, however it ended.
        .executableTarget(name: "segue-exit-check", dependencies: ["Segue"], path: "Tests/ExitCheck"),
        .target(name: "SegueTestSupport", dependencies: ["SegueCore"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueCoreTests", dependencies: ["SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueEditTests", dependencies: ["SegueEdit", "SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueRenderTests", dependencies: ["SegueCore", "SegueReference", "SegueGL", "SegueShaders", "SegueMedia", "SegueTestSupport"]),
        .testTarget(name: "SegueEndToEndTests", dependencies: ["Segue", "SegueEdit", "SegueCore", "SeguePipeline", "SegueFarm", "SegueMedia", "SegueReference", "SegueText", "SegueTestSupport"]),
        .testTarget(name: "SegueServiceTests", dependencies: ["SegueService", "SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueTextTests", dependencies: ["SegueText", "SegueEdit", "SegueCore", "SegueTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
