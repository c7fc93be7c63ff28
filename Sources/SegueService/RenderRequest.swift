import Foundation

/// A `POST /v1/renders` body, checked: `{"edit": EDIT, "values": {...}, "callback": URL}`. Every string of the edit and
/// of the values that is `asset:NAME` becomes the path of that tenant's upload; a name that is not one of its uploads
/// is refused here (422). Any other path the edit names is refused by the render (`--root` is the tenant's assets).
struct RenderRequest {
    /// The edit file's JSON, asset references replaced by paths.
    var edit: [String: Any]
    /// The template's values (names to strings, numbers or booleans), asset references replaced.
    var values: [String: Any]?
    var callback: String?

    /// Throws `ServiceError` (400 for malformed JSON or a callback URL the server will not send to, 422 for an edit
    /// the service refuses), naming the field. Unless `allowsPrivateCallbacks`, a callback whose host is a non-public
    /// address literal or `localhost` is refused (`CallbackAddresses`; names are checked again when resolved).
    init(body: [UInt8], tenant: String, layout: ServiceLayout, allowsPrivateCallbacks: Bool = false, hasAsset: (String) -> Bool) throws {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw ServiceError(status: 400, message: "the body must be a JSON object: {\"edit\": EDIT, \"values\": {...}, \"callback\": URL}")
        }
        for key in object.keys where !["edit", "values", "callback"].contains(key) {
            throw ServiceError(status: 400, message: "\(key): unknown field (the body takes edit, values and callback)")
        }
        guard let edit = object["edit"] as? [String: Any] else {
            throw ServiceError(status: 400, message: "edit: required, an edit file's JSON object (docs/edit-file.md)")
        }
        // What would widen the untrusted-edit policy the service renders under is refused here, not left to the render.
        if edit["allowIndirectInputs"] != nil {
            throw ServiceError(status: 422, message: "edit.allowIndirectInputs: not allowed by segue serve (playlists and lists read other files)")
        }
        if edit["resolved"] != nil {
            throw ServiceError(status: 422, message: "edit.resolved: a resolved edit fixes its own input policy; submit the edit without its resolved section")
        }
        func resolve(_ value: Any, _ field: String) throws -> Any {
            switch value {
            case let s as String where s.hasPrefix("asset:"):
                let name = String(s.dropFirst(6))
                guard SafeName.isValid(name) else { throw ServiceError(status: 422, message: "\(field): \(s) is not an asset name (letters, digits, _, - and .)") }
                guard hasAsset(name) else { throw ServiceError(status: 422, message: "\(field): \(s) is not an uploaded asset (POST /v1/assets?name=\(name))") }
                return layout.asset(tenant, name)
            case let o as [String: Any]:
                return try Dictionary(uniqueKeysWithValues: o.map { ($0.key, try resolve($0.value, "\(field).\($0.key)")) })
            case let a as [Any]:
                return try a.enumerated().map { try resolve($0.element, "\(field)[\($0.offset)]") }
            default:
                return value
            }
        }
        self.edit = try resolve(edit, "edit") as! [String: Any]
        if let v = object["values"] {
            guard let values = v as? [String: Any] else { throw ServiceError(status: 400, message: "values: must be an object of names to strings, numbers or booleans") }
            for (name, value) in values where value is [Any] || value is [String: Any] || value is NSNull {
                throw ServiceError(status: 400, message: "values.\(name): must be a string, a number or a boolean")
            }
            self.values = try resolve(values, "values") as? [String: Any]
        }
        if let c = object["callback"] {
            guard let url = c as? String, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
                  parsed.host != nil else {
                throw ServiceError(status: 400, message: "callback: must be an http:// or https:// URL")
            }
            if !allowsPrivateCallbacks, let host = URLHost.of(url), let kind = CallbackAddresses.nonPublicKind(host: host) {
                throw ServiceError(status: 400, message: "callback: " + CallbackAddresses.refusal(host, kind: kind))
            }
            callback = url
        }
    }

    /// Writes `edit.json` (and `values.json`) into the job's folder.
    func write(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: edit, options: [.sortedKeys, .withoutEscapingSlashes]).write(to: URL(fileURLWithPath: "\(folder)/edit.json"))
        if let values {
            try JSONSerialization.data(withJSONObject: values, options: [.sortedKeys, .withoutEscapingSlashes]).write(to: URL(fileURLWithPath: "\(folder)/values.json"))
        }
    }
}
