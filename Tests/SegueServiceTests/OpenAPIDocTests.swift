import Foundation
import XCTest
import SegueTestSupport

/// docs/openapi.json, the document of `segue serve`'s API: valid OpenAPI 3.1 by openapi-spec-validator (PyPI, in
/// `make openapi-venv`'s environment), with the routes, bearer security and status codes issue 38 names
/// (Tests/Tools/openapi_check.py), response schemas that take the records the server sends (the fake server's) and
/// refuse broken ones; a copy with a dangling $ref or an undeclared path parameter is refused.
final class OpenAPIDocTests: XCTestCase {
    func testDocumentValidatesAndNamesEveryRoute() throws {
        let python = try TestSupport.venvPython("openapi-venv", variable: "SEGUE_OPENAPI_VENV")
        let check = TestSupport.packageRoot + "/Tests/Tools/openapi_check.py"
        let doc = TestSupport.packageRoot + "/docs/openapi.json"
        let r = try TestSupport.run(python, [check, doc])
        XCTAssertEqual(r.status, 0, r.text + r.stderr)
        XCTAssertTrue(r.text.contains("openapi: 11 routes, 8 response samples, valid"), r.text)

        let routes = try TestSupport.run("/usr/bin/python3", [TestSupport.packageRoot + "/Tests/Tools/openapi_routes.py", doc])
        XCTAssertEqual(routes.text.split(separator: "\n").map(String.init), [
            "DELETE /v1/renders/{id}", "GET /healthz", "GET /metrics", "GET /openapi.json", "GET /v1/renders",
            "GET /v1/renders/{id}", "GET /v1/renders/{id}/events", "GET /v1/renders/{id}/output",
            "GET /v1/renders/{id}/poster", "POST /v1/assets", "POST /v1/renders",
        ])

        // The check can fail: a schema reference to nowhere, a path parameter nobody declares.
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: doc))) as? [String: Any])
        var paths = try XCTUnwrap(json["paths"] as? [String: Any])
        var item = try XCTUnwrap(paths["/v1/renders/{id}"] as? [String: Any])
        item["parameters"] = nil
        paths["/v1/renders/{id}"] = item
        json["paths"] = paths
        let broken = TestSupport.tempDir("segue-openapi") + "/broken.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: broken))
        let refused = try TestSupport.run(python, [check, broken])
        XCTAssertEqual(refused.status, 1, refused.text + refused.stderr)
        XCTAssertTrue(refused.text.contains("Path parameter 'id'"), refused.text)

        let dangling = try String(contentsOfFile: doc, encoding: .utf8)
            .replacingOccurrences(of: "\"#/components/schemas/RenderList\"", with: "\"#/components/schemas/Nowhere\"")
        try dangling.write(toFile: broken, atomically: true, encoding: .utf8)
        let refusedRef = try TestSupport.run(python, [check, broken])
        XCTAssertEqual(refusedRef.status, 1, refusedRef.text + refusedRef.stderr)
        XCTAssertTrue(refusedRef.text.contains("Nowhere"), refusedRef.text)
    }
}
