import RaceLabEngine

/// The timeline's actor lanes, right of the thread lanes: one per actor (`ActorLane`),
/// its name at the top; each hold a bar in the holder's colour, named on its first
/// row; each row after which tasks wait in the mailbox shaded, and the mailbox named
/// where it changes. A row shows the actor as its step left it, as the lock bars do.
/// A program without actors draws none of this, and its picture is as it was.
extension SVGTimeline {
    static let actorLaneWidth = 200
    /// How many colours the holders' bars take in turn, by thread.
    static let holderColours = 6

    /// The actor lanes' style: the holders' colours and the mailbox's shade, light and dark.
    static let actorStyle = """
        .mailbox { fill: #fbefff; } .h0 { fill: #0969da; } .h1 { fill: #1a7f37; } .h2 { fill: #bc4c00; } .h3 { fill: #bf3989; } .h4 { fill: #9a6700; } .h5 { fill: #1b7c83; }
        @media (prefers-color-scheme: dark) {
          .mailbox { fill: #22163d; } .h0 { fill: #4493f8; } .h1 { fill: #3fb950; } .h2 { fill: #f0883e; } .h3 { fill: #db61a2; } .h4 { fill: #d29922; } .h5 { fill: #39c5cf; }
        }

        """

    /// A thread's colour in the actor lanes, as a square before its name.
    static func swatch(_ thread: ThreadID, x: Int) -> String {
        "<rect class=\"h\(thread % holderColours)\" x=\"\(x)\" y=\"\(top - 18)\" width=\"10\" height=\"10\" rx=\"2\"/>"
    }

    /// The lanes of `actors`, the first at `left`.
    func actorLanes(_ actors: [ActorLane], left: Int) -> String {
        let names = run.world.threadNames
        let bottom = Self.top + replay.threads.count * Self.rowHeight
        var out = ""
        for (index, lane) in actors.enumerated() {
            let x = left + index * Self.actorLaneWidth
            out += "<line class=\"lane\" x1=\"\(x)\" y1=\"\(Self.top - 24)\" x2=\"\(x)\" y2=\"\(bottom)\"/>\n"
            out += "<text class=\"ink\" x=\"\(x + 8)\" y=\"\(Self.top - 8)\" font-weight=\"bold\">\(XML.escape("actor " + lane.name))</text>\n"
            let holds = lane.holds
            for hold in holds {
                let y = Self.top + hold.steps.lowerBound * Self.rowHeight
                let steps = hold.steps.count == 1 ? "step \(hold.steps.lowerBound + 1)" : "steps \(hold.steps.lowerBound + 1)–\(hold.steps.upperBound + 1)"
                out +=
                    "<rect class=\"h\(hold.holder % Self.holderColours)\" x=\"\(x + 6)\" y=\"\(y + 1)\" width=\"8\" height=\"\(hold.steps.count * Self.rowHeight - 2)\" rx=\"2\"><title>\(XML.escape("\(names[hold.holder]) holds \(lane.name) after \(steps)"))</title></rect>\n"
            }
            let starts = Set(holds.map({ $0.steps.lowerBound }))
            for (step, row) in lane.rows.enumerated() {
                guard let row else { continue }
                let y = Self.top + step * Self.rowHeight
                var label: [String] = []
                if starts.contains(step), let holder = row.holder { label.append(names[holder]) }
                if !row.mailbox.isEmpty {
                    out +=
                        "<rect class=\"mailbox\" x=\"\(x + 16)\" y=\"\(y)\" width=\"\(Self.actorLaneWidth - 17)\" height=\"\(Self.rowHeight)\"><title>\(XML.escape("\(lane.name): \(row.text(names))"))</title></rect>\n"
                    // Named where it changes, or where a hold starts beside it.
                    let before = step > 0 ? lane.rows[step - 1]?.mailbox : nil
                    if before != row.mailbox || !label.isEmpty { label.append(row.mailboxText(names)) }
                }
                if !label.isEmpty {
                    out +=
                        "<text class=\"ink\" x=\"\(x + 20)\" y=\"\(y + 15)\">\(XML.escape(Self.fit(label.joined(separator: "; "), Self.actorLaneWidth - 24)))</text>\n"
                }
            }
        }
        return out
    }

    /// A blocked thread's tooltip: a task's state as step mode says it ("task B:
    /// enqueued on images"), or "A is blocked".
    func blockedText(_ thread: ThreadID, before step: Int) -> String {
        let world = replay.worlds[step]
        let name = run.world.threadNames[thread]
        guard thread < world.threads.count, let handle = world.threads[thread].task, let task = world.heap[handle].taskState else {
            return "\(name) is blocked"
        }
        return "task \(name): " + SharedState.taskText(world, task, run.program)
    }
}
