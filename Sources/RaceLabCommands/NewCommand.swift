/// `racelab new exercise NAME --kind fix|break|predict`: a commented starter for a
/// teacher's own exercise, valid as it stands (a racy counter), to be rewritten.
struct NewCommand: Command {
    static let spec = CommandSpec(
        name: "new",
        abstract: "Write a commented starter for an exercise of your own.",
        usage: "racelab new exercise <id> --kind \(ExerciseKindChoice.usage) [--output <file>]",
        arguments: [("id", "The exercise's ID: lower-case letters, digits and hyphens (counter-fix).")],
        options: [
            .init(name: "kind", value: "kind", help: "fix, break or predict: what the student does."),
            .init(name: "output", value: "file", help: "Where to write it (default: <id>.race here); never overwritten."),
        ],
        discussion: """
            The starter is a complete exercise about a racy counter: 'racelab grade' and
            'racelab hint' accept it at once. Replace the story and the code with your own,
            keep the metadata lines, then check a reference solution with
            'racelab grade --check-solution SOLUTION --exercises FOLDER'. See docs/TEACHING.md.
            """
    )

    func run(_ context: CommandContext) throws(UsageError) -> CommandOutput {
        let parsed = context.parsed
        guard parsed.positionals.first == "exercise" else {
            throw UsageError("'racelab new' makes an exercise: racelab new exercise <id> --kind \(ExerciseKindChoice.usage)", command: Self.spec)
        }
        guard parsed.positionals.count == 2 else {
            throw UsageError(parsed.positionals.count < 2 ? "name the exercise: racelab new exercise <id>" : "expected one ID", command: Self.spec)
        }
        let id = parsed.positionals[1]
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first),
            id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }), id.count <= 64
        else {
            throw UsageError("'\(id)' is not an exercise ID: use lower-case letters, digits and hyphens, like counter-fix", command: Self.spec)
        }
        guard let kind: ExerciseKindChoice = try parsed.value("kind", Self.spec) else {
            throw UsageError("say what the student does: --kind fix, break or predict", command: Self.spec)
        }
        let path = parsed.values["output"] ?? "\(id).race"
        if let failure = context.locator.files.write(Self.starter(id: id, kind: kind), path, true) {
            return CommandOutput(stderr: "error: \(failure.message)\n", status: failure.status)
        }
        // The folder to name with --exercises: the file's, as written.
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) }.map { $0.isEmpty ? "/" : $0 } ?? "."
        return CommandOutput(
            stdout: "Wrote \(path): a \(kind.rawValue)-it exercise '\(id)' to fill in (see docs/TEACHING.md).\n"
                + "Try it: racelab hint \(path); racelab grade \(path) --exercises \(folder)\n")
    }

    /// The starter's text.
    static func starter(id: String, kind: ExerciseKindChoice) -> String {
        let header = """
            // A \(kind.rawValue)-it exercise. Everything here is an example (a racy counter): replace
            // the story and the code with your own, and keep the metadata lines. Lines
            // outside the 'begin editable' / 'end editable' regions are locked: a student's
            // file must keep them. docs/TEACHING.md, "Writing a new exercise", says more.
            exercise "\(id)"

            """
        switch kind {
        case .fix:
            return header + """
                kind "fix it"
                level "easy"        // easy, medium or hard
                points 10
                title "Count without losing an update"
                source "Where the story comes from"
                task \"\"\"
                Two threads each add 1 to count. Make sure no update is lost, in every
                interleaving. Only the editable regions may change.
                \"\"\"
                hint "Explore this file: where do A's read and write of count come apart?"
                hint "Reading count and writing it back must be one step no other thread can split."
                hint "Declare 'let lock = Lock()', and take it around each thread's update."

                var count = 0

                // begin editable: declarations (a lock, say)
                // end editable

                thread A {
                    // begin editable
                    // end editable
                    // The work every interleaving must still do: locked, and required (a
                    // student who skips it, or does it elsewhere, fails with a reason).
                    required "A adds 1 to count" { count += 1 }
                    // begin editable
                    // end editable
                }

                thread B {
                    // begin editable
                    // end editable
                    required "B adds 1 to count" { count += 1 }
                    // begin editable
                    // end editable
                }

                // Checks that fail when the work is skipped: count == 2, not count >= 1.
                expect count == 2, "no update is lost"

                """
        case .break:
            return header + """
                kind "break it"
                level "easy"
                points 5
                title "Lose an update"
                source "Where the story comes from"
                task \"\"\"
                Two threads each add 1 to count. Write a schedule (one thread name per
                step, like "A A B") under which an update is lost, in the 'schedule answer'
                line. When it runs out, the run goes on one thread at a time.
                \"\"\"
                hint "'count += 1' is two steps: a read, then a write."
                hint "Let both threads read before either writes."
                // What must break: "check", "crash", "deadlock", "main thread",
                // "assertion", "invariant" or "mutual exclusion"; without a goal, any
                // failure counts.
                goal "check"

                var count = 0

                thread A {
                    count += 1
                }

                thread B {
                    count += 1
                }

                expect count == 2, "no update is lost"

                // begin editable: your answer
                schedule answer ""
                // end editable

                """
        case .predict:
            return header + """
                kind "predict it"
                level "easy"
                points 5
                title "Predict the total"
                source "Where the story comes from"
                // A shared var whose final values the student lists, or "deadlock"
                // (the student answers "yes" or "no").
                predict "count"
                task \"\"\"
                Two threads each add 1 to count. List every value count can have when
                both are done, separated by commas, in the 'answer' line.
                \"\"\"
                hint "'count += 1' is two steps: a read, then a write."

                var count = 0

                thread A {
                    count += 1
                }

                thread B {
                    count += 1
                }

                // begin editable: your answer
                answer ""
                // end editable

                """
        }
    }
}
