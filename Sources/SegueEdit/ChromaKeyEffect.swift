import SegueCore

/// The `chromaKey` effect (`ChromaKey` at each instant): a key colour, and `similarity`, `smoothness` and `spill`, each
/// a number or keyframes (distances in Cb/Cr as FFmpeg's `chromakey` measures them, 0…1).
public struct ChromaKeyEffect: Equatable, Sendable, CustomStringConvertible {
    /// The colour keyed out (a green screen's #00b140 by default).
    public var colour = RGBColour(r: 0x00, g: 0xb1, b: 0x40)
    /// Keyed out up to this distance from the colour (default 0.1).
    public var similarity = Animated.constant(ChromaKeyEffect.defaults.similarity)
    /// Alpha ramps to 1 over this distance beyond `similarity` (default 0.05; 0 a hard key).
    public var smoothness = Animated.constant(ChromaKeyEffect.defaults.smoothness)
    /// Colours desaturated up to this distance beyond `similarity` (default 0.1; 0 none).
    public var spill = Animated.constant(ChromaKeyEffect.defaults.spill)
    public init() {}

    static let defaults = (similarity: 0.1, smoothness: 0.05, spill: 0.1)

    /// The numeric settings by their edit-file names, with their defaults.
    public var settings: [(name: String, value: Animated, neutral: Double)] {
        [("similarity", similarity, ChromaKeyEffect.defaults.similarity), ("smoothness", smoothness, ChromaKeyEffect.defaults.smoothness),
         ("spill", spill, ChromaKeyEffect.defaults.spill)]
    }

    /// The key at `t` (seconds from the item's first instant), each distance clamped to 0…1.
    public func key(at t: MediaTime) -> ChromaKey {
        func at(_ a: Animated) -> Float { Float(min(1, max(0, a.value(at: t)))) }
        return ChromaKey(colour: SIMD3(Float(colour.r), Float(colour.g), Float(colour.b)) / 255,
                         similarity: at(similarity), smoothness: at(smoothness), spill: at(spill))
    }

    /// "chroma key #00b140, similarity 0.1, smoothness 0.05, spill 0.1".
    public var description: String {
        "chroma key \(colour), " + settings.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
    }
}

extension EditFile {
    /// A `chromaKey` entry (`EditSchema.chromaKeyEffect`). Throws `EditError` naming the field: a colour that is not
    /// one, keyframes out of order.
    static func chromaKey(_ e: EditFields) throws -> ChromaKeyEffect {
        var k = ChromaKeyEffect()
        if let c = e.string("colour") {
            guard let rgb = RGBColour.parse(c) else { throw EditError(e.path("colour"), "\"\(c)\" is not a colour: \"#rrggbb\", \"#rgb\" or a name") }
            k.colour = rgb
        }
        if let v = try animated(e, "similarity") { k.similarity = v }
        if let v = try animated(e, "smoothness") { k.smoothness = v }
        if let v = try animated(e, "spill") { k.spill = v }
        return k
    }
}
