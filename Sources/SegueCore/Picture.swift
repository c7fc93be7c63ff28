import Foundation
import Synchronization

/// Y′CbCr matrix coefficients `(Kr, Kb)`, `Kg = 1 − Kr − Kb`.
/// Sources: ITU-R BT.601-7 §2.5.1, ITU-R BT.709-6 Table 3 item 3.2, ITU-R BT.2020-2 Table 4 (non-constant
/// luminance; constant-luminance streams are converted as non-constant), SMPTE ST 240, FCC (ITU-T H.273 Table 4).
public enum YCbCrMatrix: String, Sendable, CaseIterable {
    case bt601, bt709, bt2020, smpte240m, fcc

    public var kr: Double {
        switch self { case .bt601: 0.299; case .bt709: 0.2126; case .bt2020: 0.2627; case .smpte240m: 0.212; case .fcc: 0.30 }
    }
    public var kb: Double {
        switch self { case .bt601: 0.114; case .bt709: 0.0722; case .bt2020: 0.0593; case .smpte240m: 0.087; case .fcc: 0.11 }
    }
    /// The matrix for a stream that does not say: BT.709 at 720 lines or more, else BT.601 (what FFmpeg's
    /// players and AVFoundation assume).
    public static func unspecified(height: Int) -> YCbCrMatrix { height >= 720 ? .bt709 : .bt601 }
    /// "BT.601", "BT.709", "BT.2020", "SMPTE 240M", "FCC".
    public var displayName: String {
        switch self { case .bt601: "BT.601"; case .bt709: "BT.709"; case .bt2020: "BT.2020"; case .smpte240m: "SMPTE 240M"; case .fcc: "FCC" }
    }
    /// Accepted spellings in an edit file's `colour.matrix` (FFmpeg's `colorspace` names too), lower case; the matrices
    /// an override may name are BT.601, BT.709 and BT.2020.
    public static let spellings: [String: YCbCrMatrix] = [
        "bt601": .bt601, "bt470bg": .bt601, "smpte170m": .bt601, "bt709": .bt709,
        "bt2020": .bt2020, "bt2020nc": .bt2020, "bt2020-ncl": .bt2020,
    ]
    /// One of `spellings`, case-insensitive; nil otherwise.
    public static func parse(_ s: String) -> YCbCrMatrix? { spellings[s.lowercased()] }
}

/// Quantisation range of Y′CbCr code values (ITU-T H.273 §8.1, `video_full_range_flag`).
public enum ColourRange: String, Sendable {
    /// "TV"/"MPEG" range: 8-bit Y′ 16…235, Cb/Cr 16…240 (scaled by 2^(N−8) at N bits).
    case limited
    /// "PC"/"JPEG" range: Y′ 0…2^N−1, Cb/Cr centred on 2^(N−1).
    case full
}

/// Where the first chroma sample of a subsampled picture sits, as an offset from the centre of the top-left
/// luma sample in units of one chroma sample spacing (0…1 per axis). For 4:2:0: `left` (MPEG-2/H.264/HEVC,
/// `AVCHROMA_LOC_LEFT`) is (0, 0.5), `center` (JPEG/MPEG-1) is (0.5, 0.5), `topLeft` is (0, 0).
/// With 2× subsampling the offset in luma pixels equals this value; with factor `s` it is `value · (s − 1)`.
public struct ChromaSiting: Equatable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let left = ChromaSiting(x: 0, y: 0.5)
    public static let center = ChromaSiting(x: 0.5, y: 0.5)
    public static let topLeft = ChromaSiting(x: 0, y: 0)
    public var description: String {
        switch self { case .left: "left"; case .center: "center"; case .topLeft: "top-left"; default: "(\(x), \(y))" }
    }
}

/// Transfer characteristics: how R′G′B′ code values relate to light (ITU-T H.273 Table 3, `AVColorTransferCharacteristic`).
public enum TransferFunction: String, Sendable, CaseIterable {
    /// Standard dynamic range: the BT.709 / BT.601 / BT.2020 (10- and 12-bit) camera OETF, shown on a BT.1886 display.
    /// Also what untagged clips are taken to be.
    case sdr
    /// Hybrid log-gamma (ITU-R BT.2100 Table 5, ARIB STD-B67; `AVCOL_TRC_ARIB_STD_B67`).
    case hlg
    /// Perceptual quantizer (SMPTE ST 2084, ITU-R BT.2100 Table 4; `AVCOL_TRC_SMPTE2084`).
    case pq

