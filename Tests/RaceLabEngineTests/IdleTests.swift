import RaceLabEngine
import RaceLabLanguage
import Testing

/// A server idle in its loop, waiting for work and holding nothing, is not a
/// deadlock: the run ends idle and its checks are evaluated there. Every search
/// agrees, and blocked anywhere else is still a deadlock.
struct IdleTests {
    static func server(expecting served: Int) -> String {
        """
        let jobs = DispatchSemaphore(value: 0)
        var served = 0
        thread server {
            while true {
                jobs.wait()
                served += 1
            }
        }
        thread client { jobs.signal() }
        expect served == \(served), "every job is served"
        """
    }

    /// The three searches (DPOR, every interleaving, the stateful search).
    static func everySearch(_ source: String) throws -> [Exploration] {
        let program = try compile(source)
        var configs = [ExploreConfig(), ExploreConfig(), ExploreConfig()]
        configs[1].reduction = .none
        configs[2].search = .stateful
        return configs.map { config in
            var config = config
            config.timeLimit = nil
            return Explorer(program: program, config: config).explore()
        }
    }

    @Test func aServerWaitingForWorkEndsIdle() throws {
        let run = try run(Self.server(expecting: 1), schedule: "server client server server server server")
        #expect(run.end == .idle && run.findings.isEmpty)
        #expect(run.endSentence == "The run ended idle after 6 steps: server waits on semaphore jobs at line 5.")
        #expect(run.expectations.map(\.passed) == [true])
        for result in try Self.everySearch(Self.server(expecting: 1)) {
            #expect(result.verdict() == .proven, "\(result.search) \(result.reduction)")
            #expect(result.outcomes.map(\.outcome.end) == [.idle])
            #expect(result.outcomes.map(\.outcome.state) == ["served = 1"])
        }
    }

    /// The checks are evaluated on the idle state: work left undone fails them.
    @Test func theEndChecksAreEvaluatedWhenIdle() throws {
        for result in try Self.everySearch(Self.server(expecting: 2)) {
            #expect(result.verdict() == .fails)
            #expect(result.outcomes.map(\.outcome.failedChecks) == [[0]])
            #expect(result.outcomes.map(\.outcome.end) == [.idle])
        }
    }

    /// Blocked at a second wait of its round, holding a lock while it waits, or at
    /// the top of its loop before it has completed a round (two loops that wait for
    /// each other from the start: Downey's rendezvous with both waiting first), a
    /// thread is stuck, not resting.
    @Test func blockedAnywhereElseIsStillADeadlock() throws {
        let second = Self.server(expecting: 1).replacingOccurrences(
            of: "        served += 1", with: "        served += 1\n        never.wait()"
        ).replacingOccurrences(of: "var served = 0", with: "var served = 0\nlet never = DispatchSemaphore(value: 0)")
        let holding = """
            let jobs = DispatchSemaphore(value: 0)
            let lock = Lock()
            thread server {
                while true {
                    synchronized(lock) { jobs.wait() }
                }
            }
            """
        let rendezvous = """
            let aArrived = DispatchSemaphore(value: 0)
            let bArrived = DispatchSemaphore(value: 0)
            thread A { while true {
                bArrived.wait()
                aArrived.signal() } }
            thread B { while true {
                aArrived.wait()
                bArrived.signal() } }
            """
        for source in [second, holding, rendezvous] {
            for result in try Self.everySearch(source) {
                #expect(result.verdict() == .fails, "\(source.prefix(40))")
                #expect(result.outcomes.allSatisfy { $0.outcome.end == .deadlocked })
            }
        }
        let run = try run(holding)
        #expect(run.end == .deadlocked)
        #expect(run.findings.map(\.message) == ["every thread left is blocked: server waits on semaphore jobs (count 0); no other thread can run to signal it"])
    }

