import Foundation
import SegueCore

/// Text items and captions in the planner: shaping them for the render size (through `TextServices`), the caption
/// tracks, and the one rule that places a text picture (`textGeometry`).
extension Timeline {
    /// Bottom margin of captions placed by default: the block's bottom edge at 95 % of the render height; left- and
    /// right-aligned captions 5 % in from their side.
    public static let captionMargin = 0.05

    /// Shapes every text item of `all` for `renderSize` at its largest scale (keyframed `layer.scale`: the maximum of
    /// its keyframes), by position in `all`; collects the fonts' warnings into `warnings`.
    /// - Throws: `EditError` when the edit has text or captions and no `services`, or from `TextServices.layout`.
    static func shapeText(_ all: [ItemReference], renderSize: PixelSize, services: TextServices?, captions: Bool,
                          warnings: inout [String]) throws -> [Int: any TextBlock] {
        let texts = all.indices.filter { all[$0].spec.text != nil }
        if texts.isEmpty && !captions { return [:] }
        guard let services else {
            throw EditError(texts.first.map { "\(all[$0].field).text" } ?? "captions",
                            "text and captions are shaped by the text module: resolve the edit through Segue (resolve, RenderJob.resolve), which provides it")
        }
        var out: [Int: any TextBlock] = [:]
        for n in texts {
            let spec = all[n].spec
            let block = try services.layout(spec.text!, renderSize: renderSize, scale: rasterScale(spec.layer), field: all[n].field)
            for w in block.warnings where !warnings.contains(w) { warnings.append(w) }
            out[n] = block
        }
        return out
    }

    /// The scale a text's or a shape's picture is drawn at: the layer's largest (keyframed `scale`: the maximum of its
    /// keyframes; 1 for none above 0), so that it is never shown larger than drawn.
    static func rasterScale(_ layer: LayerSpec) -> Double {
        let largest = layer.scale.keyValues.max() ?? 1
        return largest > 0 ? largest : 1
    }

    /// The stand-in source of a text picture: a still of the picture's size.
    static func textSource(_ block: any TextBlock) -> SourceInfo { pictureSource(block.pictureSize) }

    /// The stand-in source of a picture the render makes (a text's, a shape's): a still of `size`.
    static func pictureSource(_ size: PixelSize) -> SourceInfo {
        var s = SourceInfo(codedSize: size, nominalFrameRate: nil, duration: .zero, hasAudio: false)
        s.isStill = true
        return s
    }

    /// How a text picture is placed (with `FitMode.native`: one picture pixel per output pixel before scaling): the
    /// picture's anchor (`TextBlock.anchorX`, `anchorY`) goes to the layer's `x`, `y` and is the centre of its scale
    /// and rotation (as `Motion.Window`: the point of the picture put at the layer's centre, zoom 1); its scale is
    /// divided by the raster scale, so that a picture rasterised larger than shown is scaled down to its size. Drawn
    /// at its own size, unrotated and uncropped, the picture's top-left corner is moved onto a whole output pixel
    /// (by less than half a pixel), so each raster pixel is exactly one output pixel on both renderers.
    public static func textGeometry(_ block: any TextBlock, _ transform: LayerTransform, renderSize: PixelSize) -> (Motion.Window, LayerTransform) {
        nativeGeometry(pictureSize: block.pictureSize, anchorX: block.anchorX, anchorY: block.anchorY, rasterScale: block.rasterScale,
                       transform, renderSize: renderSize)
    }

    /// How a picture drawn at output resolution (a text's, a shape's: anchor ½, ½, raster scale 1) is placed: as
    /// `textGeometry` says, for a picture of `pictureSize` whose point (`anchorX`, `anchorY`) the layer's `x`, `y` place.
    public static func nativeGeometry(pictureSize: PixelSize, anchorX: Double, anchorY: Double, rasterScale: Double, _ transform: LayerTransform,
                                      renderSize: PixelSize) -> (Motion.Window, LayerTransform) {
        var t = transform
        t.scale /= rasterScale
        let window = Motion.Window(x: anchorX, y: anchorY, zoom: 1)
        if t.rotation.truncatingRemainder(dividingBy: 360) == 0, abs(t.scale - 1) < 1e-9, t.crop.isZero {
            let W = Double(renderSize.width), H = Double(renderSize.height)
            let left = t.x * W - anchorX * Double(pictureSize.width)
            let top = t.y * H - anchorY * Double(pictureSize.height)
            t.x += (left.rounded() - left) / W
            t.y += (top.rounded() - top) / H
        }
        return (window, t)
    }

