import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Operation subclasses (issue 32, part 1): `class Name: Operation` with stored
/// properties, an `init`, `override func main()` (or `start()`, with
/// `override var isAsynchronous`), run by a queue as a block operation is.
struct OperationSubclassTests {
    /// TN2109's AdderOperation: the numbers copied when it is made, the sum in main().
    static let adder = """
        class AdderOperation: Operation {
            let numbers: [Int]
            var total = 0
            init(numbers: [Int]) {
                self.numbers = numbers
            }
            override func main() {
                var sum = 0
                for x in numbers {
                    if isCancelled { return }
                    sum += x
                }
                total = sum
            }
        }
        var shown = 0
        let queue = OperationQueue()
        main {
            let adder = AdderOperation(numbers: [1, 2, 3])
            adder.completionBlock = {
                main.async { shown = adder.total }
            }
            queue.addOperation(adder)
        }
        expect shown == 6, "main shows the sum"
        """

    @Test func theAdderRunsOnItsQueueWithItsOwnFields() throws {
        let run = try RaceLabEngineTests.run(Self.adder)
        #expect(
            Array(lines(run).prefix(6)) == [
                "main creates AdderOperation#1",
                "main writes AdderOperation#1.numbers = [1, 2, 3]",
                "main returns from AdderOperation.init and releases AdderOperation#1",
                "main sets the completion block of operation AdderOperation#1",
                "main adds operation AdderOperation#1 to queue; operation AdderOperation#1 starts on thread AdderOperation#1",
                "AdderOperation#1 enumerates AdderOperation#1.numbers[0]: 1",
            ])
        #expect(lines(run).contains("AdderOperation#1 reads AdderOperation#1.isCancelled: false"))
        #expect(lines(run).contains("AdderOperation#1 writes AdderOperation#1.total = 6"))
        #expect(run.world.describe(run.world.globals[0], elided: false) == "6")
        #expect(run.expectations.map(\.passed) == [true])
    }

    /// Every search gives the same proof.
    @Test(arguments: [ExploreConfig.Search.stateless, .stateful])
    func theAdderIsProven(search: ExploreConfig.Search) throws {
        for reduction in search == .stateless ? [ExploreConfig.Reduction.dpor, .none] : [.dpor] {
            var config = ExploreConfig()
            config.search = search
            config.reduction = reduction
            let result = Explorer(program: try compile(Self.adder), config: config).explore()
            #expect(result.verdict() == .proven, "\(search) \(reduction)")
            #expect(result.outcomes.map(\.outcome.state) == ["shown = 6"])
            #expect(result.dataRaces.isEmpty)
        }
    }

    /// Cancelled before a queue starts it, its main() never runs; cancelled while it
    /// runs, main() sees `isCancelled` (a bare name means self's) and stops.
    @Test func cancellingStopsIt() throws {
        let before = try RaceLabEngineTests.run(
            Self.adder.replacingOccurrences(of: "    queue.addOperation(adder)\n", with: "    adder.cancel()\n    queue.addOperation(adder)\n"))
        #expect(lines(before).contains { $0.contains("AdderOperation#1 was cancelled before it started, so it finishes without running") })
        #expect(!lines(before).contains { $0.contains("reads AdderOperation#1.isCancelled") })
        let racing = Self.adder.replacingOccurrences(of: "    queue.addOperation(adder)\n", with: "    queue.addOperation(adder)\n    adder.cancel()\n")
        let result = Explorer(program: try compile(racing)).explore()
        // Cancelled before its first check it shows nothing; after its last, the sum.
        #expect(result.outcomes.map(\.outcome.state).sorted() == ["shown = 0", "shown = 6"])
    }

    /// An asynchronous subclass starts its work in start() and is finished only when
    /// that work calls finish(): what depends on it waits for the work.
    static let download = """
        class Download: Operation {
            var pages: [Int] = []
            override var isAsynchronous: Bool { true }
            override func start() {
                let disk = DispatchQueue(label: "disk")
                disk.async {
                    pages.append(1)
                    finish()
                }
            }
        }
        var counted = -1
        let queue = OperationQueue()
        main {
            let download = Download()
            let report = Operation(name: "report") { op in counted = download.pages.count }
            report.addDependency(download)
            queue.addOperation(report)
            queue.addOperation(download)
            queue.waitUntilAllOperationsAreFinished()
        }
        expect counted == 1, "the report counts the page"
        """

    @Test func anAsynchronousSubclassFinishesWhenItsWorkSaysSo() throws {
        let result = Explorer(program: try compile(Self.download)).explore()
        #expect(result.verdict() == .proven)
        #expect(result.outcomes.map(\.outcome.state) == ["counted = 1"])
        // Not asynchronous: it is finished when start() returns, before the disk writes.
        let eager = Self.download.replacingOccurrences(of: "    override var isAsynchronous: Bool { true }\n", with: "")
            .replacingOccurrences(of: "            finish()\n", with: "")
        let broken = Explorer(program: try compile(eager)).explore()
        #expect(broken.verdict() == .fails)
        #expect(broken.outcomes.map(\.outcome.state).sorted() == ["counted = 0", "counted = 1"])
    }

    /// What a subclass may and may not say, each with its message.
    @Test(arguments: [
        ("class A: NSObject {\n    var x = 0\n}", "1:10: a class may inherit only from Operation (to subclass it), not 'NSObject'"),
        (
            "class A: Operation {\n    var x = 0\n}",
            "1:10: an Operation subclass overrides main() (or start(), for one that starts its own work): 'override func main() { … }'"
        ),
        (
            "class A {\n    override func main() { }\n}",
            "2:5: a class's methods are its init and deinit; 'func main' belongs outside it (or subclass Operation to override main())"
        ),
        ("class A: Operation {\n    func main() { }\n}", "2:5: 'main()' overrides Operation's: write 'override func main()'"),
        (
            "class A: Operation {\n    override func helper() { }\n}",
            "2:5: an Operation subclass overrides main() or start(), not 'helper': write other work as a function"
        ),
        ("class A: Operation {\n    override func main(x: Int) { }\n}", "2:5: 'main()' takes no parameters"),
        ("class A {\n    let x: Int\n}", "2:9: field 'x' needs a default value ('= …'), or an init that sets it"),
        (
            "class A: Operation {\n    override var isReady: Bool { true }\n}",
            "2:18: an Operation subclass may override the property isAsynchronous, not 'isReady'"
        ),
        ("class A {\n    override var isAsynchronous: Bool { true }\n}", "2:5: only an Operation subclass has isAsynchronous"),
        ("class A: Operation {\n    override func main() { return 3 }\n}", "2:28: A.main cannot return a value"),
        ("class A {\n    var v = 0\n    init(v: Int) { self.v = v }\n}\nlet a = A(w: 3)", "5:14: A's init takes 'v:' here, not 'w:'"),
        (
            "class A {\n    let v: Int\n    init(v: Int) { self.v = v }\n}\nmain {\n    let a = A(v: 1)\n    a.v = 2\n}",
            "7:5: cannot assign to 'v': it is a 'let' field of A"
        ),
        ("thread T {\n    let a = self\n}", "2:13: 'self' is only available in a class's deinit, init or methods"),
    ])
    func whatASubclassMayNotSay(source: String, message: String) throws {
        #expect(throws: (any Error).self) { try compile(source) }
        do {
            _ = try compile(source)
        } catch let failure as ScriptError {
            let first = try #require(failure.diagnostics.first)
            #expect("\(first.range.start.line):\(first.range.start.column): \(first.message)" == message)
        }
    }

    /// A `let` field is set by the init, and only there; the init runs on the thread
    /// that makes the object, its writes steps like any other.
    @Test func anInitSetsLetFieldsAndHandsTheObjectBack() throws {
        let run = try RaceLabEngineTests.run(
            """
            class Box {
                let v: Int
                var w = 1
                init(v: Int) {
                    self.v = v
                    w = v + 1
                }
            }
            var box: Box? = nil
            main {
                box = Box(v: 4)
            }
            expect box!.v == 4 && box!.w == 5, "the init set both"
            """)
        #expect(
            lines(run) == [
                "main creates Box#1", "main writes Box#1.v = 4", "main writes Box#1.w = 5",
                "main returns from Box.init and releases Box#1", "main writes box = Box#1",
            ])
        #expect(run.expectations.map(\.passed) == [true])
    }
}
