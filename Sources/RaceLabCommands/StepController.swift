import RaceLabEngine
import RaceLabLanguage
import RaceLabPresentation

/// The step mode's logic, without any terminal: a command in, a reaction out. The
/// terminal driver and the line-by-line driver both feed it; the tests drive it directly.
struct StepController {
    /// What the person asked for.
    enum Command: Equatable {
        /// Run the thread at this index (the key shown above its column, minus one).
        case thread(Int)
        case enter, undo, restart, explain, schedule, random, hint, help, quit
        case unknown(String)
    }

    /// What to show after a command.
    struct Reaction: Equatable {
        var message: String = ""
        /// The screen changed.
        var redraw = false
        /// The session is over: the person quit.
        var done = false
    }

    var session: StepSession
    let scenario: Scenario
    let version: Version
    var fix: String? { version.fix }
    let challenge: Bool
    /// For `x`: the project's seeded generator, never the system's.
    var random: SplitMix64
    /// The scenario as the person named it, for the replay commands.
    let argument: String
    /// The debrief of the last challenge won in this session.
    var debrief: String?

    /// A break-it or predict-it exercise (or a program that behaves as one), for a
    /// student: no schedule to copy is printed.
    var held: Spoilers.Guard?
    var guarded: Bool { held != nil }

    /// In a challenge, hints come as a ladder: how many rungs were given, and for
    /// which schedule (a step, an undo or a restart starts the ladder again).
    var hintRung = 0
    var hintSchedule: [ThreadID]?

    init(session: StepSession, scenario: Scenario, version: Version, challenge: Bool, seed: UInt64, argument: String) {
        self.session = session
        self.scenario = scenario
        self.version = version
        self.challenge = challenge
        random = SplitMix64(seed: seed)
        self.argument = argument
    }

    var names: [String] { session.world.threadNames }

    /// The goal of the challenge, in words.
    var goal: String {
        scenario.challenge ?? "make the run go wrong: break a check, crash it, or deadlock it"
    }

    /// A fix that is not meant to fail: the challenge cannot be won on it.
    var isSoundFix: Bool { version.role == .fix }

    func stepScreen(width: Int, color: Bool) -> StepScreen {
        StepScreen(
            title: "\(scenario.name): \(scenario.title) (\(Words.version(version)))", goal: challenge ? goal : nil,
            width: width, color: color)
    }

    func screen(width: Int, color: Bool) -> String {
        stepScreen(width: width, color: color).render(session)
    }

    /// The screen as data (`StepScreen.json`), with the last command's message, whether
    /// the run is over, the schedule so far, and a won challenge's debrief.
    func json(message: String) -> JSON {
        var fields = stepScreen(width: 100, color: false).json(session).objectValue ?? []
        fields += [
            ("message", .string(message)), ("over", .bool(session.isOver)), ("schedule", .string(session.scheduleNames.text)),
            ("debrief", debrief.map(JSON.string) ?? .null),
        ]
        return .object(fields)
    }

    // MARK: - Commands

    mutating func handle(_ command: Command) -> Reaction {
        switch command {
        case .thread(let index):
            guard names.indices.contains(index) else {
                return Reaction(message: "there is no thread \(index + 1): the threads are \(threadKeys)")
            }
            return run(index)
        case .enter:
            guard let choice = session.defaultChoice else { return Reaction(message: overMessage) }
            return run(choice)
        case .undo:
            guard session.undo() else { return Reaction(message: "nothing to undo: this is the start") }
            return Reaction(message: "undid step \(session.schedule.count + 1)", redraw: true)
        case .restart:
            session.restart()
            return Reaction(message: "restarted from the beginning", redraw: true)
        case .explain:
            return Reaction(message: explanation())
        case .schedule:
            return Reaction(message: scheduleText())
        case .random:
            guard !session.isOver else { return Reaction(message: overMessage) }
            // A random run can stumble on the answer: on an exercise that asks for one,
            // the student finds it.
            if guarded {
                return Reaction(message: "no random runs here: one could find the answer for you; pick each thread yourself")
            }
            var taken = 0
            while !session.isOver {
                let runnable = session.runnable
                try? session.step(runnable[random.below(runnable.count)])
                taken += 1
            }
            return Reaction(message: "ran the rest by random choice: \(Words.count(taken, "step"))\n" + finish(), redraw: true)
        case .hint:
            return Reaction(message: hint())
        case .help:
            return Reaction(message: help)
        case .quit:
            return Reaction(message: quitText(), done: true)
        case .unknown(let text):
            return Reaction(message: text)
        }
    }

