/// What keeps growing in a state space a bound cut: the shared variables (and the
/// objects created, as "objects") whose size (an integer's magnitude, a collection's
/// count) at the search's edge (the worlds left waiting, or past the step bound) is
/// at least three more than at the start. A flag that flips or a count that comes
/// back down stays within two of where it began; a counter that counts for ever, a
/// queue nobody empties, objects made and kept, do not.
struct GrowthWatch {
    let names: [String]
    private let variables: [Int]
    private let start: [Int64]
    private var highest: [Int64]

    init(_ explorer: Explorer, _ initial: World) {
        variables = explorer.variables
        names = explorer.variables.map { explorer.engine.program.globals[$0].name } + ["objects"]
        start = Self.sizes(initial, variables)
        highest = start
    }

    /// The names that grew, in declaration order.
    var grown: [String] { names.indices.filter { highest[$0] - start[$0] >= 3 }.map { names[$0] } }

    mutating func add(_ world: World) {
        for (index, size) in Self.sizes(world, variables).enumerated() where size > highest[index] { highest[index] = size }
    }

    /// Each size, never negative (so that a difference of two cannot overflow).
    static func sizes(_ world: World, _ variables: [Int]) -> [Int64] {
        variables.map { index -> Int64 in
            switch world.globals[index] {
            case .int(let n): return n == .min ? .max : abs(n)
            case .array(let a), .dictionary(let a), .set(let a): return Int64(a.count)
            default: return 0
            }
        } + [Int64(world.created.reduce(0, &+))]
    }
}
