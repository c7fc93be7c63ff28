import Foundation
import SegueEdit

extension TextShaper {
    /// A glyph set on its line (`setLines`): its font, index, origin (pixels from the block's top left, y down), the
    /// UTF-8 offset of its cluster in the text and its advance.
    typealias Placed = (face: FontFace, glyph: UInt32, x: Double, y: Double, cluster: Int, advance: Double)

    /// The glyphs as `marks` draw them (`TextSpec.marks`): a glyph belongs to the first mark whose byte range holds its
    /// cluster (after the bidirectional reordering a glyph keeps its cluster, so a right-to-left word's glyphs are found
    /// wherever they sit); a hidden mark's glyphs are left out; a scaled mark's glyphs are moved and scaled about the
    /// centre of the mark's line box (its glyphs' advances across, the line's ascent to descent down),
    /// their scaled ink added to `ink`. A mark's `box`: that line box grown by 15 % of the font size (one box per line
    /// the mark spans), added to `ink` too. Sizes in pixels.
    func marked(_ placed: [Placed], marks: [TextMark], ink: inout Box, size px: Double, ascent: Double, descent: Double, lineHeight: Double) throws
        -> (glyphs: [(Placed, Int?, Double)], boxes: [(x0: Double, y0: Double, x1: Double, y1: Double, colour: TextColour)]) {
        guard !marks.isEmpty else { return (placed.map { ($0, nil, 1) }, []) }
        let owner = placed.map { g in marks.firstIndex { $0.range.contains(g.cluster) } }
        // Each mark's line boxes, by baseline.
        // (Line i's glyphs have y in (i × lineHeight, (i + 1) × lineHeight): their baseline ± their small offsets.)
        func line(_ g: Placed) -> Int { Int((g.y / lineHeight).rounded(.down)) }
        let halfLeading = (lineHeight - (ascent + descent)) / 2
        var lineBoxes: [Int: [Int: Box]] = [:]
        for (g, m) in zip(placed, owner) {
            guard let m else { continue }
            let top = Double(line(g)) * lineHeight + halfLeading
            let b = lineBoxes[m]?[line(g)] ?? (x0: .infinity, y0: top, x1: -.infinity, y1: top + ascent + descent)
            lineBoxes[m, default: [:]][line(g)] = (min(b.x0, g.x), b.y0, max(b.x1, g.x + g.advance), b.y1)
        }
        func grow(_ b: Box) { ink = (min(ink.x0, b.x0), min(ink.y0, b.y0), max(ink.x1, b.x1), max(ink.y1, b.y1)) }
        var out: [(Placed, Int?, Double)] = []
        for (g, m) in zip(placed, owner) {
            guard let m else { out.append((g, nil, 1)); continue }
            let mark = marks[m]
            if mark.hidden { continue }
            guard mark.scale != 1, let box = lineBoxes[m]?[line(g)] else { out.append((g, m, 1)); continue }
            let cx = (box.x0 + box.x1) / 2, cy = (box.y0 + box.y1) / 2, k = mark.scale
            var moved = g
            moved.x = cx + (g.x - cx) * k
            moved.y = cy + (g.y - cy) * k
            if let b = try inkBox(g.face, g.glyph) {
                grow((moved.x + b.x0 * k, moved.y + b.y0 * k, moved.x + b.x1 * k, moved.y + b.y1 * k))
            }
            out.append((moved, m, k))
        }
        var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double, colour: TextColour)] = []
        for (m, mark) in marks.enumerated() {
            guard let colour = mark.box, let lines = lineBoxes[m] else { continue }
            for (_, b) in lines.sorted(by: { $0.key < $1.key }) {
                let pad = 0.15 * px, k = mark.scale
                let cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2
                let box = (x0: cx - ((b.x1 - b.x0) / 2 + pad) * k, y0: cy - ((b.y1 - b.y0) / 2 + pad) * k,
                           x1: cx + ((b.x1 - b.x0) / 2 + pad) * k, y1: cy + ((b.y1 - b.y0) / 2 + pad) * k)
                grow(box)
                boxes.append((box.x0, box.y0, box.x1, box.y1, colour))
            }
        }
        return (out, boxes)
    }
}
