/// Pure semantics of operators and array operations. A failure is a message; the
/// engine turns it into a crash or a runtime error at the step that hit it.
enum Operators {
    enum Failure: Error {
        case crash(String)
        case type(String)
    }

    static func unary(_ op: Operator, _ value: Value) -> Result<Value, Failure> {
        switch (op, value) {
        case (.not, .bool(let b)): return .success(.bool(!b))
        case (.minus, .int(let n)): return overflow(Int64(0).subtractingReportingOverflow(n), n < 0 ? "-(\(n))" : "-\(n)")
        default: return .failure(.type("cannot apply '\(op.rawValue)' to \(value.typeName)"))
        }
    }

    static func binary(_ op: Operator, _ a: Value, _ b: Value) -> Result<Value, Failure> {
        switch (op, a, b) {
        case (.equal, _, _): return .success(.bool(a == b))
        case (.notEqual, _, _): return .success(.bool(a != b))
        case (.identical, _, _), (.notIdentical, _, _):
            guard isReference(a) && isReference(b) else {
                return .failure(.type("'\(op.rawValue)' compares objects, not \(a.typeName) and \(b.typeName)"))
            }
            return .success(.bool((a == b) == (op == .identical)))
        case (.plus, .int(let x), .int(let y)): return overflow(x.addingReportingOverflow(y), "\(x) + \(y)")
        case (.minus, .int(let x), .int(let y)): return overflow(x.subtractingReportingOverflow(y), "\(x) - \(y)")
        case (.times, .int(let x), .int(let y)): return overflow(x.multipliedReportingOverflow(by: y), "\(x) * \(y)")
        case (.divide, .int, .int(0)), (.remainder, .int, .int(0)): return .failure(.crash("division by zero"))
        case (.divide, .int(let x), .int(let y)): return overflow(x.dividedReportingOverflow(by: y), "\(x) / \(y)")
        case (.remainder, .int(let x), .int(let y)): return overflow(x.remainderReportingOverflow(dividingBy: y), "\(x) % \(y)")
        case (.plus, .string(let x), .string(let y)): return .success(.string(x + y))
        case (.plus, .string(let x), .int(let y)): return .success(.string(x + String(y)))
        case (.plus, .array(let x), .array(let y)): return .success(.array(x + y))
        case (.less, .int(let x), .int(let y)): return .success(.bool(x < y))
        case (.lessOrEqual, .int(let x), .int(let y)): return .success(.bool(x <= y))
        case (.greater, .int(let x), .int(let y)): return .success(.bool(x > y))
        case (.greaterOrEqual, .int(let x), .int(let y)): return .success(.bool(x >= y))
        case (.less, .string(let x), .string(let y)): return .success(.bool(x < y))
        case (.greater, .string(let x), .string(let y)): return .success(.bool(x > y))
        default: return .failure(.type("cannot apply '\(op.rawValue)' to \(a.typeName) and \(b.typeName)"))
        }
    }

    private static func isReference(_ value: Value) -> Bool {
        switch value {
        case .object, .none: return true
        default: return false
        }
    }

    /// The one finding for every arithmetic overflow, as Swift traps on one.
    static func overflow(_ result: (partialValue: Int64, overflow: Bool), _ expression: @autoclosure () -> String) -> Result<Value, Failure> {
        result.overflow ? .failure(overflowFailure(expression())) : .success(.int(result.partialValue))
    }

    /// `arithmetic overflow: 9223372036854775807 + 1 does not fit in an Int`.
    static func overflowFailure(_ expression: String) -> Failure {
        .crash("arithmetic overflow: \(expression) does not fit in an Int")
    }

    /// An array's elements, a dictionary's entries or a set's members, and which.
    static func collection(_ value: Value, _ what: String) -> Result<(items: ArrayValue, kind: CollectionKind), Failure> {
        if case .dictionary(let entries) = value { return .success((entries, .dictionary)) }
        if case .set(let members) = value { return .success((members, .set)) }
        return array(value, what).map { ($0, .array) }
    }

    static func array(_ value: Value, _ what: String) -> Result<ArrayValue, Failure> {
        if case .array(let items) = value { return .success(items) }
        if value == .none { return .failure(.crash("unexpectedly found nil while using \(what) as an array")) }
        return .failure(.type("\(what) is \(value.typeName), not an array"))
    }

    static func element(_ items: ArrayValue, _ index: Value, _ what: String) -> Result<Value, Failure> {
        guard case .int(let wide) = index else { return .failure(.type("an index must be Int, not \(index.typeName)")) }
        guard let i = Int(exactly: wide), items.indices.contains(i) else {
            return .failure(.crash("index out of range: \(what)[\(wide)], but \(what) has \(items.count) element\(items.count == 1 ? "" : "s")"))
        }
        return .success(items[i])
    }

    static func property(_ items: ArrayValue, _ property: ArrayProperty, _ what: String) -> Result<Value, Failure> {
        switch property {
        case .count: return .success(.int(items.count))
        case .isEmpty: return .success(.bool(items.isEmpty))
        case .first: return .success(items.first ?? .none)
        case .last: return .success(items.last ?? .none)
        case .keys, .values: return .failure(.type("\(what) is an array: \(property.rawValue) belongs to dictionaries"))
        }
    }

    /// Applies a mutation in place (so an array no one else holds is not copied);
    /// returns the removed elements. On failure `items` is unchanged.
    static func mutate(_ items: inout ArrayValue, _ mutation: ArrayMutation, _ operands: [Value], _ what: String)
        -> Result<[Value], Failure>
    {
        switch mutation {
        case .removeValue:
            return .failure(.type("\(what) is an array: removeValue(forKey:) belongs to dictionaries"))
        case .insertMember, .removeMember:
            return .failure(
                .type(
                    "\(what) is an array: write \(mutation == .insertMember ? "insert(x, at: index)" : "remove(at: index)") (\(mutation.rawValue) belongs to sets)"
                ))
        case .append:
            items.append(operands[0])
            return .success([])
        case .removeLast, .removeFirst:
            guard !items.isEmpty else { return .failure(.crash("\(mutation.rawValue)() on an empty array: \(what) has no elements")) }
            let removed = mutation == .removeLast ? items.removeLast() : items.removeFirst()
            return .success([removed])
        case .removeAll:
            let removed = items.items
            items.removeAll()
            return .success(removed)
        case .removeAt, .insert:
            let indexValue = mutation == .removeAt ? operands[0] : operands[1]
            guard case .int(let wide) = indexValue else { return .failure(.type("an index must be Int, not \(indexValue.typeName)")) }
            // An index past the platform's Int is out of range too (the browser's has 32 bits).
            let i = Int(exactly: wide) ?? -1
            let valid = mutation == .removeAt ? items.indices.contains(i) : (0...items.count).contains(i)
            guard valid else {
                return .failure(
                    .crash("index out of range: \(mutation.rawValue) at \(wide), but \(what) has \(items.count) element\(items.count == 1 ? "" : "s")"))
            }
            if mutation == .removeAt {
                let removed = items.remove(at: i)
                return .success([removed])
            }
            items.insert(operands[0], at: i)
            return .success([])
        }
    }
}
