import CEGL
import SegueCore

/// Asynchronous readback of the Y′CbCr 4:2:0 output through pixel buffer objects, double-buffered: `submit`
/// draws frame n, starts copying its planes into one `GL_PIXEL_PACK_BUFFER` (`glReadPixels` with a buffer
/// bound returns at once), fences it (`glFenceSync`) and only then waits (`glClientWaitSync`) for frame n − 1's
/// copy in the other buffer and maps it (`glMapBufferRange`). So frame n's readback overlaps the CPU's work
/// until the next `submit` (encoding, waiting for decoded pictures) and the GPU never waits for the CPU.
/// The bytes are those `renderYUV420` reads.
///
/// Owned by the thread that owns the renderer (the EGL context is current there only); deleting it deletes
/// its buffers and fences and drops a frame still in flight.
final class GPUReadbackPipeline: YUV420Pipeline {
    private let renderer: GPURenderer
    private var slots: [PackSlot] = []
    /// Slots holding a frame in flight, oldest first (at most one between calls).
    private var pending: [Int] = []
    private var nextSlot = 0

    init(renderer: GPURenderer) {
        self.renderer = renderer
    }
    deinit {
        try? renderer.session.makeCurrent()
        slots.removeAll()
    }

    func submit(_ plan: FramePlan, pictures: [VideoPicture], base: YUV420Image?) throws -> [YUV420Image] {
        let renderSize = plan.renderSize
        let targets = try renderer.drawYUV420(plan, pictures: pictures, base: base)
        if slots.isEmpty { slots = (0..<2).map { _ in PackSlot() } }
        let slot = nextSlot
        try slots[slot].startRead(targets, renderSize: renderSize, bitDepth: OutputYCbCr(plan.colour.dynamicRange).bitDepth)
        nextSlot = (slot + 1) % slots.count
        // Frame n is on its way; now collect frame n − 1.
        var done: [YUV420Image] = []
        while let oldest = pending.first {
            pending.removeFirst()
            done.append(try slots[oldest].collect())
        }
        pending.append(slot)
        return done
    }

    func finish() throws -> [YUV420Image] {
        try renderer.session.makeCurrent()
        var done: [YUV420Image] = []
        while let oldest = pending.first {
            pending.removeFirst()
            done.append(try slots[oldest].collect())
        }
        return done
    }
}

/// One pixel pack buffer holding a frame's packed planes (Y, then Cb, then Cr, and for an output that keeps alpha its
/// alpha and chroma-site alpha; each as its RGBA8 target holds it: four bytes per texel, four 8-bit samples or two
/// 10-bit ones, rows padded to a multiple of four bytes) and the fence after its copy.
private final class PackSlot {
    private var buffer: GLuint = 0
    private var capacity = 0
    private var fence: GLsync?
    /// Each plane's target row in bytes, its rows, and its width in bytes once unpacked.
    private var layout: (renderSize: PixelSize, bitDepth: Int, planes: [(rowBytes: Int, rows: Int, width: Int)])?

    init() { glGenBuffers(1, &buffer) }
    deinit {
        if let f = fence { glDeleteSync(f) }
        glDeleteBuffers(1, &buffer)
    }

    /// Starts copying the frame's targets (luma attachment 0, chroma 0 (Cb) and 1 (Cr), alpha and chroma alpha) into
    /// the buffer and fences the copy. Does not wait.
    func startRead(_ t: GPURenderer.YUV420Targets, renderSize: PixelSize, bitDepth: Int) throws {
        precondition(fence == nil, "PackSlot reused before its frame was collected")
        let b = bitDepth > 8 ? 2 : 1, w = renderSize.width
        var reads: [(GLFramebuffer, Int, Int)] = [(t.luma, 0, w * b), (t.chroma, 0, w / 2 * b), (t.chroma, 1, w / 2 * b)]
        if let a = t.alpha, let ca = t.chromaAlpha { reads += [(a, 0, w), (ca, 0, w / 2)] }
        let planes = reads.map { (rowBytes: $0.0.size.width * 4, rows: $0.0.size.height, width: $0.2) }
        let total = planes.reduce(0) { $0 + $1.rowBytes * $1.rows }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        if capacity != total {
            glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(total), nil, GLenum(GL_STREAM_READ))
            try glCheck("glBufferData")
            capacity = total
        }
        var offset = 0
        for (read, plane) in zip(reads, planes) {
            try read.0.read(read.1, toPackBufferOffset: offset)
            offset += plane.rowBytes * plane.rows
        }
        fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0)
        guard fence != nil else { try glCheck("glFenceSync"); throw GPUError("glFenceSync", "no fence was created") }
        // Submit the commands now, so the GPU works while the CPU does other things.
        glFlush()
        layout = (renderSize, bitDepth, planes)
    }

    /// Waits for the copy to finish, maps the buffer and returns the planes (padding dropped).
    func collect() throws -> YUV420Image {
        guard let f = fence, let l = layout else { throw GPUError("collect", "no frame in flight") }
        defer { glDeleteSync(f); fence = nil; layout = nil }
        // One second at a time, a minute at most (the flush bit is needed once only, the first time).
        var flags = GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT)
        var waited = 0
        while true {
            let r = glClientWaitSync(f, flags, 1_000_000_000)
            if r == GLenum(GL_ALREADY_SIGNALED) || r == GLenum(GL_CONDITION_SATISFIED) { break }
            if r == GLenum(GL_WAIT_FAILED) { try glCheck("glClientWaitSync"); throw GPUError("glClientWaitSync", "GL_WAIT_FAILED") }
            flags = 0
            waited += 1
            if waited >= 60 { throw GPUError("glClientWaitSync", "the GPU did not finish a frame's readback within \(waited) s") }
        }
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(capacity), GLbitfield(GL_MAP_READ_BIT)) else {
            try glCheck("glMapBufferRange")
            throw GPUError("glMapBufferRange", "the pixel buffer could not be mapped")
        }
        let bytes = UnsafeRawBufferPointer(start: mapped, count: capacity)
        var offset = 0
        var planes: [[UInt8]] = []
        for p in l.planes {
            planes.append(unpack(bytes, at: offset, rowBytes: p.rowBytes, width: p.width, height: p.rows))
            offset += p.rowBytes * p.rows
        }
        if glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER)) == GLboolean(GL_FALSE) {
            // The data store was lost (ES 3.0 §2.10.3): the frame's bytes are undefined.
            throw GPUError("glUnmapBuffer", "the pixel buffer's contents were lost while mapped")
        }
        return YUV420Image(width: l.renderSize.width, height: l.renderSize.height, bitDepth: l.bitDepth, y: planes[0], cb: planes[1], cr: planes[2],
                           alpha: planes.count > 3 ? planes[3] : nil, chromaAlpha: planes.count > 4 ? planes[4] : nil)
    }

    /// `height` rows of `width` bytes from rows of `rowBytes` starting at `offset`.
    private func unpack(_ src: UnsafeRawBufferPointer, at offset: Int, rowBytes: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { dst, count in
            for row in 0..<height {
                let from = src.baseAddress! + offset + row * rowBytes
                (dst.baseAddress! + row * width).update(from: from.assumingMemoryBound(to: UInt8.self), count: width)
            }
            count = width * height
        }
    }
}
