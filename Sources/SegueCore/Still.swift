import Foundation

/// Still pictures (JPEG, PNG, WebP, TIFF, HEIC/HEIF) as clips: one picture shown for the clip's duration.

/// An 8-bit R′G′B′ colour (full range, gamma-encoded like every other R′G′B′ in Segue): the edit's `background`,
/// shown outside the pictures (letterbox bars, pushed-out areas) and under the transparent parts of a still with alpha.
public struct RGBColour: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r, g, b: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8) { self.r = r; self.g = g; self.b = b }
    public static let black = RGBColour(r: 0, g: 0, b: 0)
    public static let white = RGBColour(r: 255, g: 255, b: 255)

    /// The names `parse` takes besides hexadecimal (the CSS basic colours).
    public static let names: [String: RGBColour] = [
        "black": .black, "white": .white, "gray": RGBColour(r: 128, g: 128, b: 128), "grey": RGBColour(r: 128, g: 128, b: 128),
        "silver": RGBColour(r: 192, g: 192, b: 192), "red": RGBColour(r: 255, g: 0, b: 0), "lime": RGBColour(r: 0, g: 255, b: 0),
        "green": RGBColour(r: 0, g: 128, b: 0), "blue": RGBColour(r: 0, g: 0, b: 255), "yellow": RGBColour(r: 255, g: 255, b: 0),
        "cyan": RGBColour(r: 0, g: 255, b: 255), "magenta": RGBColour(r: 255, g: 0, b: 255), "navy": RGBColour(r: 0, g: 0, b: 128),
        "maroon": RGBColour(r: 128, g: 0, b: 0), "olive": RGBColour(r: 128, g: 128, b: 0), "purple": RGBColour(r: 128, g: 0, b: 128),
        "teal": RGBColour(r: 0, g: 128, b: 128),
    ]

    /// Parses `"#rrggbb"`, `"#rgb"` (each digit doubled, as in CSS) or one of `names` (case-insensitive); nil otherwise.
    public static func parse(_ s: String) -> RGBColour? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = names[t] { return named }
        guard t.hasPrefix("#") else { return nil }
        let hex = Array(t.dropFirst())
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        let digits = hex.count == 3 ? hex.flatMap { [$0, $0] } : hex
        guard digits.count == 6 else { return nil }
        func byte(_ i: Int) -> UInt8 { UInt8(String(digits[i..<(i + 2)]), radix: 16)! }
        return RGBColour(r: byte(0), g: byte(2), b: byte(4))
    }

    /// `"#rrggbb"`.
    public var description: String { "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
    /// The channels as unorm values (`code / 255`), R′G′B′ 0…1.
    public var normalized: [Float] { [Float(r) / 255, Float(g) / 255, Float(b) / 255] }

    /// Straight-alpha "over" of one 8-bit R′G′B′A pixel onto this colour, in 8 bits:
    /// `round((c·a + bg·(255 − a)) / 255)` per channel (the Porter–Duff over operator with an opaque background).
    @inline(__always) public static func over(_ c: UInt8, _ a: UInt8, _ bg: UInt8) -> UInt8 {
        UInt8((UInt32(c) * UInt32(a) + UInt32(bg) * UInt32(255 - a) + 127) / 255)
    }
}

extension Orientation {
    /// The orientation an EXIF `Orientation` tag (TIFF/EXIF tag 274, values 1…8) asks for, as the same eight cases a
    /// display matrix reduces to (stored → displayed, centred y-down coordinates; see `Orientation`); nil for any
    /// other value. Values (CIPA DC-008 / TIFF 6.0): 1 as stored; 2 mirrored left-right; 3 turned 180°; 4 mirrored
    /// top-bottom; 5 transposed (mirrored about the top-left–bottom-right diagonal); 6 turned 90° clockwise (a phone
    /// photo taken upright, like a −90° display matrix); 7 transversed (mirrored about the other diagonal); 8 turned
    /// 90° counter-clockwise (+90°).
    public init?(exifOrientation value: Int) {
        switch value {
        case 1: self = .identity
        case 2: self.init(a: -1, b: 0, c: 0, d: 1)
        case 3: self.init(a: -1, b: 0, c: 0, d: -1)
        case 4: self.init(a: 1, b: 0, c: 0, d: -1)
        case 5: self.init(a: 0, b: 1, c: 1, d: 0)
        case 6: self.init(a: 0, b: 1, c: -1, d: 0)
        case 7: self.init(a: 0, b: -1, c: -1, d: 0)
        case 8: self.init(a: 0, b: -1, c: 1, d: 0)
        default: return nil
        }
    }

    /// What an EXIF `Orientation` value means, in words ("rotate 90° clockwise").
    public static func exifDescription(_ value: Int) -> String {
        switch value {
        case 1: return "as stored"
        case 2: return "mirror left-right"
        case 3: return "rotate 180°"
        case 4: return "mirror top-bottom"
        case 5: return "transpose (mirror left-right, rotate 90° counter-clockwise)"
        case 6: return "rotate 90° clockwise"
        case 7: return "transverse (mirror left-right, rotate 90° clockwise)"
        case 8: return "rotate 90° counter-clockwise"
        default: return "invalid"
        }
    }
}
