import CFFmpeg
import Foundation
import SegueCore

private let microseconds = AVRational(num: 1, den: 1_000_000)

/// The take's packets, as they come: joining, timing, counting, copying or decoding and re-encoding.
extension LiveTake {
    /// Audio packets kept before the video's first keyframe (of the same source), to place once it comes.
    static let heldAudioLimit = 500

    func handle(_ k: Int, _ p: Packet, arrival: UInt64) throws {
        let pkt = p.ptr
        let si = pkt.pointee.stream_index
        let isVideo = k == videoInput && si == video?.stream
        let isAudio = k == audioInput && si == audio?.stream
        guard isVideo || isAudio else { return }
        if pkt.pointee.pts == FF.noPTS { pkt.pointee.pts = pkt.pointee.dts }
        if pkt.pointee.dts == FF.noPTS { pkt.pointee.dts = pkt.pointee.pts }
        guard pkt.pointee.pts != FF.noPTS else { droppedInvalid += 1; return }
        if !clocks[k].joined {
            let tb = isVideo ? video!.timeBase : audio!.timeBase
            let us = av_rescale_q(pkt.pointee.pts, tb, microseconds)
            if isVideo {
                // Join at a keyframe: nothing before it decodes.
                guard pkt.pointee.flags & AV_PKT_FLAG_KEY != 0 else { return }
                // Time 0, or straight after what was recorded before the source was lost.
                let resume = startWall == nil ? 0 : lastTakeUS   // the end of the last frame written
                minLatencyUS = nil   // lateness is measured afresh from a reconnection (the time away is not lateness)
                clocks[k].join(sourceUS: us, takeUS: resume)
                if startWall == nil { startWall = arrival }
                try handleVideo(k, p, arrival: arrival)
                if k == audioInput, let held = audio?.held, !held.isEmpty {
                    audio!.held = []
                    for (h, a) in held { try handleAudio(k, h, arrival: a) }
                }
                return
            }
            if videoInput == k || (videoInput != nil && startWall == nil) {
                // The video of this source has not joined yet: hold its audio (a few seconds) until it does; a second
                // source's audio before the take started is dropped.
                if videoInput == k {
                    audio!.held.append((p, arrival))
                    if audio!.held.count > LiveTake.heldAudioLimit { audio!.held.removeFirst() }
                }
                return
            }
            // An audio-only take starts here; a second source is placed by when its first packet came.
            let takeUS: Int64
            if let w = startWall { takeUS = videoInput == nil ? lastTakeUS : Int64((arrival - min(arrival, w)) / 1000) } else { takeUS = 0 }
            clocks[k].join(sourceUS: us, takeUS: takeUS)
            if startWall == nil { startWall = arrival }
        }
        if isVideo { try handleVideo(k, p, arrival: arrival) } else { try handleAudio(k, p, arrival: arrival) }
    }

    /// Moves `pkt`'s timestamps onto the take's clock; returns its presentation time in µs.
    private func place(_ pkt: UnsafeMutablePointer<AVPacket>, input k: Int, tb: AVRational) -> (us: Int64, dtsUS: Int64) {
        let dtsUS = clocks[k].map(stream: pkt.pointee.stream_index, dtsUS: av_rescale_q(pkt.pointee.dts, tb, microseconds),
                                  durationUS: av_rescale_q(max(0, pkt.pointee.duration), tb, microseconds))
        let shift = av_rescale_q(clocks[k].offset, microseconds, tb)
        pkt.pointee.pts += shift
        pkt.pointee.dts += shift
        return (av_rescale_q(pkt.pointee.pts, tb, microseconds), dtsUS)
    }

