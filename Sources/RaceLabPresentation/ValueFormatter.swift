import RaceLabEngine

/// Renders values and objects by the names the trace uses.
public struct ValueFormatter: Sendable {
    public let world: World

    public init(world: World) {
        self.world = world
    }

    public func describe(_ value: Value) -> String { world.describe(value) }

    /// Every instance of a script's classes, described (`describeObject`), in the
    /// order they were made: what a final state lists after its variables.
    public var objects: [String] {
        world.heap.indices.filter { world.heap[$0].classIndex != nil }.map(describeObject)
    }

    /// `MySingle#1 (deallocated)`, `ViewController#1 (retain count 2)`.
    public func describeObject(_ id: ObjectID) -> String {
        let name = world.heap[id].name, header = world.headers[id]
        return header.isAlive ? "\(name) (retain count \(header.retainCount))" : "\(name) (deallocated)"
    }
}
