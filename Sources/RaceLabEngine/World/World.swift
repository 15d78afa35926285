import RaceLabLanguage

/// The whole simulated machine as one value: threads, globals, heap, main queue,
/// findings. `Engine.step` maps a world and a thread to the next world; nothing
/// else changes it, so copying a world is saving it (undo, replay, exploration).
public struct World: Hashable, Sendable {
    /// By thread ID. `addThread` adds one, with its name.
    public var threads: [ThreadState] = []
    public var globals: [Value] = []
    /// Bumped by every write to a global, so in-place enumeration can see mutation.
    public var globalVersions: [Int] = []
    public var heap: [HeapObject] = []
    /// Each heap object's header (retain count, liveness, mutex), by object ID (as
    /// long as `heap`).
    public var headers: [ObjectHeader] = []
    /// Set by a crash or a runaway thread: nothing more runs.
    public var halted = false
    public var stepCount = 0
    /// The virtual clock, in milliseconds: `Task.sleep` waits for it, and a sleeper's
    /// waking moves it on (it never moves by itself).
    public var clock: Int64 = 0
    /// The parts few steps change, behind one reference (copied when written while
    /// shared): every step copies a world, and each array costs a retain and a release.
    private var rare = RareParts()

    /// Each thread's name, by thread ID (not in `ThreadState`: see there).
    public var threadNames: [String] {
        _read { yield rare.value.threadNames }
    }
    /// How many instances of each class have been created.
    public var created: [Int] {
        _read { yield rare.value.created }
        _modify { makeRareUnique(); yield &rare.value.created }
    }
    /// How many built-in objects of each kind have been named `Lock#n`, `OperationQueue#n`
    /// or `op#n`, in the order of `Machine.builtinTypeNames`: the next one's number.
    var builtinsNamed: [Int] {
        _read { yield rare.value.builtinsNamed }
        _modify { makeRareUnique(); yield &rare.value.builtinsNamed }
    }
    public var mainQueue: [QueuedBlock] {
        _read { yield rare.value.mainQueue }
        _modify { makeRareUnique(); yield &rare.value.mainQueue }
    }
    public var nextBlockID: Int {
        _read { yield rare.value.nextBlockID }
        _modify { makeRareUnique(); yield &rare.value.nextBlockID }
    }
    public var completedBlocks: Set<Int> {
        _read { yield rare.value.completedBlocks }
        _modify { makeRareUnique(); yield &rare.value.completedBlocks }
    }
    /// The main actor, in a program that uses Swift concurrency (else nil).
    public var mainActor: ObjectID? {
        _read { yield rare.value.mainActor }
        _modify { makeRareUnique(); yield &rare.value.mainActor }
    }
    /// Operation queues in creation order.
    public var queues: [ObjectID] {
        _read { yield rare.value.queues }
        _modify { makeRareUnique(); yield &rare.value.queues }
    }
    public var findings: [Finding] {
        _read { yield rare.value.findings }
        _modify { makeRareUnique(); yield &rare.value.findings }
    }
    public var output: [String] {
        _read { yield rare.value.output }
        _modify { makeRareUnique(); yield &rare.value.output }
    }
    /// Who is inside each `critical` section, by section (as long as the highest one
    /// entered), in the order they entered.
    public var criticalInside: [[ThreadID]] {
        _read { yield rare.value.criticalInside }
        _modify { makeRareUnique(); yield &rare.value.criticalInside }
    }
    /// What each `required` block did so far, by requirement (as long as the highest
    /// one that ran). Only the checks read it, so the order of two records never
    /// matters: each only adds.
    public var requirements: [RequirementRecord] {
        _read { yield rare.value.requirements }
        _modify { makeRareUnique(); yield &rare.value.requirements }
    }

    private mutating func makeRareUnique() {
        if !isKnownUniquelyReferenced(&rare) { rare = RareParts(rare.value) }
    }

    public init() {}

    public func thread(named name: String) -> ThreadID? {
        threadNames.firstIndex(of: name)
    }

    /// Adds a thread; returns its ID.
    @discardableResult
    public mutating func addThread(name: String, frames: [Frame], isMain: Bool = false, operation: ObjectID? = nil) -> ThreadID {
        threads.append(ThreadState(frames: frames, isMain: isMain, operation: operation))
        makeRareUnique()
        rare.value.threadNames.append(name)
        return threads.count - 1
    }

