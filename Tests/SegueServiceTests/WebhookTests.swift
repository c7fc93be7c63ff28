import Foundation
import XCTest
import SegueService
import SegueTestSupport

/// Webhooks (issue 38): HMAC-SHA256 against RFC 4231's vector; POSTs through libcurl to a Python receiver on
/// 127.0.0.1 (Tests/Tools/webhook-receiver.py) that checks the signature with Python's hmac module; a receiver that
/// fails twice still gets it through the retry schedule; refusals (another scheme, a closed port, a redirect).
final class WebhookTests: XCTestCase {
    func testSignatureIsRFC4231HMACSHA256() {
        // RFC 4231 test case 2.
        XCTAssertEqual(WebhookSignature.header(body: Array("what do ya want for nothing?".utf8), key: "Jefe"),
                       "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // HMAC-SHA256 of nothing under the empty key (Python: hmac.new(b"", b"", sha256)).
        XCTAssertEqual(WebhookSignature.header(body: [], key: ""),
                       "sha256=b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    func testReceiverGetsTheSignedBodyOnce() throws {
        let receiver = try Receiver(key: "tenant-a:s3cret")
        defer { receiver.stop() }
        let body = Array(#"{"id":"r1","status":"done","frames":48}"#.utf8)
        let result = WebhookDelivery(url: receiver.url + "/hook?x=1", body: body, key: "tenant-a:s3cret", allowsPrivateAddresses: true).attempt(timeoutSeconds: 5)
        XCTAssertEqual(try result.get(), 204)
        let requests = try receiver.requests()
        XCTAssertEqual(requests.count, 1)
        let r = try XCTUnwrap(requests.first)
        XCTAssertEqual(r["path"] as? String, "/hook?x=1")
        XCTAssertEqual(r["body"] as? String, #"{"id":"r1","status":"done","frames":48}"#)
        XCTAssertEqual(r["verified"] as? Bool, true, "Python's hmac agrees with the signature")
        let headers = try XCTUnwrap(r["headers"] as? [String: String])
        XCTAssertEqual(headers["content-type"], "application/json")
        XCTAssertEqual(headers["user-agent"], "segue")
        XCTAssertEqual(headers["x-segue-signature"], WebhookSignature.header(body: body, key: "tenant-a:s3cret"))

        // An empty body is a zero-byte POST (not one read from standard input), signed all the same.
        XCTAssertEqual(try WebhookDelivery(url: receiver.url, body: [], key: "tenant-a:s3cret", allowsPrivateAddresses: true).attempt(timeoutSeconds: 5).get(), 204)
        XCTAssertEqual(try receiver.requests().last?["length"] as? Int, 0)
        XCTAssertEqual(try receiver.requests().last?["verified"] as? Bool, true)

        // Another key: the receiver's check fails (the test can tell a wrong signature).
        _ = WebhookDelivery(url: receiver.url, body: body, key: "other", allowsPrivateAddresses: true).attempt(timeoutSeconds: 5)
        XCTAssertEqual(try receiver.requests().last?["verified"] as? Bool, false)
    }

    func testLargeBinaryBodyIsSentWhole() throws {
        let receiver = try Receiver(key: "k")
        defer { receiver.stop() }
        let body = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        XCTAssertEqual(try WebhookDelivery(url: receiver.url, body: body, key: "k", allowsPrivateAddresses: true).attempt(timeoutSeconds: 10).get(), 204)
        let r = try XCTUnwrap(try receiver.requests().first)
        XCTAssertEqual(r["length"] as? Int, body.count)
        XCTAssertEqual(r["verified"] as? Bool, true)
    }

    func testSilentReceiverTimesOut() throws {
        let receiver = try Receiver(key: "k", extra: ["--hang", "5"])
        defer { receiver.stop() }
        let started = Date()
        let result = WebhookDelivery(url: receiver.url, body: [], key: "k", allowsPrivateAddresses: true).attempt(timeoutSeconds: 0.5)
        guard case .failure(.transfer(let code, let message)) = result else { return XCTFail("expected a timeout, got \(result)") }
        XCTAssertEqual(code, 28, "CURLE_OPERATION_TIMEDOUT: \(message)")
        XCTAssertTrue(message.contains("timed out"), message)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "bounded by timeoutSeconds")
    }

    func testReceiverFailingTwiceStillGetsItOnTheThirdAttempt() throws {
        let receiver = try Receiver(key: "k", extra: ["--fail-first", "2"])
        defer { receiver.stop() }
        var slept: [Double] = [], attempts: [String] = []
        let status = WebhookRetry.deliver(WebhookDelivery(url: receiver.url, body: Array("{}".utf8), key: "k", allowsPrivateAddresses: true), timeoutSeconds: 5,
                                          sleep: { slept.append($0) }, onAttempt: { n, r in attempts.append("\(n):\((try? r.get()) ?? -1)") })
        XCTAssertEqual(status, 204)
        XCTAssertEqual(attempts, ["1:500", "2:500", "3:204"])
        XCTAssertEqual(slept, [1, 2], "the first two waits of the schedule")
        let requests = try receiver.requests()
        XCTAssertEqual(requests.count, 3)
        XCTAssertTrue(requests.allSatisfy { $0["verified"] as? Bool == true })
    }

    func testScheduleIsExponentialAndCapped() {
        XCTAssertEqual(WebhookRetry.delays, [1, 2, 4, 8, 16, 32, 60])
        XCTAssertTrue(WebhookRetry.isDelivered(status: 200) && WebhookRetry.isDelivered(status: 299))
        XCTAssertFalse(WebhookRetry.isDelivered(status: 302) || WebhookRetry.isDelivered(status: 500) || WebhookRetry.isDelivered(status: 199))
    }

    func testOtherSchemesAreRefusedWithoutAnAttempt() {
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1:70/", "127.0.0.1:8080/hook"] {
            let d = WebhookDelivery(url: url, body: [], key: "k")
            XCTAssertEqual(d.attempt(timeoutSeconds: 1), .failure(.unsupportedURL(url)))
            var slept = 0
            XCTAssertNil(WebhookRetry.deliver(d, sleep: { _ in slept += 1 }))
            XCTAssertEqual(slept, 0, "a refused URL is not retried")
        }
    }

    func testConnectionRefusedCarriesCurlsMessage() throws {
        // Port 1 on loopback: nothing listens there.
        let result = WebhookDelivery(url: "http://127.0.0.1:1/hook", body: [], key: "k", allowsPrivateAddresses: true).attempt(timeoutSeconds: 5)
        guard case .failure(.transfer(let code, let message)) = result else { return XCTFail("expected a transfer error, got \(result)") }
        XCTAssertEqual(code, 7, "CURLE_COULDNT_CONNECT")
        XCTAssertTrue(message.contains("127.0.0.1") && message.contains("port 1"), message)
        var attempts = 0
        XCTAssertNil(WebhookRetry.deliver(WebhookDelivery(url: "http://127.0.0.1:1/", body: [], key: "k", allowsPrivateAddresses: true), sleep: { _ in },
                                          onAttempt: { _, _ in attempts += 1 }))
        XCTAssertEqual(attempts, WebhookRetry.delays.count + 1, "every attempt made, then given up")
    }

    /// Callback URLs come from strangers: a receiver on this machine is refused unless private addresses are allowed,
    /// by the check libcurl calls with each address before it connects — whether the URL names it by address, in a
    /// spelling only resolvers read (`127.1`, `0x7f.0.0.1`), as an IPv4-mapped IPv6 address or by the name
    /// `localhost`; nothing reaches it. Allowed, the same receiver gets it.
    func testPrivateReceiversAreRefusedUnlessAllowed() throws {
        let receiver = try Receiver(key: "k")
        defer { receiver.stop() }
        let port = try XCTUnwrap(URL(string: receiver.url)?.port)
        let urls = [(receiver.url, "127.0.0.1 "), ("http://127.1:\(port)/hook", "127.0.0.1 "), ("http://0x7f.0.0.1:\(port)/", "127.0.0.1 "),
                    ("http://[::ffff:127.0.0.1]:\(port)/", "::ffff:127.0.0.1 "), ("http://localhost:\(port)/", "")]
        for (url, named) in urls {
            let result = WebhookDelivery(url: url, body: [], key: "k").attempt(timeoutSeconds: 5)
            guard case .failure(.refusedAddress(let why)) = result else { XCTFail("\(url): expected a refusal, got \(result)"); continue }
            XCTAssertTrue(why.hasPrefix(named) && why.contains(" is a loopback address") && why.contains("--allow-private-callbacks"), why)
        }
        XCTAssertEqual(try receiver.requests().count, 0, "nothing reached the receiver")
        let allowed = WebhookDelivery(url: "http://127.1:\(port)/hook", body: [], key: "k", allowsPrivateAddresses: true)
        XCTAssertEqual(try allowed.attempt(timeoutSeconds: 5).get(), 204)
        XCTAssertEqual(try receiver.requests().count, 1)
    }

    /// The address kinds (IANA's special-purpose registries), at their ranges' edges.
    func testAddressKinds() {
        let notPublic: [(String, String)] = [
            ("127.0.0.1", "loopback"), ("127.255.255.254", "loopback"), ("10.0.0.0", "RFC 1918"), ("172.16.0.1", "RFC 1918"),
            ("172.31.255.255", "RFC 1918"), ("192.168.1.1", "RFC 1918"), ("169.254.169.254", "link-local"), ("100.64.0.1", "carrier-grade"),
            ("100.127.255.255", "carrier-grade"), ("0.0.0.0", "this network"), ("192.0.0.8", "protocol"), ("198.18.0.1", "benchmarking"),
            ("198.19.255.255", "benchmarking"), ("224.0.0.1", "multicast"), ("255.255.255.255", "reserved"),
            ("::", "unspecified"), ("[::1]", "loopback"), ("fe80::1", "link-local (fe80"), ("febf::1", "link-local (fe80"),
            ("fc00::1", "unique local"), ("fdff::1", "unique local"), ("ff02::1", "multicast"), ("::ffff:10.0.0.1", "RFC 1918"),
            ("::127.0.0.1", "loopback"), ("64:ff9b::169.254.169.254", "link-local"), ("LocalHost", "loopback"), ("app.localhost.", "loopback"),
            // IPv4 as resolvers also read it (inet_aton): shortened, one number, hexadecimal, octal.
            ("127.1", "loopback"), ("2130706433", "loopback"), ("0x7f.0.0.1", "loopback"), ("0177.0.0.1", "loopback"), ("10.1", "RFC 1918"),
        ]
        for (host, kind) in notPublic {
            XCTAssertTrue(CallbackAddresses.nonPublicKind(host: host)?.contains(kind) == true, "\(host): \(String(describing: CallbackAddresses.nonPublicKind(host: host)))")
        }
        for host in ["8.8.8.8", "172.15.255.255", "172.32.0.0", "100.63.255.255", "100.128.0.0", "192.0.1.1", "198.20.0.0", "223.255.255.255",
                     "169.253.255.255", "2606:4700::1111", "fec0::1", "::ffff:8.8.8.8", "example.com", "localhost.example.com", "134744072",
                     "1.2.3.example.com", "127.0.0.1.nip.example"] {
            XCTAssertNil(CallbackAddresses.nonPublicKind(host: host), host)
        }
    }

    func testRedirectsAreNotFollowed() throws {
        let receiver = try Receiver(key: "k", extra: ["--redirect"])
        defer { receiver.stop() }
        XCTAssertEqual(try WebhookDelivery(url: receiver.url + "/hook", body: Array("{}".utf8), key: "k", allowsPrivateAddresses: true).attempt(timeoutSeconds: 5).get(), 302)
        XCTAssertEqual(try receiver.requests().map { $0["path"] as? String }, ["/hook"], "/elsewhere never asked")
    }
}

/// Tests/Tools/webhook-receiver.py running as a child process, with its request log.
private final class Receiver {
    let process = Process()
    let log: String
    let url: String

    init(key: String, extra: [String] = []) throws {
        log = TestSupport.tempDir("segue-webhook") + "/requests.jsonl"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [TestSupport.packageRoot + "/Tests/Tools/webhook-receiver.py", log, key] + extra
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Its first line: "PORT n", once it listens.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw NSError(domain: "WebhookTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "receiver did not start: \(text)"])
        }
        url = "http://127.0.0.1:\(port)"
    }

    /// Each request the receiver logged, in order.
    func requests() throws -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
