/// Tasks' priorities (`JobPriority`): where a job joins an actor's mailbox, and
/// escalation, which raises an awaited task to its awaiter's priority.
///
/// The runtime's default actor runs the first job of its highest priority band, and
/// jobs of one band in the order they came; so a job joins its mailbox behind every
/// job of its band or a higher one, ahead of the lower ones. The main actor's queue
/// is the main dispatch queue: first come, first served. A task awaiting another's
/// value escalates it (and its structured children) to its own priority when that is
/// higher; a job of the escalated task waiting in a mailbox then moves up to its new
/// band, as the runtime's "stealer" job for it does. Only a program that gives some
/// task a priority (`Program.usesTaskPriorities`) can see any of it: else every task
/// is medium and each mailbox is first come, first served.
extension Machine {
    /// The priority a thread's jobs carry: its task's, or medium (main's code, a
    /// thread).
    func priority(of thread: ThreadID) -> JobPriority {
        world.threads[thread].task.flatMap(taskState)?.priority ?? .medium
    }

    /// "priority high", said of a new task where priorities can differ; else nil.
    func priorityWords(_ handle: ObjectID) -> String? {
        guard program.usesTaskPriorities, let task = taskState(handle) else { return nil }
        return "priority \(task.priority.name)"
    }

    /// The running task's priority, which a task it makes inherits.
    var currentPriority: JobPriority { priority(of: thread) }

    /// Where a job of `thread` joins `actor`'s mailbox `queue`: behind the jobs of its
    /// band or a higher one.
    func mailboxPosition(of thread: ThreadID, in queue: [ThreadID], on actor: ObjectID) -> Int {
        guard program.usesTaskPriorities, !program.mailboxAnyOrder, actor != world.mainActor else { return queue.count }
        let band = priority(of: thread).band
        return queue.firstIndex { priority(of: $0).band < band } ?? queue.count
    }

    /// Raises `handle`'s task, and its structured children still running, to
    /// `priority`: the words for the awaiter's step ("" when nothing is raised) and
    /// what it touched.
    mutating func escalate(_ handle: ObjectID, to priority: JobPriority) -> (words: String, accesses: [Access]) {
        guard var task = taskState(handle), !task.isFinished, task.priority < priority else { return ("", []) }
        let from = task.priority
        task.priority = priority
        world.heap[handle].kind = .task(task)
        var accesses = [Access(.operation(handle), .write)]
        var words = ", and escalates \(world.heap[handle].name) from \(from.name) to \(priority.name)"
        if case .actor(let actor) = world.threads[task.thread].waiting, world.headers[actor].owner != task.thread {
            var queue = mailbox(actor)
            if let index = queue.firstIndex(of: task.thread) {
                queue.remove(at: index)
                let position = mailboxPosition(of: task.thread, in: queue, on: actor)
                queue.insert(task.thread, at: position)
                world.heap[actor].kind = .actor(mailbox: queue)
                accesses.append(Access(.queue(actor), .write))
                if position < index { words += " (it moves up in \(world.heap[actor].name)'s mailbox)" }
            }
        }
        for child in task.children {
            let (more, touched) = escalate(child, to: priority)
            words += more
            accesses += touched
        }
        return (words, accesses)
    }
}
