import CFFmpeg
import Foundation
import SegueCore

/// One take of a `LiveRecording`: the streams' setup (copy or re-encode), the loop over the readers' packets, and
/// the end. Used on the recording's thread only.
final class LiveTake {
    let recording: LiveRecording
    var settings: RecordingSettings { recording.settings }
    var inputs: [LiveInput]
    let videoInput: Int?
    let audioInput: Int?
    var clocks: [InputClock]
    var segmenter: TakeSegmenter!
    let started = DispatchTime.now().uptimeNanoseconds
    /// When the take's time 0 arrived (the joining keyframe), uptime ns.
    var startWall: UInt64?

    // Video.
    var video: VideoState?
    // Audio.
    var audio: AudioState?

    // Counters.
    var videoFrames: Int64 = 0
    var audioPackets: Int64 = 0
    var sourceGaps: Int64 = 0
    var droppedBehind: Int64 = 0
    var droppedInvalid: Int64 = 0
    var late: Int64 = 0
    var reconnects = 0
    var minLatencyUS: Int64?
    var behind = false
    var warnedBehind = false
    var lastTakeUS: Int64 = 0
    var lastProgress: UInt64 = 0
    var preview: PreviewWriter?

    struct VideoState {
        var stream: Int32
        var timeBase: AVRational
        let copy: Bool
        var decoder: Decoder?
        var encoder: Encoder?
        var info: SourceInfo
        let size: PixelSize
        /// Nominal frame duration in µs (0: unknown).
        var frameUS: Int64
        var lastDTS: Int64?
        var lastEncodedPTS: Int64?
        var nextKeyUS: Int64?
        var lastImage: Frame?
        var lastOutputFrame: Int64 = -1
        var scaler: Scaler?
        var scalerKey: (Int32, Int32, Int32) = (0, 0, -1)
        var rgba: Scaler?
        var done = false
        var codecID: AVCodecID
        var width: Int32, height: Int32
    }

    struct AudioState {
        var stream: Int32
        var timeBase: AVRational
        let copy: Bool
        var decoder: Decoder?
        var resampler: LiveResampler?
        var encoder: AudioEncoder?
        /// Output samples placed so far (encoder's next sample) once started.
        var started = false
        var done = false
        var codecID: AVCodecID
        var held: [(Packet, UInt64)] = []
        /// AAC in ADTS frames, copied: each packet's ADTS header is removed (`aac_adtstoasc`'s work).
        var stripsADTS = false
    }

    /// MPEG-4 AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1: object type, sampling frequency index, channel
    /// configuration) for an AAC stream's parameters; nil for a rate outside the index table.
    static func audioSpecificConfig(_ p: AVCodecParameters) -> [UInt8]? {
        audioSpecificConfig(sampleRate: p.sample_rate, channels: p.ch_layout.nb_channels, profile: p.profile)
    }

    /// `audioSpecificConfig` from the rate in Hz, the channel count and FFmpeg's AAC profile (`FF_PROFILE_AAC_*`).
    static func audioSpecificConfig(sampleRate: Int32, channels count: Int32, profile: Int32) -> [UInt8]? {
        let rates: [Int32] = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        guard let index = rates.firstIndex(of: sampleRate) else { return nil }
        let objectType = profile >= 0 && profile < 31 ? Int(profile) + 1 : 2   // FF_PROFILE_AAC_LOW (1) is object type 2
        let channels = Int(min(7, max(1, count)))
        let bits = objectType << 11 | index << 7 | channels << 3
        return [UInt8(bits >> 8), UInt8(bits & 0xff)]
    }

    static let copyableVideo: Set<AVCodecID> = [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_AV1, AV_CODEC_ID_VP9]
    static let copyableAudio: Set<AVCodecID> = [AV_CODEC_ID_AAC, AV_CODEC_ID_MP3, AV_CODEC_ID_OPUS, AV_CODEC_ID_FLAC, AV_CODEC_ID_ALAC,
                                                AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3]

