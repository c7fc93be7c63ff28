import Foundation
import SeguePipeline

/// Prints render progress on standard error: a bar redrawn in place (TTY), plain lines, or JSON lines.
func progressPrinter(_ style: ProgressStyle) -> (@Sendable (RenderProgress) -> Void)? {
    @Sendable func write(_ s: String) { FileHandle.standardError.write(s.data(using: .utf8)!) }
    @Sendable func clock(_ s: Double) -> String {
        guard s.isFinite else { return "--:--" }
        let t = Int(s.rounded())
        return String(format: "%d:%02d", t / 60, t % 60)
    }
    switch style {
    case .none: return nil
    case .json:
        return { p in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            if let d = try? encoder.encode(p), let s = String(data: d, encoding: .utf8) { write(s + "\n") }
        }
    case .plain:
        return { p in
            write(String(format: "frame %lld/%lld  %.1f fps  %.2fx  elapsed %@  eta %@%@\n", p.frame, p.total, p.fps, p.speed,
                         clock(p.elapsed), clock(p.eta), p.stage == "done" ? "  done" : ""))
        }
    case .bar:
        return { p in
            let width = 30
            let filled = p.total > 0 ? Int(Double(width) * Double(p.frame) / Double(p.total)) : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            write(String(format: "\r[%@] %lld/%lld  %.1f fps  elapsed %@  eta %@ ", bar, p.frame, p.total, p.fps, clock(p.elapsed), clock(p.eta)))
            if p.stage == "done" { write("\n") }
        }
    }
}

/// The default: a bar on a terminal, nothing otherwise.
func defaultProgressStyle() -> ProgressStyle { isatty(2) != 0 ? .bar : .none }
