import Foundation
import XCTest
import SegueTestSupport

/// Examples/segue-client.py, the Python client of `segue serve`, against a fake server on 127.0.0.1
/// (Tests/Tools/fake_segue_server.py): Tests/Tools/segue_client_test.py's unittest cases assert the requests the client
/// makes (method, path, bearer token, body, Range), its reading of Server-Sent Events and ranged downloads, its errors.
final class ServiceClientTests: XCTestCase {
    func testPythonClientAgainstTheFakeServer() throws {
        let r = try TestSupport.run("/usr/bin/python3", [TestSupport.packageRoot + "/Tests/Tools/segue_client_test.py", "-v"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("Ran 10 tests"), r.stderr)
        XCTAssertTrue(r.stderr.hasSuffix("OK\n"), r.stderr)
        for name in ["test_submit_posts_edit_values_and_callback", "test_wait_follows_the_events_until_done",
                     "test_download_whole_and_ranges", "test_upload_sends_the_raw_file", "test_refusals_print_the_servers_message"] {
            XCTAssertTrue(r.stderr.contains("\(name) (__main__.ClientTests"), "\(name) ran: \(r.stderr)")
        }
    }

    func testClientHelpAndBadUsage() throws {
        let client = TestSupport.packageRoot + "/Examples/segue-client.py"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: client), "the example is executable")
        let help = try TestSupport.run(client, ["--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.text.contains("segue-client.py download ID OUT [--range A-B]"), help.text)
        let bad = try TestSupport.run(client, ["frobnicate"])
        XCTAssertEqual(bad.status, 2, "argparse's usage error")
        XCTAssertTrue(bad.stderr.contains("invalid choice: 'frobnicate'"), bad.stderr)
    }
}
