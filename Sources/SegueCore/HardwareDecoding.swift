/// Decoding on the GPU through an FFmpeg hwaccel, with each picture downloaded to system memory
/// (`av_hwframe_transfer_data`: NV12 for 8-bit, P010 for 10-bit streams), so the rest of Segue sees the same
/// `VideoPicture`s as with software decoding.
///
/// Zero-copy (decoded surfaces handed to the compositor as textures without the trip through system memory) would
/// take CUDA–GL interop as mpv does it: register GL textures with `cuGraphicsGLRegisterImage`, copy each NV12
/// surface's planes into them with `cuMemcpy2D` on the decoder's CUDA context, and keep decoding and GL on the same
/// device (the EGL device platform's `EGL_CUDA_DEVICE_NV` attribute names it).
public enum HardwareDecoding: String, CaseIterable, Sendable {
    /// Software decoding (libavcodec's own threads).
    case none
    /// NVIDIA NVDEC through FFmpeg's CUDA hwaccel (`AV_HWDEVICE_TYPE_CUDA`).
    case cuda
}
