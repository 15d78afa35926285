/// Pure semantics of operators and array operations. A failure is a message; the
/// engine turns it into a crash or a runtime error at the step that hit it.
enum Operators {
    enum Failure: Error {
        case crash(String)
        case type(String)
    }

    static func unary(_ op: String, _ value: Value) -> Result<Value, Failure> {
        switch (op, value) {
        case ("!", .bool(let b)): return .success(.bool(!b))
        case ("-", .int(let n)): return .success(.int(0 &- n))
        default: return .failure(.type("cannot apply '\(op)' to \(value.typeName)"))
        }
    }

    static func binary(_ op: String, _ a: Value, _ b: Value) -> Result<Value, Failure> {
        switch (op, a, b) {
        case ("==", _, _): return .success(.bool(a == b))
        case ("!=", _, _): return .success(.bool(a != b))
        case ("===", _, _), ("!==", _, _):
            guard isReference(a) && isReference(b) else {
                return .failure(.type("'\(op)' compares objects, not \(a.typeName) and \(b.typeName)"))
            }
            return .success(.bool((a == b) == (op == "===")))
        case ("+", .int(let x), .int(let y)): return overflow(x.addingReportingOverflow(y))
        case ("-", .int(let x), .int(let y)): return overflow(x.subtractingReportingOverflow(y))
        case ("*", .int(let x), .int(let y)): return overflow(x.multipliedReportingOverflow(by: y))
        case ("/", .int, .int(0)), ("%", .int, .int(0)): return .failure(.crash("division by zero"))
        case ("/", .int(let x), .int(let y)): return overflow(x.dividedReportingOverflow(by: y))
        case ("%", .int(let x), .int(let y)): return overflow(x.remainderReportingOverflow(dividingBy: y))
        case ("+", .string(let x), .string(let y)): return .success(.string(x + y))
        case ("+", .string(let x), .int(let y)): return .success(.string(x + String(y)))
        case ("+", .array(let x), .array(let y)): return .success(.array(x + y))
        case ("<", .int(let x), .int(let y)): return .success(.bool(x < y))
        case ("<=", .int(let x), .int(let y)): return .success(.bool(x <= y))
        case (">", .int(let x), .int(let y)): return .success(.bool(x > y))
        case (">=", .int(let x), .int(let y)): return .success(.bool(x >= y))
        case ("<", .string(let x), .string(let y)): return .success(.bool(x < y))
        case (">", .string(let x), .string(let y)): return .success(.bool(x > y))
        default: return .failure(.type("cannot apply '\(op)' to \(a.typeName) and \(b.typeName)"))
        }
    }

    private static func isReference(_ value: Value) -> Bool {
        switch value {
        case .object, .none: return true
        default: return false
        }
    }

    private static func overflow(_ result: (partialValue: Int, overflow: Bool)) -> Result<Value, Failure> {
        result.overflow ? .failure(.crash("arithmetic overflow")) : .success(.int(result.partialValue))
    }

    static func array(_ value: Value, _ what: String) -> Result<[Value], Failure> {
        if case .array(let items) = value { return .success(items) }
        if value == .none { return .failure(.crash("unexpectedly found nil while using \(what) as an array")) }
        return .failure(.type("\(what) is \(value.typeName), not an array"))
    }

    static func element(_ items: [Value], _ index: Value, _ what: String) -> Result<Value, Failure> {
        guard case .int(let i) = index else { return .failure(.type("an index must be Int, not \(index.typeName)")) }
        guard items.indices.contains(i) else {
            return .failure(.crash("index out of range: \(what)[\(i)], but \(what) has \(items.count) element\(items.count == 1 ? "" : "s")"))
        }
        return .success(items[i])
    }

    static func property(_ items: [Value], _ property: ArrayProperty) -> Value {
        switch property {
        case .count: return .int(items.count)
        case .isEmpty: return .bool(items.isEmpty)
        case .first: return items.first ?? .none
        case .last: return items.last ?? .none
        }
    }

    /// Applies a mutation: the new array, and the removed element if any.
    static func mutate(_ items: [Value], _ mutation: ArrayMutation, _ operands: [Value], _ what: String)
        -> Result<(items: [Value], removed: [Value]), Failure> {
        var items = items
        switch mutation {
        case .append:
            items.append(operands[0])
            return .success((items, []))
        case .removeLast, .removeFirst:
            guard !items.isEmpty else { return .failure(.crash("\(mutation.rawValue)() on an empty array: \(what) has no elements")) }
            let removed = mutation == .removeLast ? items.removeLast() : items.removeFirst()
            return .success((items, [removed]))
        case .removeAll:
            return .success(([], items))
        case .removeAt, .insert:
            let indexValue = mutation == .removeAt ? operands[0] : operands[1]
            guard case .int(let i) = indexValue else { return .failure(.type("an index must be Int, not \(indexValue.typeName)")) }
            let valid = mutation == .removeAt ? items.indices.contains(i) : (0...items.count).contains(i)
            guard valid else {
                return .failure(.crash("index out of range: \(mutation.rawValue) at \(i), but \(what) has \(items.count) element\(items.count == 1 ? "" : "s")"))
            }
            if mutation == .removeAt {
                let removed = items.remove(at: i)
                return .success((items, [removed]))
            }
            items.insert(operands[0], at: i)
            return .success((items, []))
        }
    }
}
