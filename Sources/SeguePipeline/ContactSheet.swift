import SegueCore
import SegueMedia

/// A contact sheet of an edit: for every transition, the frames at p = 0, 0.25, 0.5, 0.75 and the first frame
/// after it, each tile captioned with its time, frame number and transition. Edits without transitions get
/// evenly spaced frames instead.
public enum ContactSheet {
    public struct Tile: Sendable {
        public let frame: Int64
        public let caption: String
        /// Top-left corner of the picture inside the sheet, pixels.
        public let x: Int, y: Int
    }

    /// The frames a sheet shows, with captions (no rendering).
    public static func frames(_ timeline: Timeline) -> [(frame: Int64, caption: String)] {
        var out: [(Int64, String)] = []
        for i in timeline.placements.indices {
            let r = timeline.transitionFrames(into: i)
            guard let t = timeline.placements[i].spec.transition, !r.isEmpty else { continue }
            let len = r.upperBound - r.lowerBound
            for q in [0, 1, 2, 3] {
                let n = r.lowerBound + (Int64(q) * len + 2) / 4   // nearest frame to p = q/4
                let p = timeline.plan(frame: n).progress
                out.append((n, String(format: "%@ P=%.2f", t.kind.rawValue, p)))
            }
            if r.upperBound < timeline.frameCount { out.append((r.upperBound, "after \(t.kind.rawValue)")) }
        }
        if out.isEmpty {
            let count = Int64(min(10, timeline.frameCount))
            for k in 0..<count { out.append((k * timeline.frameCount / count, "")) }
        }
        return out
    }

    /// Renders the sheet. Tiles are `tileWidth` pixels wide (height from the render size's aspect), `columns` per row,
    /// on a dark background, with a caption band under each.
    /// - Returns: the sheet and where each tile went.
    public static func render(_ timeline: Timeline, renderer: CompositeRenderer, columns: Int = 5, tileWidth: Int = 192) throws -> (image: RGBAImage, tiles: [Tile]) {
        let list = frames(timeline)
        let (images, _) = try RenderJob.renderFrames(timeline, frames: list.map(\.frame), renderer: renderer)
        let tw = tileWidth
        let th = max(2, Int((Double(tileWidth) * Double(timeline.renderSize.height) / Double(timeline.renderSize.width)).rounded()))
        let gap = 4, band = 2 * BitmapFont.glyphHeight + 6
        let cols = max(1, min(columns, list.count))
        let rows = (list.count + cols - 1) / cols
        let W = gap + cols * (tw + gap), H = gap + rows * (th + band + gap)
        var sheet = RGBAImage(width: W, height: H, fill: (24, 24, 24))
        var tiles: [Tile] = []
        for (k, (entry, image)) in zip(list, images).enumerated() {
            let x = gap + (k % cols) * (tw + gap), y = gap + (k / cols) * (th + band + gap)
            BitmapFont.blit(try StillImage.resize(image, to: PixelSize(width: tw, height: th)), into: &sheet, x: x, y: y)
            let time = String(format: "%.2fS #%lld", timeline.time(ofFrame: entry.frame).seconds, entry.frame)
            BitmapFont.draw(time, into: &sheet, x: x + 1, y: y + th + 2, color: (230, 230, 230))
            BitmapFont.draw(entry.caption, into: &sheet, x: x + 1, y: y + th + 3 + BitmapFont.glyphHeight, color: (255, 200, 80))
            tiles.append(Tile(frame: entry.frame, caption: entry.caption, x: x, y: y))
        }
        return (sheet, tiles)
    }
}
