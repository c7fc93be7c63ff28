import SegueCore

/// The resolved edit in a form for people (`text`) and machines (`Codable`): what `segue plan` prints.
public struct TimelineReport: Codable, Sendable {
    public struct Clip: Codable, Sendable {
        public let index: Int
        public let path: String
        /// "A" or "B".
        public let track: String
        /// Seconds in the source.
        public let sourceStart: Double, sourceEnd: Double
        /// Seconds on the timeline, and the output frames `[firstFrame, endFrame)` that show the clip.
        public let start: Double, end: Double
        public let firstFrame: Int64, endFrame: Int64
        public let rotation: Int
        public let mirrored: Bool
        public let transition: Transition?
        /// The colour the clip is converted with, e.g. "BT.601 limited, SDR, BT.709 primaries".
        public let colour: String?
        /// What the edit's `colour` overrides (matrix, range, transfer, primaries); empty when nothing.
        public let colourOverridden: [String]
        /// A still picture, shown for `end − start` seconds (its source times are then 0 and that length).
        public let still: Bool
        /// Where the rotation comes from when not from a display matrix ("EXIF orientation 6 (rotate 90° clockwise)").
        public let orientationSource: String?
        /// Pan and zoom, "(x, y) ×zoom → (x, y) ×zoom[, easing]" (`Motion.description`); nil for none.
        public var motion: String? = nil
    }
    public struct Transition: Codable, Sendable {
        public let type: String
        public let direction: String
        public let duration: Double
        /// CSS easing of the picture's progress ("linear" by default) and of the audio crossfade (nil: linear).
        public let easing: String
        public let audioEasing: String?
        /// A glsl transition's shader file, as the edit names it.
        public let shader: String?
        /// "gamma" or "linear" (`Blending`).
        public let blend: String
        /// Output frames `[firstFrame, endFrame)`; `firstFrame` has p = 0.
        public let firstFrame: Int64, endFrame: Int64
    }
    public let width: Int, height: Int
    /// "30000/1001".
    public let frameRate: String
    public let duration: Double
    public let frameCount: Int64
    public let clips: [Clip]
    /// The edit's background colour, "#rrggbb".
    public let background: String
    public let notes: [String]

    public init(_ t: Timeline) {
        width = t.renderSize.width; height = t.renderSize.height
        frameRate = t.frameRate.description
        duration = t.duration.seconds
        frameCount = t.frameCount
        notes = t.notes
        background = t.background.description
        clips = t.placements.map { p in
            let r = t.transitionFrames(into: p.index)
            return Clip(index: p.index, path: p.spec.path, track: p.track == 0 ? "A" : "B",
                        sourceStart: p.sourceStart.seconds, sourceEnd: (p.sourceStart + p.duration).seconds,
                        start: p.start.seconds, end: p.end.seconds,
                        firstFrame: t.firstFrame(atOrAfter: p.start), endFrame: min(t.frameCount, t.firstFrame(atOrAfter: p.end)),
                        rotation: p.source.orientation.rotationDegrees, mirrored: p.source.orientation.isMirrored,
                        transition: p.spec.transition.map {
                            Transition(type: $0.kind.rawValue, direction: $0.direction.rawValue, duration: $0.duration.seconds,
                                       easing: $0.easing.description, audioEasing: $0.audioEasing?.description, shader: $0.shader?.name,
                                       blend: ($0.blend ?? .gamma).rawValue,
                                       firstFrame: r.lowerBound, endFrame: r.upperBound)
                        }, colour: p.source.colour?.summary, colourOverridden: p.source.colourOverridden,
                        still: p.source.isStill, orientationSource: p.source.orientationSource, motion: p.motion?.description)
        }
    }

    public var text: String {
        var s = "render size \(width)x\(height), \(frameRate) fps, \(String(format: "%.3f", duration)) s, \(frameCount) frames"
            + (background == RGBColour.black.description ? "" : ", background \(background)") + "\n"
        for c in clips {
            if let t = c.transition {
                s += String(format: "  %@%@ %.3f s%@%@%@: frames %lld–%lld\n", t.type, t.shader.map { " \($0)" } ?? "", t.duration,
                            TransitionKind(rawValue: t.type)?.traits.directions.isEmpty ?? true ? "" : " \(t.direction)",
                            t.easing == "linear" ? "" : ", \(t.easing)", t.blend == "linear" ? ", linear light" : "", t.firstFrame, t.endFrame - 1)
            }
            let name = c.path.split(separator: "/").last.map(String.init) ?? c.path
            let what = c.still ? String(format: "still, shown %.3f s", c.end - c.start) : String(format: "source %.3f–%.3f s", c.sourceStart, c.sourceEnd)
            s += String(format: "clip %d [%@] %@: %@ → timeline %.3f–%.3f s, frames %lld–%lld%@%@%@\n",
                        c.index, c.track, name, what, c.start, c.end, c.firstFrame, c.endFrame - 1,
                        c.rotation != 0 || c.mirrored ? ", rotation \(c.rotation)°\(c.mirrored ? " mirrored" : "")"
                            + (c.orientationSource.map { " (\($0))" } ?? "") : "",
                        c.colourOverridden.isEmpty ? "" : ", colour \(c.colour ?? "?") (\(c.colourOverridden.joined(separator: ", ")) from the edit)",
                        c.motion.map { ", motion \($0)" } ?? "")
        }
        return s
    }
}