    func handleVideo(_ k: Int, _ p: Packet, arrival: UInt64) throws {
        guard !video!.done else { return }
        let pkt = p.ptr
        let tb = video!.timeBase
        if pkt.pointee.duration <= 0 && video!.frameUS > 0 { pkt.pointee.duration = max(1, av_rescale_q(video!.frameUS, microseconds, tb)) }
        let (us, dtsUS) = place(pkt, input: k, tb: tb)
        if let last = video!.lastDTS {
            let d = dtsUS - last
            if d <= 0 { droppedInvalid += 1; return }   // a timestamp going back: a repeated or misordered frame
            if video!.frameUS > 0 && d > video!.frameUS * 3 / 2 { sourceGaps += Int64((Double(d) / Double(video!.frameUS)).rounded()) - 1 }
        }
        video!.lastDTS = dtsUS
        if let w = startWall {
            let latency = Int64(arrival / 1000) - Int64(w / 1000) - us
            let least = min(minLatencyUS ?? latency, latency)
            minLatencyUS = least
            if latency - least > 500_000 { late += 1 }
        }
        if let d = settings.duration, us >= Int64(d * 1e6) { video!.done = true; return }
        if video!.copy {
            if us < 0 { return }   // leading frames of an open GOP before the joining keyframe
            if preview != nil { try decode(pkt, preview: true) }
            let end = us + av_rescale_q(pkt.pointee.duration, tb, microseconds)
            try segmenter.writeVideo(pkt, stream: 0, tb: tb, us: us)
            videoFrames += 1
            lastTakeUS = max(lastTakeUS, end)
        } else {
            try decode(pkt, preview: false)
        }
    }

    /// Decodes `pkt` (nil: flushes the decoder) and re-encodes its frames, or only updates the preview.
    func decode(_ pkt: UnsafeMutablePointer<AVPacket>?, preview previewOnly: Bool) throws {
        guard let dec = video?.decoder else { return }
        let rc = avcodec_send_packet(dec.ctx, pkt)
        if rc < 0 && rc != FF.eagain && rc != FF.eof { droppedInvalid += 1; return }
        let f = Frame()
        while avcodec_receive_frame(dec.ctx, f.ptr) == 0 {
            defer { av_frame_unref(f.ptr) }
            if previewOnly {
                if let pw = preview, pw.isDue { try pw.write(f.ptr) }
            } else {
                try encodeFrame(f)
            }
        }
    }

    private func encodeFrame(_ f: Frame) throws {
        guard !video!.done else { return }
        var pts = f.ptr.pointee.best_effort_timestamp
        if pts == FF.noPTS { pts = f.ptr.pointee.pts }
        guard pts != FF.noPTS else { droppedInvalid += 1; return }
        let tb = video!.timeBase
        let us = av_rescale_q(pts, tb, microseconds)
        if us < 0 { return }
        if let d = settings.duration, us >= Int64(d * 1e6) { video!.done = true; return }
        // Behind the source by more than a second: drop frames (they are decoded, not drawn or encoded) until caught up.
        let backlog = recording.queue.backlogSeconds
        if backlog > 1 {
            if !warnedBehind {
                recording.log("warning: recording is \(String(format: "%.1f", backlog)) s behind the source: dropping frames to keep up (try --preset low or a smaller --size)")
                warnedBehind = true
            }
            behind = true
            droppedBehind += 1
            return
        }
        if backlog < 0.3 { behind = false }
        let image = try outputPicture(f)
        if let pw = preview, pw.isDue { try pw.write(image.ptr) }
        if let rate = settings.frameRate {
            let rateTB = AVRational(num: rate.denominator, den: rate.numerator)
            let n = av_rescale_q_rnd(us, microseconds, rateTB, AV_ROUND_NEAR_INF)
            if n <= video!.lastOutputFrame { return }   // between two output frames: --fps skips it
            if let previous = video!.lastImage, n - video!.lastOutputFrame - 1 <= Int64(2 * rate.framesPerSecond) {
                // Repeat the last picture over the output frames the source did not fill.
                for m in (video!.lastOutputFrame + 1)..<n { try encode(previous.ref(), pts: m, us: av_rescale_q(m, rateTB, microseconds)) }
            }
            try encode(image, pts: n, us: av_rescale_q(n, rateTB, microseconds))
            video!.lastOutputFrame = n
            video!.lastImage = image
        } else {
            if let last = video!.lastEncodedPTS, pts <= last { droppedInvalid += 1; return }
            try encode(image, pts: pts, us: us)
            video!.lastEncodedPTS = pts
        }
    }