    mutating func run(_ thread: ThreadID) -> Reaction {
        if session.isOver { return Reaction(message: overMessage) }
        do throws(StepSession.Refusal) {
            try session.step(thread)
        } catch {
            return Reaction(message: error.message)
        }
        guard session.isOver else {
            // A livelock never ends: the goal is reached by going round its loop.
            if challenge, !isSoundFix, let loop = wentRound() { return Reaction(message: loop, redraw: true) }
            return Reaction(redraw: true)
        }
        return Reaction(message: finish(), redraw: true)
    }

    var overMessage: String {
        "the run is over: press u to undo, r to restart, s for the schedule, or q to quit"
    }

    var threadKeys: String {
        names.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", ")
    }

    var fixFlag: String { fix.map { " --fix \($0)" } ?? "" }

    /// "B reads singleton: nil, line 22".
    func stepText(_ index: Int) -> String {
        let events = session.steps[index]
        let thread = names[session.schedule[index]]
        let text = events.isEmpty ? "takes a step" : events.map { $0.text }.joined(separator: "; ")
        return "\(thread) \(text)" + (events.first?.range.map { ", line \($0.start.line)" } ?? "")
    }

    // MARK: - e, s, ?, q

    /// The last step in a sentence, and the earlier step of another thread it conflicts with.
    func explanation() -> String {
        guard let last = session.steps.indices.last else { return "no step yet: pick a thread to run" }
        let events = session.steps[last]
        let thread = session.schedule[last]
        var text = "Step \(last + 1): \(names[thread]) " + (events.isEmpty ? "takes a step" : events.map { $0.text }.joined(separator: "; "))
        if let range = events.first?.range {
            let source = session.engine.program.file.line(range.start.line).drop { $0 == " " || $0 == "\t" }
            text += " (line \(range.start.line): \(source))"
        }
        text += "."
        let accesses = events.flatMap { $0.accesses }
        func touches(_ earlier: Int, conflicting: Bool) -> Bool {
            session.schedule[earlier] != thread
                && session.steps[earlier].flatMap { $0.accesses }.contains { a in
                    accesses.contains { b in (!conflicting || a.kind != .read || b.kind != .read) && a.target.overlaps(b.target) }
                }
        }
        if let earlier = (0..<last).last(where: { touches($0, conflicting: true) }) {
            text += "\nIt touches what step \(earlier + 1) touched (\(stepText(earlier))), and one of the two writes: "
            text += "run in the other order, they can give another result."
        } else if let earlier = (0..<last).last(where: { touches($0, conflicting: false) }) {
            text += "\nStep \(earlier + 1) (\(stepText(earlier))) read the same state, but two reads never conflict: "
            text += "their order changes nothing. What matters is a read or write against a write."
        } else if accesses.isEmpty {
            text += "\nIt touched nothing another thread shares."
        } else {
            text += "\nNo other thread has touched the same shared state yet, so when this step runs does not matter so far."
        }
        return text
    }

    func scheduleText() -> String {
        guard !session.schedule.isEmpty else { return "no steps yet: the schedule is empty" }
        let schedule = session.scheduleNames
        return """
            Schedule so far (\(Words.count(schedule.count, "step"))): \(schedule.text)
            Replay it:   \(ReplayCommand(argument, fix: fix).schedule(schedule))
            Continue it: \(ReplayCommand(argument, fix: fix, verb: "step").schedule(schedule))
            """
    }

    func quitText() -> String {
        session.schedule.isEmpty ? "Bye." : "Bye. Schedule so far: \(session.scheduleNames.text)"
    }

    /// `h`: what the explorer sees ahead of the current state, computed from it (never
    /// a canned text). In a challenge, one rung of the ladder per press.
    mutating func hint() -> String {
        if guarded {
            return "no hints that look ahead here: finding the way is the exercise (the exercise's own hints: racelab hint \(held?.resembles ?? argument))"
        }
        if session.isOver { return overMessage }
        let answer = Foresight.look(session.engine, from: session.world)
        if hintSchedule != session.schedule {
            hintSchedule = session.schedule
            hintRung = 0
        }
        hintRung = challenge ? min(hintRung + 1, 3) : 3
        switch answer {
        case .safe(let states):
            return "nothing can go wrong from here any more: every way on passes (\(Words.count(states, "state")) looked at)"
        case .livelock(let steps, let next, let cycle):
            let loop = "the threads can go round a loop of \(Words.count(cycle, "step")) forever, each taking its turn, without progress (a livelock)"
            guard steps > 0 else { return "from here \(loop)" + (hintRung >= 3 ? "; run \(names[next]) to go round it" : "") }
            var text = "a failure can still be reached from here"
            if hintRung >= 2 { text += ": \(Words.count(steps, "more step")) at the fewest" }
            if hintRung >= 3 { text += " (run \(names[next]) next)" }
            text += hintRung >= 3 ? " — there \(loop)" : "; press h again for more"
            return text
        case .unknown(let states):
            guard states > 0 else { return "more than 64 threads: the look-ahead cannot follow them, so no hint from here" }
            return "too many ways on to look at them all (\(states) states): no hint from here"
        case .failure(let steps, let next, let what):
            guard steps > 0 else { return "it has gone wrong already: \(what)" }
            var text = "a failure can still be reached from here"
            if hintRung >= 2 { text += ": \(Words.count(steps, "more step")) at the fewest" }
            if hintRung >= 3 { text += " (run \(names[next]) next)" }
            text += hintRung >= 3 ? " — \(what)" : "; press h again for more"
            return text
        }
    }

    var help: String {
        """
        Keys
          1-9    run that thread's next step (\(threadKeys))
          Enter  run the default choice: the thread that ran last, if it can, else the first that can
          u      undo the last step (as many times as you like)
          r      restart from the beginning
          e      explain the last step
          s      show the schedule so far, ready for racelab run --schedule
          x      run the rest by random choice (not on a break-it or predict-it exercise)
          h      a hint that looks ahead: can a failure still be reached from here, and how
                 (in a challenge: first whether, then how far, then which thread; again for more)
          ?      this help
          q      quit
        """
    }
}

