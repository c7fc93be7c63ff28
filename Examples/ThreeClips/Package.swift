// swift-tools-version:6.0
import PackageDescription

// An example client of the Segue library: builds a three-clip edit in code and renders it.
// `swift run --package-path Examples/ThreeClips ThreeClips a.mp4 b.mov c.jpg out.mp4` (from the repository root).
let package = Package(
    name: "ThreeClips",
    platforms: [.macOS(.v15)],
    // Named: a path dependency is otherwise known by its folder's name (main, a worktree's name), not "Segue".
    dependencies: [.package(name: "Segue", path: "../..")],
    targets: [
        .executableTarget(name: "ThreeClips", dependencies: [.product(name: "Segue", package: "Segue")]),
    ]
)
