import SegueCore

/// The render size an edit gets when it gives none (`Edit.renderSize`, `--size`): the one place it is decided.
extension Timeline {
    /// The picture's orientation, as its displayed size (after rotation and pixel aspect) has it.
    enum PictureOrientation: String, CaseIterable {
        case landscape, portrait, square

        init(_ size: PixelSize) {
            self = size.width > size.height ? .landscape : size.height > size.width ? .portrait : .square
        }

        /// The standard size of the orientation: 1920×1080, 1080×1920, 1080×1080 (what phones record and platforms
        /// take: full HD, its portrait turn, a square of its height).
        var standardSize: PixelSize {
            switch self {
            case .landscape: return PixelSize(width: 1920, height: 1080)
            case .portrait: return PixelSize(width: 1080, height: 1920)
            case .square: return PixelSize(width: 1080, height: 1080)
            }
        }
    }

    /// The default render size of clips with these displayed sizes (after rotation and pixel aspect) and times on the
    /// timeline — the bottom track's, which `which` names in the reason (" of the bottom track", or "") — and why, in
    /// words (`plan` shows it):
    /// - clips of one size: that size (no clip is scaled; what an editor's "new sequence from clip" makes);
    /// - clips of several sizes: the standard size (`PictureOrientation.standardSize`) of the orientation that fills most of
    ///   their time (equal times: the first clip's), scaled down, keeping its aspect, until neither side is longer
    ///   than the clips' longest long side and longest short side — never larger than the largest source, so a
    ///   1440×1080 and a 1080×1440 clip give 1440×810, portrait phone clips (1080×1920) with a landscape photo 1080×1920;
    /// - `square` (`Edit.square`, `--square`): a square of the largest short side (each clip is cropped to a square of
    ///   its own short side, so none is upscaled more than it must be: a 1920×1080 and a 1080×1920 clip give 1080).
    ///
    /// The size is even (4:2:0 needs it: rounded down) and neither side is longer than `maxRenderSide` (a larger one is
    /// scaled down, keeping its aspect). `clips` is not empty.
    static func defaultRenderSize(_ clips: [(size: PixelSize, time: MediaTime)], square: Bool, which: String) -> (size: PixelSize, reason: String) {
        precondition(!clips.isEmpty, "a default render size needs clips")
        let longest = clips.map { max($0.size.width, $0.size.height) }.max()!
        let shortest = clips.map { min($0.size.width, $0.size.height) }.max()!
        var size: PixelSize
        var reason: String
        if square {
            size = PixelSize(width: shortest, height: shortest)
            reason = "square, the largest short side among the clips\(which) after rotation"
        } else if Set(clips.map(\.size)).count == 1 {
            size = clips[0].size
            reason = "the size of the clips\(which) (after rotation), which is the same for all"
        } else {
            var time: [PictureOrientation: MediaTime] = [:]
            for c in clips { time[PictureOrientation(c.size), default: .zero] = time[PictureOrientation(c.size), default: .zero] + c.time }
            let first = PictureOrientation(clips[0].size)
            let prevailing = PictureOrientation.allCases.max { a, b in
                let ta = time[a] ?? .zero, tb = time[b] ?? .zero
                return ta < tb || (ta == tb && b == first)
            }!
            let standard = prevailing.standardSize
            // The scale, a fraction: the smallest of 1, longest / the standard's long side, shortest / its short side.
            var k = (num: 1, den: 1)
            for r in [(longest, max(standard.width, standard.height)), (shortest, min(standard.width, standard.height))] where r.0 * k.den < k.num * r.1 {
                k = (r.0, r.1)
            }
            size = PixelSize(width: max(2, (standard.width * k.num / k.den) & ~1), height: max(2, (standard.height * k.num / k.den) & ~1))
            let total = clips.reduce(MediaTime.zero) { $0 + $1.time }
            reason = "the clips\(which) differ in size; \(prevailing.rawValue) prevails (\(fmt(time[prevailing] ?? .zero)) s of \(fmt(total)) s): its standard size \(standard)"
                + (k.num < k.den ? ", scaled down to the largest source (\(longest) pixels long, \(shortest) short)" : "")
        }
        if max(size.width, size.height) > Timeline.maxRenderSide {
            // A huge picture (a panorama, a scan) would ask for a size no encoder takes: scale it down to fit.
            let k = Double(Timeline.maxRenderSide) / Double(max(size.width, size.height))
            size = PixelSize(width: max(2, Int((Double(size.width) * k).rounded())), height: max(2, Int((Double(size.height) * k).rounded())))
            reason += "; scaled down to fit \(Timeline.maxRenderSide) pixels, the largest side libx264 and the edit file take"
        }
        if size.width % 2 != 0 || size.height % 2 != 0 {
            size = PixelSize(width: max(2, size.width & ~1), height: max(2, size.height & ~1))
            reason += "; rounded down to even for 4:2:0"
        }
        return (size, reason)
    }
}