// MARK: - Reading commands

extension StepController {
    /// A line of the line-by-line mode: a thread's number or name, a key's letter or
    /// its word ("undo"), or nothing (Enter).
    func command(line: String) -> Command {
        let text = line.trimmingCharacters(in: " \t\r")
        let words: [String: Command] = [
            "": .enter, "u": .undo, "undo": .undo, "r": .restart, "restart": .restart, "e": .explain, "explain": .explain,
            "s": .schedule, "schedule": .schedule, "x": .random, "random": .random, "h": .hint, "hint": .hint, "?": .help,
            "help": .help,
            "q": .quit, "quit": .quit,
        ]
        if let command = words[text] { return command }
        if let number = Int(text) { return .thread(number - 1) }
        if let index = names.firstIndex(of: text) { return .thread(index) }
        let hint = Suggestion.closest(to: text, in: names).map { " Did you mean '\($0)'?" } ?? ""
        return .unknown("unknown command '\(text)'.\(hint) Type a thread's number or name (\(threadKeys)), or ? for help.")
    }

    /// A key pressed on the terminal.
    func command(key: UInt8) -> Command {
        switch key {
        case UInt8(ascii: "1")...UInt8(ascii: "9"): return .thread(Int(key - UInt8(ascii: "1")))
        case 10, 13: return .enter
        case UInt8(ascii: "u"): return .undo
        case UInt8(ascii: "r"): return .restart
        case UInt8(ascii: "e"): return .explain
        case UInt8(ascii: "s"): return .schedule
        case UInt8(ascii: "x"): return .random
        case UInt8(ascii: "h"): return .hint
        case UInt8(ascii: "?"): return .help
        case UInt8(ascii: "q"), 3, 4: return .quit
        case 27: return .unknown("that key does nothing here; press ? for the keys")
        case 32...126: return .unknown("unknown key '\(Character(Unicode.Scalar(key)))'; press ? for the keys")
        default: return .unknown("unknown key (code \(key)); press ? for the keys")
        }
    }
}
