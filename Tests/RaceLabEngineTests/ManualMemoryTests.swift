import RaceLabLanguage
import Testing

@testable import RaceLabEngine

/// Manual reference counting (issue 32, part 2): `memory "manual"`, `retain()`,
/// `release()`, `autorelease()` and `autoreleasepool { }`; a release to zero frees at
/// once, a later use says who freed it, and an autorelease with no pool leaks.
struct ManualMemoryTests {
    /// The tutorial's question: a nonatomic setter releases the old string while a
    /// reader's getter is between reading it and retaining it.
    static let getter = """
        memory "manual"
        class MyString {
            var text = "old"
        }
        class Holder {
            var myString: MyString? = nil
        }
        let holder = Holder()
        var seen = ""
        func setString(value) {
            let old = holder.myString
            holder.myString = value.retain()
            old!.release()
        }
        func getString() -> MyString {
            return holder.myString!.retain().autorelease()
        }
        main {
            holder.myString = MyString()
            spawn reader {
                autoreleasepool {
                    let s = getString()
                    seen = s.text
                }
            }
            let fresh = MyString(text: "new")
            setString(fresh)
            fresh.release()
        }
        """

    @Test func theSettersReleaseCanFallBetweenTheReadAndTheRetain() throws {
        let run = try RaceLabEngineTests.run(Self.getter, schedule: "main main main main main main reader main main main main reader")
        #expect(
            lines(run) == [
                "main creates MyString#1", "main writes holder.myString = MyString#1", "main starts thread reader",
                "main creates MyString#2", "main reads holder.myString: MyString#1", "main retains MyString#2 (retain count 2)",
                "reader reads holder.myString: MyString#1", "main writes holder.myString = MyString#2",
                "main releases MyString#1 (retain count 0), which is deallocated", "main releases MyString#2 (retain count 1)",
                "main finishes its code",
                "reader crashes: reader used MyString#1 (calling retain()) after main had deallocated it, releasing it in setString",
            ])
        #expect(run.findings.map(\.kind) == [.crash])
    }

    @Test func everySearchFindsTheUseAfterFree() throws {
        for (search, reduction) in [(ExploreConfig.Search.stateless, ExploreConfig.Reduction.dpor), (.stateless, .none), (.stateful, .dpor)] {
            var config = ExploreConfig()
            config.search = search
            config.reduction = reduction
            let result = Explorer(program: try compile(Self.getter), config: config).explore()
            #expect(result.verdict() == .fails, "\(search) \(reduction)")
            #expect(Set(result.outcomes.map(\.outcome.state)) == ["seen = \"old\"", "seen = \"new\"", "seen = \"\""], "\(search) \(reduction)")
            #expect(result.findingKinds == [.crash], "\(search) \(reduction)")
        }
    }

    /// The pool releases what was autoreleased into it when its block ends, and a
    /// release to zero deallocates there.
    @Test func aPoolDrainsWhenItsBlockEnds() throws {
        let run = try RaceLabEngineTests.run(
            """
            memory "manual"
            class Box {
                var v = 0
            }
            var kept: Box? = nil
            main {
                autoreleasepool {
                    let b = Box()
                    kept = b.autorelease()
                    kept!.v = 1
                }
            }
            """)
        #expect(
            lines(run) == [
                "main creates Box#1", "main autoreleases Box#1: the innermost pool releases it when it is drained", "main writes kept = Box#1",
                "main reads kept: Box#1",
                "main writes Box#1.v = 1", "main drains its autorelease pool, releasing Box#1",
                "main deallocates Box#1: its retain count is 0", "main finishes its code",
            ])
    }

    /// Autoreleased with no pool in place: a leak, as the old runtime warned.
    @Test func anAutoreleaseWithNoPoolLeaks() throws {
        let run = try RaceLabEngineTests.run("memory \"manual\"\nclass Box { var v = 0 }\nthread T {\n    let b = Box().autorelease()\n}")
        #expect(run.findings.map(\.kind) == [.leak])
        #expect(
            run.findings.first?.message
                == "T autoreleased Box#1 with no pool in place: no pool will release it, so it leaks (the old runtime said 'just leaking'; wrap the thread's work in autoreleasepool { })"
        )
    }

    /// What manual memory allows, and where.
    @Test(arguments: [
        (
            "class Box { var v = 0 }\nmain {\n    let b = Box()\n    b.retain()\n}",
            "4:5: retain() is manual reference counting: write 'memory \"manual\"' at the top (under ARC, Swift retains and releases for you)"
        ),
        ("memory \"arc\"", "1:1: memory is \"manual\" or \"automatic\" (ARC, as Swift, which leaving it out means too)"),
        (
            "memory \"manual\"\nfunc f() {\n    autoreleasepool {\n        return\n    }\n}",
            "4:9: 'return' would leave the autoreleasepool block without draining it: let the block end instead"
        ),
        (
            "memory \"manual\"\nmain {\n    while true {\n        autoreleasepool {\n            break\n        }\n    }\n}",
            "5:13: 'break' would leave the autoreleasepool block without draining it: let the block end instead"
        ),
    ])
    func whatManualMemoryRefuses(source: String, message: String) throws {
        do {
            _ = try compile(source)
            Issue.record("compiled: \(source)")
        } catch let failure as ScriptError {
            let first = try #require(failure.diagnostics.first)
            #expect("\(first.range.start.line):\(first.range.start.column): \(first.message)" == message)
        }
    }

    /// Under manual memory a store counts nothing: an object nobody released lives on
    /// after every reference to it is gone (a leak no finding reports), and ARC's
    /// programs run as before.
    @Test func storesCountNothing() throws {
        let run = try RaceLabEngineTests.run("memory \"manual\"\nclass Box { var v = 0 }\nvar b: Box? = nil\nmain {\n    b = Box()\n    b = nil\n}")
        #expect(lines(run) == ["main creates Box#1", "main writes b = Box#1", "main writes b = nil"])
        #expect(run.world.headers[0].isAlive && run.world.headers[0].retainCount == 1)
    }
}