    /// True for HLG and PQ.
    public var isHDR: Bool { self != .sdr }
    /// Accepted spellings in an edit file's `colour.transfer` (FFmpeg's names too), lower case.
    public static let spellings: [String: TransferFunction] = [
        "sdr": .sdr, "bt709": .sdr, "bt601": .sdr, "bt1886": .sdr, "smpte170m": .sdr, "bt2020-10": .sdr, "bt2020-12": .sdr,
        "hlg": .hlg, "arib-std-b67": .hlg, "pq": .pq, "smpte2084": .pq,
    ]
    /// One of `spellings`, case-insensitive; nil otherwise.
    public static func parse(_ s: String) -> TransferFunction? { spellings[s.lowercased()] }
}

/// Colour primaries: the chromaticities of R, G and B and the white point (ITU-T H.273 Table 2, `AVColorPrimaries`).
public enum ColourPrimaries: String, Sendable, CaseIterable {
    /// ITU-R BT.709 (sRGB's too); what untagged clips are taken to be.
    case bt709
    /// ITU-R BT.601 (625-line EBU `bt470bg` and 525-line `smpte170m`, which differ only slightly): treated as BT.709,
    /// as players do.
    case bt601
    /// ITU-R BT.2020 / BT.2100 wide gamut.
    case bt2020

    /// Accepted spellings in an edit file's `colour.primaries` (FFmpeg's names too), lower case.
    public static let spellings: [String: ColourPrimaries] = [
        "bt709": .bt709, "bt601": .bt601, "bt470bg": .bt601, "smpte170m": .bt601, "smpte240m": .bt601, "bt2020": .bt2020,
    ]
    /// One of `spellings`, case-insensitive; nil otherwise.
    public static func parse(_ s: String) -> ColourPrimaries? { spellings[s.lowercased()] }
}

/// The colour description of a Y′CbCr picture.
public struct YCbCrColour: Equatable, Sendable {
    public var matrix: YCbCrMatrix
    public var range: ColourRange
    public var siting: ChromaSiting
    /// How the R′G′B′ values relate to light (SDR, HLG, PQ).
    public var transfer: TransferFunction
    /// The R′G′B′ primaries.
    public var primaries: ColourPrimaries
    /// The content's peak luminance in cd/m², from its metadata: MaxCLL (CTA-861.3 content light level), else the
    /// mastering display's maximum (SMPTE ST 2086); nil when it has none. Used for PQ, the tone-mapping curve's source peak.
    public var peakLuminance: Double?
    public init(matrix: YCbCrMatrix, range: ColourRange, siting: ChromaSiting = .left,
                transfer: TransferFunction = .sdr, primaries: ColourPrimaries = .bt709, peakLuminance: Double? = nil) {
        self.matrix = matrix; self.range = range; self.siting = siting; self.transfer = transfer; self.primaries = primaries
        self.peakLuminance = peakLuminance
    }
    /// "BT.601 limited, SDR, BT.709 primaries".
    public var summary: String { "\(matrix.displayName) \(range.rawValue), \(transfer == .sdr ? "SDR" : transfer.rawValue.uppercased()), \(primaries.rawValue.uppercased().replacingOccurrences(of: "BT", with: "BT.")) primaries" }

    /// What Segue writes: BT.709, limited range, chroma sited left.
    public static let output = YCbCrColour(matrix: .bt709, range: .limited, siting: .left)
}

/// One plane of a `VideoPicture`: rows top to bottom, no padding (`width × height × channels × bytesPerSample`
/// bytes). 16-bit samples are little-endian.
public struct PicturePlane: Sendable {
    public let width: Int
    public let height: Int
    /// Samples per pixel: 1 (Y, Cb or Cr), 2 (interleaved CbCr) or 4 (RGBA).
    public let channels: Int
    public var bytes: [UInt8]
    public init(width: Int, height: Int, channels: Int, bytes: [UInt8]) {
        self.width = width; self.height = height; self.channels = channels; self.bytes = bytes
    }
}

