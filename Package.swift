// swift-tools-version:6.0
import PackageDescription

// Layers (dependencies point one way):
// SegueCore ← SegueEdit (the edit model, edit file, timeline/planner) ← SegueText (CTextShaping, CASS: titles, captions)
// SegueCore ← SegueMedia (CFFmpeg, CStillImage: libheif, libexif, libtiff; CLargeStill: libpng, libjpeg-turbo; CZip: libzip),
//   SegueReference, SegueGL (CEGL, SegueShaders)
//   ← SeguePipeline (also SegueText) ← Segue (the library product) ← segue (the command, also using SegueFarm ← SeguePipeline)
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
        // libzip: .otioz bundles (OpenTimelineIO timelines with their media in a zip), read by SegueMedia's ZipArchive.
        .systemLibrary(name: "CZip", path: "Sources/CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        // Text shaping (libraqm over FriBidi and HarfBuzz, FreeType, fontconfig, libunibreak) and captions (libass),
        // imported by SegueText only.
        .systemLibrary(name: "CTextShaping", path: "Sources/CTextShaping", pkgConfig: "raqm",
                       providers: [.apt(["libraqm-dev", "libharfbuzz-dev", "libfribidi-dev", "libfreetype-dev", "libfontconfig-dev", "libunibreak-dev"])]),
        .systemLibrary(name: "CASS", path: "Sources/CASS", pkgConfig: "libass", providers: [.apt(["libass-dev"])]),
        // Pictures larger than FFmpeg decodes, read shrunk on load: libpng row by row, libjpeg-turbo's DCT scaling.
        .target(name: "CLargeStill", path: "Sources/CLargeStill",
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("exif")]),
        .target(name: "SegueCore"),
        // The edit model, its file format and the timeline (the planner that makes each frame's FramePlan).
        .target(name: "SegueEdit", dependencies: ["SegueCore"]),
        .target(name: "SegueMedia", dependencies: ["SegueCore", "CFFmpeg", "CStillImage", "CZip", "CLargeStill"]),
        .target(name: "SegueReference", dependencies: ["SegueCore"]),
        // Titles and captions: text items shaped and rasterised once, caption files read (and ASS drawn by libass).
        .target(name: "SegueText", dependencies: ["SegueCore", "SegueEdit", "CTextShaping", "CASS"]),
        // The whole shader folder is embedded; the plugin indexes it by file name (a new .frag needs no listing here).
        .executableTarget(name: "EmbedShaderFolderTool", path: "Plugins/EmbedShaderFolderTool"),
        .plugin(name: "EmbedShaderFolder", capability: .buildTool(), dependencies: ["EmbedShaderFolderTool"]),
        .target(name: "SegueShaders", dependencies: ["SegueCore"], path: "Shaders", resources: [.embedInCode("glsl")], plugins: ["EmbedShaderFolder"]),
        .target(name: "SegueGL", dependencies: ["SegueCore", "SegueShaders", "CEGL"]),
        .target(name: "SeguePipeline", dependencies: ["SegueCore", "SegueEdit", "SegueMedia", "SegueReference", "SegueGL", "SegueText"]),
        .target(name: "SegueFarm", dependencies: ["SeguePipeline", "SegueEdit", "SegueCore"]),
        .target(name: "Segue", dependencies: ["SeguePipeline", "SegueMedia", "SegueGL", "SegueText", "SegueEdit", "SegueCore"]),
        .executableTarget(name: "segue", dependencies: ["Segue", "SegueFarm", "SeguePipeline", "SegueEdit", "SegueCore"]),
        // A library program for the exit test (issue 22 #11): renders on the GPU and exits at once, however it ended.
        .executableTarget(name: "segue-exit-check", dependencies: ["Segue"], path: "Tests/ExitCheck"),
        .target(name: "SegueTestSupport", dependencies: ["SegueCore"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueCoreTests", dependencies: ["SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueEditTests", dependencies: ["SegueEdit", "SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueRenderTests", dependencies: ["SegueCore", "SegueReference", "SegueGL", "SegueShaders", "SegueMedia", "SegueTestSupport"]),
        .testTarget(name: "SegueEndToEndTests", dependencies: ["Segue", "SegueEdit", "SegueCore", "SeguePipeline", "SegueFarm", "SegueMedia", "SegueReference", "SegueText", "SegueTestSupport"]),
        .testTarget(name: "SegueTextTests", dependencies: ["SegueText", "SegueEdit", "SegueCore", "SegueTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
