import Foundation
import SegueCore
import SegueEdit
import SegueMedia

extension RenderJob {
    /// Writes `edit` as an OpenTimelineIO timeline at `path` (`segue export-otio`, `OTIOWriter`): probes every clip
    /// (as a render does, under `policy`), then writes the OTIO JSON through a temporary file renamed into place.
    /// - Returns: the resolved edit and what OTIO could not hold (`OTIOWriter.write`).
    /// - Throws: `UsageError` (not a `.otio` name, an output that would replace an input or lies outside the output
    ///   root), `EditError`, `MediaError` (a clip cannot be read; the file cannot be written).
    public static func exportOTIO(_ edit: Edit, to path: String, name: String = "", policy: InputPolicy = .default) throws
        -> (timeline: Timeline, warnings: [String]) {
        guard path.lowercased().hasSuffix(".otio") else { throw UsageError("export-otio writes OTIO JSON: give -o a .otio name (got \(path))") }
        try policy.checkOutput(path: path)
        try refuseOverwriting(inputsOf: edit, with: path)
        let timeline = try resolve(edit, policy: policy)
        let (data, warnings) = try OTIOWriter.write(timeline, name: name)
        try writeAtomically(to: path) { temp in
            guard FileManager.default.createFile(atPath: temp, contents: data + Data("\n".utf8)) else {
                throw MediaError(path: path, function: "open", message: "cannot write the file: \(String(cString: strerror(errno)))", outputIO: true)
            }
        }
        return (timeline, warnings)
    }
}
