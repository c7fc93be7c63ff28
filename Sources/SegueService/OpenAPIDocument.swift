/// The OpenAPI 3 document of `segue serve`'s API (docs/openapi.json, embedded when Segue is built), served at
/// `GET /openapi.json`.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_json }
}
