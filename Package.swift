// swift-tools-version:6.0
import PackageDescription

// Layers (dependencies point one way):
// SegueCore ← SegueEdit (the edit model, edit file, timeline/planner)
// SegueCore ← SegueMedia (CFFmpeg, CStillImage: libheif, libexif, libtiff; CLargeStill: libpng, libjpeg-turbo), SegueReference,
//   SegueGL (CEGL, SegueShaders)
//   ← SeguePipeline ← Segue (the library product) ← segue (the command, also using SegueFarm ← SeguePipeline)
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
        // Pictures larger than FFmpeg decodes, read shrunk on load: libpng row by row, libjpeg-turbo's DCT scaling.
        .target(name: "CLargeStill", path: "Sources/CLargeStill",
                linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("exif")]),
        .target(name: "SegueCore"),
        // The edit model, its file format and the timeline (the planner that makes each frame's FramePlan).
        .target(name: "SegueEdit", dependencies: ["SegueCore"]),
        .target(name: "SegueMedia", dependencies: ["SegueCore", "CFFmpeg", "CStillImage", "CLargeStill"]),
        .target(name: "SegueReference", dependencies: ["SegueCore"]),
        // The whole shader folder is embedded; the plugin indexes it by file name (a new .frag needs no listing here).
        .executableTarget(name: "EmbedShaderFolderTool", path: "Plugins/EmbedShaderFolderTool"),
        .plugin(name: "EmbedShaderFolder", capability: .buildTool(), dependencies: ["EmbedShaderFolderTool"]),
        .target(name: "SegueShaders", dependencies: ["SegueCore"], path: "Shaders", resources: [.embedInCode("glsl")], plugins: ["EmbedShaderFolder"]),
        .target(name: "SegueGL", dependencies: ["SegueCore", "SegueShaders", "CEGL"]),
        .target(name: "SeguePipeline", dependencies: ["SegueCore", "SegueEdit", "SegueMedia", "SegueReference", "SegueGL"]),
        .target(name: "SegueFarm", dependencies: ["SeguePipeline", "SegueEdit", "SegueCore"]),
        .target(name: "Segue", dependencies: ["SeguePipeline", "SegueMedia", "SegueGL", "SegueEdit", "SegueCore"]),
        .executableTarget(name: "segue", dependencies: ["Segue", "SegueFarm", "SeguePipeline", "SegueEdit", "SegueCore"]),
        // A library program for the exit test (issue 22 #11): renders on the GPU and exits at once, however it ended.
        .executableTarget(name: "segue-exit-check", dependencies: ["Segue"], path: "Tests/ExitCheck"),
        .target(name: "SegueTestSupport", dependencies: ["SegueCore"], path: "Tests/SegueTestSupport"),
        .testTarget(name: "SegueCoreTests", dependencies: ["SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueEditTests", dependencies: ["SegueEdit", "SegueCore", "SegueTestSupport"]),
        .testTarget(name: "SegueRenderTests", dependencies: ["SegueCore", "SegueReference", "SegueGL", "SegueShaders", "SegueMedia", "SegueTestSupport"]),
        .testTarget(name: "SegueEndToEndTests", dependencies: ["Segue", "SegueEdit", "SegueCore", "SeguePipeline", "SegueFarm", "SegueMedia", "SegueReference", "SegueTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
