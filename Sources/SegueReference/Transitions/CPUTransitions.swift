import SegueCore

/// The transition functions of `Shaders/glsl/*.frag`, mirrored in Swift: one file per transition, named like its
/// shader, each an extension of this enum with one function `(uv, input) -> colour`.
enum CPUTransitions {
    /// A transition function: output uv (0…1, top-left origin) → colour (R′G′B′A, or the pass's values when fused).
    typealias Function = (SIMD2<Float>, TransitionInput) -> SIMD4<Float>

    /// The function of `kind`. Every case has one: a new `TransitionKind` case does not compile without its line here.
    static func function(_ kind: TransitionKind) -> Function {
        switch kind {
        case .crossfade: return crossfade
        case .push: return push
        case .wipe: return wipe
        }
    }
}

/// What a transition function sees, as in the gl-transitions contract: `progress`, `ratio`, Segue's `direction`,
/// its parameters, and the two lookups `getFromColor` / `getToColor` (uv 0…1, top-left origin).
struct TransitionInput {
    /// 0…1, GLSL `mix` semantics (0 shows only A).
    let progress: Float
    /// Render width / height.
    let ratio: Float
    /// Unit step per axis, x right, y down.
    let direction: SIMD2<Float>
    /// Render size in pixels.
    let resolution: SIMD2<Float>
    /// The kind's parameters, in the order of `TransitionTraits.parameters`.
    let parameters: [Float]
    let from: ReferenceLayer
    let to: ReferenceLayer

    @inline(__always) func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { from.color(uv) }
    @inline(__always) func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { to.color(uv) }
}
