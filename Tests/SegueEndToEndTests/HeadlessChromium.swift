import XCTest
import SegueTestSupport

/// Headless Chromium for the browser tests (BrowserOracleTests, SmartPlaybackTests).
extension EndToEndTestCase {
    /// The browser: `SEGUE_CHROMIUM`, else `chromium` on the PATH; skips without one (fails under CI).
    func chromium() throws -> String {
        let candidates = [ProcessInfo.processInfo.environment["SEGUE_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"].compactMap { $0 }
        guard let c = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if TestSupport.inCI { XCTFail("chromium is missing: `make deps` installs it") }
            throw XCTSkip("no chromium: `make deps` installs it")
        }
        return c
    }

    /// Opens `page` (a file path) in headless Chromium and returns what the page's `window.result` promise resolves to
    /// (a JSON object). The page runs in real time: Tests/Tools/chromium-eval.py drives the browser over the DevTools
    /// protocol on a pipe (no `--virtual-time-budget`, under which media playback does not progress). Throws when the
    /// browser fails, the page throws, or `timeout` (seconds) passes, with the reason and the end of Chromium's log.
    func chromiumResult(page: String, timeout: Double) throws -> [String: Any] {
        let browser = try chromium()
        let profile = path("chromium-profile")
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let r = try TestSupport.run("/usr/bin/python3", [TestSupport.packageRoot + "/Tests/Tools/chromium-eval.py", browser,
                                                         URL(fileURLWithPath: page).absoluteString, profile, String(timeout)])
        guard r.status == 0, let value = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] else {
            throw NSError(domain: "chromium", code: Int(r.status), userInfo: [NSLocalizedDescriptionKey: "headless Chromium: \(r.stderr)"])
        }
        return value
    }
}
