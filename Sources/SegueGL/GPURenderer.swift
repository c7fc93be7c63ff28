import CEGL
import SegueCore
import SegueShaders

/// The GPU renderer: uploads the two stored pictures' planes as they were decoded (Y, Cb, Cr as R8; NV12's
/// CbCr as RG8; 9…16-bit planes as R16UI; RGBA as RGBA8) and runs one fragment shader per output plane
/// (`Shaders/glsl/`: prelude + `layer.glsl` for each layer + `<transition>.frag` + `main.glsl`), which fuses
/// rotation, fit, the Y′CbCr → R′G′B′ conversion and the transition into the texture lookups.
///
/// `renderYUV420` draws the output's luma, then its Cb and Cr (one pass, two draw buffers), four samples per
/// fragment into RGBA8 targets whose bytes are the planes' (`main.glsl`), and reads them back with
/// `glReadPixels` (`makeYUV420Pipeline`: asynchronously, through pixel buffer objects); `render` draws
/// R′G′B′A for previews. Programs are compiled on first use per (transition, layer variants, output).
///
/// Owns its `EGLSession`; every call must come from the thread that created it.
public final class GPURenderer: CompositeRenderer {
    public let session: EGLSession
    public var name: String { "gpu (\(session.renderer), EGL \(session.platformDescription))" }
    private struct ProgramKey: Hashable {
        let transition: String
        let from: ShaderLibrary.LayerVariant, to: ShaderLibrary.LayerVariant
        let output: OutputPass
        var fused = false
        var linear = false
        var outputTransfer = 0
        var outputBits = 8
    }
    private var programs: [ProgramKey: GLProgram] = [:]
    // Created after the context is current (stored-property initialisers would run before it exists).
    private var fromTextures: [GLTexture]
    private var toTextures: [GLTexture]
    /// The `VideoPicture.identity` each set of textures holds (0: none): a picture already there is not uploaded
    /// again (a still, a frame held over several output frames), and a picture that moves from the incoming to the
    /// outgoing layer (a clip after the transition into it) swaps the sets instead.
    private var fromIdentity: UInt64 = 0
    private var toIdentity: UInt64 = 0
    /// Pictures uploaded so far (all planes of one picture count once): for tests (a still is uploaded once).
    public private(set) var uploads = 0
    /// `GL_MAX_TEXTURE_SIZE`: the pipeline reduces larger pictures on the CPU before they come here.
    public var maxPictureSize: Int? { maxTextureSize }
    private let noiseTexture: GLTexture
    private let glTransitions = GLTransitionPrograms()
    private var noiseSize: PixelSize?
    private var rgbaTarget: GLFramebuffer?
    private var lumaTarget: GLFramebuffer?
    private var chromaTarget: GLFramebuffer?
    private var vao: GLuint = 0
    /// Fold the output conversion into the layers for transitions that only mix colours (`LayerColourMap`);
    /// off, every transition takes the general path (the composite in R′G′B′, converted per output sample).
    public var fuseColour = true
    /// `GL_MAX_TEXTURE_SIZE`, read once: the largest picture or render size this context takes.
    private let maxTextureSize: Int

    /// Creates the EGL context and compiles the common programs. Throws `GPUError`.
    public init(options: EGLOptions = EGLOptions()) throws {
        session = try EGLSession(options: options)
        fromTextures = (0..<3).map { _ in GLTexture() }
        toTextures = (0..<3).map { _ in GLTexture() }
        noiseTexture = GLTexture()
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        maxTextureSize = Int(maxSize)
        glGenVertexArrays(1, &vao)
        _ = try program(ProgramKey(transition: "none", from: GPURenderer.commonVariant, to: GPURenderer.commonVariant, output: .luma))
    }

    /// The layer variant of most clips (8-bit planar, filtered): what `prepare` compiles.
    private static let commonVariant = ShaderLibrary.LayerVariant(kind: .planar8, exact: false)

