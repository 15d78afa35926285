import RaceLabGrading
import RaceLabLanguage
import Testing

/// Editable regions and the locked text around them.
struct TemplateTests {
    static let exercise = SourceFile(
        name: "e.race",
        text: """
            var count = 0
            thread A {
                // begin editable: anything
                count += 1
                // end editable
                count += 1
            }
            expect count >= 1, "work happened"
            """)

    func change(_ text: String) throws -> LockedChange? {
        try Template.firstChange(exercise: Self.exercise, submission: SourceFile(name: "s.race", text: text))
    }

    @Test func regionsPairUp() throws {
        #expect(try Template.parse(Self.exercise).regions.map(\.begin) == [3])
        #expect(try Template.parse(Self.exercise).regions.map(\.end) == [5])
        #expect(throws: GradingError("line 2: '// begin editable' is never closed by '// end editable'")) {
            try Template.parse(SourceFile(name: "x", text: "var a = 1\n// begin editable\n"))
        }
        #expect(throws: GradingError("line 2: '// begin editable' inside the region opened at line 1; close it with '// end editable' first")) {
            try Template.parse(SourceFile(name: "x", text: "// begin editable\n  // begin editable\n"))
        }
    }

    @Test func editsInsideRegionsAndLayoutOutsideThemAreAllowed() throws {
        #expect(try change(Self.exercise.text) == nil)
        // Any code in the region; comments, blank lines and spacing elsewhere.
        #expect(
            try change(
                """
                var count = 0   // shared
                thread A {
                // begin editable
                    while count < 3 { count += 1 }
                    let x = 2
                // end editable: done

                    count   +=   1
                }
                expect count >= 1, "work happened"
                """) == nil)
    }

    @Test func lockedChangesAreFoundWithTheirLines() throws {
        let replaced = try change(Self.exercise.text.replacingOccurrences(of: "expect count >= 1", with: "expect count >= 0"))
        #expect(replaced == LockedChange(exerciseLine: 8, submissionLine: 8, added: false))
        let deleted = try change(Self.exercise.text.replacingOccurrences(of: "    count += 1\n}", with: "}"))
        #expect(deleted == LockedChange(exerciseLine: 6, submissionLine: 6, added: false))
        let added = try change(Self.exercise.text + "\nthread B { }")
        #expect(added == LockedChange(exerciseLine: 8, submissionLine: 9, added: true))
        #expect(
            throws: GradingError(
                "the exercise has 1 editable region but the file has 0: keep every '// begin editable' and '// end editable' line where it was")
        ) {
            try change("var count = 0\nthread A { count += 1 }")
        }
    }
}