    /// The frame to encode: drawn by the processor, or converted to 4:2:0 at the output size (passed on as it is
    /// when it already is).
    private func outputPicture(_ f: Frame) throws -> Frame {
        let size = video!.size
        if let proc = recording.processor {
            let picture = try f.directPicture() ?? VideoPicture(try rgba(f))
            let image = try proc.process(picture, info: video!.info, size: size)
            precondition(image.bitDepth == 8 && image.alpha == nil, "live re-encoding is 8-bit 4:2:0")
            // Tagged as what the renderers draw for SDR output: BT.709, limited range.
            let out = try Frame.yuv420(image)
            let tags = ColourTags.output(.sdr)
            (out.ptr.pointee.color_primaries, out.ptr.pointee.color_trc, out.ptr.pointee.colorspace) = (tags.primaries, tags.transfer, tags.matrix)
            out.ptr.pointee.color_range = AVCOL_RANGE_MPEG
            return out
        }
        let s = f.ptr.pointee
        if AVPixelFormat(rawValue: s.format) == AV_PIX_FMT_YUV420P && Int(s.width) == size.width && Int(s.height) == size.height && s.color_range != AVCOL_RANGE_JPEG {
            return f.ref()
        }
        let key = (s.width, s.height, s.format)
        if video!.scaler == nil || video!.scalerKey != key {
            let matrix = ColourTags.matrix(s.colorspace) ?? .unspecified(height: Int(s.height))
            video!.scaler = try Scaler(srcW: s.width, srcH: s.height, srcFormat: AVPixelFormat(rawValue: s.format), dstW: Int32(size.width),
                                       dstH: Int32(size.height), dstFormat: AV_PIX_FMT_YUV420P, srcColorspace: ColourTags.sws(matrix),
                                       srcFullRange: VideoReader.isFullRange(s), dstColorspace: ColourTags.sws(matrix), dstFullRange: false)
            video!.scalerKey = key
        }
        let out = try Frame.allocated(width: size.width, height: size.height, format: AV_PIX_FMT_YUV420P)
        try video!.scaler!.scale(f.ptr, into: out.ptr)
        return out
    }

    private func rgba(_ f: Frame) throws -> RGBAImage {
        let s = f.ptr.pointee
        let matrix = ColourTags.matrix(s.colorspace) ?? .unspecified(height: Int(s.height))
        if video!.rgba == nil || video!.scalerKey != (s.width, s.height, s.format) {
            video!.rgba = try Scaler(srcW: s.width, srcH: s.height, srcFormat: AVPixelFormat(rawValue: s.format), dstW: s.width, dstH: s.height,
                                     dstFormat: AV_PIX_FMT_RGBA, srcColorspace: ColourTags.sws(matrix), srcFullRange: VideoReader.isFullRange(s),
                                     dstColorspace: SWS_CS_DEFAULT, dstFullRange: true)
            video!.scalerKey = (s.width, s.height, s.format)
        }
        let out = try Frame.allocated(width: Int(s.width), height: Int(s.height), format: AV_PIX_FMT_RGBA)
        try video!.rgba!.scale(f.ptr, into: out.ptr)
        return out.rgbaImage()
    }

    /// Encodes `frame` as output frame time `us` (`pts` in the encoder's time base), an IDR frame where a segment
    /// starts, and writes what the encoder gives back.
    private func encode(_ frame: Frame, pts: Int64, us: Int64) throws {
        var key = false
        if let next = video!.nextKeyUS, us >= next, let s = settings.segment {
            key = true
            var b = next
            while b <= us { b += Int64(s * 1e6) }
            video!.nextKeyUS = b
        }
        frame.ptr.pointee.pts = pts
        frame.ptr.pointee.pict_type = key ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        // The take reaches the end of this frame now, though the encoder hands its packet back a few frames later.
        let frameUS = settings.frameRate.map { Int64((1e6 / $0.framesPerSecond).rounded()) } ?? max(0, video!.frameUS)
        lastTakeUS = max(lastTakeUS, us + frameUS)
        let enc = video!.encoder!
        try enc.send(frame.ptr)
        try enc.receivePackets { try writeEncodedVideo($0) }
    }

