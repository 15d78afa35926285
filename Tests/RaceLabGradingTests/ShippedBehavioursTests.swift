import Foundation
import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabTestSupport
import Testing

/// `ShippedBehaviours` (Sources/RaceLabGrading/ShippedBehaviours.swift) is what the
/// spoiler guard knows of the shipped files without reading the disk. It is written
/// from them, and this test fails when they change until it is written again:
/// `RACELAB_RECORD=1 swift test --filter ShippedBehavioursTests`.
struct ShippedBehavioursTests {
    static let path = Shipped.root.appendingPathComponent("Sources/RaceLabGrading/ShippedBehaviours.swift")

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The file as the shipped scenarios and exercises make it.
    static func expected() throws -> String {
        var text = """
            // Written by `RACELAB_RECORD=1 swift test --filter ShippedBehavioursTests` from the
            // shipped scenarios and exercises; do not edit.

            /// What the spoiler guard knows of the shipped files without reading the disk, so
            /// that a folder laid out to look shipped, a missing or replaced exercises folder,
            /// or a binary handed out alone changes nothing (docs/TEACHING.md, "What the guard
            /// holds").
            public enum ShippedBehaviours {
                /// `Behaviour.textHash` of each shipped scenario's text: these are explored
                /// without a guard (tested to behave as no exercise).
                public static let scenarios: Set<UInt64> = [

            """
        for name in Shipped.scenarioNames {
            // Hexadecimal, in groups of four digits from the right, as swift-format asks.
            var digits = String(Behaviour.textHash(try Shipped.text(name)), radix: 16)
            var groups: [String] = []
            while !digits.isEmpty {
                groups.insert(String(digits.suffix(4)), at: 0)
                digits = String(digits.dropLast(4))
            }
            text += "        0x" + groups.joined(separator: "_") + ",\n"
        }
        text += """
                ]

                /// Each shipped break-it and predict-it exercise: its ID, kind and behaviour.
                public static let exercises: [(id: String, kind: Exercise.Kind, behaviour: Behaviour)] = [

            """
        for id in Shipped.exerciseNames {
            let exercise = try Exercise(Scenario.load(name: id, file: SourceFile(name: id + ".race", text: try Shipped.exerciseText(id))))
            guard exercise.kind.answerIsSecret else { continue }
            let behaviour = try #require(Behaviour.of(exercise.program), "\(id) is too large to be recognised")
            let kind = exercise.kind == .breakIt ? ".breakIt" : ".predictIt"
            text += "        (\n            \(literal(id)), \(kind),\n            Behaviour(\n                outcomes: [\n"
            for outcome in behaviour.outcomes {
                text += "                    [" + outcome.map(literal).joined(separator: ", ") + "],\n"
            }
            let size = behaviour.size
            text += "                ], size: .init(executions: \(size.executions), states: \(size.states), steps: \(size.steps)))\n        ),\n"
        }
        text += "    ]\n}\n"
        return text
    }

    @Test func theGuardKnowsTheShippedFilesAsTheyAre() throws {
        let expected = try Self.expected()
        if ProcessInfo.processInfo.environment["RACELAB_RECORD"] == "1" {
            try expected.write(to: Self.path, atomically: true, encoding: .utf8)
        }
        let actual = try String(contentsOf: Self.path, encoding: .utf8)
        #expect(actual == expected, "ShippedBehaviours.swift is out of date: RACELAB_RECORD=1 swift test --filter ShippedBehavioursTests, then build")
        // What it holds is what the guard compares: each entry is its exercise's behaviour.
        #expect(ShippedBehaviours.scenarios.count == Shipped.scenarioNames.count)
        #expect(ShippedBehaviours.exercises.count == GraderTests.exercises.filter(\.kind.answerIsSecret).count)
    }
}