    init(recording: LiveRecording, inputs: [LiveInput], videoInput: Int?, audioInput: Int?) throws {
        self.recording = recording
        self.inputs = inputs
        self.videoInput = videoInput
        self.audioInput = audioInput
        clocks = inputs.map { _ in InputClock() }
        var templates: [StreamParameters] = []
        if let k = videoInput, let vi = inputs[k].videoIndex {
            let (state, template) = try setUpVideo(inputs[k], stream: vi)
            video = state
            templates.append(template)
        }
        if let k = audioInput, let ai = inputs[k].audioIndex {
            let (state, template) = try setUpAudio(inputs[k], stream: ai)
            audio = state
            templates.append(template)
        }
        let log = recording.log
        segmenter = TakeSegmenter(pattern: recording.output, segmentSeconds: settings.segment, format: recording.format, templates: templates,
                                  videoStream: video == nil ? nil : 0, faststart: settings.faststart, log: { log($0) })
        if let p = settings.preview { preview = PreviewWriter(path: p, format: recording.format) }
        if let v = video {
            log("segue: video: \(inputs[videoInput!].source.spec) \(String(cString: avcodec_get_name(v.codecID))) \(v.width)x\(v.height), "
                + (v.copy ? "copied as it comes" : "re-encoded with \(v.encoder!.name) \(settings.preset.x264Preset) at \(v.size) (--preset \(settings.preset.rawValue))"))
        }
        if let a = audio {
            log("segue: audio: \(inputs[audioInput!].source.spec) \(String(cString: avcodec_get_name(a.codecID))), "
                + (a.copy ? "copied as it comes" : "re-encoded as \(recording.format.take.audioName)"))
        }
    }

    /// The take's video: its state and the stream it is written as. Copied as it comes (its display matrix kept) when
    /// nothing is asked of it and the take's container takes its codec; else decoded and re-encoded
    /// (`LivePreset.videoEncoding`), drawn by the processor or kept at its own size, its rotation kept as a display
    /// matrix when not drawn.
    private func setUpVideo(_ input: LiveInput, stream vi: Int32) throws -> (VideoState, StreamParameters) {
        let st = input.stream(vi)
        let par = st.pointee.codecpar!
        let info = LiveTake.sourceInfo(st)
        let processing = recording.processor != nil || settings.frameRate != nil
        let copy = !processing && LiveTake.copyableVideo.contains(par.pointee.codec_id) && par.pointee.width > 0
        let rate = st.pointee.avg_frame_rate.isValid ? st.pointee.avg_frame_rate.double : (st.pointee.r_frame_rate.isValid ? st.pointee.r_frame_rate.double : 0)
        var size = PixelSize(width: Int(par.pointee.width) & ~1, height: Int(par.pointee.height) & ~1)
        if let p = recording.processor { size = try p.outputSize(for: info) }
        var state = VideoState(stream: vi, timeBase: st.pointee.time_base, copy: copy, info: info, size: size,
                               frameUS: rate > 0 ? Int64((1e6 / rate).rounded()) : 0, codecID: par.pointee.codec_id,
                               width: par.pointee.width, height: par.pointee.height)
        if !copy || settings.preview != nil { state.decoder = try Decoder(stream: st, path: input.source.spec) }
        if copy { return (state, try StreamParameters(copying: st, path: recording.output)) }
        guard size.width >= 2, size.height >= 2 else { throw MediaError(path: input.source.spec, function: nil, message: "the video stream has no picture size") }
        let tb = settings.frameRate.map { AVRational(num: $0.denominator, den: $0.numerator) } ?? st.pointee.time_base
        let fps = settings.frameRate?.framesPerSecond ?? rate
        let tags = recording.processor != nil ? ColourTags.output(.sdr) : LiveTake.sourceTags(par)
        let encoding = try settings.preset.videoEncoding(format: recording.format, size: size, timeBase: tb, frameRate: fps,
                                                         colour: (tags.primaries, tags.transfer, tags.matrix, AVCOL_RANGE_MPEG))
        let enc = try Encoder(video: encoding, path: recording.output)
        state.encoder = enc
        if let s = settings.segment { state.nextKeyUS = Int64(s * 1e6) }
        var template = try StreamParameters(encoder: enc)
        if recording.processor == nil, info.orientation != .identity, let m = segue_stream_display_matrix(st) {
            template.displayMatrix = Array(UnsafeBufferPointer(start: m, count: 9))
        }
        return (state, template)
    }

