import Foundation
import SegueCore

/// Compositing and readback alone, without decoding or encoding: how many output frames per second a renderer draws
/// into the encoder's format (`YUV420Pipeline`, with the GPU's asynchronous readback) for one transition at one size.
/// Each frame uploads both layers' planes, as a real render does. For `segue bench-composite` and `make gpu-check`.
public enum CompositeBenchmark {
    public struct Result: Codable, Sendable {
        public let transition: String
        public let width: Int, height: Int
        /// Frames timed (after a few untimed ones that compile the shaders).
        public let frames: Int
        public let seconds: Double
        public let framesPerSecond: Double
        public let renderer: String
    }

    /// Two synthetic 8-bit 4:2:0 BT.709 pictures of `size` (a luma ramp and a chroma checkerboard), pixel-exact in
    /// an edit of the same size, as 1080p clips in a 1080p edit are.
    static func pictures(_ size: PixelSize) -> (VideoPicture, VideoPicture) {
        let w = size.width, h = size.height, cw = (w + 1) / 2, ch = (h + 1) / 2
        func picture(_ luma: (Int, Int) -> UInt8, _ cb: (Int, Int) -> UInt8, _ cr: (Int, Int) -> UInt8) -> VideoPicture {
            var y = [UInt8](repeating: 0, count: w * h), u = [UInt8](repeating: 0, count: cw * ch), v = u
            for j in 0..<h { for i in 0..<w { y[j * w + i] = luma(i, j) } }
            for j in 0..<ch { for i in 0..<cw { u[j * cw + i] = cb(i, j); v[j * cw + i] = cr(i, j) } }
            return VideoPicture(width: w, height: h, layout: .planar, chromaShiftX: 1, chromaShiftY: 1, bitDepth: 8,
                                planes: [PicturePlane(width: w, height: h, channels: 1, bytes: y),
                                         PicturePlane(width: cw, height: ch, channels: 1, bytes: u),
                                         PicturePlane(width: cw, height: ch, channels: 1, bytes: v)],
                                colour: .output)
        }
        let a = picture({ i, j in UInt8(16 + (i + j) % 220) }, { i, _ in UInt8(64 + i % 128) }, { _, j in UInt8(64 + j % 128) })
        let b = picture({ i, j in (i / 32 + j / 32) % 2 == 0 ? 200 : 40 }, { i, j in (i / 16 + j / 16) % 2 == 0 ? 90 : 160 }, { _, _ in 128 })
        return (a, b)
    }

    /// Draws `frames` frames of `transition` (progress 0 → 1) at `size` and times them, each by the renderer that would
    /// draw it in a render (`FrameRenderer`: the GPU, or the CPU renderer where the only GPU is a software rasteriser).
    /// - Throws: what the renderer throws (`GPUError`).
    public static func run(renderer: CompositeRenderer, size: PixelSize, transition: Transition, frames: Int) throws -> Result {
        let (a, b) = pictures(size)
        let map = LayerGeometry.outputToSource(codedSize: size, sar: 1, orientation: .identity, renderSize: size, fit: .fill)
        let rate = FrameRate(30)
        func plan(_ n: Int) -> FramePlan {
            FramePlan(frame: Int64(n), time: MediaTime(frame: Int64(n), rate: rate), renderSize: size,
                      passes: [CompositePass(from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: map),
                                             to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: map),
                                             transition: transition, progress: Double(n) / Double(max(1, frames)))])
        }
        let pipeline = renderer.makeYUV420Pipeline()
        let name = renderer.name
        for n in 0..<3 { _ = try pipeline.submit(plan(n), pictures: [a, b]) }   // compile, allocate
        _ = try pipeline.finish()
        let start = DispatchTime.now().uptimeNanoseconds
        var done = 0
        for n in 0..<frames { done += try pipeline.submit(plan(n), pictures: [a, b]).count }
        done += try pipeline.finish().count
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        precondition(done == frames, "the pipeline returned \(done) of \(frames) frames")
        return Result(transition: transition.kind.rawValue, width: size.width, height: size.height, frames: frames,
                      seconds: seconds, framesPerSecond: Double(frames) / seconds, renderer: name)
    }
}