/// A stored (decoded) picture as it leaves `SegueMedia`: its planes as decoded, with what the renderers need
/// to turn them into R′G′B′. Layouts the shaders take directly:
/// - `.rgba`: one RGBA8 plane of full-range R′G′B′ (clips in other formats, converted by libswscale), with
///   premultiplied alpha (`hasAlpha`: each R′G′B′ value multiplied by α; opaque pictures have α 255 throughout).
/// - `.planar`: three planes Y, Cb, Cr; chroma subsampled by `2^chromaShiftX × 2^chromaShiftY`
///   (yuv420p, yuv422p, yuv444p, yuvj*, …); 8-bit, or 9…16-bit in 16-bit little-endian samples (yuv420p10le …).
/// - `.semiPlanar`: Y plus one plane of interleaved Cb, Cr (NV12), or Cr, Cb with `swapsChroma` (NV21); 8-bit.
public struct VideoPicture: Sendable {
    public enum Layout: Sendable, Equatable { case rgba, planar, semiPlanar }
    public let width: Int
    public let height: Int
    public let layout: Layout
    /// log2 of the chroma subsampling factors (4:2:0: 1, 1; 4:2:2: 1, 0; 4:4:4: 0, 0).
    public let chromaShiftX: Int
    public let chromaShiftY: Int
    /// Bits per sample (8 for RGBA); above 8, samples are stored in 16 bits.
    public let bitDepth: Int
    /// NV21: the interleaved chroma plane holds Cr before Cb.
    public let swapsChroma: Bool
    public let planes: [PicturePlane]
    /// Matrix, range and chroma siting (unused for `.rgba`).
    public let colour: YCbCrColour
    /// Names this picture's planes: two pictures with the same non-zero identity hold the same samples, so a renderer
    /// that still holds them (the GPU's textures) need not upload them again. A reader gives every picture it makes a
    /// new one (`VideoPicture.newIdentity()`) and hands out the same picture, identity included, while it shows the
    /// same decoded frame: a still keeps one identity for its whole duration. 0 (the default): no identity, always
    /// uploaded.
    public var identity: UInt64 = 0
    /// Whether the picture has transparent parts (`.rgba` only): its R′G′B′ are premultiplied by its alpha
    /// (`VideoPicture.premultiplied`), and the renderers draw it "over" what is below it.
    public var hasAlpha = false

    /// A process-wide unique, non-zero identity for a new picture (thread-safe).
    public static func newIdentity() -> UInt64 { PictureIdentities.next() }

    public init(width: Int, height: Int, layout: Layout, chromaShiftX: Int, chromaShiftY: Int, bitDepth: Int,
                swapsChroma: Bool = false, planes: [PicturePlane], colour: YCbCrColour) {
        self.width = width; self.height = height; self.layout = layout
        self.chromaShiftX = chromaShiftX; self.chromaShiftY = chromaShiftY; self.bitDepth = bitDepth
        self.swapsChroma = swapsChroma; self.planes = planes; self.colour = colour
    }

