import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// HDR clips against FFmpeg's own chain with the same curve (the issue's oracle), on a synthetic 10-bit HLG ramp,
/// HLG colour bars, a PQ ramp and the iPhone's HLG + Dolby Vision 8.4 clip; what `probe` and `--verbose` say; Dolby
/// Vision profile 5 refused.
///
/// The oracle: `zscale=t=linear:npl=100` (display light, 1 = 100 cd/m²) → `zscale=p=bt709` (primaries, in linear
/// light) → `tonemap=<curve>:desat=0:peak=10` → `zscale=t=bt709` (zimg's display-referred BT.709: the inverse
/// BT.1886 EOTF) → BT.709 limited 4:2:0. Two corrections, both written here from the standards as FFmpeg
/// expressions (`geq` on float RGB): zimg's display-referred HLG raises each component to γ = 1.2 on its own, where
/// BT.2100 Table 5 applies γ − 1 to the luminance (`hlgOOTF`; uncorrected, the oracle's colours are about 20 % more
/// saturated on the iPhone clip), and FFmpeg's `tonemap` has no BT.2390 EETF (`bt2390` supplies it).
final class HDRTests: EndToEndTestCase {
    static let hlgTags = ["-color_trc", "arib-std-b67", "-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_range", "tv"]
    static let pqTags = ["-color_trc", "smpte2084", "-color_primaries", "bt2020", "-colorspace", "bt2020nc", "-color_range", "tv"]

    /// `geq` expression of channel `c` (0 r, 1 g, 2 b): BT.2100's OOTF from zimg's per-component one. zimg gives
    /// `F = 10·E^1.2` per component (1 = 100 cd/m²); so `E = (F/10)^(1/1.2)` and BT.2100's `F = 10·E·Y_S^0.2`.
    static func hlgOOTF(_ c: Int) -> String {
        ("st(0,pow(max(r(X,Y),0)/10,1/1.2));st(1,pow(max(g(X,Y),0)/10,1/1.2));st(2,pow(max(b(X,Y),0)/10,1/1.2));"
            + "10*ld(\(c))*pow(0.2627*ld(0)+0.678*ld(1)+0.0593*ld(2),0.2)").filterEscaped
    }

    /// `geq` expression of channel `c`: the BT.2390-10 EETF from `peak` to 100 cd/m² on the largest component,
    /// all three scaled by the same factor (as `tonemap` does), with the constants of ST 2084.
    static func bt2390(_ c: String, peak: Double) -> String {
        func f(_ v: Double) -> String { String(format: "%.17g", v) }
        let m1 = f(2610.0 / 16384), m2 = f(2523.0 / 32), c1 = f(3424.0 / 4096), c2 = f(2413.0 / 128), c3 = f(2392.0 / 128)
        let pw = HDRReference.pq(peak), ml = HDRReference.pq(100) / pw, ks = 1.5 * ml - 0.5
        let (PW, ML, KS) = (f(pw), f(ml), f(ks))
        let e = [
            "st(3,max(max(r(X,Y),g(X,Y)),max(b(X,Y),1e-6)))",
            "st(4,pow(ld(3)/100,\(m1)))",
            "st(5,min(pow((\(c1)+\(c2)*ld(4))/(1+\(c3)*ld(4)),\(m2))/\(PW),1))",
            "st(6,(ld(5)-(\(KS)))/(1-(\(KS))))",
            "st(7,if(gte(ld(5),\(KS)),(2*pow(ld(6),3)-3*pow(ld(6),2)+1)*(\(KS))+(pow(ld(6),3)-2*pow(ld(6),2)+ld(6))*(1-(\(KS)))+(-2*pow(ld(6),3)+3*pow(ld(6),2))*\(ML),ld(5)))",
            "st(8,pow(ld(7)*\(PW),1/\(m2)))",
            "st(9,100*pow(max(ld(8)-\(c1),0)/(\(c2)-\(c3)*ld(8)),1/\(m1)))",
            "\(c)(X,Y)*ld(9)/ld(3)",
        ].joined(separator: ";")
        return e.filterEscaped
    }

