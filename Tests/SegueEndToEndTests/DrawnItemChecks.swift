import Foundation
import XCTest
import SegueCore
import SegueMedia

/// Checks shared by the items drawn from vectors (SVG documents, Lottie animations).
extension EndToEndTestCase {
    /// The input policy holds for the item's own file `name` (in the test folder): outside `--root` it is refused, and
    /// over a picture limit of 1000 pixels with `LimitExceeded`.
    func assertInputPolicyRefuses(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try FileManager.default.createDirectory(atPath: path("inner"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try VideoReader(path: path(name), policy: InputPolicy(root: path("inner"))), "outside the root", file: file, line: line)
        var small = ResourceLimits()
        small.maxPicturePixels = 1000
        XCTAssertThrowsError(try VideoReader(path: path(name), policy: InputPolicy(limits: small)), file: file, line: line) {
            XCTAssertTrue($0 is LimitExceeded, "\($0)", file: file, line: line)
        }
    }
}
