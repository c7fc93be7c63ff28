import CFFmpeg
import Foundation
import SegueCore

/// A hardware device context (`AVBufferRef` from `av_hwdevice_ctx_create`), one per process and kind, shared by
/// every decoder that uses it.
final class HardwareDevice {
    let ref: UnsafeMutablePointer<AVBufferRef>
    let kind: HardwareDecoding

    /// Opens the device. Throws `MediaError` with FFmpeg's message when there is none (no driver, no GPU).
    init(_ kind: HardwareDecoding) throws {
        precondition(kind != .none)
        _ = FF.setup
        var ctx: UnsafeMutablePointer<AVBufferRef>?
        // FFmpeg logs "Cannot load libcuda.so.1" itself; the failure is reported once as Segue's warning instead.
        let level = av_log_get_level()
        av_log_set_level(AV_LOG_QUIET)
        let rc = av_hwdevice_ctx_create(&ctx, AV_HWDEVICE_TYPE_CUDA, nil, nil, 0)
        av_log_set_level(level)
        guard rc >= 0, let c = ctx else {
            throw MediaError(path: nil, function: "av_hwdevice_ctx_create", code: rc, message: "no \(kind.rawValue) device: \(FF.message(rc))")
        }
        ref = c
        self.kind = kind
    }
    deinit { var r: UnsafeMutablePointer<AVBufferRef>? = ref; av_buffer_unref(&r) }

    // nonisolated(unsafe): read and written only inside `lock.withLock` (a Mutex would have to hand the non-Sendable
    // device out of its lock, which `sending` forbids).
    nonisolated(unsafe) private static var opened: [HardwareDecoding: Result<HardwareDevice, MediaError>] = [:]
    private static let lock = NSLock()

    /// The process's device of `kind`, opened on first use; the failure is remembered too (so a machine without the
    /// driver reports it once, not per clip).
    static func shared(_ kind: HardwareDecoding) -> Result<HardwareDevice, MediaError> {
        lock.withLock {
            if let r = opened[kind] { return r }
            let r: Result<HardwareDevice, MediaError>
            do { r = .success(try HardwareDevice(kind)) } catch let e as MediaError { r = .failure(e) } catch {
                r = .failure(MediaError(path: nil, function: nil, message: "\(error)"))
            }
            opened[kind] = r
            return r
        }
    }
}

extension Frame {
    /// This frame in system memory: itself for a software frame, else a download (`av_hwframe_transfer_data`) with
    /// the frame's properties (PTS, flags, colour tags) copied. Throws `MediaError`.
    func inSystemMemory(path: String) throws -> Frame {
        guard ptr.pointee.hw_frames_ctx != nil else { return self }
        let sw = Frame()
        try FF.check(av_hwframe_transfer_data(sw.ptr, ptr, 0), "av_hwframe_transfer_data", path: path)
        try FF.check(av_frame_copy_props(sw.ptr, ptr), "av_frame_copy_props", path: path)
        return sw
    }
}
