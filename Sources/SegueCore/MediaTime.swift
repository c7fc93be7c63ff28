/// An exact rational time in seconds: `value / timescale`, like `CMTime`.
///
/// Values are kept reduced. Comparison and arithmetic are exact (full-width `Int128` intermediates);
/// `Double` appears only at the boundaries (`seconds`, and shader uniforms).
public struct MediaTime: Hashable, Comparable, CustomStringConvertible, Sendable {
    /// Numerator, in units of `1 / timescale` seconds.
    public let value: Int64
    /// Denominator (ticks per second), always > 0.
    public let timescale: Int64

    public static let zero = MediaTime(value: 0, timescale: 1)

    /// Creates `value / timescale` seconds, reduced. `timescale` must be non-zero.
    public init(value: Int64, timescale: Int64) {
        precondition(timescale != 0, "MediaTime timescale must be non-zero")
        var v = value, t = timescale
        if t < 0 { v = -v; t = -t }
        let g = MediaTime.gcd(v.magnitude, t.magnitude)
        if g > 1 { v /= Int64(g); t /= Int64(g) }
        self.value = v
        self.timescale = t
    }

    /// Creates the nearest rational with a microsecond timescale (`round(seconds × 1e6) / 1e6`),
    /// reduced. Used for seconds written by people (edit files, command lines).
    /// `seconds` must be finite and within ±`maxSeconds` (check with `isRepresentable` first for user input).
    public init(seconds: Double) {
        precondition(MediaTime.isRepresentable(seconds: seconds), "time \(seconds) s is out of range")
        self.init(value: Int64((seconds * Double(MediaTime.secondsPrecision.timescale)).rounded()), timescale: MediaTime.secondsPrecision.timescale)
    }

    /// The precision of `init(seconds:)`, one microsecond: a time people write (1/30 s as 0.0333…) may be this far off.
    public static let secondsPrecision = MediaTime(value: 1, timescale: 1_000_000)

    /// The largest time accepted from people: 10,000,000 s (about 115 days).
    public static let maxSeconds: Double = 10_000_000

    /// Whether `seconds` can be a `MediaTime` (finite, |seconds| ≤ `maxSeconds`).
    public static func isRepresentable(seconds: Double) -> Bool { seconds.isFinite && abs(seconds) <= maxSeconds }

    /// Whole frames: `frame / rate` for a frame rate in frames per second.
    public init(frame: Int64, rate: FrameRate) {
        self.init(value: frame * Int64(rate.denominator), timescale: Int64(rate.numerator))
    }

    /// The time in seconds, rounded to `Double`. For display and shader uniforms only.
    public var seconds: Double { Double(value) / Double(timescale) }

    public var description: String {
        timescale == 1 ? "\(value)s" : "\(value)/\(timescale)s (\(String(format: "%.6f", seconds)))"
    }

    static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    static func make(_ num: Int128, _ den: Int128) -> MediaTime {
        var n = num, d = den
        if d < 0 { n = -n; d = -d }
        var a = n.magnitude, b = d.magnitude
        while b != 0 { (a, b) = (b, a % b) }
        if a > 1 { n /= Int128(a); d /= Int128(a) }
        guard let v = Int64(exactly: n), let t = Int64(exactly: d) else {
            // Fall back to a microsecond-free approximation at a large timescale; never hit for real edits.
            let scale: Int128 = 1 << 40
            return MediaTime(value: Int64(n * scale / d), timescale: Int64(scale))
        }
        return MediaTime(value: v, timescale: t)
    }

    public static func + (a: MediaTime, b: MediaTime) -> MediaTime {
        make(Int128(a.value) * Int128(b.timescale) + Int128(b.value) * Int128(a.timescale),
             Int128(a.timescale) * Int128(b.timescale))
    }
    public static func - (a: MediaTime, b: MediaTime) -> MediaTime {
        make(Int128(a.value) * Int128(b.timescale) - Int128(b.value) * Int128(a.timescale),
             Int128(a.timescale) * Int128(b.timescale))
    }
    public static func * (a: MediaTime, k: Int64) -> MediaTime { make(Int128(a.value) * Int128(k), Int128(a.timescale)) }
    /// `self × num / den`, exact (a time scaled by a rational speed). `den` must be non-zero.
    public func scaled(by num: Int64, _ den: Int64) -> MediaTime {
        MediaTime.make(Int128(value) * Int128(num), Int128(timescale) * Int128(den))
    }
    public static func < (a: MediaTime, b: MediaTime) -> Bool {
        Int128(a.value) * Int128(b.timescale) < Int128(b.value) * Int128(a.timescale)
    }
    public static func == (a: MediaTime, b: MediaTime) -> Bool { a.value == b.value && a.timescale == b.timescale }

