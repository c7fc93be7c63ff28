import CEGL
import SegueCore
import SegueShaders

/// The GPU's blur of a layer drawn through a `blur` or `sharpen` effect (`LayerFilter`, `filteringLayers`): two passes
/// of `blurFragment`, rows then columns, each sample the sum of its neighbours within `ceil(3σ)` by the kernel's
/// weights (`LayerFilter.kernel`, uploaded as a texture: the weights are computed once, in Swift), 0 outside the
/// image or, with `extendsEdges`, its nearest edge sample — `LayerFilter.gaussian`'s twin.
extension GPURenderer {
    /// One direction of the blur (`segue_step` (1, 0): rows, (0, 1): columns).
    static let blurFragment = """
    #version 300 es
    precision highp float;
    precision highp int;
    uniform highp sampler2D segue_image;
    uniform highp sampler2D segue_weights;
    uniform ivec2 segue_step;
    uniform int segue_reach;
    uniform bool segue_extend;
    out vec4 segue_out;
    void main() {
        ivec2 p = ivec2(gl_FragCoord.xy), size = textureSize(segue_image, 0);
        vec4 acc = vec4(0.0);
        for (int t = -segue_reach; t <= segue_reach; t++) {
            ivec2 q = p + segue_step * t;
            if (!segue_extend && (q.x < 0 || q.y < 0 || q.x >= size.x || q.y >= size.y)) continue;
            acc += texelFetch(segue_image, clamp(q, ivec2(0), size - 1), 0) * texelFetch(segue_weights, ivec2(t < 0 ? -t : t, 0), 0).r;
        }
        segue_out = acc;
    }
    """

    public func blurred(_ image: RGBAImage, by filter: LayerFilter) throws -> RGBAImage {
        try session.makeCurrent()
        let size = PixelSize(width: image.width, height: image.height)
        if blurProgram == nil { blurProgram = try GLProgram(vertex: ShaderLibrary.vertexSource, fragment: GPURenderer.blurFragment, name: "blur.frag") }
        if blurTargets.first?.size != size { blurTargets = try (0..<2).map { _ in try GLFramebuffer(size: size, formats: [.rgba8]) } }
        let source = blurSource ?? GLTexture()
        blurSource = source
        try source.upload(image)
        let kernel = LayerFilter.kernel(filter.radius), n = kernel.count / 2
        let weights = GLTexture()
        let half = Array(kernel[n...])
        try weights.upload(half.withUnsafeBytes { Array($0) }, width: half.count, height: 1, format: .r32f)
        let program = blurProgram!
        glUseProgram(program.id)
        glBindVertexArray(vao)
        glActiveTexture(GLenum(GL_TEXTURE1))
        glBindTexture(GLenum(GL_TEXTURE_2D), weights.id)
        glUniform1i(program.location("segue_weights"), 1)
        glUniform1i(program.location("segue_image"), 0)
        glUniform1i(program.location("segue_reach"), GLint(n))
        glUniform1i(program.location("segue_extend"), filter.extendsEdges ? 1 : 0)
        for (k, input) in [source, blurTargets[0].color].enumerated() {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), blurTargets[k].id)
            glViewport(0, 0, GLsizei(size.width), GLsizei(size.height))
            glActiveTexture(GLenum(GL_TEXTURE0))
            glBindTexture(GLenum(GL_TEXTURE_2D), input.id)
            glUniform2i(program.location("segue_step"), k == 0 ? 1 : 0, k == 0 ? 0 : 1)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            try glCheck("glDrawArrays (blur)")
        }
        var pixels = [UInt8](repeating: 0, count: size.width * size.height * 4)
        try blurTargets[1].read(0, into: &pixels)
        return RGBAImage(width: size.width, height: size.height, pixels: pixels)
    }
}
