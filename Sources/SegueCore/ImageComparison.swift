import Foundation

/// Differences between two planes or pictures of the same shape: 8-bit samples, or 9…16-bit ones stored as
/// two bytes, little-endian (`bitDepth`).
public struct PlaneDifference: CustomStringConvertible, Sendable {
    /// Largest absolute difference in code values (0…2^N − 1).
    public let maxAbsDifference: Int
    /// Index of the first sample with that difference.
    public let worstIndex: Int
    /// Mean squared error, in code values squared.
    public let mse: Double
    /// The largest code value, `2^N − 1` (255 for 8-bit samples).
    public let peak: Double
    /// Peak signal-to-noise ratio in dB, `10·log10(peak² / MSE)`; `.infinity` when identical.
    public var psnr: Double { mse == 0 ? .infinity : 10 * log10(peak * peak / mse) }

    /// Compares two equally long sample buffers of `bitDepth`-bit samples.
    public init(_ a: [UInt8], _ b: [UInt8], bitDepth: Int = 8) {
        precondition(a.count == b.count, "compared buffers differ in size (\(a.count) vs \(b.count))")
        let wide = bitDepth > 8, n = wide ? a.count / 2 : a.count
        var maxd = 0, worst = 0
        var sum: Double = 0
        for i in 0..<n {
            let d = wide ? (Int(a[2 * i]) | Int(a[2 * i + 1]) << 8) - (Int(b[2 * i]) | Int(b[2 * i + 1]) << 8) : Int(a[i]) - Int(b[i])
            let ad = abs(d)
            if ad > maxd { maxd = ad; worst = i }
            sum += Double(d * d)
        }
        maxAbsDifference = maxd
        worstIndex = worst
        mse = n == 0 ? 0 : sum / Double(n)
        peak = Double((1 << bitDepth) - 1)
    }

    public var description: String {
        String(format: "PSNR %.2f dB, max |Δ| %d at sample %d", psnr, maxAbsDifference, worstIndex)
    }
}

/// Writes an RGBA picture as a binary PPM (P6, alpha dropped) — for failure reports and quick looks.
public func writePPM(_ image: RGBAImage, to path: String) throws {
    var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
    data.reserveCapacity(data.count + image.width * image.height * 3)
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
        data.append(contentsOf: image.pixels[i..<(i + 3)])
    }
    try data.write(to: URL(fileURLWithPath: path))
}
