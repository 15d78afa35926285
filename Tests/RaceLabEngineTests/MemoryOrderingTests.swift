import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Memory orderings, for races (issue 29, item 9): a relaxed access orders nothing, a
/// releasing write read by an acquiring read orders what came before it, sequentially
/// consistent (the default) is both; data races on plain variables follow, the same
/// in every search. Outcomes stay sequentially consistent, and every report says so.
struct MemoryOrderingTests {
    /// The races every search reports (they must agree), as `SearchOracleTests.canonical`
    /// writes them, after checking that each search explored it to the end.
    static func races(_ source: String, role: VersionRole = .fix) throws -> Set<String> {
        let found = SearchOracleTests.answers(try compile(source), role: role)
        #expect(found.skip == nil, "\(source)")
        #expect(found.dpor == found.stateful, "DPOR \(found.dpor.map(String.init(describing:)) ?? "-")\n  stateful \(found.stateful)")
        #expect(found.none == found.stateful, "none \(found.none.map(String.init(describing:)) ?? "-")\n  stateful \(found.stateful)")
        return found.stateful.races
    }

    /// A flag published with `store` and read with `load`, in the orderings given.
    static func flag(store: String, load: String, spin: Bool = false) -> String {
        let read = spin ? "while flag.load(\(load)) == 0 { }\n    let d = data" : "if flag.load(\(load)) == 1 {\n        let d = data\n    }"
        return """
            let flag = Atomic(0)
            var data = 0
            thread A {
                data = 42
                flag.store(1\(store))
            }
            thread B {
                \(read)
            }
            """
    }

    @Test func aRelaxedFlagOrdersNothing() throws {
        // Line 4 writes data, line 9 reads it once the flag is seen: a data race, in
        // Swift's memory model as in C++'s, however the interleaving goes.
        #expect(try Self.races(Self.flag(store: ", ordering: .relaxed", load: "ordering: .relaxed")) == ["data: A write 4, B read 9"])
        // A spin on the flag (a wait here) races the same way.
        #expect(try Self.races(Self.flag(store: ", ordering: .relaxed", load: "ordering: .relaxed", spin: true)) == ["data: A write 4, B read 9"])
    }

    @Test func aReleaseReadByAnAcquireOrdersTheData() throws {
        #expect(try Self.races(Self.flag(store: ", ordering: .releasing", load: "ordering: .acquiring")).isEmpty)
        #expect(try Self.races(Self.flag(store: ", ordering: .releasing", load: "ordering: .acquiring", spin: true)).isEmpty)
        // Either side alone is not enough.
        #expect(try Self.races(Self.flag(store: ", ordering: .relaxed", load: "ordering: .acquiring")) == ["data: A write 4, B read 9"])
        #expect(try Self.races(Self.flag(store: ", ordering: .releasing", load: "ordering: .relaxed")) == ["data: A write 4, B read 9"])
        // Sequentially consistent on one side acquires or releases as needed.
        #expect(try Self.races(Self.flag(store: ", ordering: .releasing", load: "ordering: .sequentiallyConsistent")).isEmpty)
        #expect(try Self.races(Self.flag(store: "", load: "ordering: .acquiring")).isEmpty)
    }

    @Test func sequentiallyConsistentIsTheDefaultAndOrdersAsBefore() throws {
        for (store, load) in [("", ""), (", ordering: .sequentiallyConsistent", "ordering: .sequentiallyConsistent")] {
            let source = Self.flag(store: store, load: load)
            #expect(try Self.races(source).isEmpty)
            let program = try compile(source)
            #expect(program.weakOrderings.isEmpty)
            #expect(Explorer(program: program).explore().orderingNote == nil)
        }
    }

    /// A relaxed counter is still one atomic step per increment: no race on it, and the
    /// same outcomes as the sequentially consistent one.
    @Test func aRelaxedCounterCountsEveryIncrement() throws {
        let relaxed = """
            let hits = Atomic(0)
            thread A { hits.wrappingAdd(1, ordering: .relaxed); hits.wrappingAdd(1, ordering: .relaxed) }
            thread B { hits.wrappingSubtract(1, ordering: .relaxed) }
            expect hits.load(ordering: .relaxed) == 1, "every increment counts"
            """
        #expect(try Self.races(relaxed).isEmpty)
        let strong = relaxed.replacingOccurrences(of: ", ordering: .relaxed", with: "").replacingOccurrences(of: "ordering: .relaxed", with: "")
        for search in [ExploreConfig.Search.stateless, .stateful] {
            let a = SearchOracleTests.explore(try compile(relaxed), search), b = SearchOracleTests.explore(try compile(strong), search)
            #expect(a.verdict() == .proven && b.verdict() == .proven)
            #expect(a.outcomes.map { "\($0.outcome.state) \($0.interleavings)" } == b.outcomes.map { "\($0.outcome.state) \($0.interleavings)" })
        }
    }

