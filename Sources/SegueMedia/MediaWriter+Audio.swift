import CFFmpeg
import SegueCore

// The output's audio: the mixer's interleaved float samples in frames of the encoder's size, as planar or interleaved
// float, or 16-bit integers (ProRes's PCM).
extension MediaWriter {
    /// Queues interleaved samples and encodes every full frame (1024 samples for AAC).
    public func writeAudio(_ samples: [Float]) throws {
        guard audio != nil else { return }
        audioPending += samples
        try encodeAudio(final: false)
    }

    func encodeAudio(final: Bool) throws {
        guard let a = audio, let st = audioStream else { return }
        let channels = Int(a.ctx.pointee.ch_layout.nb_channels)
        let frameSize = Int(a.ctx.pointee.frame_size > 0 ? a.ctx.pointee.frame_size : 1024)
        let planar = a.ctx.pointee.sample_fmt == AV_SAMPLE_FMT_FLTP
        let integer = a.ctx.pointee.sample_fmt == AV_SAMPLE_FMT_S16
        var offset = 0
        while audioPending.count - offset >= frameSize * channels || (final && audioPending.count - offset > 0) {
            let n = min(frameSize, (audioPending.count - offset) / channels)
            let f = Frame()
            f.ptr.pointee.nb_samples = Int32(n)
            f.ptr.pointee.format = a.ctx.pointee.sample_fmt.rawValue
            f.ptr.pointee.sample_rate = a.ctx.pointee.sample_rate
            av_channel_layout_copy(&f.ptr.pointee.ch_layout, &a.ctx.pointee.ch_layout)
            try Frame.allocateZeroed(f.ptr)
            withUnsafePointer(to: f.ptr.pointee.data) { dp in
                let data = UnsafeRawPointer(dp).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self)
                audioPending.withUnsafeBufferPointer { src in
                    if integer {
                        // 16-bit PCM: each sample clamped to −1…1 and scaled by 32767, rounded.
                        let dst = UnsafeMutableRawPointer(data[0]!).assumingMemoryBound(to: Int16.self)
                        for i in 0..<(n * channels) { dst[i] = Int16((min(1, max(-1, src[offset + i])) * 32767).rounded()) }
                    } else if planar {
                        for c in 0..<channels {
                            let dst = UnsafeMutableRawPointer(data[c]!).assumingMemoryBound(to: Float.self)
                            for i in 0..<n { dst[i] = src[offset + channels * i + c] }
                        }
                    } else {
                        let dst = UnsafeMutableRawPointer(data[0]!).assumingMemoryBound(to: Float.self)
                        for i in 0..<(n * channels) { dst[i] = src[offset + i] }
                    }
                }
            }
            f.ptr.pointee.pts = audioSamples
            audioSamples += Int64(n)
            offset += n * channels
            try FF.check(avcodec_send_frame(a.ctx, f.ptr), "avcodec_send_frame", path: path)
            try drain(a, st)
        }
        audioPending.removeFirst(offset)
    }
}
