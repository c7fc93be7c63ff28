import Foundation
import SegueCore

// The edit file's `resolved` section (`EditResolution`; docs/edit-file.md, "The resolved edit"): what `segue resolve`
// records, declared like the rest of the edit file so that `segue schema` validates a resolved edit whole.
extension EditSchema {
    static let pixelSize = SchemaObject("pixelSize", "a picture's size in pixels (0 × 0: an audio file's)", [
        SchemaField("width", integer(0...1_000_000), "pixels across"),
        SchemaField("height", integer(0...1_000_000), "pixels down"),
    ], required: ["width", "height"])

    /// A whole number beyond the parser's usual ±10⁹ (bytes, pixels, seconds since 1970): a JSON number, read whole.
    static let count = SchemaType.number(NumberRule(minimum: 0))

    static let limits = SchemaObject("limits", "how much the edit may ask for (ResourceLimits; docs/untrusted-edits.md)", [
        SchemaField("maxPicturePixels", count, "the largest picture decoded whole, in pixels (--max-megapixels)"),
        SchemaField("maxLargeStillPixels", count, "the largest PNG or JPEG read shrunk on load, in pixels"),
        SchemaField("maxDuration", .number(NumberRule(minimum: 0, exclusiveMinimum: true)), "the longest edit, seconds (--max-duration)"),
        SchemaField("maxClips", count, "the most media items (--max-clips)"),
        SchemaField("maxPictureMemory", count, "bytes of decoded pictures on screen at once (--max-picture-memory)"),
    ])

    static let inputPolicy = SchemaObject("inputPolicy", "what the edit may read and write (InputPolicy; docs/untrusted-edits.md)", [
        SchemaField("root", .string(.nonEmpty), "every file the edit names lies inside this folder (--root)", nullable: true),
        SchemaField("outputRoot", .string(.nonEmpty), "every file written lies inside this folder (--output-root)", nullable: true),
        SchemaField("allowIndirectInputs", .boolean, "HLS and DASH playlists, ffconcat lists and concat: paths may be opened (--allow-indirect-inputs)"),
        SchemaField("limits", .object(limits), "how much the edit may ask for"),
    ])

    static let resolvedOutput = SchemaObject("resolvedOutput", "the output's encoder settings as the render uses them", [
        SchemaField("codec", choice(SchemaChoice(OutputFormat.all.map(\.codec.rawValue))), "the output format; left out: the output's file name chooses it"),
        SchemaField("crf", integer(0...51), "the encoder's constant rate factor"),
        SchemaField("preset", .string(.any), "the encoder's preset"),
        SchemaField("encoder", .string(.nonEmpty), "the libavcodec video encoder the edit names; left out: the format's own"),
        SchemaField("toneMap", choice(SchemaChoice(ToneMapCurve.self)), "the curve HDR clips are tone-mapped with"),
        SchemaField("dynamicRange", choice(SchemaChoice(DynamicRange.self)), "what is written: sdr, hlg or pq"),
        SchemaField("loudness", number(LoudnessTarget.integratedRange), "the integrated loudness the mixed edit is normalised to, LUFS; left out: as mixed"),
        SchemaField("truePeak", number(LoudnessTarget.truePeakRange), "the true peak it is limited to, dBTP (with loudness)"),
        SchemaField("smart", .boolean, "smart rendering: untouched stretches of H.264 and HEVC sources copied; left out: false"),
    ], required: ["crf", "preset", "toneMap", "dynamicRange"])

    static let fingerprintFields: [SchemaField] = [
        SchemaField("size", count, "the file's size in bytes when it was resolved"),
        SchemaField("modified", .number(NumberRule()), "its modification time, whole seconds since 1970"),
        SchemaField("sha256", .string(.nonEmpty), "the SHA-256 of its first and last MiB (the whole file when smaller)"),
    ]

