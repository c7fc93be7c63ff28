import XCTest
import CEGL
@testable import SegueGL

/// `glCheck` reads every error flag GL has set, not just the first: a flag left behind would be blamed on the next,
/// innocent call.
final class GLErrorTests: RendererTestCase {
    func testEveryPendingErrorFlagIsRead() {
        // GL as the specification allows it: one flag per kind, returned one a call.
        var flags = [GL_INVALID_ENUM, GL_INVALID_VALUE, GL_INVALID_ENUM, GL_NO_ERROR, GL_OUT_OF_MEMORY].map { GLenum($0) }
        XCTAssertEqual(pendingErrors { flags.removeFirst() }, ["GL_INVALID_ENUM", "GL_INVALID_VALUE"])
        XCTAssertEqual(flags, [GLenum(GL_OUT_OF_MEMORY)], "stops at GL_NO_ERROR")
        // A flag that never clears (a lost context) does not hang the check.
        var reads = 0
        XCTAssertEqual(pendingErrors { reads += 1; return GLenum(GL_OUT_OF_MEMORY) }, ["GL_OUT_OF_MEMORY"])
        XCTAssertEqual(reads, 8)
    }

    func testTheRealContextsErrorsAreReportedAndCleared() throws {
        let gpu = try gpuRenderer()
        try gpu.session.makeCurrent()
        try glCheck("before")
        glBindTexture(GLenum(0x1234), 0)   // not a texture target: GL_INVALID_ENUM
        glViewport(0, 0, -1, -1)           // a negative size: GL_INVALID_VALUE (Mesa keeps only the first flag)
        XCTAssertThrowsError(try glCheck("two calls")) {
            let e = $0 as? GPUError
            XCTAssertEqual(e?.function, "two calls")
            XCTAssertEqual(e?.message.hasPrefix("GL_INVALID_ENUM"), true, "\($0)")
            XCTAssertEqual(e?.isRetryable, false)
        }
        XCTAssertNoThrow(try glCheck("after"))
    }
}