    /// A read-modify-write continues a release sequence: C reads B's relaxed increment
    /// of A's releasing store, and so sees A's data. A plain store in its place ends the
    /// sequence, and C's read of the data races with A's write.
    static func releaseSequence(_ middle: String) -> String {
        """
        let flag = Atomic(0)
        var data = 0
        thread A {
            data = 42
            flag.store(1, ordering: .releasing)
        }
        thread B { \(middle) }
        thread C {
            if flag.load(ordering: .acquiring) == 2 {
                let d = data
            }
        }
        """
    }

    @Test func aReleaseSequenceRunsThroughReadModifyWrites() throws {
        #expect(try Self.races(Self.releaseSequence("flag.wrappingAdd(1, ordering: .relaxed)")).isEmpty)
        #expect(
            try Self.races(Self.releaseSequence("flag.compareExchange(expected: 1, desired: 2, ordering: .relaxed)")).isEmpty)
        #expect(try Self.races(Self.releaseSequence("flag.store(2, ordering: .relaxed)")) == ["data: A write 4, C read 10"])
        // B's own releasing store heads a sequence of its own, but B wrote no data.
        #expect(try Self.races(Self.releaseSequence("flag.store(2, ordering: .releasing)")) == ["data: A write 4, C read 10"])
    }

    /// A compare-exchange's orderings: `successOrdering:` for an exchange, and
    /// `failureOrdering:` for a failed one, which only loads.
    @Test func aFailedCompareExchangeOrdersAsItsFailureOrderingSays() throws {
        func source(_ orderings: String) -> String {
            """
            let flag = Atomic(0)
            var data = 0
            thread A {
                data = 42
                flag.store(1, ordering: .releasing)
            }
            thread B {
                if !flag.compareExchange(expected: 0, desired: 5, \(orderings)).exchanged {
                    let d = data
                }
            }
            """
        }
        #expect(try Self.races(source("successOrdering: .relaxed, failureOrdering: .acquiring")).isEmpty)
        #expect(try Self.races(source("successOrdering: .acquiring, failureOrdering: .relaxed")) == ["data: A write 4, B read 9"])
        // `ordering:` alone: a failed exchange takes the strongest load ordering within it.
        #expect(try Self.races(source("ordering: .acquiringAndReleasing")).isEmpty)
        #expect(try Self.races(source("ordering: .releasing")) == ["data: A write 4, B read 9"])
    }

    /// A spin lock of acquiring exchanges and releasing stores orders what it guards; with
    /// relaxed ones it does not, though no outcome changes (they are not explored).
    @Test func aSpinLockNeedsAcquireAndRelease() throws {
        func lock(_ take: String, _ give: String) -> String {
            """
            let taken = Atomic(0)
            var count = 0
            thread A {
                while !taken.compareExchange(expected: 0, desired: 1, ordering: \(take)) { }
                count += 1
                taken.store(0, ordering: \(give))
            }
            thread B {
                while !taken.compareExchange(expected: 0, desired: 1, ordering: \(take)) { }
                count += 1
                taken.store(0, ordering: \(give))
            }
            expect count == 2, "every increment counts"
            """
        }
        let unguarded: Set = ["count: A read 5, B write 10", "count: A write 5, B read 10", "count: A write 5, B write 10"]
        #expect(try Self.races(lock(".acquiring", ".releasing")).isEmpty)
        #expect(try Self.races(lock(".relaxed", ".releasing")) == unguarded)
        #expect(try Self.races(lock(".acquiring", ".relaxed")) == unguarded)
        let relaxed = Explorer(program: try compile(lock(".relaxed", ".relaxed"))).explore()
        // Every check holds (outcomes are explored as if sequentially consistent),
        // but count races: the verdict fails.
        #expect(relaxed.failingExecutions == 0 && relaxed.failsByRacesAlone && relaxed.verdict() == .fails)
        #expect(relaxed.orderingNote?.hasPrefix("this program uses .relaxed atomics; races follow the happens-before they make") == true)
    }

    @Test func theNoteNamesTheWeakerOrderingsUsed() throws {
        let cases: [(String, [MemoryOrdering])] = [
            (Self.flag(store: "", load: ""), []),
            (Self.flag(store: ", ordering: .relaxed", load: "ordering: .sequentiallyConsistent"), [.relaxed]),
            (Self.flag(store: ", ordering: .releasing", load: "ordering: .acquiring"), [.acquiring, .releasing]),
            // A failed exchange given `.acquiringAndReleasing` acquires.
            (
                "let a = Atomic(0)\nthread A { a.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing) }",
                [.acquiring, .acquiringAndReleasing]
            ),
        ]
        for (source, orderings) in cases {
            let program = try compile(source)
            #expect(program.weakOrderings == orderings, "\(source)")
            let note = Explorer(program: program).explore().orderingNote
            #expect((note != nil) == !orderings.isEmpty)
            if let note {
                #expect(note.contains(orderings.map { "." + $0.name }.joined(separator: orderings.count == 2 ? " and " : ", ")))
                #expect(note.hasSuffix("outcomes are explored as if sequentially consistent (store buffering and other weak-memory results are not explored)"))
            }
        }
    }

    @Test func orderingsAreCheckedAsSwiftChecksThem() throws {
        for (call, message) in [
            ("a.load(ordering: .releasing)", "a load cannot release: its ordering is .relaxed, .acquiring or .sequentiallyConsistent"),
            ("a.store(1, ordering: .acquiring)", "a store cannot acquire: its ordering is .relaxed, .releasing or .sequentiallyConsistent"),
            ("a.wrappingAdd(1, ordering: .strong)", "an ordering is .relaxed, .acquiring, .releasing, .acquiringAndReleasing or .sequentiallyConsistent"),
            (
                "a.compareExchange(expected: 0, desired: 1, successOrdering: .relaxed, failureOrdering: .releasing)",
                "a failed compare-exchange only loads: its failureOrdering is .relaxed, .acquiring or .sequentiallyConsistent"
            ),
            (
                "a.compareExchange(expected: 0, desired: 1, successOrdering: .relaxed)",
                "write compareExchange(expected: e, desired: d, ordering: o), or successOrdering: s, failureOrdering: f"
            ),
            ("a.load(successOrdering: .relaxed)", "'load' takes one ordering, labelled 'ordering'"),
        ] {
            let error = #expect(throws: ScriptError.self) { try compile("let a = Atomic(0)\nthread A { \(call) }") }
            #expect(error?.diagnostics.map(\.message) == [message], "\(call)")
        }
    }

    /// The race sets of every search agree on small programs of plain variables and
    /// atomics in every ordering, generated from a fixed seed (400 from another seed
    /// agreed too, when this was written).
    @Test func everySearchFindsTheSameRacesInGeneratedPrograms() throws {
        var random = SplitMix64(seed: 29_009)
        for _ in 0..<40 {
            let source = Self.generated(&random)
            let found = SearchOracleTests.answers(try compile(source), role: .fix)
            if found.skip != nil { continue }
            #expect(found.dpor == found.stateful, "\(source)\nDPOR \(found.dpor.map(String.init(describing:)) ?? "-")\nstateful \(found.stateful)")
            #expect(found.none == found.stateful, "\(source)\nnone \(found.none.map(String.init(describing:)) ?? "-")\nstateful \(found.stateful)")
        }
    }

    /// Two or three threads of two to four statements over one or two plain variables
    /// and atomics, weighted towards publishing (a write, then a store or an update)
    /// and reading what was published (a load or an exchange that guards a read).
    static func generated(_ random: inout SplitMix64) -> String {
        func pick<T>(_ items: [T]) -> T { items[random.below(items.count)] }
        let loads = ["relaxed", "acquiring", "sequentiallyConsistent"], stores = ["relaxed", "releasing", "sequentiallyConsistent"]
        let updates = MemoryOrdering.allCases.map(\.name)
        var out = "let a = Atomic(0)\nlet b = Atomic(0)\nvar x = 0\nvar y = 0\n"
        let threads = 2 + random.below(2)
        for thread in ["A", "B", "C"].prefix(threads) {
            out += "thread \(thread) {\n"
            for _ in 0..<(2 + random.below(threads == 2 ? 3 : 2)) {
                let atomic = random.below(4) == 0 ? "b" : "a", plain = random.below(4) == 0 ? "y" : "x", n = 1 + random.below(2)
                out += "    "
                switch random.below(8) {
                case 0, 1: out += "\(plain) = \(n)"
                case 2: out += "let v = \(plain)"
                case 3: out += "\(atomic).store(\(n), ordering: .\(pick(stores)))"
                case 4: out += "\(atomic).wrappingAdd(1, ordering: .\(pick(updates)))"
                case 5:
                    out += "if !\(atomic).compareExchange(expected: 0, desired: \(n), successOrdering: .\(pick(updates)), "
                    out += "failureOrdering: .\(pick(loads))).exchanged { let v = \(plain) }"
                case 6: out += "if \(atomic).load(ordering: .\(pick(loads))) >= \(n) { \(plain) = 3 }"
                default: out += "if \(atomic).load(ordering: .\(pick(loads))) >= \(n) { let v = \(plain) }"
                }
                out += "\n"
            }
            out += "}\n"
        }
        return out
    }
}
