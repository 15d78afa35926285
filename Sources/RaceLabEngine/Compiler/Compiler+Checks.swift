import RaceLabLanguage

/// The checks: `expect` conditions (and each `required` block's) evaluated on a final
/// world, and `always` invariants after every step, each compiled into one code.
extension Compiler {
    /// The `always` invariants, one code that checks them all (`check(i)` for the i-th).
    mutating func compileInvariants(_ declarations: [Declaration]) {
        builders = [CodeBuilder(name: "invariants")]
        builders[0].isCheck = true
        program.invariants = compileConditions(declarations, invariants: true)
        emit(constant: .none)
        emit(.ret)
        let code = add(builders.removeLast().code)
        if !program.invariants.isEmpty { program.invariantsCode = code }
    }

    /// Each `expect` (or `always`) condition into the code being built, `check(i)` for
    /// the i-th; returns them, in order.
    mutating func compileConditions(_ declarations: [Declaration], invariants: Bool) -> [Program.Expectation] {
        var conditions: [Program.Expectation] = []
        for declaration in declarations {
            let condition: Expression, message: String
            switch declaration.kind {
            case .expect(let c, let m) where !invariants: (condition, message) = (c, m)
            case .always(let c, let m) where invariants: (condition, message) = (c, m)
            default: continue
            }
            builders[0].currentRange = condition.range
            do throws(Failure) {
                try compileExpression(condition)
                emit(.check(conditions.count))
            } catch {}
            conditions.append(.init(message: message, range: condition.range))
        }
        return conditions
    }

    mutating func compileChecks(_ declarations: [Declaration]) {
        builders = [CodeBuilder(name: "checks")]
        builders[0].isCheck = true
        program.expectations = compileConditions(declarations, invariants: false)
        // Each `required` block is one more check: its work was done, where it says.
        for (index, requirement) in program.requirements.enumerated() {
            if !requirement.hasBlock {
                _ = error("'due \"\(requirement.name)\"' names work that no 'required' block does", at: requirement.range)
                continue
            }
            builders[0].currentRange = requirement.range
            emit(.requirementMet(index))
            emit(.check(program.expectations.count))
            let message = requirement.probeLine.map { "the locked code at line \($0) runs" } ?? "the threads' work is done: \(requirement.name)"
            program.expectations.append(.init(message: message, range: requirement.range, requirement: index))
        }
        emit(constant: .none)
        emit(.ret)
        program.checksCode = add(builders.removeLast().code)
    }
}
