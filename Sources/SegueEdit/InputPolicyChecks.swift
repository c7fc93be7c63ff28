import Foundation
import SegueCore

/// The input policy's checks of an edit and of a resolved timeline (`InputPolicy`, in SegueCore, checks paths and
/// opens files; these know the edit model).
extension InputPolicy {
    /// This policy for `edit`: indirect inputs are allowed also where the edit itself asks for them
    /// (`Edit.allowIndirectInputs`). What they pull in stays confined to `root`. The folder an `.otioz` bundle was
    /// extracted into (`Edit.bundleFolder`, made by Segue from a bundle inside the root) is allowed besides the root.
    public func applied(to edit: Edit) -> InputPolicy {
        var p = self
        p.allowIndirectInputs = allowIndirectInputs || edit.allowIndirectInputs
        if let folder = edit.bundleFolder, !p.bundleFolders.contains(folder) {
            p.bundleFolders.append(InputPolicy.realPath(folder) ?? folder)
        }
        return p
    }

    /// Checks what can be checked before any file is opened: the number of clips (`ResourceLimits.maxClips`), then
    /// every path the edit names (`Edit.inputPaths`; shader, font and caption files as plain files, the rest as media
    /// inputs).
    /// - Throws: `LimitExceeded`, `EditError`.
    public func check(_ edit: Edit) throws {
        if edit.mediaItemCount > limits.maxClips {
            throw LimitExceeded(.clips, field: "clips", detail: "the edit has \(edit.mediaItemCount) clips", allowed: "\(limits.maxClips)")
        }
        for input in edit.inputPaths {
            if input.field.hasSuffix(".shader") || input.field.hasSuffix(".style.font") || input.field == "captions.path" || input.field.contains(".effects[") {
                try checkFile(path: input.path, field: input.field)
            } else {
                try checkInput(path: input.path, field: input.field)
            }
        }
    }

    /// Checks a resolved edit against the limits: each picture's pixel count, the edit's length, and the
    /// decoded-picture memory of the clips on screen at once (`ResourceLimits.pictureBytes` of each, summed over
    /// the clips that overlap in time: the most at any instant).
    /// - Throws: `LimitExceeded` naming the clip's field where there is one.
    public func check(_ timeline: Timeline) throws {
        let single = timeline.tracks.count == 1 && timeline.audioPlacements.isEmpty
        func field(_ p: Timeline.Placement) -> String { single ? "clips[\(p.item)].path" : "tracks[\(p.track)].clips[\(p.item)].path" }
        func label(_ p: Timeline.Placement) -> String { single ? "clip \(p.item)" : "tracks[\(p.track)].clips[\(p.item)]" }
        let media = timeline.placements.filter(\.isMedia)
        for p in media {
            let size = p.source.codedSize
            let large = p.source.largeStill != nil
            if size.width * size.height > (large ? limits.maxLargeStillPixels : limits.maxPicturePixels) {
                throw LimitExceeded.picture(p.spec.path, size, limits, field: field(p), largeStill: large)
            }
        }
        if timeline.duration.seconds > limits.maxDuration {
            throw LimitExceeded(.duration, field: "clips", detail: String(format: "the edit lasts %.3f s", timeline.duration.seconds),
                                allowed: "\(ResourceLimits.seconds(limits.maxDuration)) s")
        }
        // The most decoded-picture memory at any instant: clips enter at `start` and leave at `end`.
        var events: [(time: MediaTime, bytes: Int, index: Int)] = []
        for p in media {
            let b = ResourceLimits.pictureBytes(p.source)
            events.append((p.start, b, p.index))
            events.append((p.end, -b, p.index))
        }
        events.sort { $0.time < $1.time || ($0.time == $1.time && $0.bytes < $1.bytes) }   // leaving before entering
        var held = 0, on: [Int] = []
        for e in events {
            held += e.bytes
            if e.bytes < 0 { on.removeAll { $0 == e.index } } else { on.append(e.index) }
            if held > limits.maxPictureMemory {
                let which = on.map { label(timeline.placements[$0]) }.joined(separator: " and ")
                throw LimitExceeded(.pictureMemory, field: on.count == 1 ? field(timeline.placements[on[0]]) : "clips",
                                    detail: String(format: "at %.3f s %@ %@ %@ of decoded pictures", e.time.seconds, which, on.count == 1 ? "holds" : "hold",
                                                   ResourceLimits.mebibytes(held)),
                                    allowed: ResourceLimits.mebibytes(limits.maxPictureMemory))
            }
        }
    }

}
