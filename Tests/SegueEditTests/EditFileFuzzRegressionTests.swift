import XCTest
import SegueTestSupport
@testable import SegueCore
@testable import SegueEdit

/// Inputs the edit-file fuzzer (`make fuzz`) once crashed on; each must now parse or throw `EditError`.
final class EditFileFuzzRegressionTests: XCTestCase {
    func testHugeDurationIsAnErrorNotATrap() {
        // crash-2123629e: a transition duration of 7.7e120 s overflowed the microsecond conversion.
        let json = #"{"clips":[{"path":"$a"},{"path":"b","transition":{"type":"push","duration":"# + String(repeating: "7", count: 121) + #"0.5,"direction":"up"}}],"frameRate":"300/02010001","renderSize":{"width":64,"height":64},"fit":"fit"}"#
        XCTAssertThrowsError(try EditFile.parse(data: Data(json.utf8), baseDirectory: "/")) { e in
            XCTAssertEqual((e as? EditError)?.field, "clips[1].transition.duration")
            XCTAssertTrue("\(e)".contains("out of range"), "\(e)")
        }
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"clips":[{"path":"a","start":-1e300}]}"#.utf8), baseDirectory: "/"))
    }

    func testTinyFrameRateIsAnError() {
        // fz-crash-500464d7: frameRate ".0002" made a 0/1000 rate and trapped (the fuzzer's input also repeated "fit",
        // which is an error of its own now).
        XCTAssertThrowsError(try EditFile.parse(data: Data(#"{"clips":[{"path":"a"}],"frameRate":".0002","fit":"fit"}"#.utf8), baseDirectory: "/")) { e in
            XCTAssertEqual((e as? EditError)?.field, "frameRate")
        }
        XCTAssertNil(FrameRate.parse("1/100000"))
        XCTAssertEqual(FrameRate.parse("0.5"), FrameRate(1, 2))
    }
}