    /// An RGBA picture (no copy: the pixel array is shared). Its R′G′B′ are in `transfer` and `primaries` (an HDR
    /// clip that libswscale converted keeps them) with the content's `peakLuminance`; matrix and range do not apply.
    public init(_ image: RGBAImage, transfer: TransferFunction = .sdr, primaries: ColourPrimaries = .bt709, peakLuminance: Double? = nil) {
        var colour = YCbCrColour.output
        colour.transfer = transfer; colour.primaries = primaries; colour.peakLuminance = peakLuminance
        self.init(width: image.width, height: image.height, layout: .rgba, chromaShiftX: 0, chromaShiftY: 0, bitDepth: 8,
                  planes: [PicturePlane(width: image.width, height: image.height, channels: 4, bytes: image.pixels)],
                  colour: colour)
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// A 1×1 RGBA picture of one colour with `alpha` (0…1), premultiplied: what a fill (alpha 1) or the transparent
    /// side of a transition from or to a gap (alpha 0) draws; the layer's geometry stretches it over its frame.
    public static func colour(_ c: RGBColour, alpha: Double) -> VideoPicture {
        let a = max(0, min(1, alpha))
        func p(_ v: UInt8) -> UInt8 { UInt8((Double(v) * a).rounded()) }
        var picture = VideoPicture(RGBAImage(width: 1, height: 1, pixels: [p(c.r), p(c.g), p(c.b), UInt8((a * 255).rounded())]))
        picture.hasAlpha = a < 1
        return picture
    }

    /// An RGBA picture with straight (unassociated) alpha, as decoders give it, premultiplied: each R′G′B′ code
    /// becomes `round(c·α / 255)` (Porter–Duff's associated alpha, in 8 bits). `hasAlpha` is set when some α < 255.
    public static func premultiplied(_ image: RGBAImage, transfer: TransferFunction = .sdr, primaries: ColourPrimaries = .bt709,
                                     peakLuminance: Double? = nil) -> VideoPicture {
        var pixels = image.pixels
        var transparent = false
        pixels.withUnsafeMutableBufferPointer { p in
            for i in stride(from: 0, to: p.count, by: 4) {
                let a = UInt32(p[i + 3])
                if a == 255 { continue }
                transparent = true
                for c in 0..<3 { p[i + c] = UInt8((UInt32(p[i + c]) * a + 127) / 255) }
            }
        }
        var picture = VideoPicture(RGBAImage(width: image.width, height: image.height, pixels: pixels), transfer: transfer,
                                   primaries: primaries, peakLuminance: peakLuminance)
        picture.hasAlpha = transparent
        return picture
    }

    /// This picture mixed with `other` (same size, layout and sample format) by `weight` (0 = this, 1 = other): each
    /// sample `round(a + weight·(b − a))`, 8-bit or 16-bit little-endian alike; the colour description is this one's.
    /// Nil when the two differ in shape. What frame blending (`frameBlend`) shows between two source frames.
    public func blended(with other: VideoPicture, weight: Double) -> VideoPicture? {
        guard other.width == width, other.height == height, other.layout == layout, other.bitDepth == bitDepth,
              other.chromaShiftX == chromaShiftX, other.chromaShiftY == chromaShiftY, other.swapsChroma == swapsChroma,
              other.planes.count == planes.count, zip(planes, other.planes).allSatisfy({ $0.bytes.count == $1.bytes.count }) else { return nil }
        let w = Float(min(1, max(0, weight)))
        let planes = zip(self.planes, other.planes).map { a, b -> PicturePlane in
            var out = [UInt8](repeating: 0, count: a.bytes.count)
            a.bytes.withUnsafeBufferPointer { pa in
                b.bytes.withUnsafeBufferPointer { pb in
                    out.withUnsafeMutableBufferPointer { o in
                        if bitDepth > 8 {
                            for i in stride(from: 0, to: o.count, by: 2) {
                                let x = Float(UInt16(pa[i]) | UInt16(pa[i + 1]) << 8), y = Float(UInt16(pb[i]) | UInt16(pb[i + 1]) << 8)
                                let v = UInt16((x + w * (y - x)).rounded())
                                o[i] = UInt8(v & 255); o[i + 1] = UInt8(v >> 8)
                            }
                        } else {
                            for i in 0..<o.count { let x = Float(pa[i]); o[i] = UInt8((x + w * (Float(pb[i]) - x)).rounded()) }
                        }
                    }
                }
            }
            return PicturePlane(width: a.width, height: a.height, channels: a.channels, bytes: out)
        }
        var p = VideoPicture(width: width, height: height, layout: layout, chromaShiftX: chromaShiftX, chromaShiftY: chromaShiftY,
                             bitDepth: bitDepth, swapsChroma: swapsChroma, planes: planes, colour: colour)
        p.hasAlpha = hasAlpha || other.hasAlpha
        return p
    }

    /// Width and height of a chroma plane: `ceil(width / 2^chromaShiftX)` × `ceil(height / 2^chromaShiftY)`.
    public var chromaSize: PixelSize {
        PixelSize(width: -((-width) >> chromaShiftX), height: -((-height) >> chromaShiftY))
    }
    /// Short format name for logs: "rgba", "yuv 4:2:0 8-bit", "nv12".
    public var formatDescription: String {
        switch layout {
        case .rgba: return "rgba"
        case .semiPlanar: return swapsChroma ? "nv21" : "nv12"
        case .planar:
            let sub = chromaShiftX == 0 ? "4:4:4" : chromaShiftY == 0 ? "4:2:2" : "4:2:0"
            return "yuv \(chromaShiftX > 1 || chromaShiftY > 1 ? "subsampled \(chromaShiftX),\(chromaShiftY)" : sub) \(bitDepth)-bit"
        }
    }
}

/// A Y′CbCr 4:2:0 picture, limited range, chroma sited left: the encoder's input. 8-bit (yuv420p, BT.709: SDR
/// output) or 10-bit (yuv420p10le, BT.2020: HDR output, `bitDepth` 10, each sample two bytes, little-endian).
/// `y` is `width × height` samples, `cb` and `cr` are `(width / 2) × (height / 2)` samples each; no padding;
/// width and height are even.
public struct YUV420Image: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// 8 or 10.
    public let bitDepth: Int
    public var y: [UInt8]
    public var cb: [UInt8]
    public var cr: [UInt8]
    /// For an output that keeps alpha (`FramePlan.keepsAlpha`, 8-bit): the alpha at each pixel centre (the luma's
    /// layout) and at each chroma site (a chroma plane's layout); nil otherwise. While they are set, `y`, `cb` and `cr`
    /// as the renderers draw them are premultiplied by them (transparent is 0 in every plane): `straightened`.
    public var alpha: [UInt8]?
    public var chromaAlpha: [UInt8]?
    public init(width: Int, height: Int, bitDepth: Int = 8, y: [UInt8], cb: [UInt8], cr: [UInt8], alpha: [UInt8]? = nil, chromaAlpha: [UInt8]? = nil) {
        precondition(width % 2 == 0 && height % 2 == 0, "4:2:0 output needs an even width and height")
        let b = bitDepth > 8 ? 2 : 1
        precondition(y.count == width * height * b && cb.count == width * height / 4 * b && cr.count == cb.count)
        precondition((alpha == nil) == (chromaAlpha == nil) && (alpha == nil || bitDepth == 8))
        precondition(alpha.map { $0.count == width * height } ?? true && chromaAlpha.map { $0.count == width * height / 4 } ?? true)
        self.width = width; self.height = height; self.bitDepth = bitDepth; self.y = y; self.cb = cb; self.cr = cr
        self.alpha = alpha; self.chromaAlpha = chromaAlpha
    }

