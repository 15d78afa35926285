/// Entering and leaving an actor: who holds it, and its mailbox (in the order
/// `Machine.mailboxPosition` gives, or none under `mailbox "any"`).
extension Machine {
    /// Leaves the actor the thread holds: the first task in its mailbox gets it (or,
    /// under `mailbox "any"`, none does: it is free). The words and the access.
    mutating func leaveActor(_ actor: ObjectID) -> (text: String, access: Access) {
        world.headers[actor].owner = nil
        world.headers[actor].depth = 0
        var text = "leaves \(world.heap[actor].name)"
        var queue = mailbox(actor)
        if !program.mailboxAnyOrder, !queue.isEmpty {
            let next = queue.removeFirst()
            world.heap[actor].kind = .actor(mailbox: queue)
            world.headers[actor].owner = next
            world.headers[actor].depth = 1
            text += ", which goes to \(world.threadNames[next]), first in its mailbox"
        } else if !queue.isEmpty {
            text += ", free for any task in its mailbox (\(queue.map { world.threadNames[$0] }.joined(separator: ", ")))"
        }
        return (text, Access(.queue(actor), .write))
    }

    /// Enters an actor: takes it when it is this thread's (handed over), or free with
    /// nobody ahead in its mailbox; else joins the mailbox and waits. The words and
    /// the access (enqueuing is a write of the mailbox: its order decides who runs).
    mutating func enterActor(_ actor: ObjectID) -> (text: String, access: Access) {
        let name = world.heap[actor].name
        var queue = mailbox(actor)
        let owner = world.headers[actor].owner
        let handedOver = owner == thread
        let mayTake = owner == nil && (program.mailboxAnyOrder || queue.isEmpty || queue.first == thread)
        if handedOver || mayTake {
            queue.removeAll { $0 == thread }
            world.heap[actor].kind = .actor(mailbox: queue)
            world.headers[actor].owner = thread
            world.headers[actor].depth = 1
            state.waiting = nil
            return (handedOver ? "runs on \(name): its turn" : "runs on \(name)", Access(.queue(actor), .write))
        }
        var ahead = ""
        if !queue.contains(thread) {
            let position = mailboxPosition(of: thread, in: queue, on: actor)
            queue.insert(thread, at: position)
            if position < queue.count - 1 {
                ahead =
                    "; its priority, \(currentPriority.name), puts it ahead of "
                    + queue[(position + 1)...].map { world.threadNames[$0] }.joined(separator: ", ")
            }
        }
        // Where it joins depends on its priority, which an awaiter may raise.
        if program.usesTaskPriorities, let handle = state.task { touch(.operation(handle), .read) }
        world.heap[actor].kind = .actor(mailbox: queue)
        state.waiting = .actor(actor)
        // Waiting in a mailbox is no job: the pool thread goes back.
        leavePool()
        let holder = owner.map { "\(world.threadNames[$0]) holds" } ?? "is free, but others are first"
        let place = queue.count == 1 ? "" : " (\(queue.count) waiting)"
        return ("enqueues on \(name), which \(holder): waits in its mailbox\(place)\(ahead)", Access(.queue(actor), .write))
    }
}
