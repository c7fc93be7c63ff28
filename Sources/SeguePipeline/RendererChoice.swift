import Foundation
import SegueCore
import SegueEdit
import SegueGL
import SegueMedia
import SegueReference

/// Choosing and preparing the renderer of a render (`RenderOptions.backend`): the GPU, or the CPU reference where
/// the GPU cannot be had or cannot draw the render size, never for a transition only the GPU draws.
extension RenderJob {
    /// Makes the renderer for `options.backend`, ready for the transitions of `timeline` (`CompositeRenderer.prepare`).
    /// With `.auto`, falls back to the CPU with a one-line warning, unless the user named a GPU (`options.egl.device`):
    /// a named device that cannot be used is an error (`GPUError`), and so is a missing GPU when a transition needs it
    /// (glsl). A render size (`timeline.renderSize`) larger than the GPU's maximum texture size (`maxPictureSize`)
    /// cannot be drawn there: `.auto` then takes the CPU with a warning, `.gpu` throws `GPUError`. (Pictures larger
    /// than the limit are not a reason: the pipeline reduces them on the CPU, `LayerGeometry.reducedSize`.)
    public static func makeRenderer(_ options: RenderOptions, for timeline: Timeline? = nil) throws -> CompositeRenderer {
        let transitions = timeline?.placements.compactMap(\.spec.transition) ?? []
        let renderer = try makeRenderer(options, needsGPU: transitions.contains { $0.kind == .glsl }, renderSize: timeline?.renderSize)
        try renderer.prepare(for: transitions, images: try images(of: transitions))
        return renderer
    }

    /// The decoded image of every image parameter (`sampler2D` uniforms of glsl transitions), by path.
    /// - Throws: `MediaError` naming a file that cannot be decoded.
    static func images(of transitions: [Transition]) throws -> [String: RGBAImage] {
        var out: [String: RGBAImage] = [:]
        for t in transitions {
            for case .image(let path) in t.params.values where !path.isEmpty && out[path] == nil {
                do { out[path] = try StillImage.read(path) } catch let e as MediaError {
                    throw MediaError(path: path, function: e.function, code: e.code, message: "a transition's image parameter: \(e.message)", outputIO: e.isRetryable)
                }
            }
        }
        return out
    }

    /// `needsGPU`: a transition only the GPU can draw (glsl): `auto` does not fall back to the CPU then.
    private static func makeRenderer(_ options: RenderOptions, needsGPU: Bool, renderSize: PixelSize?) throws -> CompositeRenderer {
        let gpu: GPURenderer
        switch options.backend {
        case .cpu: return ReferenceRenderer()
        case .gpu: gpu = try GPURenderer(options: options.egl)
        case .auto:
            do { gpu = try GPURenderer(options: options.egl) } catch let e as GPUError where e.namedDeviceMissing {
                throw e
            } catch let e as GPUError where needsGPU {
                throw e.with(message: "\(e.message); a glsl transition needs the GPU (the CPU reference cannot run GLSL)")
            } catch {
                options.log("warning: no GPU context (\(error)); rendering on the CPU reference instead")
                return ReferenceRenderer()
            }
        }
        if let size = renderSize, let limit = gpu.maxPictureSize, max(size.width, size.height) > limit {
            let why = "render size \(size) exceeds this GPU's maximum texture size (\(limit))"
            guard options.backend == .auto else { throw GPUError("GL_MAX_TEXTURE_SIZE", why + "; use --backend cpu or a smaller --size") }
            if needsGPU { throw GPUError("GL_MAX_TEXTURE_SIZE", why + "; a glsl transition needs the GPU: use a smaller --size") }
            options.log("warning: \(why); rendering on the CPU reference instead")
            return ReferenceRenderer()
        }
        return gpu
    }
}