    static let resolvedFile = SchemaObject("resolvedFile", "a file the edit reads (music, a shader, an image, a font, the caption file), as it was when resolved", [
        SchemaField("path", .string(.nonEmpty), "the file (absolute; in a bundle, relative to its folder)"),
    ] + fingerprintFields, required: ["path", "size", "modified", "sha256"])

    static let orientation = SchemaObject("orientation", "the display matrix reduced to a quarter turn and a mirror: x' = a x + b y, y' = c x + d y", [
        SchemaField("a", integer(-1...1), "row 1, column 1"), SchemaField("b", integer(-1...1), "row 1, column 2"),
        SchemaField("c", integer(-1...1), "row 2, column 1"), SchemaField("d", integer(-1...1), "row 2, column 2"),
    ], required: ["a", "b", "c", "d"])

    static let siting = SchemaObject("siting", "where the chroma samples lie, as fractions of a luma sample", [
        SchemaField("x", number(0...1), "across"), SchemaField("y", number(0...1), "down"),
    ], required: ["x", "y"])

    static let pictureColour = SchemaObject("pictureColour", "the colour a clip's pictures are converted with (tags, guesses, the edit's override)", [
        SchemaField("matrix", choice(SchemaChoice(YCbCrMatrix.self)), "the Y′CbCr matrix"),
        SchemaField("range", choice(SchemaChoice(["limited", "full"])), "the code range"),
        SchemaField("siting", .object(siting), "the chroma siting"),
        SchemaField("transfer", choice(SchemaChoice(TransferFunction.self)), "the transfer function"),
        SchemaField("primaries", choice(SchemaChoice(ColourPrimaries.self)), "the colour primaries"),
        SchemaField("peakLuminance", .number(NumberRule(minimum: 0)), "an HDR clip's mastering peak, cd/m²", nullable: true),
    ], required: ["matrix", "range", "siting", "transfer", "primaries"])

    static let dolbyVision = SchemaObject("dolbyVision", "the stream's Dolby Vision configuration record", [
        SchemaField("versionMajor", integer(0...255), "dv_version_major"), SchemaField("versionMinor", integer(0...255), "dv_version_minor"),
        SchemaField("profile", integer(0...127), "dv_profile"), SchemaField("level", integer(0...63), "dv_level"),
        SchemaField("rpuPresent", .boolean, "rpu_present_flag"), SchemaField("enhancementLayerPresent", .boolean, "el_present_flag"),
        SchemaField("baseLayerPresent", .boolean, "bl_present_flag"), SchemaField("compatibilityID", integer(0...15), "dv_bl_signal_compatibility_id"),
    ], required: ["versionMajor", "versionMinor", "profile", "level", "rpuPresent", "enhancementLayerPresent", "baseLayerPresent", "compatibilityID"])

    static let rate = SchemaType.number(NumberRule(minimum: 0))

