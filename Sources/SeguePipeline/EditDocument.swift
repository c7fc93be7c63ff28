import Foundation
import SegueCore
import SegueEdit

/// An edit read from its file, for as long as it is rendered: a JSON edit file, an OpenTimelineIO timeline
/// (`.otio`), or an `.otioz` bundle, whose media are extracted into a temporary folder that this document owns (it is
/// removed when the document is released: keep the document while the edit renders).
///
/// ```swift
/// let document = try EditDocument.open("cut.otioz", missingMedia: .black)
/// try await ExportSession(edit: document.edit, outputPath: "cut.mp4").export()
/// ```
public final class EditDocument: Sendable {
    /// The kinds of edit file, by name: `.otio`, `.otioz`, else a JSON edit file.
    public enum Format: String, Sendable {
        case json, otio, otioz
        /// The format of the file at `path`, by its extension.
        public init(path: String) {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "otio": self = .otio
            case "otioz": self = .otioz
            default: self = .json
            }
        }
    }
    /// The file, absolute.
    public let path: String
    public let format: Format
    /// The edit (for a bundle: its media paths inside `bundle.folder`, `Edit.bundleFolder` set).
    public let edit: Edit
    /// The extracted bundle, for `.otioz`.
    public let bundle: ExtractedBundle?

    /// Reads the edit file at `path`.
    /// - Parameters:
    ///   - missingMedia: what an OTIO timeline's missing media become (`MissingMediaPolicy`; a JSON edit has none).
    ///   - policy: the input policy media references and shader files are checked against.
    ///   - values: the values of the file's placeholders (`{{name}}`, docs/templates.md), filled before its fields are read.
    /// - Throws: `EditError` (invalid edit or timeline, a refused bundle member, a placeholder without a value),
    ///   `MissingMedia`, `MediaError`.
    public static func open(_ path: String, missingMedia: MissingMediaPolicy = .error, policy: InputPolicy = .default,
                            values: TemplateValues = TemplateValues()) throws -> EditDocument {
        let absolute = URL(fileURLWithPath: path).standardized.path
        let format = Format(path: absolute)
        switch format {
        case .json:
            // A resolved edit of a bundle (`resolved.bundle`) reads its relative paths from the bundle, extracted afresh.
            if let data = FileManager.default.contents(atPath: absolute), let bundle = try EditFile.resolvedBundle(in: data) {
                return try resolved(data, name: absolute, bundle: bundle, policy: policy)
            }
            return EditDocument(path: absolute, format: format, edit: try EditFile.load(path: absolute, policy: policy, values: values), bundle: nil)
        case .otio:
            let file = try OTIOFile.load(path: absolute, options: OTIOReadOptions(missingMedia: missingMedia, policy: policy, values: values))
            return EditDocument(path: absolute, format: format, edit: file.edit, bundle: nil)
        case .otioz:
            let bundle = try ExtractedBundle(bundle: absolute)
            var options = OTIOReadOptions(missingMedia: missingMedia, policy: policy, bundleFolder: bundle.folder, values: values)
            options.policy.bundleFolders.append(bundle.folder)
            var edit = try OTIOFile.parse(data: bundle.content, baseDirectory: bundle.folder, options: options).edit
            edit.bundleFolder = bundle.folder
            return EditDocument(path: absolute, format: format, edit: edit, bundle: bundle)
        }
    }

    /// A resolved edit from its JSON bytes (`segue resolve`'s file, a chunk plan's `resolvedEdit`), named `name` in
    /// messages: its absolute paths as they are, or, for an edit of an `.otioz` bundle (`resolved.bundle`), the bundle
    /// extracted afresh and the edit's relative paths read from its folder.
    /// - Throws: `EditError` (invalid edit, a resolved version this Segue does not read, a refused bundle member).
    public static func resolved(_ data: Data, name: String, policy: InputPolicy = .default) throws -> EditDocument {
        try resolved(data, name: name, bundle: try EditFile.resolvedBundle(in: data), policy: policy)
    }

    private static func resolved(_ data: Data, name: String, bundle path: String?, policy: InputPolicy) throws -> EditDocument {
        guard let path else {
            return EditDocument(path: name, format: .json, edit: try EditFile.parse(data: data, baseDirectory: "/", policy: policy), bundle: nil)
        }
        try policy.checkFile(path: path, field: "resolved.bundle")
        let bundle = try ExtractedBundle(bundle: path)
        var p = policy
        p.bundleFolders.append(bundle.folder)
        var edit = try EditFile.parse(data: data, baseDirectory: bundle.folder, policy: p)
        edit.bundleFolder = bundle.folder
        return EditDocument(path: name, format: .json, edit: edit, bundle: bundle)
    }

    private init(path: String, format: Format, edit: Edit, bundle: ExtractedBundle?) {
        self.path = path; self.format = format; self.edit = edit; self.bundle = bundle
    }
}