    /// Compiles the programs of `transitions` (in the most common layer variant), so that a broken shader fails
    /// before the first frame rather than mid-render (a gl-transitions shader that does not compile is an
    /// `EditError` naming its file and lines); other variants compile on first use. Uploads `images`.
    public func prepare(for transitions: [Transition], images: [String: RGBAImage]) throws {
        try session.makeCurrent()
        for (path, image) in images { try glTransitions.setImage(image, path: path) }
        for t in transitions {
            let linear = t.blend == .linear
            let key = ProgramKey(transition: programName(t), from: GPURenderer.commonVariant, to: GPURenderer.commonVariant,
                                 output: .luma, fused: fuseColour && t.kind.traits.mixesColoursOnly && !linear, linear: linear)
            do { _ = try program(key) } catch let e as GPUError where e.compilerLog != nil && t.shader != nil {
                throw GLTransitionPrograms.compileError(t.shader!, log: e.compilerLog!)
            }
        }
    }

    /// Draws `transition` once at `progress` on a `size` target (R′G′B′A) between two plain test pictures and reads the
    /// result back, which waits for the draw to finish: the pre-flight that finds a shader that never finishes before
    /// a render starts (`RenderJob.makeRenderer` runs it under a watchdog). Image parameters read what `prepare` uploaded.
    /// - Throws: `GPUError`; `EditError` for a gl-transitions shader that does not compile.
    public func preflight(_ transition: Transition, progress: Double, size: PixelSize = PixelSize(width: 16, height: 16)) throws {
        let from = VideoPicture(RGBAImage(width: size.width, height: size.height, fill: (40, 80, 120)))
        let to = VideoPicture(RGBAImage(width: size.width, height: size.height, fill: (220, 180, 60)))
        let map = Affine2D.scale(1 / Double(size.width), 1 / Double(size.height))
        let plan = FramePlan(frame: 0, time: .zero, from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: map),
                             to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: map), transition: transition, progress: progress)
        do { _ = try render(plan, from: from, to: to, renderSize: size) } catch let e as GPUError where e.compilerLog != nil && transition.shader != nil {
            throw GLTransitionPrograms.compileError(transition.shader!, log: e.compilerLog!)
        }
    }

    /// The program name of a transition: its shader stem, or the key of its gl-transitions shader.
    private func programName(_ t: Transition?) -> String {
        guard let t else { return "none" }
        if t.kind == .glsl, let shader = t.shader { return glTransitions.key(shader) }
        return t.kind.shaderStem
    }
    deinit {
        try? session.makeCurrent()
        glDeleteVertexArrays(1, &vao)
    }

    private func program(_ key: ProgramKey) throws -> GLProgram {
        if let p = programs[key] { return p }
        let source: String
        if let code = glTransitions.code(key.transition) {
            source = ShaderLibrary.fragmentSource(transitionCode: code, from: key.from, to: key.to, output: key.output, fused: key.fused, linear: key.linear,
                                                  outputTransfer: key.outputTransfer, outputBits: key.outputBits)
        } else if let s = ShaderLibrary.fragmentSource(transition: key.transition, from: key.from, to: key.to, output: key.output, fused: key.fused,
                                                       linear: key.linear, outputTransfer: key.outputTransfer, outputBits: key.outputBits) {
            source = s
        } else {
            throw GPUError("render", "no shader for transition \(key.transition)")
        }
        let p = try GLProgram(vertex: ShaderLibrary.vertexSource, fragment: source, name: "\(key.transition).frag")
        programs[key] = p
        return p
    }

    public func render(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> RGBAImage {
        try session.makeCurrent()
        if rgbaTarget?.size != renderSize {
            try checkFits(renderSize, "render size \(renderSize) exceeds this GPU's maximum texture size (\(maxTextureSize))")
            rgbaTarget = try GLFramebuffer(size: renderSize, formats: [.rgba8])
        }
        try prepare(plan, from: from, to: to)
        try draw(plan, from: from, to: to, renderSize: renderSize, output: .rgba, target: rgbaTarget!)
        var pixels = [UInt8](repeating: 0, count: renderSize.width * renderSize.height * 4)
        try rgbaTarget!.read(0, into: &pixels)
        return RGBAImage(width: renderSize.width, height: renderSize.height, pixels: pixels)
    }

    public func renderYUV420(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> YUV420Image {
        let (luma, chroma) = try drawYUV420(plan, from: from, to: to, renderSize: renderSize)
        let format = OutputYCbCr(plan.colour.dynamicRange), b = format.bitDepth > 8 ? 2 : 1
        let half = renderSize.width / 2
        return YUV420Image(width: renderSize.width, height: renderSize.height, bitDepth: format.bitDepth,
                           y: try readPlane(luma, 0, width: renderSize.width * b),
                           cb: try readPlane(chroma, 0, width: half * b), cr: try readPlane(chroma, 1, width: half * b))
    }

    /// Pipelined `renderYUV420`: each frame's planes are copied into a pixel buffer object and mapped one
    /// frame later (`GPUReadbackPipeline`), so their readback overlaps the next frame's drawing.
    public func makeYUV420Pipeline() -> YUV420Pipeline { GPUReadbackPipeline(renderer: self) }

    /// Makes the context current and draws the output's luma target (four 8-bit samples, or two 10-bit samples
    /// as byte pairs, per RGBA8 texel) and chroma target (attachment 0: Cb, 1: Cr). Returns them for reading back.
    func drawYUV420(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize) throws -> (luma: GLFramebuffer, chroma: GLFramebuffer) {
        try session.makeCurrent()
        let half = PixelSize(width: renderSize.width / 2, height: renderSize.height / 2)
        // Four bytes per fragment (main.glsl): RGBA8 targets as wide as each plane's row of bytes / 4, rounded up.
        let b = OutputYCbCr(plan.colour.dynamicRange).bitDepth > 8 ? 2 : 1
        let lumaSize = PixelSize(width: (renderSize.width * b + 3) / 4, height: renderSize.height)
        let chromaSize = PixelSize(width: (half.width * b + 3) / 4, height: half.height)
        if lumaTarget?.size != lumaSize || chromaTarget?.size != chromaSize {
            try checkFits(renderSize, "render size \(renderSize) exceeds this GPU's maximum texture size (\(maxTextureSize))")
            lumaTarget = try GLFramebuffer(size: lumaSize, formats: [.rgba8])
            chromaTarget = try GLFramebuffer(size: chromaSize, formats: [.rgba8, .rgba8])
        }
        try prepare(plan, from: from, to: to)
        try draw(plan, from: from, to: to, renderSize: renderSize, output: .luma, target: lumaTarget!)
        try draw(plan, from: from, to: to, renderSize: renderSize, output: .chroma, target: chromaTarget!)
        return (lumaTarget!, chromaTarget!)
    }

    /// A plane of `width` bytes per row from a target holding four per texel (dropping the padding of the last).
    private func readPlane(_ target: GLFramebuffer, _ index: Int, width: Int) throws -> [UInt8] {
        let rowBytes = target.size.width * 4, h = target.size.height
        var packed = [UInt8](repeating: 0, count: rowBytes * h)
        try target.read(index, into: &packed)
        if rowBytes == width { return packed }
        var plane = [UInt8](repeating: 0, count: width * h)
        for y in 0..<h { plane[(y * width)..<((y + 1) * width)] = packed[(y * rowBytes)..<(y * rowBytes + width)] }
        return plane
    }

    private func prepare(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?) throws {
        if from.identity == 0 || from.identity != fromIdentity {
            if from.identity != 0 && from.identity == toIdentity {
                swap(&fromTextures, &toTextures)
                swap(&fromIdentity, &toIdentity)
            } else {
                fromIdentity = 0
                try upload(from, into: fromTextures)
                fromIdentity = from.identity
            }
        }
        if let t = to, t.identity == 0 || t.identity != toIdentity {
            toIdentity = 0
            try upload(t, into: toTextures)
            toIdentity = t.identity
        }
    }

    private static func kind(_ p: VideoPicture) -> ShaderLibrary.LayerVariant.Kind {
        switch p.layout {
        case .rgba: return .rgba
        case .semiPlanar: return .semiPlanar8
        case .planar: return p.bitDepth > 8 ? .planar16 : .planar8
        }
    }

    private func draw(_ plan: FramePlan, from: VideoPicture, to: VideoPicture?, renderSize: PixelSize,
                      output pass: OutputPass, target: GLFramebuffer) throws {
        let p = TransitionParameters(plan: plan, renderSize: renderSize)
        let toPicture = to ?? from, toLayer = plan.to ?? plan.from
        // HDR clips (and SDR clips whose primaries differ from the output's) have a colour stage that is not affine:
        // such a layer gives R'G'B', and the output conversion is done on the composite (not fused).
        let fromStage = ColourStage(picture: from, plan: plan, pass: pass), toStage = ColourStage(picture: toPicture, plan: plan, pass: pass)
        let fused = fuseColour && pass != .rgba && p.fuses && fromStage == nil && toStage == nil
        let outputRange = pass == .rgba ? DynamicRange.sdr : plan.colour.dynamicRange
        let format = OutputYCbCr(outputRange)
        let fromColour = LayerColourMap(picture: from, pass: pass, fused: fused, output: format)
        let toColour = LayerColourMap(picture: toPicture, pass: pass, fused: fused, output: format)
        let fromVariant = ShaderLibrary.LayerVariant(kind: GPURenderer.kind(from), exact: TransitionParameters.isExact(plan, plan.from, picture: from),
                                                     readsLuma: fromColour.readsLuma, readsChroma: fromColour.readsChroma,
                                                     transfer: fromStage?.shaderID ?? 0, tone: fromStage?.toneMap?.curve.shaderID ?? 0)
        let toVariant = ShaderLibrary.LayerVariant(kind: GPURenderer.kind(toPicture), exact: TransitionParameters.isExact(plan, toLayer, picture: toPicture),
                                                   readsLuma: toColour.readsLuma, readsChroma: toColour.readsChroma,
                                                   transfer: toStage?.shaderID ?? 0, tone: toStage?.toneMap?.curve.shaderID ?? 0)
        let program = try program(ProgramKey(transition: programName(plan.transition), from: fromVariant, to: toVariant, output: pass,
                                             fused: fused, linear: p.linear, outputTransfer: outputRange.shaderID, outputBits: format.bitDepth))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.id)
        glViewport(0, 0, GLsizei(target.size.width), GLsizei(target.size.height))
        glUseProgram(program.id)
        bind(program, "From", from, fromTextures, unit: 0, map: p.fromMap, colour: fromColour, stage: fromStage)
        bind(program, "To", toPicture, to == nil ? fromTextures : toTextures, unit: 3, map: p.toMap, colour: toColour, stage: toStage)
        let luminance = outputRange.primaries.luminanceCoefficients.map { Float($0) }
        glUniform3f(program.location("segue_outputLuminance"), luminance[0], luminance[1], luminance[2])
        func vec4(_ name: String, _ r: [Float]) { glUniform4f(program.location(name), r[0], r[1], r[2], r[3]) }
        vec4("background", LayerColourMap.background(pass: pass, fused: fused, output: format, colour: plan.background))
        vec4("segue_black", LayerColourMap.constant(0, 0, 0, pass: pass, fused: fused, output: format))
        vec4("segue_white", LayerColourMap.constant(1, 1, 1, pass: pass, fused: fused, output: format))
        glUniform2f(program.location("segue_resolution"), Float(renderSize.width), Float(renderSize.height))
        glUniform1f(program.location("progress"), p.progress)
        glUniform1f(program.location("segue_xfadeProgress"), 1 - p.progress)  // Float arithmetic, as xfade and the CPU reference
        glUniform1f(program.location("ratio"), Float(renderSize.width) / Float(renderSize.height))
        glUniform2f(program.location("segue_direction"), p.direction.0, p.direction.1)
        vec4("segue_rowY", format.y)
        vec4("segue_rowCb", format.cb)
        vec4("segue_rowCr", format.cr)
        let back = format.toRGB
        glUniformMatrix3fv(program.location("segue_fromOutputMatrix"), 1, GLboolean(GL_TRUE), back.matrix)
        glUniform3f(program.location("segue_fromOutputOffset"), back.offset[0], back.offset[1], back.offset[2])
        glUniform2f(program.location("segue_chromaSite"), RGBToOutputYCbCr.siting.x, RGBToOutputYCbCr.siting.y)
        if let kind = p.kind {
            for (parameter, value) in zip(kind.traits.parameters, p.parameters) { glUniform1f(program.location(parameter.name), value) }
        }
        if let t = plan.transition, t.kind == .glsl { glTransitions.setUniforms(program, t, firstUnit: 8) }
        let noise = program.location("segue_noise")
        if noise >= 0 {
            try bindNoise(renderSize, unit: 6)
            glUniform1i(noise, 6)
        }
        glBindVertexArray(vao)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        try glCheck("glDrawArrays")
    }

    /// `TransitionNoise` for `size` as an R32F texture (made when the size changes), bound to texture unit `unit`.
    private func bindNoise(_ size: PixelSize, unit: Int) throws {
        // Its own unit first: an upload binds the texture to the active unit, which still holds a layer's plane.
        glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
        if noiseSize != size {
            let values = TransitionNoise.values(width: size.width, height: size.height)
            try noiseTexture.upload(values.withUnsafeBytes { Array($0) }, width: size.width, height: size.height, format: .r32f)
            noiseSize = size
        }
        glBindTexture(GLenum(GL_TEXTURE_2D), noiseTexture.id)
    }

    /// Binds a layer's planes to texture units `unit…unit+2` and sets its uniforms (`layer.glsl`).
    private func bind(_ program: GLProgram, _ layer: String, _ picture: VideoPicture, _ textures: [GLTexture], unit: Int, map: [Float],
                      colour: LayerColourMap, stage: ColourStage?) {
        for i in 0..<picture.planes.count {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit + i)))
            glBindTexture(GLenum(GL_TEXTURE_2D), textures[i].id)
            glUniform1i(program.location("u\(layer)\(i)"), GLint(unit + i))
        }
        setMap(program.location("u\(layer)Map"), map)
        glUniform2f(program.location("u\(layer)Size"), Float(picture.width), Float(picture.height))
        glUniformMatrix3fv(program.location("u\(layer)Matrix"), 1, GLboolean(GL_TRUE), colour.matrix)
        glUniform3f(program.location("u\(layer)Offset"), colour.offset[0], colour.offset[1], colour.offset[2])
        if let stage {
            glUniformMatrix3fv(program.location("u\(layer)Gamut"), 1, GLboolean(GL_TRUE), stage.gamutParameters)
            glUniform1f(program.location("u\(layer)Scale"), stage.scaleParameter)
            let k = stage.toneParameters
            glUniform4f(program.location("u\(layer)Tone"), k[0], k[1], k[2], k[3])
        }
        guard picture.layout != .rgba else { return }
        let cs = picture.chromaSize, c = ChromaPositionMap(picture)
        glUniform4f(program.location("u\(layer)Chroma"), c.scaleX, c.scaleY, c.offsetX, c.offsetY)
        glUniform2f(program.location("u\(layer)ChromaSize"), Float(cs.width), Float(cs.height))
    }

    private func upload(_ picture: VideoPicture, into textures: [GLTexture]) throws {
        try checkFits(picture.size, "a \(picture.width)x\(picture.height) picture is larger than this GPU's maximum texture size (\(maxTextureSize)); render it with --backend cpu")
        for (i, plane) in picture.planes.enumerated() {
            let format: GLTexelFormat
            switch (picture.layout, plane.channels) {
            case (.rgba, _): format = .rgba8
            case (_, 2): format = .rg8
            default: format = picture.bitDepth > 8 ? .r16ui : .r8
            }
            try textures[i].upload(plane.bytes, width: plane.width, height: plane.height, format: format)
        }
        uploads += 1
    }

    private func checkFits(_ size: PixelSize, _ message: @autoclosure () -> String) throws {
        if size.width > maxTextureSize || size.height > maxTextureSize { throw GPUError("GL_MAX_TEXTURE_SIZE", message()) }
    }

    /// Column-major mat3 for `st = M · (uv, 1)`: columns (a, b, 0), (c, d, 0), (tx, ty, 1).
    private func setMap(_ loc: GLint, _ m: [Float]) {
        let mat: [Float] = [m[0], m[1], 0, m[2], m[3], 0, m[4], m[5], 1]
        glUniformMatrix3fv(loc, 1, GLboolean(GL_FALSE), mat)
    }
}