    private func writeEncodedVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        let tb = video!.encoder!.ctx.pointee.time_base
        if packet.pointee.duration <= 0 {
            packet.pointee.duration = settings.frameRate != nil ? 1 : max(1, av_rescale_q(max(1, video!.frameUS), microseconds, tb))
        }
        let us = av_rescale_q(packet.pointee.pts, tb, microseconds)
        let end = us + av_rescale_q(packet.pointee.duration, tb, microseconds)
        try segmenter.writeVideo(packet, stream: 0, tb: tb, us: us)
        videoFrames += 1
        lastTakeUS = max(lastTakeUS, end)
    }

    func flushVideo() throws {
        guard let v = video, !v.copy else { return }
        video!.done = false   // frames before the end still in the decoder are written; later ones are dropped by time
        try decode(nil, preview: false)
        let enc = video!.encoder!
        try enc.send(nil)
        try enc.receivePackets { try writeEncodedVideo($0) }
    }

    // MARK: Audio

    var audioStreamIndex: Int { video == nil ? 0 : 1 }

    func handleAudio(_ k: Int, _ p: Packet, arrival: UInt64) throws {
        guard !audio!.done else { return }
        let pkt = p.ptr
        let tb = audio!.timeBase
        let (us, _) = place(pkt, input: k, tb: tb)
        if us < 0 { return }   // before the take's first frame
        if let d = settings.duration, us >= Int64(d * 1e6) { audio!.done = true; return }
        if audio!.copy {
            if audio!.stripsADTS, pkt.pointee.size > 7, let d = pkt.pointee.data, d[0] == 0xff, d[1] & 0xf0 == 0xf0 {
                let header: Int32 = d[1] & 1 == 1 ? 7 : 9   // protection_absent: no CRC
                pkt.pointee.data += Int(header)
                pkt.pointee.size -= header
            }
            let end = us + av_rescale_q(pkt.pointee.duration, tb, microseconds)
            try segmenter.writeAudio(pkt, stream: audioStreamIndex, tb: tb, us: us)
            audioPackets += 1
            if video == nil { lastTakeUS = max(lastTakeUS, end) }
            return
        }
        try decodeAudio(pkt)
    }

    /// Decodes audio (nil: flushes), places its samples by their timestamps (a gap over 0.2 s becomes silence, an
    /// overlap is dropped), cuts them at the duration and encodes them.
    func decodeAudio(_ pkt: UnsafeMutablePointer<AVPacket>?) throws {
        guard let dec = audio?.decoder, let resampler = audio?.resampler, let enc = audio?.encoder else { return }
        let rc = avcodec_send_packet(dec.ctx, pkt)
        if rc < 0 && rc != FF.eagain && rc != FF.eof { droppedInvalid += 1; return }
        let f = Frame()
        let rate = Int64(enc.sampleRate), channels = enc.channels
        while avcodec_receive_frame(dec.ctx, f.ptr) == 0 {
            defer { av_frame_unref(f.ptr) }
            var samples = try resampler.convert(f.ptr)
            var pts = f.ptr.pointee.best_effort_timestamp
            if pts == FF.noPTS { pts = f.ptr.pointee.pts }
            let position = pts == FF.noPTS ? nil : av_rescale_q(pts, audio!.timeBase, AVRational(num: 1, den: Int32(rate)))
            if !audio!.started {
                audio!.started = true
                enc.startSample = max(0, position ?? 0)
            } else if let position {
                let drift = position - enc.nextSample
                if drift > rate / 5 { samples = [Float](repeating: 0, count: Int(drift) * channels) + samples }
                else if drift < -rate / 5 { samples.removeFirst(min(samples.count, Int(-drift) * channels)) }
            }
            try encodeAudio(samples, final: false)
        }
    }

    private func encodeAudio(_ input: [Float], final: Bool) throws {
        guard let enc = audio?.encoder else { return }
        var samples = input
        let rate = Int64(enc.sampleRate)
        if let d = settings.duration {
            let room = max(0, Int64(d * Double(rate)) - enc.nextSample)
            if Int64(samples.count / enc.channels) >= room {
                samples = Array(samples.prefix(Int(room) * enc.channels))
                audio!.done = true
            }
        }
        try enc.encode(samples, final: final) { packet in
            let tb = enc.encoder.ctx.pointee.time_base
            let us = av_rescale_q(packet.pointee.pts, tb, microseconds)
            try segmenter.writeAudio(packet, stream: audioStreamIndex, tb: tb, us: us)
            audioPackets += 1
            if video == nil { lastTakeUS = max(lastTakeUS, us + av_rescale_q(packet.pointee.duration, tb, microseconds)) }
        }
    }

    func flushAudio() throws {
        guard let a = audio, !a.copy, let resampler = a.resampler else { return }
        if !a.done {
            try decodeAudio(nil)
            let rest = try resampler.convert(nil)
            if !audio!.done { try encodeAudio(rest, final: false) }
        }
        try encodeAudio([], final: true)
    }
}

extension Frame {
    /// A new reference to this frame's buffers, with its own properties (pts, picture type).
    func ref() -> Frame {
        let r = Frame()
        av_frame_ref(r.ptr, ptr)
        return r
    }
}
