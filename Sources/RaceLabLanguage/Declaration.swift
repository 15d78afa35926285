/// A top-level declaration of a scenario script.
public indirect enum DeclarationKind: Hashable, Sendable {
    /// `title "…"`, `story "…"`, `source "…"`, `challenge "…"`, `summary "…"`, `fails "…"`.
    case metadata(key: String, value: String)
    case `class`(ClassDeclaration)
    /// A shared (global) variable or constant.
    case global(isLet: Bool, name: String, type: TypeAnnotation?, value: Expression, storage: Storage, isolation: VariableIsolation = .inferred)
    case function(FunctionDeclaration)
    /// `thread A { … }`, started when the scenario starts; `main { … }` is the main thread.
    case thread(name: String, body: [Statement])
    /// `task A { … }`: an unstructured task started when the scenario starts, on the
    /// global concurrent executor (as `Task.detached`).
    case task(name: String, body: [Statement])
    /// `expect cond, "message"`: checked on the final state.
    case expect(condition: Expression, message: String)
    /// `always cond, "message"`: checked after every step (an invariant).
    case always(condition: Expression, message: String)
    /// `schedule story "A B B A"`.
    case schedule(name: String, steps: String)
    /// `fix mutex { … }`: declarations that replace the same-named ones.
    case fix(name: String, declarations: [Declaration])
    /// `remove thread worker` inside a fix: drops the base declaration with that key.
    case remove(what: String, name: String)
}

public struct Declaration: Hashable, Sendable {
    public var kind: DeclarationKind
    public var range: SourceRange
    /// The range of the declared name, for diagnostics.
    public var nameRange: SourceRange

    public init(_ kind: DeclarationKind, _ range: SourceRange, nameRange: SourceRange? = nil) {
        self.kind = kind
        self.range = range
        self.nameRange = nameRange ?? range
    }

    /// The name a fix uses to replace this declaration, and its kind in words.
    public var replacementKey: (name: String, what: String)? {
        switch kind {
        case .class(let c): return (c.name, "class")
        case .global(_, let name, _, _, _, _): return (name, "variable")
        case .function(let f): return (f.name, "function")
        case .thread(let name, _): return (name, "thread")
        case .task(let name, _): return (name, "task")
        case .schedule(let name, _): return ("schedule " + name, "schedule")
        case .metadata(let key, _): return ("metadata " + key, "metadata")
        case .remove(let what, let name): return (what == "schedule" ? "schedule " + name : name, what)
        case .expect, .always, .fix: return nil
        }
    }
}

public struct ClassDeclaration: Hashable, Sendable {
    public struct Field: Hashable, Sendable {
        public var isLet: Bool
        public var name: String
        public var value: Expression
        public var range: SourceRange
        public var storage: Storage
        /// False for `let numbers: [Int]`, which the class's `init` sets.
        public var hasDefault: Bool
        public init(isLet: Bool, name: String, value: Expression, range: SourceRange, storage: Storage = .plain, hasDefault: Bool = true) {
            self.isLet = isLet
            self.name = name
            self.value = value
            self.range = range
            self.storage = storage
            self.hasDefault = hasDefault
        }
    }

    /// `init(…) { … }`, `override func main() { … }` or `override func start() { … }`.
    public struct Method: Hashable, Sendable {
        public var function: FunctionDeclaration
        public var isOverride: Bool
        public var range: SourceRange
        public init(function: FunctionDeclaration, isOverride: Bool, range: SourceRange) {
            self.function = function
            self.isOverride = isOverride
            self.range = range
        }
    }

    public var name: String
    /// `@mainThreadOnly`: every use and the deinit must happen on the main thread.
    public var mainThreadOnly: Bool
    public var fields: [Field]
    public var deinitBody: [Statement]?
    /// `class Name: Operation`: the class it inherits from, where it is named.
    public var superclass: Located<String>?
    /// Its `init` and its methods, in source order (the init is named "init").
    public var methods: [Method] = []
    /// `override var isAsynchronous: Bool { true }`, where it is written.
    public var isAsynchronous: Located<Bool>?
    /// `actor Name { … }`: its fields are isolated to it, its methods run on it.
    public var isActor = false
    /// `@MainActor class Name { … }`: its fields are the main actor's, and its methods
    /// (but `init` and `nonisolated` ones) run there.
    public var isMainActor = false

    public init(name: String, mainThreadOnly: Bool, fields: [Field], deinitBody: [Statement]?) {
        self.name = name
        self.mainThreadOnly = mainThreadOnly
        self.fields = fields
        self.deinitBody = deinitBody
    }
}

/// A value and where the script writes it.
public struct Located<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var range: SourceRange
    public init(_ value: Value, at range: SourceRange) {
        self.value = value
        self.range = range
    }
}

public struct FunctionDeclaration: Hashable, Sendable {
    /// Where an async function (or an actor's method) runs.
    public enum Isolation: Hashable, Sendable {
        /// Unmarked: an actor's method runs on its actor; a function outside any actor
        /// runs on the global concurrent executor if it is async (SE-0338).
        case inferred
        /// `@MainActor func`.
        case mainActor
        /// `nonisolated func` in an actor or a `@MainActor` class: not on the actor.
        case nonisolated
        /// `nonisolated(nonsending) func f() async` (SE-0461): on its caller's actor.
        case nonsending
        /// `@concurrent func f() async` (SE-0461): always off any actor.
        case concurrent
    }

    public var name: String
    public var parameters: [String]
    public var body: [Statement]
    /// `func f() async`.
    public var isAsync = false
    /// `func f() throws`: a call is marked `try`, and an error may leave it.
    public var isThrowing = false
    public var isolation = Isolation.inferred

    public init(name: String, parameters: [String], body: [Statement]) {
        self.name = name
        self.parameters = parameters
        self.body = body
    }
}

/// Where a top-level variable is isolated, as Swift 6 sees it (`Swift6Check`).
public enum VariableIsolation: Hashable, Sendable {
    /// Unmarked: a script's top-level code is the main actor's (SE-0343).
    case inferred
    /// `@MainActor var`: the same, said out loud.
    case mainActor
    /// `nonisolated(unsafe) var`: no actor's; Swift 6 stops checking it, and its races
    /// are the programmer's (SE-0412).
    case nonisolatedUnsafe
}

/// A parsed script: its file and its declarations in source order.
public struct Script: Sendable {
    public var file: SourceFile
    public var declarations: [Declaration]

    public init(file: SourceFile, declarations: [Declaration]) {
        self.file = file
        self.declarations = declarations
    }
}

/// How a shared variable or a field is stored: plainly, or `atomic` (each read and
/// each write is one indivisible step that is never a data race, as an Objective-C
/// atomic property's getter and setter are; `x += 1` is still a read and a write).
public enum Storage: Hashable, Sendable {
    case plain, atomic
    /// `weak var`: holds an object without keeping it alive; reads nil once it is gone.
    case weak
}
