import Foundation
import RaceLabCLI
import Testing

/// Scripted step-mode sessions (standard input is not a terminal, so one command per
/// line), compared whole with golden files. Between them they press every key, on
/// every scenario, including keys and names that mean nothing.
struct StepGoldenTests {
    struct Session: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var input: [String]
        var environment: [String: String] = [:]
        var testDescription: String { name }
    }

    static let sessions: [Session] = [
        // Win the singleton challenge (after trying what cannot be done), undo, lose, quit.
        Session(
            name: "singleton-challenge", arguments: ["singleton-race", "--challenge"],
            input: [
                "?", "e", "u", "zz", "9", "main", "a", "2", "3", "e", "2", "3", "2", "s", "3", "e", "2", "3", "2", "3",
                "u", "u", "u", "u", "u", "u", "u", "u", "u", "u", "A", "A", "A", "A", "A", "B", "B", "B", "q",
            ]),
        // Undo, restart, Enter, thread names, the random rest, and keys after the end.
        Session(
            name: "array-mutation-keys", arguments: ["array-mutation"],
            input: ["worker", "", "", "u", "u", "u", "u", "main", "r", "2", "x", "1", "e", "s", "u", "q", "never read"]),
        // A proven fix: the challenge cannot be won, and the debrief says why.
        Session(
            name: "stale-operations-challenge", arguments: ["stale-results", "--fix", "operations", "--challenge"],
            input: ["x", "s", "q"]),
        // Start from the story's schedule; end of input in the middle of a run.
        Session(
            name: "dealloc-from-story", arguments: ["dealloc-wrong-thread", "--challenge", "--schedule", "worker main main"],
            input: ["e", "s", "2"]),
        // The hint that looks ahead: a ladder in a challenge, again after a step; a proven fix.
        Session(name: "singleton-hints", arguments: ["singleton-race", "--challenge"], input: ["h", "h", "h", "h", "A", "h", "hint", "q"]),
        Session(name: "singleton-mutex-hint", arguments: ["singleton-race", "--fix", "mutex"], input: ["h", "q"]),
        // A livelock ahead (no state fails, a loop does), then here; Dekker's fix has none.
        Session(name: "livelock-hints", arguments: ["polite-livelock", "--challenge"], input: ["h", "h", "h", "A", "B", "h", "h", "h", "q"]),
        Session(name: "livelock-turn-hint", arguments: ["polite-livelock", "--fix", "turn"], input: ["h", "q"]),
        // A livelock's challenge is won by going round its loop, every thread taking a step.
        Session(name: "livelock-challenge", arguments: ["polite-livelock", "--challenge"], input: ["A", "B", "A", "A", "A", "B", "B", "B", "q"]),
        // A student on a break-it exercise gets no hint that would show the way.
        Session(name: "singleton-break-hint", arguments: ["singleton-break"], input: ["h", "q"]),
        // Nor a random run that could stumble on the answer.
        Session(name: "singleton-break-random", arguments: ["singleton-break"], input: ["x", "q"]),
        // Under a strict-priority scheduler: an outranked thread is refused, and says who runs first.
        Session(
            name: "priority-inversion-challenge", arguments: ["priority-inversion", "--challenge"],
            input: ["weather", "4", "3", "2", "2", "comms", "weather", "q"]),
        // Deadlock both threads; a blocked thread says why it cannot run.
        Session(
            name: "deadlock-challenge", arguments: ["deadlock", "--challenge"],
            input: ["A", "B", "B", "B", "e", "A"]),
        // A terminal too narrow for columns: the threads are listed one under another.
        Session(
            name: "singleton-narrow", arguments: ["singleton-race", "--fix", "mutex"],
            input: ["2", "3", "3"], environment: ["COLUMNS": "40"]),
        // The meant-to-fail fix can be won; x uses the seed.
        Session(
            name: "deadlock-mainsync-random", arguments: ["deadlock", "--fix", "mainSync", "--challenge", "--seed", "5"],
            input: ["x", "x", "q"]),
        // Tasks and actors: who holds each actor, who waits in its mailbox, what each task
        // does (enqueued, then handed the actor).
        Session(name: "actor-reentrancy-mailbox", arguments: ["actor-reentrancy"], input: ["A", "A", "B", "B", "A", "q"]),
        // Wrong input on the command line.
        Session(name: "step-errors-schedule", arguments: ["singleton-race", "--schedule", "A A Q"], input: []),
        Session(name: "step-errors-blocked", arguments: ["deadlock", "--schedule", "A B B B"], input: []),
        Session(name: "step-errors-fix", arguments: ["singleton-race", "--fix", "mutx"], input: []),
        Session(name: "step-errors-seed", arguments: ["singleton-race", "--seed", "-1"], input: []),
        Session(name: "step-errors-name", arguments: [], input: []),
        Session(name: "step-help", arguments: ["--help"], input: []),
    ]

    @Test(arguments: sessions)
    func session(_ session: Session) throws {
        var input = session.input[...]
        var racelab = RaceLab(environment: session.environment)
        racelab.readLine = { input.popFirst() }
        let output = racelab.main(["step"] + session.arguments)
        let arguments = session.arguments.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }.joined(separator: " ")
        var text = "$ racelab step \(arguments)\n"
        text += "[input] " + session.input.map { $0.isEmpty ? "(Enter)" : $0 }.joined(separator: " | ") + "\n"
        text += output.stdout
        if !output.stderr.isEmpty { text += "[stderr]\n" + output.stderr }
        text += "[exit \(output.exitCode)]\n"
        try GoldenTests.compare(text, toFile: "step_" + session.name)
    }
}