    /// The oracle filter chain for a clip in `transfer` tone-mapped with `curve` from `peak` cd/m²; `correctOOTF: false`
    /// leaves zimg's per-component HLG OOTF in (the chain exactly as the issue writes it).
    static func oracle(_ curve: ToneMapCurve, transfer: TransferFunction, peak: Double = 1000, correctOOTF: Bool = true) -> String {
        var chain = "zscale=t=linear:npl=100,format=gbrpf32le"
        if transfer == .hlg && correctOOTF { chain += ",geq=r=\(hlgOOTF(0)):g=\(hlgOOTF(1)):b=\(hlgOOTF(2))" }
        chain += ",zscale=p=bt709"
        if curve == .bt2390 {
            chain += ",geq=r=\(bt2390("r", peak: peak)):g=\(bt2390("g", peak: peak)):b=\(bt2390("b", peak: peak))"
        } else {
            chain += ",tonemap=tonemap=\(curve.rawValue):desat=0:peak=\(peak / 100)"
        }
        return chain + ",zscale=t=bt709:m=bt709:r=tv,format=yuv420p"
    }

    /// Mean luma and mean chroma saturation √((Cb − 128)² + (Cr − 128)²) over yuv420p frames.
    func stats(_ frames: [[UInt8]], width: Int, height: Int) -> (luma: Double, saturation: Double) {
        var luma = 0.0, sat = 0.0
        let ys = width * height, cs = ys / 4
        for f in frames {
            luma += Double(f[0..<ys].reduce(0) { $0 + Int($1) }) / Double(ys)
            var s = 0.0
            for i in 0..<cs { let u = Double(f[ys + i]) - 128, v = Double(f[ys + cs + i]) - 128; s += (u * u + v * v).squareRoot() }
            sat += s / Double(cs)
        }
        return (luma / Double(frames.count), sat / Double(frames.count))
    }

    /// Renders `clip` alone (FFV1) with `curve` and returns its frames.
    func segue(_ clip: String, curve: ToneMapCurve, backend: Backend = .gpu, size: PixelSize) throws -> [[UInt8]] {
        var edit = Edit(clips: [self.clip(clip)])
        edit.output.codec = .ffv1
        edit.output.toneMap = curve
        let out = path("\(URL(fileURLWithPath: clip).lastPathComponent)-\(curve)-\(backend).mkv")
        try render(edit, to: out, backend: backend, audio: false)
        return try TestSupport.decodeFrames(out, width: size.width, height: size.height)
    }

    /// Asserts the issue's criteria: mean luma within ±5 %, mean saturation within ±15 % of the oracle (saturation only
    /// where the oracle has some colour).
    func assertClose(_ ours: [[UInt8]], _ oracle: [[UInt8]], width: Int, height: Int, label: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        let a = stats(ours, width: width, height: height), b = stats(oracle, width: width, height: height)
        let msg = String(format: "%@: mean luma %.2f vs %.2f (%.3f), saturation %.3f vs %.3f (%.3f)", label, a.luma, b.luma, a.luma / b.luma,
                         a.saturation, b.saturation, a.saturation / max(b.saturation, 1e-9))
        print(msg)
        XCTAssertEqual(a.luma / b.luma, 1, accuracy: 0.05, msg, file: file, line: line)
        if b.saturation > 1 { XCTAssertEqual(a.saturation / b.saturation, 1, accuracy: 0.15, msg, file: file, line: line) }
    }

