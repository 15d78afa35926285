/// Which collection a place holds: its items are an array's elements, a dictionary's
/// entries or a set's members.
enum CollectionKind {
    case array, dictionary, set

    func wrap(_ items: ArrayValue) -> Value {
        switch self {
        case .array: return .array(items)
        case .dictionary: return .dictionary(items)
        case .set: return .set(items)
        }
    }
}

/// Dictionaries (`Value.dictionary`): entries `[key, value]` kept sorted by key, so
/// that two equal dictionaries are equal values and every walk over one is in one
/// order. Keys are Ints or Strings, all of one kind, as a `[String: Int]` has.
enum Dictionaries {
    typealias Failure = Operators.Failure

    /// Whether `a` sorts before `b`; nil when they cannot be keys of one dictionary.
    static func precedes(_ a: Value, _ b: Value) -> Bool? {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.string(let x), .string(let y)): return x < y
        default: return nil
        }
    }

    static func key(_ entry: Value) -> Value {
        if case .array(let pair) = entry { return pair[0] }
        return .none
    }

    static func value(_ entry: Value) -> Value {
        if case .array(let pair) = entry { return pair[1] }
        return .none
    }

    /// Where `key` is, or would go: a binary search. Fails for a key of the wrong kind.
    static func find(_ entries: ArrayValue, _ key: Value, _ what: String) -> Result<(found: Bool, index: Int), Failure> {
        switch key {
        case .int, .string: return search(entries, key, what)
        default: return .failure(.type("a dictionary key is an Int or a String, not \(key.typeName)"))
        }
    }

    private static func search(_ entries: ArrayValue, _ key: Value, _ what: String) -> Result<(found: Bool, index: Int), Failure> {
        if let first = entries.first, precedes(self.key(first), key) == nil {
            return .failure(.type("\(what) has \(self.key(first).typeName) keys, not \(key.typeName)"))
        }
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let other = self.key(entries[middle])
            if other == key { return .success((true, middle)) }
            if precedes(other, key)! { low = middle + 1 } else { high = middle }
        }
        return .success((false, low))
    }

    /// `d[key]`: the value, or nil when the key is not there.
    static func lookup(_ entries: ArrayValue, _ key: Value, _ what: String) -> Result<Value, Failure> {
        find(entries, key, what).map { $0.found ? value(entries[$0.index]) : .none }
    }

    /// `d[key] = value` (nil removes the key); returns the value it replaced, if any.
    static func set(_ entries: inout ArrayValue, _ key: Value, _ value: Value, _ what: String) -> Result<[Value], Failure> {
        switch find(entries, key, what) {
        case .failure(let failure): return .failure(failure)
        case .success(let (found, index)):
            if value == .none { return .success(found ? [self.value(entries.remove(at: index))] : []) }
            let entry = Value.array([key, value])
            if found { return .success([self.value(entries.replace(at: index, with: entry))]) }
            entries.insert(entry, at: index)
            return .success([])
        }
    }

    /// A literal's keys and values, alternating: duplicate keys trap, as in Swift.
    static func make(_ elements: [Value]) -> Result<ArrayValue, Failure> {
        var entries = ArrayValue([])
        for pair in stride(from: 0, to: elements.count, by: 2) {
            switch find(entries, elements[pair], "the dictionary literal") {
            case .failure(let failure): return .failure(failure)
            case .success(let (found, index)):
                if found { return .failure(.crash("a dictionary literal has the key \(elements[pair]) twice")) }
                entries.insert(.array([elements[pair], elements[pair + 1]]), at: index)
            }
        }
        return .success(entries)
    }

    static func property(_ entries: ArrayValue, _ property: ArrayProperty, _ what: String) -> Result<Value, Failure> {
        switch property {
        case .count: return .success(.int(entries.count))
        case .isEmpty: return .success(.bool(entries.isEmpty))
        case .keys: return .success(.array(ArrayValue(entries.map(key))))
        case .values: return .success(.array(ArrayValue(entries.map(value))))
        case .first, .last: return .failure(.type("\(what) is a dictionary: it has count, isEmpty, keys and values, not \(property.rawValue)"))
        }
    }
}

/// Sets (`Value.set`): members kept sorted and unique, as dictionary keys are (Ints
/// or Strings, all of one kind), so equal sets are equal values.
enum Sets {
    typealias Failure = Operators.Failure

    /// Where `member` is, or would go.
    static func find(_ members: ArrayValue, _ member: Value, _ what: String) -> Result<(found: Bool, index: Int), Failure> {
        switch member {
        case .int, .string: break
        default: return .failure(.type("a set holds Ints or Strings, not \(member.typeName)"))
        }
        if let first = members.first, Dictionaries.precedes(first, member) == nil {
            return .failure(.type("\(what) holds \(first.typeName)s, not \(member.typeName)"))
        }
        var low = 0, high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle] == member { return .success((true, middle)) }
            if Dictionaries.precedes(members[middle], member)! { low = middle + 1 } else { high = middle }
        }
        return .success((false, low))
    }

    /// The members of an array, sorted, each once.
    static func make(_ items: ArrayValue) -> Result<ArrayValue, Failure> {
        var members = ArrayValue([])
        for item in items {
            switch find(members, item, "the set") {
            case .failure(let failure): return .failure(failure)
            case .success(let (found, index)): if !found { members.insert(item, at: index) }
            }
        }
        return .success(members)
    }

    /// `insert(_:)` and `remove(_:)`; `removeAll()`. Returns what left the set.
    static func mutate(_ members: inout ArrayValue, _ mutation: ArrayMutation, _ operands: [Value], _ what: String) -> Result<[Value], Failure> {
        switch mutation {
        case .removeAll:
            let removed = members.items
            members.removeAll()
            return .success(removed)
        case .insertMember, .removeMember:
            switch find(members, operands[0], what) {
            case .failure(let failure): return .failure(failure)
            case .success(let (found, index)):
                if mutation == .insertMember {
                    if !found { members.insert(operands[0], at: index) }
                    return .success([])
                }
                return .success(found ? [members.remove(at: index)] : [])
            }
        default:
            return .failure(.type("\(what) is a set: it has insert(_:), remove(_:), removeAll() and contains(_:), not \(mutation.rawValue)"))
        }
    }

    static func property(_ members: ArrayValue, _ property: ArrayProperty, _ what: String) -> Result<Value, Failure> {
        switch property {
        case .count: return .success(.int(members.count))
        case .isEmpty: return .success(.bool(members.isEmpty))
        default: return .failure(.type("\(what) is a set: it has count and isEmpty, not \(property.rawValue)"))
        }
    }
}
