import XCTest
import SegueCore
@testable import SegueFarm

final class ChunkPlanTests: XCTestCase {
    func testRangesCoverEveryFrameOnceInOrder() throws {
        for total in [1, 2, 7, 63, 100, 285, 1001, 86_400] as [Int64] {
            for n in [1, 2, 3, 4, 7, 10, 64] where Int64(n) <= total {
                let r = try ChunkPlan.ranges(total: total, count: n)
                XCTAssertEqual(r.count, n)
                XCTAssertEqual(r.first?.lowerBound, 0)
                XCTAssertEqual(r.last?.upperBound, total)
                for k in 1..<r.count { XCTAssertEqual(r[k].lowerBound, r[k - 1].upperBound, "gap or overlap at chunk \(k), total \(total), n \(n)") }
                let sizes = r.map(\.count)
                XCTAssertEqual(sizes.reduce(0, +), Int(total))
                XCTAssertLessThanOrEqual(sizes.max()! - sizes.min()!, 1, "chunks as equal as whole frames allow")
                XCTAssertTrue(sizes.allSatisfy { $0 >= 1 })
            }
        }
        XCTAssertEqual(try ChunkPlan.ranges(total: 285, count: 4), [0..<71, 71..<142, 142..<213, 213..<285])
    }

    func testImpossibleSplitsAreUsageErrors() {
        XCTAssertThrowsError(try ChunkPlan.ranges(total: 10, count: 0)) {
            XCTAssertEqual(($0 as? UsageError)?.message, "--chunks: need at least 1 chunk (got 0)")
            XCTAssertEqual(($0 as? SegueError)?.exitStatus, 2)
        }
        XCTAssertThrowsError(try ChunkPlan.ranges(total: 3, count: 4)) {
            XCTAssertTrue(($0 as? UsageError)?.message.contains("4 chunks for 3 frames") == true, "\($0)")
        }
    }

    func testChunkFileNames() {
        XCTAssertEqual(ChunkPlan.fileName(index: 7, format: .mp4), "chunk_0007.mp4")
        XCTAssertEqual(ChunkPlan.fileName(index: 12345, format: .mkv), "chunk_12345.mkv")
    }
}
