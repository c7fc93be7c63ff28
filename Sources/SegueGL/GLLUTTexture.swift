import CEGL
import SegueCore

/// A `.cube` table as a texture (`effects.glsl`): a 3D table a `GL_TEXTURE_3D` of size³ `GL_RGB32F` texels (x red,
/// y green, z blue, as the file orders them); a 1D table a `GL_TEXTURE_2D` of `GL_RGB32F` rows of 4096 entries.
/// Float textures are not filterable in OpenGL ES 3.0: nearest filtering (the shader reads them with `texelFetch`).
final class GLLUTTexture {
    var id: GLuint = 0
    let target: GLenum
    /// The 1D table's row length (`segue_lut1dAt`).
    static let rowLength = 4096

    /// Uploads `lut` to a new texture, bound to the active unit.
    /// - Throws: `GPUError` when OpenGL refuses the upload.
    init(_ lut: CubeLUT) throws {
        target = GLenum(lut.is3D ? GL_TEXTURE_3D : GL_TEXTURE_2D)
        glGenTextures(1, &id)
        glBindTexture(target, id)
        glTexParameteri(target, GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(target, GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        var values = lut.table.flatMap { [$0.x, $0.y, $0.z] }
        if lut.is3D {
            let n = GLsizei(lut.size)
            values.withUnsafeBytes { glTexImage3D(target, 0, GL_RGB32F, n, n, n, 0, GLenum(GL_RGB), GLenum(GL_FLOAT), $0.baseAddress) }
        } else {
            let w = min(lut.size, GLLUTTexture.rowLength), h = (lut.size + GLLUTTexture.rowLength - 1) / GLLUTTexture.rowLength
            values += [Float](repeating: 0, count: (w * h - lut.size) * 3)
            values.withUnsafeBytes { glTexImage2D(target, 0, GL_RGB32F, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGB), GLenum(GL_FLOAT), $0.baseAddress) }
        }
        try glCheck(lut.is3D ? "glTexImage3D" : "glTexImage2D")
    }
    deinit { glDeleteTextures(1, &id) }
}