    /// `a / b` as a `Double` ratio, computed from the exact rationals (used for transition progress).
    public static func ratio(_ a: MediaTime, _ b: MediaTime) -> Double {
        let num = Int128(a.value) * Int128(b.timescale)
        let den = Int128(a.timescale) * Int128(b.value)
        return Double(num) / Double(den)
    }

    /// `self × rate` rounded to the nearest integer (halves away from zero): a count of frames or samples.
    /// Like `av_rescale_q` with `AV_ROUND_NEAR_INF`.
    public func rounded(toUnitsOf rate: Int64, per denominator: Int64 = 1) -> Int64 {
        let num = Int128(value) * Int128(rate)
        let den = Int128(timescale) * Int128(denominator)
        let q = num / den, r = num % den
        if r.magnitude * 2 >= den.magnitude { return Int64(num >= 0 ? q + 1 : q - 1) }
        return Int64(q)
    }

    /// `floor(self × rate / denominator)`.
    public func floored(toUnitsOf rate: Int64, per denominator: Int64 = 1) -> Int64 {
        let num = Int128(value) * Int128(rate)
        let den = Int128(timescale) * Int128(denominator)
        var q = num / den
        if num % den != 0 && num < 0 { q -= 1 }
        return Int64(q)
    }
}

/// A frame rate as an exact fraction of frames per second, e.g. `30000/1001`.
public struct FrameRate: Hashable, CustomStringConvertible, Sendable {
    public let numerator: Int32
    public let denominator: Int32

    /// `numerator / denominator` frames per second, reduced. Both must be > 0.
    public init(_ numerator: Int32, _ denominator: Int32 = 1) {
        precondition(numerator > 0 && denominator > 0, "frame rate must be positive")
        let g = Int32(MediaTime.gcd(UInt64(numerator), UInt64(denominator)))
        self.numerator = numerator / g
        self.denominator = denominator / g
    }

    public var framesPerSecond: Double { Double(numerator) / Double(denominator) }
    /// The duration of one frame, `denominator / numerator` seconds.
    public var frameDuration: MediaTime { MediaTime(value: Int64(denominator), timescale: Int64(numerator)) }
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// The standard rates a measured rate snaps to (23.976, 24, 25, 29.97, 30, 50, 59.94, 60).
    public static let standard: [FrameRate] = [
        FrameRate(24000, 1001), FrameRate(24), FrameRate(25), FrameRate(30000, 1001),
        FrameRate(30), FrameRate(50), FrameRate(60000, 1001), FrameRate(60),
    ]

    /// Snaps a measured rate (frames per second) to a standard rate when within 1 % of one,
    /// otherwise rounds it to whole frames per second; clamps to 1…`cap`.
    public static func snapped(_ fps: Double, cap: Int32 = 60) -> FrameRate {
        guard fps.isFinite, fps > 0 else { return FrameRate(30) }
        if let s = standard.min(by: { abs($0.framesPerSecond - fps) < abs($1.framesPerSecond - fps) }),
           abs(s.framesPerSecond - fps) / fps < 0.01, s.framesPerSecond <= Double(cap) + 0.5 {
            return s
        }
        return FrameRate(Int32(max(1, min(Double(cap), fps.rounded()))))
    }

    /// Parses `"30"`, `"29.97"`, `"30000/1001"`. Decimal NTSC rates (23.976, 29.97, 59.94) map to their exact fractions.
    public static func parse(_ text: String) -> FrameRate? {
        let parts = text.split(separator: "/")
        if parts.count == 2, let n = Int32(parts[0]), let d = Int32(parts[1]), n > 0, d > 0 {
            let r = FrameRate(n, d)
            return r.framesPerSecond >= 0.01 && r.framesPerSecond <= 1000 ? r : nil
        }
        guard parts.count == 1, let v = Double(text) else { return nil }
        return fromDecimal(v)
    }

    /// Converts a decimal rate, mapping 23.976/29.97/59.94 (±0.01) to x000/1001 fractions; nil outside 0.01…1000.
    public static func fromDecimal(_ v: Double) -> FrameRate? {
        guard v.isFinite, v >= 0.01, v <= 1000 else { return nil }
        for s in standard where s.denominator == 1001 && abs(s.framesPerSecond - v) < 0.01 { return s }
        if v == v.rounded() { return FrameRate(Int32(v)) }
        return FrameRate(Int32((v * 1000).rounded()), 1000)
    }
}
