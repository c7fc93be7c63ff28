import Foundation
import SegueCore

/// Picture effects in the planner: the `.cube` tables read once when the edit is resolved, and each layer's effects
/// evaluated at its instant (`PictureEffect`), which both renderers apply as they are.
extension Timeline {
    /// The largest `.cube` file read: 64 MiB (a 65³ table in text is about 8 MiB).
    static let maxLUTFileBytes = 64 << 20

    /// Reads every `.cube` file the edit's `lut` effects name, once each.
    /// - Throws: `EditError` naming the effect's `path` field: the file missing, larger than `maxLUTFileBytes`, not
    ///   text, or not a table (`CubeLUTError`'s line and reason).
    static func readLUTs(_ edit: Edit) throws -> [String: CubeLUT] {
        var out: [String: CubeLUT] = [:]
        for input in edit.inputPaths where input.field.contains(".effects[") && out[input.path] == nil {
            let name = input.path.split(separator: "/").last.map(String.init) ?? input.path
            let attributes = try? FileManager.default.attributesOfItem(atPath: input.path)
            guard let size = attributes?[.size] as? NSNumber else { throw EditError(input.field, "\(input.path): no such file") }
            guard size.intValue <= maxLUTFileBytes else {
                throw EditError(input.field, "\(name) is \(size.intValue) bytes: a .cube table is read up to \(maxLUTFileBytes >> 20) MiB")
            }
            guard let data = FileManager.default.contents(atPath: input.path), let text = String(data: data, encoding: .utf8) else {
                throw EditError(input.field, "\(name) cannot be read as text (a .cube file is text)")
            }
            do { out[input.path] = try CubeLUT.parse(text, path: input.path) } catch let e as CubeLUTError {
                throw EditError(input.field, "\(name) \(e)")
            }
        }
        return out
    }

    /// Placement `p`'s picture effects at `local` seconds from its first instant, in the item's order.
    func pictureEffects(_ p: Placement, at local: MediaTime) -> [PictureEffect] {
        p.spec.pictureEffects.compactMap { effect in
            switch effect {
            case .colour(let c):
                let a = c.adjustment(at: local)
                return a.isIdentity ? nil : .colour(a)
            case .lut(let l):
                guard let table = luts[l.path] else { return nil }
                let strength = Float(min(1, max(0, l.strength.value(at: local))))
                return strength > 0 ? .lut(table, strength: strength) : nil
            case .chromaKey(let k):
                return .chromaKey(k.key(at: local))
            case .vignette(let v):
                let vignette = v.vignette(at: local)
                return vignette.amount > 0 && vignette.radius < 1 ? .vignette(vignette) : nil
            case .blur(let b):
                let f = b.filter(at: local)
                return f.isIdentity ? nil : .filter(f)
            case .sharpen(let s):
                let f = s.filter(at: local)
                return f.isIdentity ? nil : .filter(f)
            default:
                return nil
            }
        }
    }
}
