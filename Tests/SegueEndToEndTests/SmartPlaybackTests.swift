import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// A smart render played and sought in headless Chromium (issue 33): the file whose `avcC` holds the copied stream's
/// SPS/PPS (id 0) and the encoder's (id 1) plays to its end in the browser, and a seek to each side of every seam shows
/// the frame FFmpeg decodes there.
final class SmartPlaybackTests: EndToEndTestCase {
    static let fps = 25, width = 320, height = 180

    /// The page: plays the video muted to its end in real time, counting the frames presented
    /// (`requestVideoFrameCallback`, each frame's index from its media time) and the decoder's counts
    /// (`getVideoPlaybackQuality`), then seeks to the middle of each of `frames`, draws it on a canvas and returns its
    /// pixels (RGB, base64).
    func page(video: String, frames: [Int]) -> String {
        let (fps, w, h) = (SmartPlaybackTests.fps, SmartPlaybackTests.width, SmartPlaybackTests.height)
        return #"""
        <!doctype html><html><body><video id="v" muted playsinline></video><canvas id="c" width="\#(w)" height="\#(h)"></canvas>
        <script>
        const FPS = \#(fps), W = \#(w), H = \#(h), SEEKS = [\#(frames.map(String.init).joined(separator: ","))];
        const v = document.getElementById('v'), g = document.getElementById('c').getContext('2d', {willReadFrequently: true});
        const once = (name) => new Promise(r => v.addEventListener(name, r, {once: true}));
        const b64 = (b) => { let s = ''; for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000)); return btoa(s); };
        window.result = (async () => {
          const out = {errors: [], played: []};
          v.addEventListener('error', () => out.errors.push(String(v.error && v.error.message)));
          let playing = true;
          const tick = (now, meta) => { if (!playing) return; out.played.push(Math.round(meta.mediaTime * FPS)); out.presentedFrames = meta.presentedFrames; v.requestVideoFrameCallback(tick); };
          v.requestVideoFrameCallback(tick);
          const ended = once('ended'), meta = once('loadedmetadata');
          v.muted = true; v.autoplay = true; v.src = '\#(video)';
          await meta;
          out.duration = v.duration; out.width = v.videoWidth; out.height = v.videoHeight;
          out.ended = await Promise.race([ended.then(() => true), new Promise(r => setTimeout(() => r(false), 15000))]);
          playing = false;
          out.endTime = v.currentTime;
          const q = v.getVideoPlaybackQuality();
          out.totalVideoFrames = q.totalVideoFrames; out.droppedVideoFrames = q.droppedVideoFrames;
          out.seeks = [];
          for (const n of SEEKS) {
            const seeked = once('seeked');
            v.currentTime = (n + 0.5) / FPS;
            await seeked;
            await new Promise(r => { v.requestVideoFrameCallback(r); setTimeout(r, 500); });
            g.drawImage(v, 0, 0, W, H);
            const d = g.getImageData(0, 0, W, H).data, rgb = new Uint8Array(W * H * 3);
            for (let i = 0, j = 0; i < d.length; i += 4) { rgb[j++] = d[i]; rgb[j++] = d[i + 1]; rgb[j++] = d[i + 2]; }
            out.seeks.push({frame: n, time: v.currentTime, rgb: b64(rgb)});
          }
          return out;
        })();
        </script></body></html>
        """#
    }

    /// Mean absolute difference of two RGB pictures (0–255).
    func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        var sum = 0
        for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
        return Double(sum) / Double(a.count)
    }

    /// The smart render of SmartRenderTests' edit (x264 High with B-pyramids; frames 20–45 and 71–95 copied, the rest
    /// encoded, seams before frames 20, 46, 56 and 71) in headless Chromium: it plays to its end (`ended`,
    /// currentTime = duration = 3.84 s, all 96 frames decoded, the frames presented strictly in order from 0 to at
    /// least 90, at least half of them, some of every stretch of 10 frames or more), and the frame shown after a seek
    /// to the first and last frame and to each side of every seam is the frame FFmpeg decodes there: mean absolute RGB
    /// difference under 3 (of 255), and under half its difference to either neighbouring frame.
    func testSmartRenderPlaysAndSeeksInChromium() throws {
        _ = try chromium()
        let src = try smartSource("high.mp4", ["-profile:v", "high"])
        let edit = smartCutsEdit(src)
        let plan = try SmartPlan.make(try RenderJob.resolve(edit))
        XCTAssertEqual(plan.copiedFrames, 51)
        var o = RenderOptions()
        o.backend = .cpu
        let result = try RenderJob.render(edit, to: path("smart.mp4"), options: o)
        XCTAssertEqual(result.frames, 96)
        let seams = plan.stretches.dropFirst().map { Int($0.frames.lowerBound) }
        let frames = Array(Set(seams.flatMap { [$0 - 1, $0] } + [0, 95])).sorted()
        XCTAssertEqual(frames, [0, 19, 20, 45, 46, 55, 56, 70, 71, 95])
        try page(video: "smart.mp4", frames: frames).write(toFile: path("page.html"), atomically: true, encoding: .utf8)

        let r = try chromiumResult(page: path("page.html"), timeout: 40)
        XCTAssertEqual(r["errors"] as? [String], [])
        XCTAssertEqual(r["width"] as? Int, 320)
        XCTAssertEqual(r["height"] as? Int, 180)
        let duration = try XCTUnwrap(r["duration"] as? Double)
        XCTAssertEqual(duration, 3.84, accuracy: 0.001)
        XCTAssertEqual(r["ended"] as? Bool, true, "playback reached the end")
        XCTAssertEqual(try XCTUnwrap(r["endTime"] as? Double), duration, accuracy: 0.001)
        XCTAssertEqual(r["totalVideoFrames"] as? Int, 96, "frames decoded in playback")
        let played = try XCTUnwrap(r["played"] as? [Int])
        XCTAssertEqual(played, played.sorted(), "frames presented in order")
        XCTAssertEqual(Set(played).count, played.count, "no frame presented twice")
        XCTAssertEqual(played.first, 0)
        XCTAssertGreaterThanOrEqual(played.last ?? 0, 90)
        XCTAssertGreaterThanOrEqual(played.count, 48, "frames presented in real time")
        for s in plan.stretches where s.frames.count >= 10 {
            XCTAssertTrue(played.contains { s.frames.contains(Int64($0)) }, "a frame of stretch \(s.frames) presented")
        }
        print("Chromium played \(played.count) of 96 frames (dropped \(r["droppedVideoFrames"] ?? "?")), missing: \(Set(0..<96).subtracting(played).sorted())")

        let reference = try TestSupport.decodeFrames(path("smart.mp4"), width: 320, height: 180, pixFmt: "rgb24",
                                                     filter: "scale=in_color_matrix=bt709:in_range=tv:out_range=pc")
        XCTAssertEqual(reference.count, 96)
        let seeks = try XCTUnwrap(r["seeks"] as? [[String: Any]])
        XCTAssertEqual(seeks.compactMap { $0["frame"] as? Int }, frames)
        for s in seeks {
            let n = try XCTUnwrap(s["frame"] as? Int)
            let shown = [UInt8](try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(s["rgb"] as? String))))
            XCTAssertEqual(shown.count, 320 * 180 * 3)
            let same = meanAbsoluteDifference(shown, reference[n])
            let neighbours = [n - 1, n + 1].filter { reference.indices.contains($0) }.map { meanAbsoluteDifference(shown, reference[$0]) }
            print("seek to frame \(n): \(String(format: "%.2f", same)) from FFmpeg's frame, neighbours \(neighbours.map { String(format: "%.2f", $0) })")
            XCTAssertLessThan(same, 3, "frame \(n) after a seek")
            XCTAssertLessThan(same, 0.5 * neighbours.min()!, "frame \(n) after a seek, not a neighbour")
        }
    }
}