    /// A server that waits on a condition: its first wait comes after it takes the
    /// lock, and it rests there (the lock let go) once it has served.
    @Test func aConditionServerRestsAtItsFirstWait() throws {
        let source = """
            let c = NSCondition()
            var jobs = 0
            var served = 0
            thread server { while true {
                c.lock()
                while jobs == 0 { c.wait() }
                jobs -= 1
                served += 1
                c.unlock() } }
            thread client { c.lock(); jobs += 1; c.signal(); c.unlock() }
            expect served == 1, "served"
            """
        let result = try explore(source)
        #expect(result.verdict() == .proven && result.outcomes.map(\.outcome.end) == [.idle])
    }

    func explore(_ source: String) throws -> Exploration {
        var config = ExploreConfig.automatic
        config.timeLimit = nil
        return Explorer(program: try compile(source), config: config).explore()
    }

    /// `idle` marks another place a thread may rest for ever.
    @Test func anIdleStatementMarksARestingPlace() throws {
        let unmarked = "let done = DispatchSemaphore(value: 0)\nvar x = 0\nthread worker {\n x = 1\n done.wait()\n}"
        let marked = unmarked.replacingOccurrences(of: " done.wait()", with: " idle\n done.wait()")
        #expect(try run(unmarked).end == .deadlocked)
        let run = try run(marked)
        #expect(run.end == .idle && run.endSentence == "The run ended idle after 2 steps: worker waits on semaphore done at line 6.")
        for result in try Self.everySearch(marked) {
            #expect(result.verdict() == .proven && result.outcomes.map(\.outcome.end) == [.idle])
        }
    }

    /// Downey's sleeping barber, the book's solution: every customer has a cut or
    /// leaves, the barber sleeps waiting for the next one. Proven; and the check of the
    /// free chair made outside the mutex lets two customers sit in one chair.
    @Test func theSleepingBarberIsProvenAndTheCheckOutsideTheMutexOverflows() throws {
        var config = ExploreConfig()
        config.search = .stateful
        config.timeLimit = nil
        let scenario = try Scenario.load(name: "barber", file: SourceFile(name: "barber.race", text: Self.barber))
        let solution = Explorer(program: scenario.versions[0].program, config: config).explore()
        #expect(solution.verdict() == .proven)
        #expect(
            solution.outcomes.map(\.outcome.state).sorted() == [
                "customers = 0, cuts = 1, balked = 2", "customers = 0, cuts = 2, balked = 1", "customers = 0, cuts = 3, balked = 0",
            ])
        #expect(solution.outcomes.allSatisfy { $0.outcome.end == .idle })
        let outside = Explorer(program: try #require(scenario.version("outside")).program, config: config).explore()
        #expect(outside.verdict() == .fails)
        #expect(outside.findingKinds == [.invariant])
    }

    static let barber = """
        let n = 1
        var customers = 0
        let mutex = DispatchSemaphore(value: 1)
        let customer = DispatchSemaphore(value: 0)
        let barber = DispatchSemaphore(value: 0)
        let customerDone = DispatchSemaphore(value: 0)
        let barberDone = DispatchSemaphore(value: 0)
        var cuts = 0
        var balked = 0
        func visit() {
            mutex.wait()
            if customers == n {
                balked += 1
                mutex.signal()
                return
            }
            customers += 1
            mutex.signal()
            customer.signal()
            barber.wait()
            customerDone.signal()
            barberDone.wait()
            mutex.wait()
            customers -= 1
            mutex.signal()
        }
        thread C1 { visit() }
        thread C2 { visit() }
        thread C3 { visit() }
        thread B {
            while true {
                customer.wait()
                barber.signal()
                cuts += 1
                customerDone.wait()
                barberDone.signal()
            }
        }
        always customers <= n, "the waiting room never overflows"
        expect cuts + balked == 3, "every customer has a cut or leaves"
        fix outside {
            variant "the check of a free chair outside the mutex"
            func visit() {
                if customers == n {
                    mutex.wait()
                    balked += 1
                    mutex.signal()
                    return
                }
                mutex.wait()
                customers += 1
                mutex.signal()
                customer.signal()
                barber.wait()
                customerDone.signal()
                barberDone.wait()
                mutex.wait()
                customers -= 1
                mutex.signal()
            }
        }
        """
}
