import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueTestSupport

/// Base for tests that run on both renderers. The GPU renderer is created once per process (one EGL context,
/// on the main thread where XCTest runs the tests). Locally a missing EGL skips; under CI it fails.
class RendererTestCase: XCTestCase {
    // nonisolated(unsafe): XCTest runs these tests one at a time on the main thread, where the context is current.
    nonisolated(unsafe) static var gpu: GPURenderer?
    nonisolated(unsafe) static var gpuError: Error?
    nonisolated(unsafe) static var gpuTried = false

    func gpuRenderer(file: StaticString = #filePath, line: UInt = #line) throws -> GPURenderer {
        if !RendererTestCase.gpuTried {
            RendererTestCase.gpuTried = true
            do { RendererTestCase.gpu = try GPURenderer() } catch { RendererTestCase.gpuError = error }
        }
        if let g = RendererTestCase.gpu { return g }
        let why = "no EGL context: \(RendererTestCase.gpuError.map { "\($0)" } ?? "?")"
        if TestSupport.inCI { XCTFail("GPU tests must run in CI (Mesa llvmpipe): \(why)", file: file, line: line) }
        throw XCTSkip(why)
    }

    /// Both renderers, CPU first.
    func renderers() throws -> [CompositeRenderer] { [ReferenceRenderer(), try gpuRenderer()] }

    func identityLayer(_ clip: Int, size: PixelSize, source: PixelSize? = nil, orientation: Orientation = .identity, fit: FitMode = .fill) -> LayerPlan {
        LayerPlan(clipIndex: clip, sourceTime: .zero,
                  outputToSource: LayerGeometry.outputToSource(codedSize: source ?? size, sar: 1, orientation: orientation, renderSize: size, fit: fit))
    }

    func plan(_ kind: Transition.Kind?, _ direction: Transition.Direction? = nil, progress: Double, size: PixelSize,
              fromSource: PixelSize? = nil, toSource: PixelSize? = nil, orientation: Orientation = .identity) -> FramePlan {
        let t = kind.map { Transition(kind: $0, duration: MediaTime(value: 1, timescale: 1), direction: direction) }
        return FramePlan(frame: 0, time: .zero, from: identityLayer(0, size: size, source: fromSource, orientation: orientation),
                         to: kind == nil ? nil : identityLayer(1, size: size, source: toSource), transition: t, progress: progress)
    }

    /// Writes both pictures as PPM into a temp folder and returns its path (for failure messages).
    func dump(_ images: [String: RGBAImage]) -> String {
        let dir = TestSupport.tempDir("segue-failure")
        for (name, img) in images { try? writePPM(img, to: "\(dir)/\(name).ppm") }
        return dir
    }
}