    /// The caption tracks' placements: an ASS/SSA file is one placement over `[0, editEnd)` drawn by libass; each SRT or
    /// WebVTT cue is a text placement over `[start, end)` (clipped to the edit; cues starting at or after its end are
    /// left out, with a warning). Word-by-word captions (`CaptionSpec.words`, and a JSON transcript without it), of any
    /// format, are a text placement per page and state (`wordPieces`), in the safe area of a portrait render.
    /// Overlapping pieces go on further tracks, each above the one before. A cue at the default place (no position of its
    /// own) that starts while others there are shown is stacked above them, as players stack colliding cues (libass
    /// for FFmpeg's `subtitles` filter): its bottom edge at the top of the highest of them, for its whole interval
    /// (decided by the cues alone, so every frame, chunk and preview places it the same).
    static func captionPlacements(_ spec: CaptionSpec, services: TextServices, renderSize: PixelSize, editEnd: MediaTime, firstIndex: Int,
                                  firstTrack: Int, warnings: inout [String]) throws -> (file: CaptionFile, placements: [Placement], tracks: [[Int]]) {
        let file = try services.captions(spec)
        let name = spec.path.split(separator: "/").last.map(String.init) ?? spec.path
        var stand = SourceInfo(codedSize: renderSize, nominalFrameRate: nil, duration: .zero, hasAudio: false)
        stand.isStill = true
        let wordStyle = spec.words ?? (file.format == .json ? WordCaptionStyle() : nil)
        if file.format == .ass && wordStyle == nil {
            var item = ClipSpec(content: .subtitles(spec.path), duration: editEnd)
            item.at = .zero
            var p = Placement(index: firstIndex, track: firstTrack, item: 0, spec: item, source: stand, sourceStart: .zero, duration: editEnd,
                              start: .zero, fit: .fill,
                              outputToSource: LayerGeometry.outputToSource(codedSize: renderSize, sar: 1, orientation: .identity, renderSize: renderSize, fit: .fill))
            p.sourceDuration = editEnd
            return (file, [p], [[firstIndex]])
        }
        var placements: [Placement] = []
        var tracks: [[Int]] = []
        var trackEnds: [MediaTime] = []
        var late = Set<Int>()   // the cues left out
        let field = { (cue: CaptionCue) in "captions (\(name) line \(cue.line))" }
        var style = spec.style
        let portrait = renderSize.height > renderSize.width
        let safe = wordStyle.map { $0.safeArea ?? portrait } ?? false
        if safe { style.maxWidth = min(style.maxWidth ?? 1, 1 - 2 * WordCaptionStyle.safeSide) }
        let pieces = try wordStyle.map { try wordPieces(file, $0, style: style, services: services, renderSize: renderSize, field: field) }
            ?? file.cues.map { cue in
                var style = style
                if let a = cue.align { style.align = a }
                if cue.italic { style.italic = true }
                if cue.bold { style.weight = max(style.weight, 700) }
                return CaptionPiece(cue: cue, start: cue.start, end: cue.end, text: TextSpec(text: cue.text, style: style, role: .caption(anchorTop: cue.y != nil)))
            }
        let margin = safe ? WordCaptionStyle.safeSide : captionMargin
        // Cues at the default place so far: their interval, how far they were raised and their height (pixels).
        var stacked: [(end: MediaTime, raised: Int, height: Int)] = []
        for piece in pieces.sorted(by: { $0.start < $1.start || ($0.start == $1.start && $0.cue.index < $1.cue.index) }) {
            let cue = piece.cue, text = piece.text, style = text.style, start = piece.start
            guard start < editEnd else { if !placements.contains(where: { $0.cue?.index == cue.index }) { late.insert(cue.index) }; continue }
            let end = editEnd < piece.end ? editEnd : piece.end
            guard start < end else { continue }
            let block = try services.layout(text, renderSize: renderSize, scale: 1, field: field(cue))
            for w in block.warnings where !warnings.contains(w) { warnings.append(w) }
            var item = ClipSpec(content: .text(text), duration: end - start)
            item.at = start
            item.layer.x = .constant(cue.x ?? (style.align == .left ? margin : style.align == .right ? 1 - margin : 0.5))
            item.layer.y = .constant(cue.y ?? (safe ? WordCaptionStyle.safeBottom : 1 - captionMargin))
            if wordStyle == nil && cue.y == nil {
                let raised = stacked.filter { start < $0.end }.map { $0.raised + $0.height }.max() ?? 0
                stacked.append((end, raised, block.pictureSize.height))
                if raised > 0 { item.layer.y = .constant(1 - captionMargin - Double(raised) / Double(renderSize.height)) }
            }
            let k = trackEnds.firstIndex(where: { !(start < $0) }) ?? trackEnds.count
            if k == trackEnds.count { trackEnds.append(.zero); tracks.append([]) }
            trackEnds[k] = end
            let index = firstIndex + placements.count
            let source = textSource(block)
            var p = Placement(index: index, track: firstTrack + k, item: tracks[k].count, spec: item, source: source, sourceStart: .zero,
                              duration: end - start, start: start, fit: .native,
                              outputToSource: LayerGeometry.outputToSource(codedSize: source.codedSize, sar: 1, orientation: .identity,
                                                                           renderSize: renderSize, fit: .native))
            p.sourceDuration = end - start
            p.text = block
            p.cue = cue
            tracks[k].append(index)
            placements.append(p)
        }
        if !late.isEmpty {
            let late = late.count
            warnings.append("captions: \(late) cue\(late == 1 ? "" : "s") of \(name) start\(late == 1 ? "s" : "") at or after the edit's end (\(fmt(editEnd)) s) and \(late == 1 ? "is" : "are") not shown")
        }
        return (file, placements, tracks)
    }

    /// The files the text reads: the caption file, and every font file a text item or the captions name.
    public var textFiles: [String] {
        var out: [String] = captions.map { [$0.path] } ?? []
        for p in placements {
            if case .file(let f)? = p.spec.text?.style.font, !out.contains(f) { out.append(f) }
        }
        return out
    }

    /// The first 40 characters of `text` on one line, for messages.
    static func excerpt(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: " ⏎ ")
        return line.count > 40 ? String(line.prefix(39)) + "…" : line
    }
}
