import Testing

@testable import RaceLabEngine

/// An access is stored as one word; what it reads back, and how two of them overlap,
/// must be what the enum says.
@Suite struct AccessTests {
    /// Every case, with object IDs and fields at the edges of what a word holds.
    static let targets: [Access.Target] = {
        var targets: [Access.Target] = [.mainQueue, .allocator, .output]
        for id in [0, 1, 2, Int(UInt32.max)] {
            targets += [.global(id), .object(id), .lock(id), .operation(id), .queue(id), .count(id)]
            for field in [0, 1, -1, -7, (1 << 19) - 1, -(1 << 19)] { targets.append(.field(id, field)) }
        }
        return targets
    }()

    static let kinds: [Access.Kind] = [.read, .write, .acquire, .release]

    /// The overlap rule, written out on the enum: the same target; fields of one
    /// object apart from each other; the object as a whole over all its parts; a retain
    /// count over itself and the object's lifetime only.
    static func overlapRule(_ a: Access.Target, _ b: Access.Target) -> Bool {
        if a == b { return true }
        switch (a, b) {
        case (.field, .field), (.count, .count): return false
        case (.count(let id), _): return b == .object(id)
        case (_, .count(let id)): return a == .object(id)
        default:
            guard let id = a.objectID else { return false }
            return id == b.objectID
        }
    }

    @Test func aPackedAccessReadsBackItsTargetAndKind() {
        for target in Self.targets {
            for kind in Self.kinds {
                var access = Access(target, kind)
                #expect(access.target == target && access.kind == kind, "\(target) \(kind)")
                access.kind = .read
                #expect(access.target == target && access.isRead)
                access.target = .global(3)
                #expect(access == Access(.global(3), .read))
                // An atomic access (an actor's field too) keeps its kind: the "Why" line
                // and the JSON said "wrote" and "release" for its reads.
                #expect(Access(target, kind, atomic: true).kind == kind, "atomic \(target) \(kind)")
                #expect(Access(target, kind, ordering: .relaxed, readModifyWrite: true).kind == kind, "ordered \(target) \(kind)")
            }
        }
    }

    @Test func packedTargetsOverlapExactlyAsTheRuleSays() {
        var overlapping = 0
        for a in Self.targets {
            for b in Self.targets {
                let expected = Self.overlapRule(a, b)
                #expect(a.overlaps(b) == expected, "\(a) and \(b)")
                if expected { overlapping += 1 }
                for x in Self.kinds {
                    for y in Self.kinds {
                        #expect(Access(a, x).conflicts(with: Access(b, y)) == (expected && (x != .read || y != .read)))
                    }
                }
            }
        }
        // Each target with itself; for each of the 4 IDs, every ordered pair of its 10
        // parts (object, lock, operation, queue, 6 fields) but two fields, and the
        // count with the object, both ways.
        #expect(overlapping == Self.targets.count + 4 * (10 * 9 - 6 * 5 + 2))
    }

    @Test func differentAccessesAreDifferentWords() {
        let all = Self.targets.flatMap { target in Self.kinds.map { Access(target, $0) } }
        #expect(Set(all).count == all.count)
        #expect(!all.contains(.absent))
    }

    @Test func aStepsAccessesKeepTheirOrderAndConflictAsTheirAccessesDo() {
        let read = Access(.global(1), .read), write = Access(.global(1), .write)
        let other = Access(.field(2, 0), .write), lock = Access(.lock(2), .acquire)
        let none = StepAccesses([Access]())
        #expect(none.isEmpty && Array(none) == [])
        for list in [[read], [read, other], [other, read, lock, write]] {
            let kept = StepAccesses(list)
            #expect(Array(kept) == list && kept.count == list.count)
            #expect(kept == StepAccesses(list[...]) && kept != none)
        }
        #expect(StepAccesses([read]) != StepAccesses([read, read]))
        #expect(!StepAccesses([read]).conflict(with: [read]))
        #expect(StepAccesses([read]).conflict(with: [other, write]))
        #expect(StepAccesses([other, lock]).conflict(with: [read, Access(.object(2), .write)]))
        #expect(!StepAccesses([other, lock]).conflict(with: [read, Access(.global(2), .write)]))
        #expect(!none.conflict(with: [write]) && !StepAccesses([write]).conflict(with: none))
    }
}
