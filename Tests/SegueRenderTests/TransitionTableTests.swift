import XCTest
import SegueCore
import SegueReference
import SegueGL
import SegueShaders
import SegueTestSupport

/// Every built-in transition, from the shared table (`TransitionTable`): it has a row, a shader that compiles and a
/// CPU function; at p = 0 it shows the outgoing clip and at p = 1 the incoming one; the GPU draws what the CPU
/// reference draws (≥ 45 dB on every plane) in each of its directions.
final class TransitionTableTests: RendererTestCase {
    let a = PlanarPictures.textured(48, 32, seed: 21)
    let b = PlanarPictures.textured(48, 32, seed: 22, colour: YCbCrColour(matrix: .bt709, range: .limited))
    let size = PixelSize(width: 48, height: 32)

    func plan(_ kind: TransitionKind?, _ direction: Transition.Direction?, _ p: Double) -> FramePlan {
        plan(kind, direction, progress: p, size: size, fromSource: a.size, toSource: b.size)
    }

    func testEveryBuiltInHasOneRowAShaderAndACPUFunction() throws {
        let rowKinds = TransitionTable.rows.map(\.kind)
        XCTAssertEqual(Set(rowKinds).count, rowKinds.count, "a transition has two rows in TransitionTable")
        for kind in TransitionKind.builtIns {
            XCTAssertTrue(rowKinds.contains(kind), "\(kind.rawValue) has no row in Tests/SegueTestSupport/TransitionTable.swift")
            XCTAssertTrue(ShaderLibrary.transitions.contains(kind.shaderStem), "\(kind.rawValue) has no Shaders/glsl/\(kind.shaderStem).frag")
            XCTAssertFalse(kind.traits.summary.isEmpty, kind.rawValue)
        }
        // No shader without its transition.
        let stems = Set(TransitionKind.builtIns.map(\.shaderStem) + ["none"])
        for stem in ShaderLibrary.transitions { XCTAssertTrue(stems.contains(stem), "Shaders/glsl/\(stem).frag belongs to no TransitionKind") }
        // Every shader compiles (prepare compiles the programs of the transitions it is given).
        let gpu = try gpuRenderer()
        for kind in TransitionKind.builtIns {
            XCTAssertNoThrow(try gpu.prepare(for: [Transition(kind: kind, duration: MediaTime(value: 1, timescale: 1))], images: [:]), kind.rawValue)
        }
    }

    /// p = 0 draws A and p = 1 draws B, exactly as a frame without a transition draws that clip (within one code),
    /// on both renderers and in every direction, unless the row names the reason its definition differs.
    func testStartsWithTheOutgoingAndEndsWithTheIncomingClip() throws {
        for r in try renderers() {
            let onlyA = try r.renderYUV420(plan(nil, nil, 0), from: a, to: nil, renderSize: size)
            let onlyB = try r.renderYUV420(plan(nil, nil, 0), from: b, to: nil, renderSize: size)
            for row in TransitionTable.rows {
                for dir in row.directions {
                    for (p, expected, exception) in [(0.0, onlyA, row.startException), (1.0, onlyB, row.endException)] where exception == nil {
                        let img = try r.renderYUV420(plan(row.kind, dir, p), from: a, to: b, renderSize: size)
                        for (name, x, y) in [("Y", img.y, expected.y), ("Cb", img.cb, expected.cb), ("Cr", img.cr, expected.cr)] {
                            let d = PlaneDifference(x, y)
                            XCTAssertLessThanOrEqual(d.maxAbsDifference, 1, "\(r.name) \(row.kind.rawValue) \(dir?.rawValue ?? "") p=\(p) \(name): \(d)")
                        }
                    }
                }
            }
        }
    }

    func testGPUMatchesCPUInEveryDirection() throws {
        let gpu = try gpuRenderer(), cpu = ReferenceRenderer()
        for row in TransitionTable.rows {
            for dir in row.directions {
                for p in [0.31, 0.68] {
                    let pl = plan(row.kind, dir, p)
                    let g = try gpu.renderYUV420(pl, from: a, to: b, renderSize: size)
                    let c = try cpu.renderYUV420(pl, from: a, to: b, renderSize: size)
                    for (name, x, y) in [("Y", c.y, g.y), ("Cb", c.cb, g.cb), ("Cr", c.cr, g.cr)] {
                        let d = PlaneDifference(x, y)
                        XCTAssertGreaterThanOrEqual(d.psnr, 45, "\(row.kind.rawValue) \(dir?.rawValue ?? "") p=\(p) \(name): \(d)")
                    }
                }
            }
        }
    }
}
