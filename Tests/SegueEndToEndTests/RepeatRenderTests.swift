import XCTest
import SegueCore
import SegueEdit
import SeguePipeline
import SegueTestSupport

/// Renders repeat inside one process (a server, a library user): the same edit must give the same bytes whatever was
/// rendered before it in the process, and the bytes a fresh `segue render` gives.
final class RepeatRenderTests: EndToEndTestCase {
    func testSameEditSameBytesAfterOtherRenders() throws {
        let a = try cornerClip("a.mp4"), b = path("b.mp4")
        try TestSupport.makeClip(b, video: "smptebars=s=96x64:r=30:d=1", audio: "sine=f=660:r=48000:d=1")
        func edit(_ w: Int, _ h: Int) -> Edit {
            var e = Edit(clips: [clip(a), clip(b, tr(.crossfade, 0.5))])
            e.renderSize = PixelSize(width: w, height: h)
            return e
        }
        for backend in [Backend.cpu, .gpu] {
            try render(edit(102, 62), to: path("first-\(backend).mp4"), backend: backend)
            try render(edit(64, 48), to: path("other-\(backend).mp4"), backend: backend)
            try render(edit(250, 142), to: path("other2-\(backend).mp4"), backend: backend)
            try render(edit(102, 62), to: path("again-\(backend).mp4"), backend: backend)
            let first = try Data(contentsOf: URL(fileURLWithPath: path("first-\(backend).mp4")))
            let again = try Data(contentsOf: URL(fileURLWithPath: path("again-\(backend).mp4")))
            XCTAssertTrue(first == again, "\(backend): the same edit rendered again in one process differs (\(first.count) vs \(again.count) bytes)")
            // And what a fresh `segue render` process writes (HeapPolicy: every allocation starts as fresh memory would).
            let cli = try TestSupport.run(TestSupport.segueBinary, ["render", a, b, "--transition", "crossfade:0.5", "--size", "102x62",
                                                                   "--backend", "\(backend)", "-o", path("cli-\(backend).mp4")])
            XCTAssertEqual(cli.status, 0, cli.stderr)
            XCTAssertTrue(try Data(contentsOf: URL(fileURLWithPath: path("cli-\(backend).mp4"))) == first,
                          "\(backend): a render in this process differs from a fresh process's")
        }
    }
}