    func testSyntheticHLGRampMatchesFFmpegsChain() throws {
        // Luma 64…940 (10-bit limited black to peak) across 256 columns, neutral chroma.
        let ramp = path("hlg-ramp.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=256x16:r=10:d=0.2,format=yuv420p10le,geq=lum=64+X*876/255:cb=512:cr=512",
                                "-c:v", "ffv1"] + HDRTests.hlgTags + [ramp])
        // FFmpeg's chains in the background while Segue renders.
        let oracles = ToneMapCurve.allCases.map { curve in
            Background { try TestSupport.decodeFrames(ramp, width: 256, height: 16, filter: HDRTests.oracle(curve, transfer: .hlg)) }
        }
        for (curve, background) in zip(ToneMapCurve.allCases, oracles) {
            let ours = try segue(ramp, curve: curve, size: PixelSize(width: 256, height: 16))
            let oracle = try background.value()
            XCTAssertEqual(ours.count, oracle.count)
            var worst = 0
            for (a, b) in zip(ours, oracle) { for i in 0..<(256 * 16) { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) } }
            print("HLG ramp, \(curve): largest luma difference \(worst)")
            XCTAssertLessThanOrEqual(worst, 3, "\(curve): the ramp's code values")
            assertClose(ours, oracle, width: 256, height: 16, label: "HLG ramp, \(curve)")
        }
        // The CPU reference too, with the default curve.
        let cpu = try segue(ramp, curve: .bt2390, backend: .cpu, size: PixelSize(width: 256, height: 16))
        let gpu = try segue(ramp, curve: .bt2390, size: PixelSize(width: 256, height: 16))
        TestSupport.assertYUVSequencesMatch(gpu, cpu, width: 256, height: 16, minPSNR: 45, label: "HLG ramp, gpu vs cpu")
    }

    func testSyntheticPQRampMatchesFFmpegsChain() throws {
        let ramp = path("pq-ramp.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=256x16:r=10:d=0.2,format=yuv420p10le,geq=lum=64+X*876/255:cb=512:cr=512",
                                "-c:v", "ffv1"] + HDRTests.pqTags + [ramp])
        let curves = [ToneMapCurve.bt2390, .hable]
        let oracles = curves.map { curve in
            Background { try TestSupport.decodeFrames(ramp, width: 256, height: 16, filter: HDRTests.oracle(curve, transfer: .pq)) }
        }
        for (curve, background) in zip(curves, oracles) {
            let ours = try segue(ramp, curve: curve, size: PixelSize(width: 256, height: 16))
            let oracle = try background.value()
            var worst = 0
            for (a, b) in zip(ours, oracle) { for i in 0..<(256 * 16) { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) } }
            print("PQ ramp, \(curve): largest luma difference \(worst)")
            XCTAssertLessThanOrEqual(worst, 3, "\(curve): the ramp's code values")
            assertClose(ours, oracle, width: 256, height: 16, label: "PQ ramp, \(curve)")
        }
    }

    func testHLGColourBarsMatchFFmpegsChain() throws {
        // SMPTE HD bars (BT.709) turned into a BT.2020 HLG signal by zscale: saturated colours, all inside BT.709.
        let bars = path("hlg-bars.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "smptehdbars=s=256x144:r=10:d=0.2",
                                "-vf", "zscale=tin=bt709:t=arib-std-b67:pin=bt709:p=bt2020:min=bt709:m=bt2020nc:rin=tv:r=tv:npl=100,format=yuv420p10le",
                                "-c:v", "ffv1"] + HDRTests.hlgTags + [bars])
        let curves = [ToneMapCurve.bt2390, .hable, .mobius]
        let oracles = curves.map { curve in
            Background { try TestSupport.decodeFrames(bars, width: 256, height: 144, filter: HDRTests.oracle(curve, transfer: .hlg)) }
        }
        for (curve, background) in zip(curves, oracles) {
            let ours = try segue(bars, curve: curve, size: PixelSize(width: 256, height: 144))
            let oracle = try background.value()
            assertClose(ours, oracle, width: 256, height: 144, label: "HLG bars, \(curve)")
            TestSupport.assertYUVSequencesMatch(ours, oracle, width: 256, height: 144, minPSNR: 30, label: "HLG bars, \(curve), vs FFmpeg")
        }
    }

    func testIPhoneHLGClipMatchesFFmpegsChain() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        let clip = "\(media)/iphone14pro_hevc10_hlg_dolbyvision_rot-90.mov"
        let size = PixelSize(width: 720, height: 1280)
        // Three output frames at 30 fps (0.107 s): the first three decoded pictures, which FFmpeg's chains (`geq` at
        // 720×1280 takes seconds a frame) see alone (`trim`). They run in the background while Segue renders.
        func ffmpeg(_ chain: String) -> Background<[[UInt8]]> {
            Background { try TestSupport.decodeFrames(clip, width: 720, height: 1280, filter: "trim=end_frame=3," + chain) }
        }
        let oracles: [ToneMapCurve: Background<[[UInt8]]>] = [.hable: ffmpeg(HDRTests.oracle(.hable, transfer: .hlg)),
                                                              .bt2390: ffmpeg(HDRTests.oracle(.bt2390, transfer: .hlg))]
        // The chain exactly as the issue writes it (zimg's per-component OOTF); and the matrix-only conversion Segue
        // did before, whose saturation was 3.0 against 8.2.
        let plainOracle = ffmpeg(HDRTests.oracle(.hable, transfer: .hlg, correctOOTF: false))
        let matrixOnlyOracle = ffmpeg("scale=in_color_matrix=bt2020:out_color_matrix=bt709:in_range=tv:out_range=tv,format=yuv420p")
        var gpu: [ToneMapCurve: [[UInt8]]] = [:]
        for curve in [ToneMapCurve.hable, .bt2390] { gpu[curve] = try segue(clip, curve: curve, size: size) }
        // The CPU reference with the default curve (the GPU's is compared with it below).
        let cpu = try segue(clip, curve: .bt2390, backend: .cpu, size: size)
        for curve in [ToneMapCurve.hable, .bt2390] {
            let ours = gpu[curve]!
            XCTAssertEqual(ours.count, 3)
            let oracle = try oracles[curve]!.value()
            XCTAssertEqual(oracle.count, 3)
            assertClose(ours, oracle, width: 720, height: 1280, label: "iPhone HLG, \(curve)")
            TestSupport.assertYUVSequencesMatch(ours, oracle, width: 720, height: 1280, minPSNR: 40, label: "iPhone HLG, \(curve), vs FFmpeg")
            if curve == .hable {
                // Against the uncorrected chain: the same luma; against the matrix-only conversion: no longer washed out.
                let plain = try plainOracle.value()
                XCTAssertEqual(plain.count, 3)
                let a = stats(ours, width: 720, height: 1280), b = stats(plain, width: 720, height: 1280)
                print(String(format: "iPhone HLG, hable, vs the uncorrected chain: luma %.2f vs %.2f, saturation %.3f vs %.3f", a.luma, b.luma, a.saturation, b.saturation))
                XCTAssertEqual(a.luma / b.luma, 1, accuracy: 0.05)
                let matrixOnly = try matrixOnlyOracle.value()
                XCTAssertEqual(matrixOnly.count, 3)
                let m = stats(matrixOnly, width: 720, height: 1280)
                print(String(format: "iPhone HLG: matrix-only saturation %.3f, tone-mapped %.3f", m.saturation, a.saturation))
                XCTAssertGreaterThan(a.saturation, 2 * m.saturation, "no longer washed out")
            }
        }
        // GPU against the CPU reference on the real clip.
        TestSupport.assertYUVSequencesMatch(gpu[.bt2390]!, cpu, width: 720, height: 1280, minPSNR: 45, label: "iPhone HLG, gpu vs cpu")
    }

    func testProbeAndVerboseSayHowHDRIsShown() throws {
        let ramp = path("hlg.mkv")
        try TestSupport.ffmpeg(["-f", "lavfi", "-i", "nullsrc=s=64x16:r=10:d=0.2,format=yuv420p10le,geq=lum=64+X*13:cb=512:cr=512",
                                "-c:v", "ffv1"] + HDRTests.hlgTags + [ramp])
        let probe = try TestSupport.run(TestSupport.segueBinary, ["probe", ramp])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertTrue(probe.text.contains("HDR (HLG), tone-mapped with bt2390 (1000 → 100 cd/m²), BT.2020 → BT.709 primaries"), probe.text)
        let hable = try TestSupport.run(TestSupport.segueBinary, ["probe", ramp, "--tone-map", "hable"])
        XCTAssertTrue(hable.text.contains("HDR (HLG), tone-mapped with hable"), hable.text)
        let verbose = try TestSupport.run(TestSupport.segueBinary, ["render", ramp, "--codec", "ffv1", "--no-audio", "--verbose",
                                                                    "--tone-map", "mobius", "-o", path("out.mkv")])
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        XCTAssertTrue(verbose.stderr.contains("clip 0 hlg.mkv: HDR (HLG), tone-mapped with mobius"), verbose.stderr)
        // An unknown curve names the option (command line) or the field (edit file).
        let bad = try TestSupport.run(TestSupport.segueBinary, ["render", ramp, "--tone-map", "aces", "-o", path("bad.mkv")])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--tone-map must be one of bt2390, hable, mobius, reinhard, clip"), bad.stderr)
        try Data(#"{"clips": [{"path": "hlg.mkv"}], "output": {"codec": "ffv1", "toneMap": "filmic"}}"#.utf8).write(to: URL(fileURLWithPath: path("e.json")))
        let badEdit = try TestSupport.run(TestSupport.segueBinary, ["render", path("e.json"), "-o", path("bad.mkv")])
        XCTAssertEqual(badEdit.status, 2)
        XCTAssertTrue(badEdit.stderr.contains("output.toneMap"), badEdit.stderr)
        // An SDR clip says nothing of HDR.
        let sdr = try cornerClip("sdr.mp4")
        XCTAssertFalse(try TestSupport.run(TestSupport.segueBinary, ["probe", sdr]).text.contains("tone-mapped"))
        guard let media = TestSupport.sharedMedia else { return }
        let iphone = try TestSupport.run(TestSupport.segueBinary, ["probe", "\(media)/iphone14pro_hevc10_hlg_dolbyvision_rot-90.mov"])
        XCTAssertTrue(iphone.text.contains("HDR (HLG), tone-mapped with bt2390"), iphone.text)
        XCTAssertTrue(iphone.text.contains("Dolby Vision profile 8.4 (level 2, RPU): shows the HLG base layer"), iphone.text)
    }

    /// A Dolby Vision profile 5 stream (the iPhone clip with its `dvvC` record rewritten to profile 5, compatibility
    /// id 0: no compatible base layer) is refused with exit status 1, naming the clip and why; `probe` still describes it.
    func testDolbyVisionProfile5IsRefused() throws {
        guard let media = TestSupport.sharedMedia else { throw XCTSkip("../shared/media is absent") }
        var data = try Data(contentsOf: URL(fileURLWithPath: "\(media)/iphone14pro_hevc10_hlg_dolbyvision_rot-90.mov"))
        let box = try XCTUnwrap(data.range(of: Data("dvvC".utf8)))
        // dv_version (2 bytes), then profile (7 bits), level (6), rpu, el, bl flags; then compatibility id (4 bits).
        XCTAssertEqual(Array(data[box.upperBound..<(box.upperBound + 5)]), [1, 0, 0x10, 0x15, 0x40], "profile 8, level 2, RPU + BL, compatibility 4")
        data.replaceSubrange(box, with: Data("dvcC".utf8))
        data[box.upperBound + 2] = 0x0A   // profile 5, level 2
        data[box.upperBound + 4] = 0x00   // compatibility id 0
        let p5 = path("dolby_vision_p5.mov")
        try data.write(to: URL(fileURLWithPath: p5))
        let probe = try TestSupport.run(TestSupport.segueBinary, ["probe", p5])
        XCTAssertEqual(probe.status, 0, probe.stderr)
        XCTAssertTrue(probe.text.contains("Dolby Vision profile 5.0 (level 2, RPU): cannot be shown"), probe.text)
        let out = path("p5.mp4")
        let r = try TestSupport.run(TestSupport.segueBinary, ["render", p5, "-o", out])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("dolby_vision_p5.mov") && r.stderr.contains("clip 0") && r.stderr.contains("profile 5")
                      && r.stderr.contains("IPTPQc2"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}

private extension String {
    /// Escaped for a filtergraph description: ',' and ';' separate filters there.
    var filterEscaped: String { replacingOccurrences(of: ",", with: "\\,").replacingOccurrences(of: ";", with: "\\;") }
}