    /// A value as the trace shows it: objects by their trace name, strings quoted with
    /// their control characters escaped (`"\u{1B}"`: a script's string must not move
    /// the terminal's cursor), and long values shortened so that a trace stays
    /// readable and its size linear in the steps: arrays past `Elision.elements`
    /// elements show their ends and how many are left out, strings past
    /// `Elision.characters` likewise, and arrays nested past `Elision.depth` show `[…]`.
    ///
    /// - Parameter elided: false for the whole value (every element and character, and
    ///   nesting up to `Elision.keyDepth`), as outcomes are told apart by it.
    /// A value as the program reads it: a weak reference is its object while that is
    /// alive, and nil after.
    @inline(__always)
    public func resolve(_ value: Value) -> Value {
        guard case .weak(let id) = value else { return value }
        return headers[id].isAlive ? .object(id) : .none
    }

    public func describe(_ value: Value, elided: Bool = true) -> String {
        describe(value, depth: 0, elided: elided)
    }

    /// The limits `describe` shortens values at.
    public enum Elision {
        public static let elements = 16
        public static let characters = 80
        public static let depth = 8
        /// The nesting shown even when nothing else is left out (it bounds recursion).
        public static let keyDepth = 64
    }

    private func describe(_ value: Value, depth: Int, elided: Bool) -> String {
        switch value {
        case .int(let n): return String(n)
        case .bool(let b): return String(b)
        case .string(let s): return World.quoted(s, elided: elided)
        case .none: return "nil"
        case .object(let id) where heap[id].kind == .atomic: return describe(heap[id].fields[0], depth: depth, elided: elided)
        case .object(let id): return heap[id].name
        case .array(let items):
            if items.isEmpty { return "[]" }
            if depth >= (elided ? Elision.depth : Elision.keyDepth) { return "[…]" }
            guard elided && items.count > Elision.elements else {
                return "[" + items.map { describe($0, depth: depth + 1, elided: elided) }.joined(separator: ", ") + "]"
            }
            let head = items.prefix(Elision.elements - 4).map { describe($0, depth: depth + 1, elided: true) }
            let tail = items.suffix(2).map { describe($0, depth: depth + 1, elided: true) }
            let left = items.count - head.count - tail.count
            return "[" + (head + ["… \(left) more …"] + tail).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            if entries.isEmpty { return "[:]" }
            if depth >= (elided ? Elision.depth : Elision.keyDepth) { return "[…]" }
            func entry(_ e: Value) -> String {
                "\(describe(Dictionaries.key(e), depth: depth + 1, elided: elided)): \(describe(Dictionaries.value(e), depth: depth + 1, elided: elided))"
            }
            guard elided && entries.count > Elision.elements else { return "[" + entries.map(entry).joined(separator: ", ") + "]" }
            let head = entries.prefix(Elision.elements - 4).map(entry)
            let tail = entries.suffix(2).map(entry)
            return "[" + (head + ["… \(entries.count - head.count - tail.count) more …"] + tail).joined(separator: ", ") + "]"
        case .set(let members):
            if depth >= (elided ? Elision.depth : Elision.keyDepth) { return "Set([…])" }
            return "Set(" + describe(.array(members), depth: depth, elided: elided) + ")"
        case .closure: return "a closure"
        case .weak: return describe(resolve(value), depth: depth, elided: elided)
        }
    }

    /// `"text"`, with `\n`, `\t`, `\r`, `\"`, `\\` and other control characters
    /// escaped as in Swift, and the middle of a long string left out.
    public static func quoted(_ s: String, elided: Bool = true) -> String {
        var scalars = Array(s.unicodeScalars)
        var note = ""
        if elided && scalars.count > Elision.characters {
            note = " (\(scalars.count) characters)"
            scalars = Array(scalars.prefix(Elision.characters - 20)) + ["…"] + Array(scalars.suffix(10))
        }
        var out = "\""
        for c in scalars {
            switch c {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where c.isUnsafeToPrint:
                out += "\\u{" + String(c.value, radix: 16, uppercase: true) + "}"
            default:
                out.unicodeScalars.append(c)
            }
        }
        return out + "\"" + note
    }

