import Foundation
import SegueCore

/// The tone-mapping curves written out from their sources in `Double`, independently of `SegueCore.ToneMap`, for
/// tests: FFmpeg 5.1's `libavfilter/vf_tonemap.c` (clip, reinhard, hable, mobius with their default parameters) and
/// the ITU-R BT.2390-10 EETF.
public enum HDRReference {
    /// `f(x)` for light `x` relative to the target's peak, with the source peak `peak` in the same units.
    public static func curve(_ curve: ToneMapCurve, _ x: Double, peak: Double, targetNits: Double = 100) -> Double {
        func hable(_ v: Double) -> Double {
            let a = 0.15, b = 0.50, c = 0.10, d = 0.20, e = 0.02, f = 0.30
            return (v * (v * a + b * c) + d * e) / (v * (v * a + b) + d * f) - e / f
        }
        switch curve {
        case .clip: return min(max(x, 0), 1)
        case .reinhard: return x / (x + 1) * (peak + 1) / peak
        case .hable: return hable(x) / hable(peak)
        case .mobius:
            let j = 0.3
            if x <= j { return x }
            let a = -j * j * (peak - 1) / (j * j - 2 * j + peak), b = (j * j - 2 * j * peak + peak) / max(peak - 1, 1e-6)
            return (b * b + 2 * b * j + j * j) / (b - a) * (x + a) / (x + b)
        case .bt2390:
            return bt2390(x * targetNits, source: peak * targetNits, target: targetNits) / targetNits
        }
    }

    /// ST 2084 inverse EOTF of `nits`.
    public static func pq(_ nits: Double) -> Double {
        let y = pow(max(nits, 0) / 10000, 2610.0 / 16384)
        return pow((3424.0 / 4096 + 2413.0 / 128 * y) / (1 + 2392.0 / 128 * y), 2523.0 / 32)
    }
    /// ST 2084 EOTF, cd/m².
    public static func pqInverse(_ e: Double) -> Double {
        let p = pow(e, 32.0 / 2523)
        return 10000 * pow(max(p - 3424.0 / 4096, 0) / (2413.0 / 128 - 2392.0 / 128 * p), 16384.0 / 2610)
    }

    /// BT.2390 EETF from `[0, lw]` to `[0, lmax]` cd/m² (black levels 0): E1 = PQ(L)/PQ(Lw), KS = 1.5·maxLum − 0.5,
    /// a Hermite spline above KS.
    public static func bt2390(_ nits: Double, source lw: Double, target lmax: Double) -> Double {
        let e1 = min(pq(nits) / pq(lw), 1), maxLum = pq(lmax) / pq(lw), ks = 1.5 * maxLum - 0.5
        var e2 = e1
        if e1 >= ks {
            let t = (e1 - ks) / (1 - ks)
            e2 = (2 * pow(t, 3) - 3 * t * t + 1) * ks + (pow(t, 3) - 2 * t * t + t) * (1 - ks) + (-2 * pow(t, 3) + 3 * t * t) * maxLum
        }
        return pqInverse(e2 * pq(lw))
    }

    /// Display light of an HLG grey at signal `e` on the 1000 cd/m² reference display (BT.2100 Table 5), cd/m².
    public static func hlgGrey(_ signal: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
        return 1000 * pow(e, 1.2)
    }

    /// The HLG signal of a grey shown at `nits` on the 1000 cd/m² reference display: the inverse OOTF
    /// (`E = (F_D/1000)^(1/1.2)` for a grey) and the OETF (BT.2100 Table 5).
    public static func hlgSignal(ofGreyNits nits: Double) -> Double {
        let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
        let e = pow(max(nits, 0) / 1000, 1 / 1.2)
        return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }

    /// A 10-bit limited-range code value of a signal 0…1: `64 + 876·v`, rounded.
    public static func code10(_ v: Double) -> Int { Int((64 + 876 * v).rounded()) }

    /// The 8-bit BT.709 limited-range luma code of an HLG grey at `signal`, tone-mapped with `curve` for a 100 cd/m²
    /// SDR display and encoded by the inverse BT.1886 EOTF.
    public static func sdrLumaOfHLGGrey(_ signal: Double, curve c: ToneMapCurve) -> Double {
        16 + 219 * pow(curve(c, hlgGrey(signal) / 100, peak: 10), 1 / 2.4)
    }
}
