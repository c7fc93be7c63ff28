import SegueCore
import SegueEdit
import SegueMedia

/// A contact sheet of an edit: for every transition, the frames at p = 0, 0.25, 0.5, 0.75 (or the progress values
/// asked for) and the first frame after it, each tile captioned with its time, frame number, transition and p; the
/// middle frame of every text item and caption cue (`textFrames`). Edits with neither get evenly spaced frames.
///
/// Legible with many transitions: each transition's tiles start a new row when a row can hold them all, and
/// captions are cut to their tile's width (never drawn into the next tile). The labels are drawn by the text module
/// (`SheetLabels`), so that captions in any script read as written.
public enum ContactSheet {
    public struct Tile: Sendable {
        public let frame: Int64
        public let caption: String
        /// Top-left corner of the picture inside the sheet, pixels.
        public let x: Int, y: Int
    }

    /// The progress values tiled by default.
    public static let defaultProgress = [0, 0.25, 0.5, 0.75]

    /// The frames a sheet shows, with captions (no rendering), one group per transition (or one group of evenly
    /// spaced frames). `progress`: the values to show of each transition (the nearest frames); with the default
    /// the first frame after each transition is shown too.
    public static func groups(_ timeline: Timeline, progress: [Double]? = nil) -> [[(frame: Int64, caption: String)]] {
        var out: [[(Int64, String)]] = []
        for i in timeline.placements.indices {
            let r = timeline.transitionFrames(into: i)
            guard let t = timeline.placements[i].spec.transition, !r.isEmpty else { continue }
            let len = r.upperBound - r.lowerBound
            let name = t.kind == .glsl ? (t.shader?.name.split(separator: "/").last.map(String.init) ?? "glsl") : t.kind.rawValue
            var group: [(Int64, String)] = []
            for q in progress ?? defaultProgress {
                let n = min(r.upperBound - 1, r.lowerBound + Int64((q * Double(len)).rounded()))   // nearest frame to p = q
                let track = timeline.placements[i].track
                let p = timeline.plan(frame: n).passes.first { $0.track == track && $0.transition != nil }?.progress ?? 0
                group.append((n, String(format: "%@ p=%.2f", name, p)))
            }
            if progress == nil && r.upperBound < timeline.frameCount { group.append((r.upperBound, "after \(name)")) }
            out.append(group)
        }
        // Text items and caption cues: the middle frame of each (at most `maxTextTiles`), as one group.
        let texts = textFrames(timeline)
        if !texts.isEmpty { out.append(texts) }
        // In time order (the transitions of several tracks interleave).
        out.sort { ($0.first?.0 ?? 0) < ($1.first?.0 ?? 0) }
        if out.isEmpty {
            let count = Int64(min(10, timeline.frameCount))
            out = [(0..<count).map { k in (k * timeline.frameCount / count, "") }]
        }
        return out
    }

    /// The most tiles a sheet gives text items and caption cues.
    public static let maxTextTiles = 15

    /// The middle frame of every text item and caption cue (an ASS file's events included), captioned "text" or
    /// "cue N" and the words (on one line), in time order, at most `maxTextTiles`, one per frame.
    static func textFrames(_ timeline: Timeline) -> [(frame: Int64, caption: String)] {
        var list: [(Int64, String)] = []
        func add(_ start: MediaTime, _ end: MediaTime, _ label: String, _ words: String) {
            let first = timeline.firstFrame(atOrAfter: start), last = min(timeline.frameCount, timeline.firstFrame(atOrAfter: end)) - 1
            guard first <= last else { return }
            let line = String(String.UnicodeScalarView(words.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
                .trimmingCharacters(in: .whitespaces)
            list.append(((first + last) / 2, line.isEmpty ? label : "\(label) \(line)"))
        }
        for p in timeline.placements {
            guard let t = p.spec.text else { continue }
            add(p.start, p.end, p.cue.map { "cue \($0.index)" } ?? "text", t.text)
        }
        if let c = timeline.captions, c.format == .ass, !timeline.placements.contains(where: { $0.cue != nil }) {
            for cue in c.cues {
                let plain = cue.text.replacingOccurrences(of: "\\N", with: " ").replacingOccurrences(of: "\\{[^}]*\\}", with: "", options: .regularExpression)
                add(cue.start, cue.end, "cue \(cue.index)", plain)
            }
        }
        var seen = Set<Int64>()
        return list.sorted { $0.0 < $1.0 }.filter { seen.insert($0.0).inserted }.prefix(maxTextTiles).map { $0 }
    }

    /// The frames of `groups`, in order.
    public static func frames(_ timeline: Timeline, progress: [Double]? = nil) -> [(frame: Int64, caption: String)] {
        groups(timeline, progress: progress).flatMap { $0 }
    }

    /// Renders the sheet. Tiles are `tileWidth` pixels wide (height from the render size's aspect), `columns` per row,
    /// on a dark background, with a band of two labels under each (its time and frame number; its caption), drawn in
    /// a font 1/16 of the tile's width (`SheetLabels`).
    /// With `frameTimeout` (seconds), each frame is timed by a `Watchdog`, as in a render.
    /// - Returns: the sheet and where each tile went.
    /// - Throws: what rendering a frame throws; `TextError` when the text libraries cannot start.
    public static func render(_ timeline: Timeline, renderer: CompositeRenderer, columns: Int = 5, tileWidth: Int = 192,
                              progress: [Double]? = nil, frameTimeout: Double? = nil) throws -> (image: RGBAImage, tiles: [Tile]) {
        let groups = groups(timeline, progress: progress)
        let list = groups.flatMap { $0 }
        let (images, _) = try RenderJob.renderFrames(timeline, frames: list.map(\.frame), renderer: renderer,
                                                     watchdog: frameTimeout.map { Watchdog(seconds: $0) })
        let tw = tileWidth
        let th = max(2, Int((Double(tileWidth) * Double(timeline.renderSize.height) / Double(timeline.renderSize.width)).rounded()))
        let labels = try SheetLabels(tileWidth: tw)
        let gap = 4, band = labels.bandHeight
        let cols = max(1, min(columns, list.count))
        // Cells: a group starts a new row when it fits in one and the current row has tiles already.
        var cells: [(col: Int, row: Int)] = []
        var col = 0, row = 0
        for g in groups {
            if col > 0 && g.count <= cols && col + g.count > cols { col = 0; row += 1 }
            for _ in g {
                if col == cols { col = 0; row += 1 }
                cells.append((col, row))
                col += 1
            }
        }
        let rows = (cells.last?.row ?? 0) + 1
        let W = gap + cols * (tw + gap), H = gap + rows * (th + band + gap)
        var sheet = RGBAImage(width: W, height: H, fill: (24, 24, 24))
        var tiles: [Tile] = []
        for ((entry, image), cell) in zip(zip(list, images), cells) {
            let x = gap + cell.col * (tw + gap), y = gap + cell.row * (th + band + gap)
            sheet.paste(try StillImage.resize(image, to: PixelSize(width: tw, height: th)), x: x, y: y)
            let time = String(format: "%.2f s #%lld", timeline.time(ofFrame: entry.frame).seconds, entry.frame)
            try labels.draw(time, into: &sheet, x: x + 1, y: y + th + 2, width: tw - 1, colour: RGBColour(r: 230, g: 230, b: 230))
            try labels.draw(entry.caption, into: &sheet, x: x + 1, y: y + th + 2 + labels.pitch, width: tw - 1, colour: RGBColour(r: 255, g: 200, b: 80))
            tiles.append(Tile(frame: entry.frame, caption: entry.caption, x: x, y: y))
        }
        return (sheet, tiles)
    }
}