    /// What the values of this world weigh together (see `Value.weight`): globals, the
    /// fields of live objects, and every frame's locals and operands.
    /// - Complexity: O(slots): each value keeps its weight.
    public var weight: Int {
        var total = 0
        for value in globals { total &+= value.weight }
        for (id, object) in heap.enumerated() where headers[id].isAlive {
            for value in object.fields { total &+= value.weight }
        }
        for thread in threads {
            for frame in thread.frames {
                for value in frame.slots { total &+= value.weight }
            }
        }
        return total
    }

    /// An estimate of the bytes a world that waits in a search holds of its own: the
    /// arrays a step copies (threads and their frames, globals, the heap's objects and
    /// headers), not what it shares with the world it came from (the objects' fields
    /// and the elements of array values, unless a step changed them: a search's store
    /// counts those, in the states' encodings). What the stateful search's frontier
    /// counts against its memory budget.
    /// - Complexity: O(threads + frames).
    public var estimatedBytes: Int {
        let value = MemoryLayout<Value>.stride
        var total = 512 + globals.count * (value + 8) + headers.count * MemoryLayout<ObjectHeader>.stride
        total += heap.count * (MemoryLayout<HeapObject>.stride + 32)
        for thread in threads {
            total &+= MemoryLayout<ThreadState>.stride + 32
            for frame in thread.frames { total &+= MemoryLayout<Frame>.stride + 32 + frame.slots.count * value }
        }
        return total
    }

    /// The version of a shared variable or field, bumped by every write to it; nil
    /// for what has none (a spin that reads it is not caught).
    func version(of target: Access.Target) -> Int? {
        switch target {
        case .global(let g): return globalVersions[g]
        case .field(let id, let field) where field >= 0 && field < heap[id].fieldVersions.count:
            return heap[id].fieldVersions[field]
        default: return nil
        }
    }

    /// The version of what a `for` loop enumerates in place: a global, or a field of
    /// `object` (0 for a dead object or a missing field, as for a local).
    func version(of place: Place, object: Value?, program: Program) -> Int {
        switch place {
        case .global(let g): return globalVersions[g]
        case .field(let nameIndex):
            guard case .object(let id) = object, headers[id].isAlive, let classIndex = heap[id].classIndex,
                let field = program.classes[classIndex].fieldNames.firstIndex(of: program.names[nameIndex])
            else { return 0 }
            return heap[id].fieldVersions[field]
        case .local: return 0
        }
    }

    /// Live instances of a class.
    public func alive(classIndex: Int) -> Int {
        heap.indices.filter { heap[$0].classIndex == classIndex && headers[$0].isAlive }.count
    }
}

/// How a `required` block ran: how often, and whether any run was off its thread or
/// without one of its locks (bit i: the i-th lock it names).
public struct RequirementRecord: Hashable, Sendable {
    public var runs = 0
    /// How often a `due` statement said it was due.
    public var dues = 0
    public var offThread = false
    public var locksMissing: UInt64 = 0

    /// Whether the work was done: as often as it fell due (with a `due`), else at
    /// least once; and every time on its thread, holding its locks.
    public func isMet(counted: Bool) -> Bool {
        (counted ? runs == dues : runs > 0) && !offThread && locksMissing == 0
    }
}

/// A block sent to the main queue with `main.async` or `main.sync`.
public struct QueuedBlock: Hashable, Sendable {
    public var id: Int
    public var closure: ClosureValue
    public var sender: ThreadID
}

/// The world's rarely changed parts, in a box that worlds share until one writes.
/// Only `World` holds one, and it copies the box before writing to a shared one.
final class RareParts: Hashable, @unchecked Sendable {
    struct Value: Hashable {
        var threadNames: [String] = []
        var created: [Int] = []
        var builtinsNamed: [Int] = Array(repeating: 0, count: Machine.builtinTypeNames.count)
        var mainQueue: [QueuedBlock] = []
        var nextBlockID = 1
        var completedBlocks: Set<Int> = []
        var queues: [ObjectID] = []
        var mainActor: ObjectID?
        var findings: [Finding] = []
        var output: [String] = []
        var requirements: [RequirementRecord] = []
        var criticalInside: [[ThreadID]] = []
    }

    var value: Value

    init(_ value: Value = Value()) {
        self.value = value
    }

    static func == (a: RareParts, b: RareParts) -> Bool { a === b || a.value == b.value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

extension World {
    /// Whether the task of this handle is still running (alive, not finished).
    public func isRunningTask(_ handle: ObjectID) -> Bool {
        headers[handle].isAlive && heap[handle].taskState?.isFinished == false
    }
}
