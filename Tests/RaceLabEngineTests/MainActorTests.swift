import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// The main actor beyond main's own code (issue 33): `@MainActor` classes, calls into
/// the main actor from elsewhere, `MainActor.run { }`, and how Swift 6 sees `@MainActor`
/// and `nonisolated(unsafe)` top-level variables.
struct MainActorTests {
    static let model = """
        @MainActor class Model {
            var total = 0
            func add(n) {
                total += n
            }
            func load() async -> Int {
                let v = await fetch()
                total += v
                return total
            }
        }
        func fetch() async -> Int {
            return 10
        }
        let model = Model()
        task A {
            await model.add(1)
            let seen = await model.total
            let loaded = await model.load()
        }
        main {
            model.add(2)
        }
        expect model.total == 13, "every addition lands"
        """

    /// A `@MainActor` class's methods run on the main actor: a task hops there and
    /// back for each, and main calls them as its own code.
    @Test func aMainActorClassRunsItsMethodsOnTheMainActor() throws {
        let run = try RaceLabEngineTests.run(Self.model, schedule: "A main main main A A A A A A A A A A A A A A")
        #expect(
            lines(run) == [
                "A calls Model.add: enqueues on MainActor, which main holds: waits in its mailbox",
                "main reads model.total: 0",
                "main writes model.total = 2",
                "main finishes its code; leaves MainActor, which goes to A, first in its mailbox",
                "A resumes: runs on MainActor: its turn",
                "A reads model.total: 2",
                "A writes model.total = 3",
                "A returns from Model.add: leaves MainActor; runs on the global concurrent executor",
                "A hops to MainActor to read its state: runs on MainActor",
                "A reads model.total: 3",
                "A hops back: leaves MainActor; runs on the global concurrent executor",
                "A calls Model.load: runs on MainActor",
                "A calls fetch: leaves MainActor; runs on the global concurrent executor",
                "A returns from fetch: runs on MainActor",
                "A reads model.total: 3",
                "A writes model.total = 13",
                "A reads model.total: 13",
                "A returns from Model.load: leaves MainActor; runs on the global concurrent executor",
                "A finishes",
            ])
        try ConcurrencyTests.agree(Self.model, ["model.total = 13: 4"])
    }

    /// `MainActor.run`: a hop to the main actor, the closure in one go, its value.
    @Test func mainActorRunRunsItsClosureThereAndReturnsItsValue() throws {
        let source = """
            var shown = 0
            var got = 0
            task A {
                let v = await MainActor.run {
                    shown += 1
                    return shown * 10
                }
                got = v
            }
            main {
                shown = 5
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "main main A A A A A A A")
        #expect(
            lines(run) == [
                "main writes shown = 5", "main finishes its code; leaves MainActor",
                "A hops to MainActor to run MainActor.run's closure: runs on MainActor",
                "A reads shown: 5",
                "A writes shown = 6",
                "A reads shown: 6",
                "A hops back: leaves MainActor; runs on the global concurrent executor",
                "A writes got = 60",
                "A finishes",
            ])
        // Main holds the main actor until its code ends: the closure always runs after.
        try ConcurrencyTests.agree(source, ["shown = 6, got = 60: 3"])
    }

    /// `MainActor.run`'s closure runs in the task, so it may ask the task's flag.
    @Test func mainActorRunsClosureAsksItsTasksFlag() throws {
        let source = """
            var seen = false
            task A {
                let t = Task {
                    await Task.yield()
                    seen = await MainActor.run {
                        return Task.isCancelled
                    }
                }
                t.cancel()
            }
            """
        try ConcurrencyTests.agree(source, ["seen = false: 10", "seen = true: 18"])
    }

    /// Reading a `@MainActor` class's state from a task is a hop, as calling its
    /// method is: a step of its own, so another task may reach the mailbox first.
    @Test func readingAMainActorClassesStateEnqueuesInAStepOfItsOwn() throws {
        let source = """
            @MainActor class Model {
                var total = 0
                func add() { total += 1 }
            }
            let model = Model()
            var got = 0
            task T {
                got = await model.total
            }
            task U {
                await model.add()
            }
            main {
                model.add()
            }
            """
        try ConcurrencyTests.agree(source, ["got = 1, model.total = 2: 441", "got = 2, model.total = 2: 150"])
    }

    /// A `nonisolated` method of a `@MainActor` class is called as a function is:
    /// from a thread, from a task (awaited when async), from main, and on self.
    @Test func aNonisolatedMethodIsCalledFromAnywhere() throws {
        let source = """
            @MainActor class Model {
                var total = 0
                nonisolated func label() -> String {
                    return "model"
                }
                nonisolated func fetch() async -> Int {
                    return 7
                }
                func both() -> String {
                    return label() + self.label()
                }
            }
            let model = Model()
            var a = ""
            var b = 0
            var c = ""
            thread T {
                a = model.label()
            }
            task U {
                b = await model.fetch()
            }
            main {
                c = model.both()
            }
            """
        try ConcurrencyTests.agree(source, ["a = \"model\", b = 7, c = \"modelmodel\", model.total = 0: 30"])
    }

    /// Swift's rules, as compile errors: the main actor's functions, methods and
    /// state are awaited off it, and refused where code cannot suspend; its closure
    /// for `MainActor.run` cannot await.
    @Test(arguments: [
        (
            "@MainActor func bump() {\n}\ntask A {\n    bump()\n}",
            "4:5: function 'bump' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "@MainActor func bump() {\n}\nthread T {\n    bump()\n}",
            "4:5: function 'bump' is the main actor's, and T (a thread of its own) is not on it and cannot suspend (Swift 6: main actor-isolated function 'bump' in a synchronous nonisolated context); hand the work to the main thread: DispatchQueue.main.async { … }"
        ),
        (
            "@MainActor class M {\n    var n = 0\n    func add() {\n        n += 1\n    }\n}\nlet m = M()\nfunc helper() {\n    m.add()\n}",
            "9:5: method 'add' is the main actor's, and function helper (not @MainActor) is not on it and cannot suspend (Swift 6: main actor-isolated method 'add' in a synchronous nonisolated context); mark the function @MainActor, or make it async and 'await' it"
        ),
        (
            "@MainActor class M {\n    var n = 0\n}\nlet m = M()\ntask A {\n    let x = m.n\n}",
            "6:13: property 'n' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "@MainActor class M {\n    var n = 0\n}\nlet m = M()\ntask A {\n    m.n = 1\n}",
            "6:5: cannot change 'n' from task A (off the main actor): M is @MainActor, so its state changes only on the main actor; call one of its methods with 'await', or use 'await MainActor.run { … }'"
        ),
        (
            "task A {\n    await MainActor.run {\n        await Task.yield()\n    }\n}",
            "3:9: 'await' in MainActor.run's closure, which is synchronous: it runs on the main actor in one go; await before it or after it"
        ),
        (
            "func risky() throws -> Int {\n    throw CancellationError()\n}\ntask A {\n    let v = try await MainActor.run {\n        return try risky()\n    }\n}",
            "6:16: an error that 'try' passes on in MainActor.run's closure is not handled: catch it inside the closure with do { … } catch { … } (here an error may not leave MainActor.run's closure)"
        ),
        (
            "@MainActor func bump() {\n}\nlet (s, c) = AsyncStream.makeStream(of: Int.self)\nmain {\n    c.onTermination = { t in\n        bump()\n    }\n}",
            "6:9: function 'bump' is the main actor's, and the onTermination handler (a @Sendable closure, off the main actor) is not on it and cannot suspend (Swift 6: main actor-isolated function 'bump' in a synchronous nonisolated context); hand the work to the main thread: DispatchQueue.main.async { … }"
        ),
        (
            "@MainActor class M {\n    func add() {\n    }\n    nonisolated func kick() {\n        add()\n    }\n}",
            "5:9: method 'add' is the main actor's, and function M.kick (not @MainActor) is not on it and cannot suspend (Swift 6: main actor-isolated method 'add' in a synchronous nonisolated context); mark the function @MainActor, or make it async and 'await' it"
        ),
        (
            "@MainActor class M {\n    func add() {\n    }\n    nonisolated func kick() {\n        self.add()\n    }\n}",
            "5:9: method 'add' is the main actor's, and function M.kick (not @MainActor) is not on it and cannot suspend (Swift 6: main actor-isolated method 'add' in a synchronous nonisolated context); mark the function @MainActor, or make it async and 'await' it"
        ),
        (
            "@MainActor class M {\n    func add() {\n    }\n    deinit {\n        self.add()\n    }\n}",
            "5:9: method 'add' is the main actor's, and function M.deinit (not @MainActor) is not on it and cannot suspend (Swift 6: main actor-isolated method 'add' in a synchronous nonisolated context); a deinit runs where the last reference goes and cannot wait: do the work before"
        ),
        (
            "actor A {\n    func load() async {\n    }\n    func kick() {\n        load()\n    }\n}",
            "5:9: a call to async method 'load' may suspend: write 'await' before it (Swift: expression is 'async' but is not marked with 'await')"
        ),
        (
            "func f() async {\n}\ntask A {\n    await MainActor.run {\n        f()\n    }\n}",
            "5:9: a call to async function 'f' may suspend, and MainActor.run's closure is synchronous: it runs on the main actor in one go; await before it or after it"
        ),
        (
            "let (s, c) = AsyncStream.makeStream(of: Int.self)\ntask A {\n    await MainActor.run {\n        for await v in s {\n        }\n    }\n}",
            "4:9: 'for await' in MainActor.run's closure, which is synchronous: it runs on the main actor in one go; do it before or after"
        ),
        ("@MainActor thread T {\n}", "1:12: '@MainActor' must come before a func, a class or a top-level var, found 'thread'"),
        ("nonisolated(safe) var x = 0", "1:13: a top-level variable may be 'nonisolated(unsafe)', found 'safe'"),
    ])
    func theMainActorIsReachedOnlyAsSwiftAllows(source: String, message: String) {
        #expect(firstDiagnostic(source) == message)
    }

    /// Where a field's name is another class's too, the compiler cannot tell: the
    /// machine refuses the touch off the main actor at run time.
    @Test func aMainActorClassesStateIsRefusedOffTheMainActorAtRunTime() throws {
        let source = """
            @MainActor class Model {
                var total = 0
            }
            class Box {
                var total = 0
            }
            let model = Model()
            task A {
                let t = model.total
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "A")
        #expect(
            lines(run) == [
                "A stops with a runtime error: model.total is the main actor's (its class is @MainActor), and A is off the main actor: read it with 'await model.total' or change it in one of its methods"
            ])
    }

    /// Main's thread is off the main actor while it runs a nonisolated async
    /// function: the state is refused there too, as anywhere off the main actor.
    @Test func mainsThreadOffTheMainActorIsRefusedTheState() throws {
        let source = """
            class Box {
                var total = 0
            }
            @MainActor class Model {
                var total = 0
            }
            func peek(m: Model) async -> Int {
                return m.total
            }
            let model = Model()
            var got = 0
            main {
                got = await peek(m: model)
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "main main")
        #expect(
            lines(run) == [
                "main calls peek: leaves MainActor; runs on the global concurrent executor",
                "main stops with a runtime error: model.total is the main actor's (its class is @MainActor), and main is off the main actor: read it with 'await model.total' or change it in one of its methods",
            ])
    }

    /// A method named as a built-in one (`cancel`) is told apart only at run time:
    /// a thread cannot wait for the main actor (or any actor) to run it.
    @Test func aThreadCannotWaitForTheMainActor() throws {
        let source = """
            @MainActor class Model {
                var total = 0
                func cancel() {
                    total += 1
                }
            }
            let model = Model()
            thread T {
                model.cancel()
            }
            main {
                model.cancel()
            }
            """
        let run = try RaceLabEngineTests.run(source, schedule: "T")
        #expect(
            lines(run) == [
                "T stops with a runtime error: T is a thread, not a task, so it cannot wait for MainActor to run Model.cancel (Swift 6: main actor-isolated method in a synchronous nonisolated context)"
            ])
    }

    /// Swift 6's static line: an unmarked or `@MainActor` top-level `var` used off the
    /// main actor is rejected, a `nonisolated(unsafe)` one is not checked (and still
    /// races); a `@MainActor` class's instance is Sendable, a plain class's is not.
    @Test func swift6ChecksWhatItsMarksSay() throws {
        let source = """
            var plain = 0
            @MainActor var marked = 0
            nonisolated(unsafe) var unchecked = 0
            @MainActor class Model {
                var n = 0
            }
            class Box {
                var n = 0
            }
            let model = Model()
            let box = Box()
            task A {
                plain += 1
                marked += 1
                unchecked += 1
                let m = model
                let b = box
            }
            main {
                unchecked += 1
            }
            """
        let program = try compile(source)
        #expect(
            program.swift6Rejections == [
                "var 'plain' is the main actor's, and task A (off the main actor) uses it (line 13)",
                "var 'marked' is the main actor's, and task A (off the main actor) uses it (line 14)",
                "let 'box' holds a Box, which is not Sendable, and task A (off the main actor) uses it (line 17)",
            ])
        let races = try ConcurrencyTests.explore(source, .stateless, .dpor).dataRaces.map(\.target)
        #expect(Set(races) == ["unchecked"])
        // A `@MainActor` class's deinit is nonisolated, as Swift's.
        #expect(
            try compile("var log = 0\n@MainActor class M {\n    deinit {\n        log += 1\n    }\n}\ntask A {\n    let m = M()\n}").swift6Rejections == [
                "var 'log' is the main actor's, and function M.deinit (not @MainActor) uses it (line 4)"
            ])
        // Its mark may stand on a line of its own, as `@MainActor` may.
        #expect(
            try compile("nonisolated(unsafe)\nvar x = 0\n@MainActor\nvar y = 0\ntask A {\n    x += 1\n    y += 1\n}").swift6Rejections == [
                "var 'y' is the main actor's, and task A (off the main actor) uses it (line 7)"
            ])
        // So may it stand before a weak variable.
        let weak =
            "class B {\n    var v = 0\n}\n@MainActor weak var c: B? = nil\nnonisolated(unsafe) weak var d: B? = nil\ntask A {\n    c = nil\n    d = nil\n}"
        #expect(try compile(weak).swift6Rejections == ["var 'c' is the main actor's, and task A (off the main actor) uses it (line 7)"])
    }

    /// An outcome shows a `@MainActor` instance's fields in a program of threads too.
    @Test func outcomesShowMainActorStateWithoutTasks() throws {
        let source = "@MainActor class Model {\n    var hits = 0\n}\nlet m = Model()\nvar z = 0\nthread A {\n    z = 1\n}\nmain {\n    m.hits = 2\n}"
        let exploration = try ConcurrencyTests.explore(source, .stateless, .dpor)
        #expect(exploration.outcomes.map(\.outcome.state) == ["z = 1, m.hits = 2"])
    }
}
