import Foundation
import SegueCore
import SegueMedia

/// Per-frame PSNR between two videos of the same size, on the Y, U and V planes (8-bit 4:2:0).
public struct VideoComparison: Codable, Sendable {
    public struct FrameScore: Codable, Sendable {
        public let frame: Int
        public let y: Double, u: Double, v: Double
        /// Worst of the three planes.
        public var min: Double { Swift.min(y, u, v) }
    }
    public let width: Int, height: Int
    public let frames: [FrameScore]
    /// Frame counts of the two inputs (compared over the shorter).
    public let countA: Int, countB: Int
    /// PSNR of all samples of all frames (Y, U and V together, by sample count), dB; `.infinity` if identical.
    public let overall: Double
    public var worst: FrameScore? { frames.min { $0.min < $1.min } }

    /// Decodes both files frame by frame and compares them. Throws `MediaError` (unreadable input) or
    /// `EditError` (the pictures differ in size).
    public init(_ a: String, _ b: String) throws {
        let ra = try PlanarFrameReader(path: a), rb = try PlanarFrameReader(path: b)
        guard ra.width == rb.width && ra.height == rb.height else {
            throw UsageError("compare: the videos differ in size: \(ra.width)x\(ra.height) vs \(rb.width)x\(rb.height)")
        }
        width = ra.width; height = ra.height
        let ySize = width * height, cSize = ((width + 1) / 2) * ((height + 1) / 2)
        var scores: [FrameScore] = []
        var sse: Double = 0, samples = 0
        var na = 0, nb = 0
        while true {
            let fa = try ra.next(), fb = try rb.next()
            if fa != nil { na += 1 }
            if fb != nil { nb += 1 }
            guard let x = fa, let y = fb else {
                // Count the rest of the longer one.
                if fa != nil { while try ra.next() != nil { na += 1 } }
                if fb != nil { while try rb.next() != nil { nb += 1 } }
                break
            }
            let dy = PlaneDifference(Array(x[0..<ySize]), Array(y[0..<ySize]))
            let du = PlaneDifference(Array(x[ySize..<(ySize + cSize)]), Array(y[ySize..<(ySize + cSize)]))
            let dv = PlaneDifference(Array(x[(ySize + cSize)...]), Array(y[(ySize + cSize)...]))
            scores.append(FrameScore(frame: scores.count, y: dy.psnr, u: du.psnr, v: dv.psnr))
            sse += dy.mse * Double(ySize) + du.mse * Double(cSize) + dv.mse * Double(cSize)
            samples += ySize + 2 * cSize
        }
        frames = scores
        countA = na; countB = nb
        let mse = samples > 0 ? sse / Double(samples) : 0
        overall = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    public var text: String {
        func f(_ d: Double) -> String { d.isInfinite ? "inf" : String(format: "%.2f", d) }
        var s = "\(frames.count) frames compared (\(countA) vs \(countB)), \(width)x\(height)\n"
        s += "overall PSNR \(f(overall)) dB\n"
        if let w = worst { s += "worst frame \(w.frame): Y \(f(w.y)) dB, U \(f(w.u)) dB, V \(f(w.v)) dB\n" }
        return s
    }
}
