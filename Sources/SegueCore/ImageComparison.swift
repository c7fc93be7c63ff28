import Foundation

/// Differences between two 8-bit planes or pictures of the same shape.
public struct PlaneDifference: CustomStringConvertible, Sendable {
    /// Largest absolute difference (0…255).
    public let maxAbsDifference: Int
    /// Index of the first sample with that difference.
    public let worstIndex: Int
    /// Mean squared error.
    public let mse: Double
    /// Peak signal-to-noise ratio in dB, `10·log10(255² / MSE)`; `.infinity` when identical.
    public var psnr: Double { mse == 0 ? .infinity : 10 * log10(255.0 * 255.0 / mse) }

    /// Compares two equally long sample buffers.
    public init(_ a: [UInt8], _ b: [UInt8]) {
        precondition(a.count == b.count, "compared buffers differ in size (\(a.count) vs \(b.count))")
        var maxd = 0, worst = 0
        var sum: Double = 0
        for i in 0..<a.count {
            let d = Int(a[i]) - Int(b[i])
            let ad = abs(d)
            if ad > maxd { maxd = ad; worst = i }
            sum += Double(d * d)
        }
        maxAbsDifference = maxd
        worstIndex = worst
        mse = a.isEmpty ? 0 : sum / Double(a.count)
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
