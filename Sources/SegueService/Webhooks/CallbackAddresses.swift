#if canImport(Glibc)
import Glibc
#endif

/// Which network addresses a webhook may be sent to.
///
/// Callback URLs come from whoever holds a token, and a server that POSTs wherever it is told is a way into the network
/// it sits in (server-side request forgery): the cloud's instance metadata at 169.254.169.254, an admin page on
/// localhost, a database on 10.0.0.0/8. So `segue serve` sends webhooks to public addresses only, unless its operator
/// says `--allow-private-callbacks` (receivers on the same machine or network). Checked twice: a callback URL whose
/// host is such an address (or `localhost`) is refused when the render is submitted (400), and every address libcurl
/// is about to connect to is checked before it connects (`WebhookDelivery`), so that a public name resolving to a
/// private address (or changing to one after the submit) is refused too.
///
/// Not public (IANA's special-purpose address registries, RFC 6890 and its updates): IPv4 0.0.0.0/8 "this network",
/// 10.0.0.0/8, 172.16.0.0/12 and 192.168.0.0/16 private (RFC 1918), 100.64.0.0/10 shared (carrier-grade NAT, RFC
/// 6598), 127.0.0.0/8 loopback, 169.254.0.0/16 link-local (cloud metadata services), 192.0.0.0/24 protocol
/// assignments, 198.18.0.0/15 benchmarking, 224.0.0.0/4 multicast, 240.0.0.0/4 reserved and broadcast; IPv6 `::`
/// unspecified, `::1` loopback, fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast, and an IPv4 address
/// inside ::ffff:0:0/96 (mapped), ::/96 (compatible) or 64:ff9b::/96 (NAT64) by its IPv4 rule.
public enum CallbackAddresses {
    /// What kind of non-public address the IPv4 address `a.b.c.d` is ("loopback", "private (RFC 1918)", …), or nil
    /// for a public one.
    public static func nonPublicKind(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> String? {
        switch (a, b) {
        case (0, _): return "\"this network\" (0.0.0.0/8)"
        case (10, _), (172, 16...31), (192, 168): return "private (RFC 1918)"
        case (100, 64...127): return "shared carrier-grade NAT (100.64.0.0/10)"
        case (127, _): return "loopback"
        case (169, 254): return "link-local (169.254.0.0/16, cloud metadata services)"
        case (192, 0) where c == 0: return "IETF protocol assignment (192.0.0.0/24)"
        case (198, 18...19): return "benchmarking (198.18.0.0/15)"
        case (224...239, _): return "multicast"
        case (240...255, _): return "reserved (240.0.0.0/4)"
        default: return nil
        }
    }

    /// The same for an IPv6 address (16 bytes, network order).
    public static func nonPublicKind(ipv6 bytes: [UInt8]) -> String? {
        precondition(bytes.count == 16)
        let zeros10 = bytes[0..<10].allSatisfy { $0 == 0 }
        if bytes.allSatisfy({ $0 == 0 }) { return "unspecified (::)" }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return "loopback" }
        // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d): the IPv4 address's rule.
        let mapped = zeros10 && bytes[10] == 0xff && bytes[11] == 0xff
        let compatible = zeros10 && bytes[10] == 0 && bytes[11] == 0
        let nat64 = bytes[0..<4] == [0x00, 0x64, 0xff, 0x9b] && bytes[4..<12].allSatisfy { $0 == 0 }
        if mapped || compatible || nat64 { return nonPublicKind(ipv4: bytes[12], bytes[13], bytes[14], bytes[15]) }
        if bytes[0] & 0xfe == 0xfc { return "unique local (fc00::/7)" }
        if bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80 { return "link-local (fe80::/10)" }
        if bytes[0] == 0xff { return "multicast" }
        return nil
    }

    /// The kind of a URL's host where it is an IP address literal (`127.0.0.1`, or as resolvers also read it, `127.1`,
    /// `2130706433`, `0x7f.0.0.1`; `[::1]`) or `localhost` (or a name under
    /// `.localhost`, RFC 6761) that is not public; nil for a public address or any other name (names are checked when
    /// they are resolved, by `WebhookDelivery`).
    public static func nonPublicKind(host: String) -> String? {
        var h = host.lowercased()
        if h.hasPrefix("[") && h.hasSuffix("]") { h = String(h.dropFirst().dropLast()) }
        if h.hasSuffix(".") { h.removeLast() }
        if h == "localhost" || h.hasSuffix(".localhost") { return "loopback" }
        // inet_aton, as resolvers read IPv4 literals: `127.1`, `2130706433`, `0x7f.0.0.1` and `0177.0.0.1` are 127.0.0.1.
        var v4 = in_addr()
        if inet_aton(h, &v4) != 0 {
            return withUnsafeBytes(of: &v4) { nonPublicKind(ipv4: $0[0], $0[1], $0[2], $0[3]) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, h, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { nonPublicKind(ipv6: Array($0)) }
        }
        return nil
    }

    /// The address at `address` (a `sockaddr_in` or `sockaddr_in6`) as text and its non-public kind (nil when public,
    /// or a family other than IPv4 and IPv6, which libcurl does not connect webhooks to).
    static func describe(_ address: UnsafeRawPointer) -> (text: String, kind: String?) {
        let family = Int32(address.loadUnaligned(as: sockaddr.self).sa_family)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch family {
        case AF_INET:
            var a = address.loadUnaligned(as: sockaddr_in.self).sin_addr
            inet_ntop(AF_INET, &a, &text, socklen_t(text.count))
            let kind = withUnsafeBytes(of: &a) { nonPublicKind(ipv4: $0[0], $0[1], $0[2], $0[3]) }
            return (String(cString: text), kind)
        case AF_INET6:
            var a = address.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            inet_ntop(AF_INET6, &a, &text, socklen_t(text.count))
            let kind = withUnsafeBytes(of: &a) { nonPublicKind(ipv6: Array($0)) }
            return (String(cString: text), kind)
        default:
            return ("address family \(family)", nil)
        }
    }

    /// The words for a refused address, with what allows it.
    static func refusal(_ address: String, kind: String) -> String {
        "\(address) is a \(kind) address: segue serve sends webhooks to public addresses only (--allow-private-callbacks allows others)"
    }
}

/// The host of an `http://` or `https://` URL as written (an IPv6 address with its brackets; no user, port, path),
/// or nil.
enum URLHost {
    static func of(_ url: String) -> String? {
        guard let scheme = url.range(of: "://") else { return nil }
        var rest = url[scheme.upperBound...]
        if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") { return String(rest[...close]) }
        if let colon = rest.lastIndex(of: ":") { rest = rest[..<colon] }
        return rest.isEmpty ? nil : String(rest)
    }
}
