import RaceLabEngine

/// Why each kind of finding matters, in a sentence or two for learners.
public enum FindingExplainer {
    public static func explanation(_ finding: Finding) -> String {
        explanation(finding.kind, message: finding.message)
    }

    /// A finding's kind explained, in the words its message calls for.
    public static func explanation(_ kind: Finding.Kind, message: String) -> String {
        if kind == .deadlock && message.includes(" spins ") {
            return
                "A thread that spins waits for another thread to change what it reads; here no thread left can ever change it, so it would spin forever."
        }
        if message.includes(Finding.continuationMisuse) {
            return kind == .leak
                ? "A continuation must be resumed exactly once on every path (SE-0300). This one was dropped without a resume: the task that awaits it is suspended for ever, and the runtime only logs a warning."
                : "A continuation must be resumed exactly once on every path (SE-0300). Resuming it a second time is a trap: the runtime stops the app."
        }
        if kind == .deadlock && message.includes("continuation") {
            return
                "A task is suspended on a continuation that nothing left can resume: it waits for ever, and no one reports it (the runtime only warns when a continuation is destroyed unresumed)."
        }
        if kind == .expectation && message.includes(Finding.workNotDone) {
            return
                "The exercise requires this work in every run, on the thread and under the locks it names: skipping it, moving it to another thread or doing it with fewer locks is not a fix."
        }
        return explanation(kind)
    }

    public static func explanation(_ kind: Finding.Kind) -> String {
        switch kind {
        case .assertion:
            return "An assertion in the code did not hold at this step: the threads' steps interleaved in an order the code did not expect."
        case .expectation:
            return
                "The final state is wrong. No single step is wrong on its own: the order the threads' steps interleaved in produced it."
        case .crash:
            return "The program crashed. On a device this kills the app; here the run stops at the step that crashed."
        case .mainThread:
            return "This object may only be used on the main thread (like UIKit objects). Work on it, including its deinit, ran on another thread."
        case .deadlock:
            return "Every thread left is waiting for something another waiting thread holds, so none can ever go on."
        case .runaway:
            return "A thread looped without touching shared state and never finished; the run was stopped."
        case .stepLimit:
            return "The run did not finish within the step limit; a loop may never end."
        case .runtimeError:
            return "The script did something its values do not allow, such as adding a number to a string."
        case .exclusion:
            return "Two threads were inside critical sections of the same name at once: whatever the sections protect, they did not protect it."
        case .invariant:
            return "An 'always' invariant must hold after every step, not only at the end: this step left the shared state in a way it forbids."
        case .leak:
            return
                "An object was autoreleased on a thread with no autorelease pool: nothing will ever release it. Under manual memory each thread's entry point makes its own pool."
        case .forwardProgress:
            return
                "A task blocked its thread (a semaphore's or a group's wait) until other work runs, and that work is a task, which needs a thread of the same pool: with every pool thread so blocked (one thread on the iOS Simulator), nothing can run to signal. Swift concurrency needs every job to make progress: await instead of blocking."
        case .livelock:
            return
                "The threads keep running, every one that can run gets its turn, yet they go round the same states forever without getting anywhere: no thread is blocked, but no work gets done (a livelock)."
        }
    }
}
