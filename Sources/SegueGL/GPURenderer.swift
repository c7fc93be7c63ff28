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
    /// Whether `GL_RENDERER` is a software rasteriser (Mesa's llvmpipe, softpipe or swrast): the "GPU" is the CPU.
    public var isSoftwareRasteriser: Bool {
        let r = session.renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software"].contains { r.contains($0) }
    }
    private struct ProgramKey: Hashable {
        let transition: String
        let from: ShaderLibrary.LayerVariant, to: ShaderLibrary.LayerVariant
        let output: OutputPass
        var fused = false
        var linear = false
        var outputTransfer = 0
        var outputBits = 8
        var overBelow = false
        var blend = 0
        /// The track matte's layer variant and `MatteMode.shaderID` (0: none).
        var matte: ShaderLibrary.LayerVariant? = nil
        var matteMode = 0
        var matteSource: (variant: ShaderLibrary.LayerVariant, mode: Int)? { matte.map { ($0, matteMode) } }
    }
    private var programs: [ProgramKey: GLProgram] = [:]
    /// One picture's planes as textures, and which picture they hold.
    private final class TextureSet {
        /// The `VideoPicture.identity` held (0: none, or a picture without identity).
        var identity: UInt64 = 0
        /// The frame (`frameStamp`) that last used it.
        var lastUsed = 0
        let textures = (0..<3).map { _ in GLTexture() }
    }
    /// Textures of recent pictures: a picture already held (same non-zero identity: a still, a frame held over several
    /// output frames, a clip whose layer moves from one pass to another) is not uploaded again. Created after the
    /// context is current.
    private var textureSets: [TextureSet] = []
    private var frameStamp = 0
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
    /// For outputs that keep alpha (`FramePlan.keepsAlpha`): the alpha at pixel centres and at chroma sites.
    private var alphaTarget: GLFramebuffer?
    private var chromaAlphaTarget: GLFramebuffer?
    /// Copies of a target's texels under a pass that blends into it (`OVER_BELOW`), one per attachment, by target.
    private var belowTextures: [GLuint: [GLTexture]] = [:]
    var vao: GLuint = 0
    /// The blur's program and its two targets (`GLLayerFilter.swift`), made when first used.
    var blurProgram: GLProgram?
    var blurTargets: [GLFramebuffer] = []
    var blurSource: GLTexture?
    /// Fold the output conversion into the layers for transitions that only mix colours (`LayerColourMap`);
    /// off, every transition takes the general path (the composite in R′G′B′, converted per output sample).
    public var fuseColour = true
    /// `GL_MAX_TEXTURE_SIZE`, read once: the largest picture or render size this context takes.
    private let maxTextureSize: Int
    /// Texture units: a pass's layers take 0…2 (From) and 3…5 (To), the noise table 6, the layers' LUTs 7 (From) and
    /// 15 (To), a gl-transitions shader's images 8…, the texels below a pass 12 and 13, a track matte 16…18, a blended
    /// pass's backdrop (`backdropUnits`) 19…21 where the GPU has them.
    private static let belowUnit = 12
    /// The first of a track matte's three texture units (`layer.glsl` spelled `Matte`): past the 16 the others use
    /// (ES 3.0 guarantees 16 per fragment shader; Mesa and desktop drivers give 32).
    private static let matteUnit = 16
    /// `GL_MAX_TEXTURE_IMAGE_UNITS`, read once: a track matte needs `matteUnit + 3` of them.
    private let maxTextureUnits: Int
    /// The units of a blended pass's backdrop (Y′, Cb, Cr): 19…21, clear of every other unit a pass binds (a layer's
    /// LUT, a 3D texture, on 7 or 15 beside a 2D backdrop on the same unit was `GL_INVALID_OPERATION` at the draw);
    /// on a GPU of only the 16 units ES 3.0 guarantees, 7, 14 and 15 (a blended layer with a LUT then needs the CPU).
    private var backdropUnits: [Int] { maxTextureUnits >= 22 ? [19, 20, 21] : [7, 14, 15] }

    /// Creates the EGL context and compiles the common programs. Throws `GPUError`.
    public init(options: EGLOptions = EGLOptions()) throws {
        session = try EGLSession(options: options)
        noiseTexture = GLTexture()
        var maxSize: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxSize)
        maxTextureSize = Int(maxSize)
        var units: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_IMAGE_UNITS), &units)
        maxTextureUnits = Int(units)
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
        let plan = FramePlan(frame: 0, time: .zero, renderSize: size,
                             passes: [CompositePass(from: LayerPlan(clipIndex: 0, sourceTime: .zero, outputToSource: map),
                                                    to: LayerPlan(clipIndex: 1, sourceTime: .zero, outputToSource: map), transition: transition,
                                                    progress: progress)])
        do { _ = try render(plan, pictures: [from, to]) } catch let e as GPUError where e.compilerLog != nil && transition.shader != nil {
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
                                                  outputTransfer: key.outputTransfer, outputBits: key.outputBits, overBelow: key.overBelow, blend: key.blend,
                                                  matte: key.matteSource)
        } else if let s = ShaderLibrary.fragmentSource(transition: key.transition, from: key.from, to: key.to, output: key.output, fused: key.fused,
                                                       linear: key.linear, outputTransfer: key.outputTransfer, outputBits: key.outputBits,
                                                       overBelow: key.overBelow, blend: key.blend, matte: key.matteSource) {
            source = s
        } else {
            throw GPUError("render", "no shader for transition \(key.transition)")
        }
        let p = try GLProgram(vertex: ShaderLibrary.vertexSource, fragment: source, name: "\(key.transition).frag")
        programs[key] = p
        return p
    }

    public func render(_ plan: FramePlan, pictures: [VideoPicture]) throws -> RGBAImage {
        let (plan, pictures) = try filteringLayers(plan, pictures: pictures)
        try session.makeCurrent()
        let renderSize = plan.renderSize
        if rgbaTarget?.size != renderSize {
            try checkFits(renderSize, "render size \(renderSize) exceeds this GPU's maximum texture size (\(maxTextureSize))")
            rgbaTarget = try GLFramebuffer(size: renderSize, formats: [.rgba8])
        }
        let sets: [TextureSet?] = try upload(pictures)
        var k = 0
        for (i, pass) in plan.passes.enumerated() {
            try draw(pass, plan: plan, pictures: pictures, sets: sets, first: k, output: .rgba, target: rgbaTarget!, overBelow: i > 0)
            k += pass.layers.count
        }
        var pixels = [UInt8](repeating: 0, count: renderSize.width * renderSize.height * 4)
        try rgbaTarget!.read(0, into: &pixels)
        return RGBAImage(width: renderSize.width, height: renderSize.height, pixels: pixels)
    }

    public func renderYUV420(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> YUV420Image {
        let t = try drawYUV420(plan, pictures: pictures, base: base)
        let renderSize = plan.renderSize
        let format = OutputYCbCr(plan.colour.dynamicRange), b = format.bitDepth > 8 ? 2 : 1
        let half = renderSize.width / 2
        return YUV420Image(width: renderSize.width, height: renderSize.height, bitDepth: format.bitDepth,
                           y: try readPlane(t.luma, 0, width: renderSize.width * b),
                           cb: try readPlane(t.chroma, 0, width: half * b), cr: try readPlane(t.chroma, 1, width: half * b),
                           alpha: try t.alpha.map { try readPlane($0, 0, width: renderSize.width) },
                           chromaAlpha: try t.chromaAlpha.map { try readPlane($0, 0, width: half) })
    }

    /// The targets a frame's Y′CbCr is drawn into: luma, chroma (Cb, Cr) and, for an output that keeps alpha, the alpha
    /// at pixel centres and at chroma sites.
    struct YUV420Targets {
        let luma: GLFramebuffer, chroma: GLFramebuffer
        let alpha: GLFramebuffer?, chromaAlpha: GLFramebuffer?
    }

    /// Pipelined `renderYUV420`: each frame's planes are copied into a pixel buffer object and mapped one
    /// frame later (`GPUReadbackPipeline`), so their readback overlaps the next frame's drawing.
    public func makeYUV420Pipeline() -> YUV420Pipeline { GPUReadbackPipeline(renderer: self) }

    /// Makes the context current and draws the output's luma target (four 8-bit samples, or two 10-bit samples
    /// as byte pairs, per RGBA8 texel) and chroma target (attachment 0: Cb, 1: Cr): the first pass over the whole
    /// frame (or, given `base`, the first pass's planes taken from its picture, `FrameStrategy.base`, uploaded as they
    /// are), then each later pass inside its rectangle. Returns them for reading back.
    func drawYUV420(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> YUV420Targets {
        try plan.checkPlanesNeedNoBlend()
        try plan.checkEffectsAreSDR()
        let (plan, pictures) = try filteringLayers(plan, pictures: pictures)
        try session.makeCurrent()
        let renderSize = plan.renderSize
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
        // Alpha: 8-bit, four samples a texel, laid out as the 8-bit luma and as one chroma plane.
        let alphaSize = PixelSize(width: (renderSize.width + 3) / 4, height: renderSize.height)
        let chromaAlphaSize = PixelSize(width: (half.width + 3) / 4, height: half.height)
        if plan.keepsAlpha && (alphaTarget?.size != alphaSize || chromaAlphaTarget?.size != chromaAlphaSize) {
            alphaTarget = try GLFramebuffer(size: alphaSize, formats: [.rgba8])
            chromaAlphaTarget = try GLFramebuffer(size: chromaAlphaSize, formats: [.rgba8])
        }
        var sets: [TextureSet?]
        var firstPass = 0, k = 0
        if let base {
            // The planes of an untouched first layer are the frame's starting point: uploaded, not drawn.
            precondition(b == 1 && base.width == renderSize.width && base.height == renderSize.height && !plan.keepsAlpha, "base planes of another format")
            try uploadPlanes(base, luma: lumaTarget!, chroma: chromaTarget!)
            firstPass = 1
            k = plan.passes[0].layers.count
            sets = Array(repeating: nil, count: k) + (try upload(Array(pictures.dropFirst(k))))
        } else {
            sets = try upload(pictures)
        }
        for i in firstPass..<plan.passes.count {
            let pass = plan.passes[i]
            try draw(pass, plan: plan, pictures: pictures, sets: sets, first: k, output: .luma, target: lumaTarget!, overBelow: i > 0)
            try draw(pass, plan: plan, pictures: pictures, sets: sets, first: k, output: .chroma, target: chromaTarget!, overBelow: i > 0)
            if plan.keepsAlpha {
                try draw(pass, plan: plan, pictures: pictures, sets: sets, first: k, output: .alpha, target: alphaTarget!, overBelow: i > 0)
                try draw(pass, plan: plan, pictures: pictures, sets: sets, first: k, output: .chromaAlpha, target: chromaAlphaTarget!, overBelow: i > 0)
            }
            k += pass.layers.count
        }
        return YUV420Targets(luma: lumaTarget!, chroma: chromaTarget!, alpha: plan.keepsAlpha ? alphaTarget : nil,
                             chromaAlpha: plan.keepsAlpha ? chromaAlphaTarget : nil)
    }

    /// Writes an 8-bit 4:2:0 picture's planes into the luma and chroma targets, as the luma and chroma passes would
    /// have drawn them (each target row holds the plane's row of bytes, padded to whole texels).
    private func uploadPlanes(_ image: YUV420Image, luma: GLFramebuffer, chroma: GLFramebuffer) throws {
        func put(_ bytes: [UInt8], width: Int, height: Int, into texture: GLTexture) throws {
            let rowBytes = texture.width * 4
            var padded = bytes
            if rowBytes != width {
                padded = [UInt8](repeating: 0, count: rowBytes * height)
                for y in 0..<height { padded[(y * rowBytes)..<(y * rowBytes + width)] = bytes[(y * width)..<((y + 1) * width)] }
            }
            try texture.upload(padded, width: texture.width, height: height, format: .rgba8)
        }
        try put(image.y, width: image.width, height: image.height, into: luma.attachments[0])
        try put(image.cb, width: image.width / 2, height: image.height / 2, into: chroma.attachments[0])
        try put(image.cr, width: image.width / 2, height: image.height / 2, into: chroma.attachments[1])
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

    /// The texture sets holding `pictures` (in order), uploading those not held already. Sets used in this frame
    /// are not reused for another picture of it; of the others, the least recently used is.
    private func upload(_ pictures: [VideoPicture]) throws -> [TextureSet] {
        frameStamp += 1
        var chosen: [TextureSet] = []
        for picture in pictures {
            if picture.identity != 0, let held = textureSets.first(where: { $0.identity == picture.identity }) {
                held.lastUsed = frameStamp
                chosen.append(held)
                continue
            }
            let free = textureSets.filter { $0.lastUsed != frameStamp }
            let set: TextureSet
            if free.count > 2 || (free.count > 0 && textureSets.count >= 2 * pictures.count + 2) {
                set = free.min(by: { $0.lastUsed < $1.lastUsed })!
            } else {
                set = TextureSet()
                textureSets.append(set)
            }
            set.identity = 0
            try upload(picture, into: set.textures)
            set.identity = picture.identity
            set.lastUsed = frameStamp
            chosen.append(set)
        }
        return chosen
    }

    private static func kind(_ p: VideoPicture) -> ShaderLibrary.LayerVariant.Kind {
        switch p.layout {
        case .rgba: return .rgba
        case .semiPlanar: return .semiPlanar8
        case .planar: return p.bitDepth > 8 ? .planar16 : .planar8
        }
    }

    /// Draws `pass` (its layers' pictures are `pictures[first…]`, in `sets[first…]`) into `target` for `output`: the
    /// first pass over the whole target, a later one (`overBelow`) blended into the target's texels inside its
    /// rectangle (copied first to `below`, which the program reads).
    private func draw(_ pass: CompositePass, plan: FramePlan, pictures: [VideoPicture], sets: [TextureSet?], first: Int,
                      output: OutputPass, target: GLFramebuffer, overBelow: Bool) throws {
        let renderSize = plan.renderSize
        let recipe = PassRecipe(pass: pass, plan: plan, pictures: pictures[first...], output: output, overBelow: overBelow, fuseColour: fuseColour)
        let p = recipe.parameters
        let from = pictures[first], toPicture = pass.to == nil ? from : pictures[first + 1]
        let fromSet = sets[first]!, toSet = pass.to == nil ? fromSet : sets[first + 1]!
        let format = recipe.format
        func variant(_ picture: VideoPicture, _ layer: PassRecipe.Layer) -> ShaderLibrary.LayerVariant {
            ShaderLibrary.LayerVariant(kind: GPURenderer.kind(picture), exact: layer.exact,
                                       readsLuma: layer.colour.readsLuma, readsChroma: layer.colour.readsChroma,
                                       transfer: layer.stage?.shaderID ?? 0, tone: layer.stage?.toneMap?.curve.shaderID ?? 0,
                                       cropped: layer.plan.crop != .unit, effects: layer.plan.effects.map(ShaderLibrary.LayerVariant.Effect.init))
        }
        // A track matte's picture is the pass's last (`CompositePass.layers`).
        let mattePicture = pictures[first + pass.layers.count - 1], matteSet = sets[first + pass.layers.count - 1]!
        let program = try program(ProgramKey(transition: programName(pass.transition), from: variant(from, recipe.from),
                                             to: variant(toPicture, recipe.to), output: output,
                                             fused: recipe.fused, linear: p.linear, outputTransfer: recipe.outputRange.shaderID, outputBits: format.bitDepth,
                                             overBelow: overBelow, blend: overBelow && output != .alpha && output != .chromaAlpha ? pass.blend.shaderID : 0,
                                             matte: recipe.matte.map { variant(mattePicture, $0) }, matteMode: pass.matte?.mode.shaderID ?? 0))
        // A later pass changes only the texels of its rectangle: those are copied, and only those drawn.
        var scissor: (x: Int, y: Int, w: Int, h: Int)? = nil
        if overBelow {
            let r = texelRect(pass.rect ?? PixelRect(renderSize), output: output, bits: format.bitDepth, target: target.size)
            guard r.w > 0, r.h > 0 else { return }
            scissor = r
            try copyBelow(r, of: target)
        }
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.id)
        glViewport(0, 0, GLsizei(target.size.width), GLsizei(target.size.height))
        glUseProgram(program.id)
        try bindEffects(program, "From", recipe.from.plan.effects, lutUnit: 7)
        try bindEffects(program, "To", recipe.to.plan.effects, lutUnit: 15)
        bind(program, "From", from, fromSet.textures, unit: 0, map: recipe.from.map, colour: recipe.from.colour, stage: recipe.from.stage, layer: recipe.from.plan)
        bind(program, "To", toPicture, toSet.textures, unit: 3, map: recipe.to.map, colour: recipe.to.colour, stage: recipe.to.stage, layer: recipe.to.plan)
        if let m = recipe.matte {
            guard GPURenderer.matteUnit + 3 <= maxTextureUnits else {
                throw GPUError("GL_MAX_TEXTURE_IMAGE_UNITS", "a track matte needs \(GPURenderer.matteUnit + 3) texture units and this GPU's fragment shaders have \(maxTextureUnits); render it with --backend cpu")
            }
            bind(program, "Matte", mattePicture, matteSet.textures, unit: GPURenderer.matteUnit, map: m.map, colour: m.colour, stage: m.stage, layer: m.plan)
        }
        setOutputUniforms(program, recipe)
        if overBelow {
            let r = pass.rect ?? PixelRect(renderSize)
            glUniform4f(program.location("segue_rect"), Float(r.x0), Float(r.y0), Float(r.x1), Float(r.y1))
            let below = belowTextures(target)
            for a in 0..<2 {
                glActiveTexture(GLenum(GL_TEXTURE0 + Int32(GPURenderer.belowUnit + a)))
                glBindTexture(GLenum(GL_TEXTURE_2D), below[min(a, below.count - 1)].id)
                glUniform1i(program.location("segue_below\(a)"), GLint(GPURenderer.belowUnit + a))
            }
        }
        if overBelow, pass.blend != .normal, output == .luma || output == .chroma { bindBackdrop(program, output: output) }
        glUniform2f(program.location("segue_resolution"), Float(renderSize.width), Float(renderSize.height))
        glUniform1f(program.location("progress"), p.progress)
        glUniform1f(program.location("segue_xfadeProgress"), 1 - p.progress)  // Float arithmetic, as xfade and the CPU reference
        glUniform1f(program.location("ratio"), Float(renderSize.width) / Float(renderSize.height))
        glUniform2f(program.location("segue_direction"), p.direction.0, p.direction.1)
        if let kind = p.kind {
            for (parameter, value) in zip(kind.traits.parameters, p.parameters) { glUniform1f(program.location(parameter.name), value) }
        }
        if let t = pass.transition, t.kind == .glsl { glTransitions.setUniforms(program, t, firstUnit: 8) }
        let noise = program.location("segue_noise")
        if noise >= 0 {
            try bindNoise(renderSize, unit: 6)
            glUniform1i(noise, 6)
        }
        glBindVertexArray(vao)
        if let r = scissor {
            glEnable(GLenum(GL_SCISSOR_TEST))
            glScissor(GLint(r.x), GLint(r.y), GLsizei(r.w), GLsizei(r.h))
        }
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        if scissor != nil { glDisable(GLenum(GL_SCISSOR_TEST)) }
        try glCheck("glDrawArrays")
    }

    /// Copies the texels `r` of `target`'s attachments into the textures a pass blending into it reads
    /// (`belowTextures`).
    /// - Throws: `GLError` from `glCopyTexSubImage2D`.
    private func copyBelow(_ r: (x: Int, y: Int, w: Int, h: Int), of target: GLFramebuffer) throws {
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), target.id)
        let below = belowTextures(target)
        for a in target.attachments.indices {
            glReadBuffer(GLenum(GL_COLOR_ATTACHMENT0 + Int32(a)))
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(GPURenderer.belowUnit + a)))
            glBindTexture(GLenum(GL_TEXTURE_2D), below[a].id)
            glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(r.x), GLint(r.y), GLint(r.x), GLint(r.y), GLsizei(r.w), GLsizei(r.h))
        }
        try glCheck("glCopyTexSubImage2D")
    }

    /// Binds what a blended pass's luma or chroma program reads as its backdrop (`blend.glsl`, `segue_backdrop`): the
    /// luma target's texels before the pass (their copy, `belowTextures`), and the chroma targets' before it — the
    /// targets themselves while luma is drawn (chroma comes after), their copy while chroma is.
    private func bindBackdrop(_ program: GLProgram, output: OutputPass) {
        let chroma = output == .luma ? chromaTarget!.attachments : belowTextures(chromaTarget!)
        let units = backdropUnits
        for (name, unit, texture) in [("segue_backdropY", units[0], belowTextures(lumaTarget!)[0]), ("segue_backdropCb", units[1], chroma[0]),
                                      ("segue_backdropCr", units[2], chroma[1])] {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            glBindTexture(GLenum(GL_TEXTURE_2D), texture.id)
            glUniform1i(program.location(name), GLint(unit))
        }
    }

    /// The uniforms of the pass's output that `recipe` decided: the output's luminance coefficients, background,
    /// black and white, the rows of its Y′CbCr matrix and its inverse, and the chroma siting.
    private func setOutputUniforms(_ program: GLProgram, _ recipe: PassRecipe) {
        let luminance = recipe.outputRange.primaries.luminanceCoefficients.map { Float($0) }
        glUniform3f(program.location("segue_outputLuminance"), luminance[0], luminance[1], luminance[2])
        func vec4(_ name: String, _ r: [Float]) { glUniform4f(program.location(name), r[0], r[1], r[2], r[3]) }
        // Outside its pictures the first pass shows the background; a later one is transparent there.
        vec4("background", recipe.background)
        vec4("segue_black", recipe.black)
        vec4("segue_white", recipe.white)
        let format = recipe.format
        vec4("segue_rowY", format.y)
        vec4("segue_rowCb", format.cb)
        vec4("segue_rowCr", format.cr)
        let back = format.toRGB
        glUniformMatrix3fv(program.location("segue_fromOutputMatrix"), 1, GLboolean(GL_TRUE), back.matrix)
        glUniform3f(program.location("segue_fromOutputOffset"), back.offset[0], back.offset[1], back.offset[2])
        glUniform2f(program.location("segue_chromaSite"), RGBToOutputYCbCr.siting.x, RGBToOutputYCbCr.siting.y)
    }

    /// The textures a pass blending into `target` reads its texels from (one per attachment, the target's size),
    /// made when the target is.
    private func belowTextures(_ target: GLFramebuffer) -> [GLTexture] {
        if let b = belowTextures[target.id], b.first?.width == target.size.width, b.first?.height == target.size.height { return b }
        let b = target.attachments.map { _ in
            let t = GLTexture()
            t.allocate(target.size.width, target.size.height, format: .rgba8)
            return t
        }
        belowTextures[target.id] = b
        return b
    }

    /// The texels of a target for `output` that hold the output pixels of `rect`: as they are for RGBA; for luma,
    /// four 8-bit samples (two 10-bit) per texel; for chroma, the chroma samples of the rectangle's 2×2 blocks, four
    /// 8-bit (two 10-bit) per texel. Clamped to the target.
    private func texelRect(_ rect: PixelRect, output: OutputPass, bits: Int, target: PixelSize) -> (x: Int, y: Int, w: Int, h: Int) {
        let perTexel = bits > 8 ? 2 : 4
        var x0 = rect.x0, x1 = rect.x1, y0 = rect.y0, y1 = rect.y1
        switch output {
        case .rgba: break
        case .luma: x0 /= perTexel; x1 = (x1 + perTexel - 1) / perTexel
        case .alpha: x0 /= 4; x1 = (x1 + 3) / 4
        case .chromaAlpha:
            x0 = (x0 / 2) / 4; x1 = ((x1 + 1) / 2 + 3) / 4
            y0 /= 2; y1 = (y1 + 1) / 2
        case .chroma:
            x0 = (x0 / 2) / perTexel; x1 = ((x1 + 1) / 2 + perTexel - 1) / perTexel
            y0 /= 2; y1 = (y1 + 1) / 2
        }
        x0 = max(0, x0); y0 = max(0, y0); x1 = min(target.width, x1); y1 = min(target.height, y1)
        return (x0, y0, max(0, x1 - x0), max(0, y1 - y0))
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

    /// The `.cube` tables uploaded so far, by table (each once; a render has few).
    private var lutTextures: [ObjectIdentifier: (lut: CubeLUT, texture: GLLUTTexture)] = [:]

    /// Sets a layer's picture-effect uniforms (`ShaderLibrary.LayerVariant.effectsSource`) and binds its table, if any,
    /// to `lutUnit` (uploaded the first time it is used).
    private func bindEffects(_ program: GLProgram, _ layer: String, _ effects: [PictureEffect], lutUnit: Int) throws {
        for (k, e) in effects.enumerated() {
            switch e {
            case .colour(let a):
                glUniform1fv(program.location("u\(layer)Colour\(k)"), 28, a.uniforms)
            case .chromaKey(let key):
                glUniform1fv(program.location("u\(layer)Key\(k)"), 5, key.uniforms)
            case .vignette(let v):
                glUniform1fv(program.location("u\(layer)Vignette\(k)"), 2, v.uniforms)
            case .filter:
                preconditionFailure("a blur or sharpen is drawn before the layer's pass (filteringLayers)")
            case .lut(let t, let strength):
                glActiveTexture(GLenum(GL_TEXTURE0 + Int32(lutUnit)))
                if lutTextures[ObjectIdentifier(t)] == nil { lutTextures[ObjectIdentifier(t)] = (t, try GLLUTTexture(t)) }
                let texture = lutTextures[ObjectIdentifier(t)]!.texture
                glBindTexture(texture.target, texture.id)
                glUniform1i(program.location("u\(layer)Lut"), GLint(lutUnit))
                let scale = t.positionScale
                glUniform3f(program.location("u\(layer)LutMin"), t.domainMin.x, t.domainMin.y, t.domainMin.z)
                glUniform3f(program.location("u\(layer)LutScale"), scale.x, scale.y, scale.z)
                glUniform1f(program.location("u\(layer)LutSize"), Float(t.size))
                glUniform1f(program.location("u\(layer)LutStrength"), strength)
            }
        }
    }

    /// Binds a layer's planes to texture units `unit…unit+2` and sets its uniforms (`layer.glsl`).
    private func bind(_ program: GLProgram, _ layer: String, _ picture: VideoPicture, _ textures: [GLTexture], unit: Int, map: [Float],
                      colour: LayerColourMap, stage: ColourStage?, layer plan: LayerPlan) {
        for i in 0..<picture.planes.count {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit + i)))
            glBindTexture(GLenum(GL_TEXTURE_2D), textures[i].id)
            glUniform1i(program.location("u\(layer)\(i)"), GLint(unit + i))
        }
        setMap(program.location("u\(layer)Map"), map)
        glUniform2f(program.location("u\(layer)Size"), Float(picture.width), Float(picture.height))
        glUniformMatrix3fv(program.location("u\(layer)Matrix"), 1, GLboolean(GL_TRUE), colour.matrix)
        glUniform3f(program.location("u\(layer)Offset"), colour.offset[0], colour.offset[1], colour.offset[2])
        let crop = plan.crop.floats
        glUniform4f(program.location("u\(layer)Crop"), crop[0], crop[1], crop[2], crop[3])
        glUniform1f(program.location("u\(layer)Opacity"), Float(plan.opacity))
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