    /// The premultiplied planes of an output with alpha divided by it, for encoders, which take straight colour: each
    /// luma sample by the alpha at its pixel, each Cb and Cr by the alpha at its chroma site, `v′ = round(255·v / a)`
    /// (code values, the 16 and 128 offsets included, since the renderers premultiply the offsets too), clamped; where
    /// alpha is 0 the colour is black (16, 128, 128). Self when there is no alpha.
    public func straightened() -> YUV420Image {
        guard let a = alpha, let ca = chromaAlpha else { return self }
        func divide(_ plane: [UInt8], _ alpha: [UInt8], transparent: UInt8) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: plane.count) { out, n in
                for i in 0..<plane.count {
                    let k = Int(alpha[i])
                    out[i] = k == 0 ? transparent : k == 255 ? plane[i] : UInt8(min(255, (Int(plane[i]) * 255 + k / 2) / k))
                }
                n = plane.count
            }
        }
        return YUV420Image(width: width, height: height, bitDepth: bitDepth, y: divide(y, a, transparent: 16), cb: divide(cb, ca, transparent: 128),
                           cr: divide(cr, ca, transparent: 128), alpha: a, chromaAlpha: ca)
    }
    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Bytes per sample: 1, or 2 above 8 bits.
    public var bytesPerSample: Int { bitDepth > 8 ? 2 : 1 }
    /// The code value of sample `i` of a plane (8- or 16-bit little-endian).
    public static func sample(_ plane: [UInt8], _ i: Int, bitDepth: Int) -> Int {
        bitDepth > 8 ? Int(plane[2 * i]) | Int(plane[2 * i + 1]) << 8 : Int(plane[i])
    }
}

/// The counter behind `VideoPicture.newIdentity()`.
enum PictureIdentities {
    private static let last = Mutex<UInt64>(0)
    static func next() -> UInt64 {
        last.withLock { $0 += 1; return $0 }
    }
}
