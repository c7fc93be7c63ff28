import Foundation
import XCTest
import SegueTestSupport

/// docs/openapi.json and Examples/segue-client.py against the real `segue serve` (Tests/Tools/service_live_check.py):
/// every documented route answered with a documented status and a JSON body that fits the document's schema,
/// undocumented ones 404/405, `/openapi.json` serving the document, the client's upload, submit, wait and ranged
/// download, 429 past the rate, and a webhook reaching a receiver on 127.0.0.1 once with a signature Python's hmac
/// accepts. Skipped where `segue` has no `serve` command.
final class ServiceLiveCheckTests: XCTestCase {
    func testDocumentAndClientAgainstTheServer() throws {
        let help = try TestSupport.run(TestSupport.segueBinary, ["help", "serve"])
        guard help.status == 0 else { throw XCTSkip("this segue has no serve command: \(help.stderr)") }
        let python = try TestSupport.venvPython("openapi-venv", variable: "SEGUE_OPENAPI_VENV")
        let r = try TestSupport.run(python, [TestSupport.packageRoot + "/Tests/Tools/service_live_check.py", TestSupport.segueBinary])
        XCTAssertEqual(r.status, 0, r.text + r.stderr)
        XCTAssertTrue(r.text.contains("live check: 0 failures"), r.text)
        XCTAssertTrue(r.text.contains("ok   every documented route answered"), r.text)
        XCTAssertFalse(r.text.contains("FAIL"), r.text)
    }
}