    /// The take's audio: its state and the stream it is written as. Copied as it comes when the take's container
    /// takes its codec (AAC in ADTS frames made bare, with its AudioSpecificConfig); else decoded, resampled and
    /// re-encoded (`LivePreset.audioEncoding`: at most two channels, the source's rate).
    private func setUpAudio(_ input: LiveInput, stream ai: Int32) throws -> (AudioState, StreamParameters) {
        let st = input.stream(ai)
        let par = st.pointee.codecpar!
        let copy = LiveTake.copyableAudio.contains(par.pointee.codec_id) && par.pointee.sample_rate > 0
        var state = AudioState(stream: ai, timeBase: st.pointee.time_base, copy: copy, codecID: par.pointee.codec_id)
        if copy {
            var template = try StreamParameters(copying: st, path: recording.output)
            template.frameRate = AVRational(num: 0, den: 1)
            template.displayMatrix = nil
            let parameters = template.codec.ptr
            if par.pointee.codec_id == AV_CODEC_ID_AAC && par.pointee.extradata_size == 0 {
                // ADTS (MPEG-TS, raw AAC): MP4 wants the AudioSpecificConfig up front and the frames bare.
                guard let asc = LiveTake.audioSpecificConfig(par.pointee) else {
                    throw MediaError(path: input.source.spec, function: nil, message: "AAC at \(par.pointee.sample_rate) Hz cannot be described for MP4")
                }
                parameters.pointee.extradata = av_mallocz(asc.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)).assumingMemoryBound(to: UInt8.self)
                parameters.pointee.extradata.update(from: asc, count: asc.count)
                parameters.pointee.extradata_size = Int32(asc.count)
                state.stripsADTS = true
            }
            if parameters.pointee.frame_size == 0 && par.pointee.codec_id == AV_CODEC_ID_AAC { parameters.pointee.frame_size = 1024 }
            return (state, template)
        }
        let dec = try Decoder(stream: st, path: input.source.spec, threads: 1)
        let rate = dec.ctx.pointee.sample_rate > 0 ? dec.ctx.pointee.sample_rate : 48000
        let channels = Int(min(2, max(1, dec.ctx.pointee.ch_layout.nb_channels)))
        let enc = try AudioEncoder(settings.preset.audioEncoding(format: recording.format, sampleRate: rate, channels: channels), path: recording.output)
        state.decoder = dec
        state.resampler = try LiveResampler(from: dec.ctx, rate: rate, channels: channels, path: input.source.spec)
        state.encoder = enc
        return (state, try StreamParameters(encoder: enc.encoder))
    }

    /// The stream's picture as `SourceInfo` (coded size, sample aspect ratio, rotation from its display matrix, rate).
    static func sourceInfo(_ st: UnsafeMutablePointer<AVStream>) -> SourceInfo {
        let par = st.pointee.codecpar.pointee
        var orientation = Orientation.identity
        if let m = segue_stream_display_matrix(st) { orientation = Orientation(displayMatrix: Array(UnsafeBufferPointer(start: m, count: 9))) }
        let sar = st.pointee.sample_aspect_ratio.isValid ? st.pointee.sample_aspect_ratio.double : (par.sample_aspect_ratio.isValid ? par.sample_aspect_ratio.double : 1)
        let rate: Double? = st.pointee.avg_frame_rate.isValid ? st.pointee.avg_frame_rate.double : nil
        return SourceInfo(codedSize: PixelSize(width: Int(par.width), height: Int(par.height)), sampleAspectRatio: sar, orientation: orientation,
                          nominalFrameRate: rate, duration: MediaTime(value: 1, timescale: 1), hasAudio: false)
    }

    /// The source's colour tags for a re-encode that keeps its pictures as they are (untagged: BT.709 at ≥ 720 lines,
    /// else BT.601, as `VideoReader` guesses).
    static func sourceTags(_ par: UnsafeMutablePointer<AVCodecParameters>) -> (primaries: AVColorPrimaries, transfer: AVColorTransferCharacteristic, matrix: AVColorSpace) {
        let p = par.pointee
        let matrix = p.color_space != AVCOL_SPC_UNSPECIFIED ? p.color_space : (p.height >= 720 ? AVCOL_SPC_BT709 : AVCOL_SPC_SMPTE170M)
        return (p.color_primaries, p.color_trc, matrix)
    }

    /// Records until the take ends; finishes the files.
    func record() throws -> RecordingResult {
        var ended: RecordingEnd = .stopped
        var reason = "stopped"
        var failure: Error?
        var open = Set([videoInput, audioInput].compactMap { $0 })
        var stopSeen: UInt64?
        loop: while true {
            let event = recording.queue.pop(timeout: 0.2)
            if let event {
                do {
                    switch event {
                    case .packet(let k, let p, let arrival):
                        try handle(k, p, arrival: arrival)
                    case .reopened(let k, let box):
                        try reopened(k, box.input)
                    case .ended(let k, let error, let timedOut):
                        open.remove(k)
                        let main = k == videoInput || (videoInput == nil && k == audioInput)
                        if recording.stopRequested.load(ordering: .relaxed) && error == nil {
                            if open.isEmpty { break loop }
                        } else if main || open.isEmpty {
                            ended = timedOut ? .sourceSilent : .sourceEnded
                            reason = error.map { "\(recording.sources[k].spec): \($0.message)" } ?? "\(recording.sources[k].spec): the source ended its stream"
                            recording.stop()
                            break loop
                        } else {
                            recording.log("warning: \(recording.sources[k].spec): \(error?.message ?? "ended"); recording goes on without it")
                            audio?.done = true
                        }
                    }
                } catch {
                    failure = error
                    recording.stop()
                    break loop
                }
            } else if recording.stopRequested.load(ordering: .relaxed) {
                // Every reader has ended; or one is stuck in a read that does not poll the interrupt (some devices):
                // the take does not wait for it more than a few seconds.
                stopSeen = stopSeen ?? DispatchTime.now().uptimeNanoseconds
                if open.isEmpty || DispatchTime.now().uptimeNanoseconds > stopSeen! + 3_000_000_000 { break }
            }
            if (video?.done ?? true) && (audio?.done ?? true) && (video != nil || audio != nil) {
                ended = .duration
                reason = "--duration reached"
                recording.stop()
                break
            }
            // Audio from another source that stops short of the duration does not hold the take open.
            if let d = settings.duration, video?.done == true, audio?.done == false,
               DispatchTime.now().uptimeNanoseconds > (startWall ?? started) + UInt64((d + 2) * 1e9) {
                audio?.done = true
            }
            reportProgress(stage: "record")
        }
        if failure == nil, startWall == nil {
            let spec = recording.sources[videoInput ?? audioInput ?? 0].spec
            let cause = reason.hasPrefix(spec + ": ") ? String(reason.dropFirst(spec.count + 2)) : reason
            let why = ended == .stopped ? "stopped before the first keyframe arrived: nothing was recorded" : "\(cause); nothing was recorded"
            throw MediaError(path: spec, function: nil, message: why)
        }
        do { try finish() } catch { if failure == nil { failure = error } }
        if let failure { throw failure }
        reportProgress(stage: "done")
        return RecordingResult(files: segmenter.files, fragmented: segmenter.fragmented, seconds: Double(lastTakeUS) / 1e6,
                               videoFrames: videoFrames, audioPackets: audioPackets, sourceGaps: sourceGaps,
                               droppedBehind: droppedBehind + recording.queue.overflowed, droppedInvalid: droppedInvalid, late: late,
                               timestampJumps: clocks.map(\.jumps).reduce(0, +), reconnects: reconnects,
                               videoCopied: video?.copy ?? false, audioCopied: audio?.copy ?? false, ended: ended, endReason: reason)
    }

    func reportProgress(stage: String) {
        guard let p = recording.progress else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if stage == "record" && now < lastProgress + 500_000_000 { return }
        lastProgress = now
        p(RecordingProgress(seconds: Double(lastTakeUS) / 1e6, bytes: segmenter.bytes, frames: videoFrames,
                            dropped: sourceGaps + droppedBehind + droppedInvalid + recording.queue.overflowed, late: late,
                            file: segmenter.fileIndex, elapsed: Double(now - started) / 1e9, behind: behind, stage: stage))
    }

    /// Flushes the decoders and encoders into the take and finishes its files.
    func finish() throws {
        try flushVideo()
        try flushAudio()
        try segmenter.finish()
    }

    /// An input came back (`--reconnect`): its clock starts again at its next keyframe; its streams must be as before
    /// where they are copied.
    func reopened(_ k: Int, _ input: LiveInput) throws {
        reconnects += 1
        recording.log("segue: \(recording.sources[k].spec): reconnected; the take goes on")
        inputs[k] = input
        clocks[k].reset()
        if k == videoInput, var v = video {
            guard let vi = input.videoIndex else { throw MediaError(path: input.source.spec, function: nil, message: "came back without video") }
            let st = input.stream(vi)
            let par = st.pointee.codecpar.pointee
            if v.copy && (par.codec_id != v.codecID || par.width != v.width || par.height != v.height) {
                throw MediaError(path: input.source.spec, function: nil, message: "came back in another format (\(String(cString: avcodec_get_name(par.codec_id))) \(par.width)x\(par.height)); it cannot join the same take by stream copy")
            }
            v.stream = vi
            v.timeBase = st.pointee.time_base
            v.lastDTS = nil
            if v.decoder != nil { v.decoder = try Decoder(stream: st, path: input.source.spec) }
            video = v
        }
        if k == audioInput, var a = audio {
            guard let ai = input.audioIndex else { throw MediaError(path: input.source.spec, function: nil, message: "came back without audio") }
            let st = input.stream(ai)
            if a.copy && st.pointee.codecpar.pointee.codec_id != a.codecID {
                throw MediaError(path: input.source.spec, function: nil, message: "its audio came back in another format; it cannot join the same take by stream copy")
            }
            a.stream = ai
            a.timeBase = st.pointee.time_base
            if a.decoder != nil {
                a.decoder = try Decoder(stream: st, path: input.source.spec, threads: 1)
                a.resampler = try LiveResampler(from: a.decoder!.ctx, rate: a.encoder!.sampleRate, channels: a.encoder!.channels, path: input.source.spec)
            }
            audio = a
        }
    }
}