    static let sourceInfo = SchemaObject("sourceInfo", "what probing the file found (SourceInfo): what the timeline relies on", [
        SchemaField("codedSize", .object(pixelSize), "the stored picture's size"),
        SchemaField("sampleAspectRatio", .number(NumberRule(minimum: 0, exclusiveMinimum: true)), "pixel width / pixel height"),
        SchemaField("orientation", .object(orientation), "the display matrix's turn and mirror (default none)"),
        SchemaField("nominalFrameRate", rate, "avg_frame_rate, else r_frame_rate, frames per second (left out: unknown)"),
        SchemaField("baseFrameRate", rate, "r_frame_rate, frames per second (left out: unknown)"),
        SchemaField("measuredFrameRate", rate, "the rate the first packets' timestamps show, where the average is implausible"),
        SchemaField("streamRate", frameRate, "the rate the stream's frames are spaced at, exactly"),
        SchemaField("captureRate", rate, "the rate the camera captured at (com.android.capture.fps)"),
        SchemaField("duration", seconds(min: 0), "the video's length from its first frame"),
        SchemaField("firstFrameTime", seconds(), "the first video frame's time in the file's clock (default 0)"),
        SchemaField("timestampTolerance", seconds(min: 0), "how far a frame's timestamp may lie after a requested time (default 0)"),
        SchemaField("hasAudio", .boolean, "the file has an audio stream"),
        SchemaField("audioTrackCount", .number(NumberRule(minimum: 0, integer: true)), "its audio streams (default 0)"),
        SchemaField("defaultAudioTrack", .number(NumberRule(minimum: 0, integer: true)), "the audio stream played when the edit names none (left out: no audio)"),
        SchemaField("colour", .object(pictureColour), "the pictures' colour (left out: unknown)"),
        SchemaField("colourOverridden", .array(.string(.any), minItems: 0), "which of matrix, range, transfer, primaries the edit's colour sets"),
        SchemaField("fieldOrder", choice(SchemaChoice(FieldOrder.self)), "progressive (default) or interlaced with its field order"),
        SchemaField("isStill", .boolean, "a still picture (default false)"),
        SchemaField("orientationSource", .string(.any), "where the orientation comes from, in words"),
        SchemaField("exifOrientation", integer(1...8), "the EXIF orientation the picture carries"),
        SchemaField("largeStill", .string(.any), "how a still too large to decode whole is read, in words"),
        SchemaField("imageSequence", .string(.any), "an image sequence, in words"),
        SchemaField("hasAlpha", .boolean, "the picture has an alpha channel (default false)"),
        SchemaField("dolbyVision", .object(dolbyVision), "its Dolby Vision configuration"),
    ], required: ["codedSize", "sampleAspectRatio", "duration", "hasAudio"])

    static let resolvedMedia = SchemaObject("resolvedMedia", "a media file as the timeline probed it, with its fingerprint (a pattern or a URL: none, it is probed again)", [
        SchemaField("path", .string(.nonEmpty), "the file (absolute; in a bundle, relative to its folder)"),
    ] + fingerprintFields + [
        SchemaField("audio", .boolean, "probed as an audio track's item (default false)"),
        SchemaField("colour", .object(colourOverride), "the items' colour override it was probed with"),
        SchemaField("rate", frameRate, "an image sequence's pictures per second"),
        SchemaField("missingFrames", choice(SchemaChoice(ImageSequence.MissingFrames.self)), "an image sequence's missing-frame policy"),
        SchemaField("info", .object(sourceInfo), "what probing it found"),
    ], required: ["path", "info"])

    /// The edit file's `resolved` section (`EditResolution`).
    public static let resolved = SchemaObject("resolved", "what a render decided before its first frame (segue resolve; docs/edit-file.md)", [
        SchemaField("schemaVersion", .number(NumberRule(minimum: 1, integer: true)),
                    "this section's format: \(EditResolution.currentSchemaVersion) (a newer one is refused, naming it)"),
        SchemaField("segueVersion", .string(.nonEmpty), "the Segue that resolved it"),
        SchemaField("renderSize", .object(renderSize), "the output's size the edit resolved to"),
        SchemaField("frameRate", frameRate, "the output's frame rate"),
        SchemaField("frames", .number(NumberRule(minimum: 1, integer: true)), "the output's length in frames"),
        SchemaField("output", .object(resolvedOutput), "the encoder settings"),
        SchemaField("audio", .boolean, "whether the audio mix is written (false: --no-audio)"),
        SchemaField("inputPolicy", .object(inputPolicy), "what the edit may read and write, and its limits"),
        SchemaField("frameTimeout", .number(NumberRule(minimum: 0, exclusiveMinimum: true)), "seconds a frame may take (--frame-timeout); null: no watchdog", nullable: true),
        SchemaField("bundle", .string(.nonEmpty), "the OpenTimelineIO bundle (.otioz) the relative paths are in, extracted by each process that reads this edit"),
        SchemaField("media", .array(.object(resolvedMedia), minItems: 0), "every media file, as probed"),
        SchemaField("files", .array(.object(resolvedFile), minItems: 0), "the other files the edit reads"),
    ], required: ["schemaVersion", "segueVersion", "renderSize", "frameRate", "frames", "output", "audio", "inputPolicy", "media", "files"])
}
