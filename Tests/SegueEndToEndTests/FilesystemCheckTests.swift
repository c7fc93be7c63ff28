import XCTest
import SegueFarm

final class FilesystemCheckTests: XCTestCase {
    func testMemoryAndScratchFoldersAreNodeLocal() throws {
        if FileManager.default.fileExists(atPath: "/dev/shm") {
            let shm = FilesystemCheck(path: "/dev/shm/segue-not-there/work")
            XCTAssertEqual(shm.type, "tmpfs")
            XCTAssertEqual(shm.path, "/dev/shm")
            XCTAssertTrue(shm.explanation.contains("node-local"), shm.explanation)
        }
        let tmp = FilesystemCheck(path: "/tmp/segue-farm-work")
        XCTAssertEqual("\(tmp.verdict)", "nodeLocal", tmp.explanation)
        let proc = FilesystemCheck(path: "/proc/self")
        XCTAssertEqual(proc.type, "proc")
        XCTAssertEqual("\(proc.verdict)", "localDisk")
    }
}
