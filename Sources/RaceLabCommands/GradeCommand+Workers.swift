import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage

extension GradeCommand {
    /// How a grade command grades its files: in a pool of worker processes with their
    /// limits (`--jobs`, `--worker-memory`, `--worker-time`), or, for a caller that
    /// gives no worker binary, in this process.
    struct Grading {
        var grader: Grader
        /// The workers, and what they are asked to do; nil grades here.
        var pool: (workers: WorkerGrading, plan: WorkerGrading.Plan)?
        var progress: (@Sendable (String) -> Void)?

        init(_ context: CommandContext, grader: Grader, command: GradeCommand) throws(UsageError) {
            let parsed = context.parsed
            self.grader = grader
            progress = command.progress
            let spec = GradeCommand.spec, defaults = WorkerProtocol.Limits.default
            let jobs = try parsed.number("jobs", in: 1...1_024, spec) ?? command.workers?.defaultJobs ?? 1
            let limits = WorkerProtocol.Limits(
                memory: try parsed.number("worker-memory", in: 64...(1 << 30), spec) ?? defaults.memory,
                seconds: try parsed.number("worker-time", in: 1...(1 << 30), spec) ?? defaults.seconds)
            pool = command.workers.map { workers in
                let plan = WorkerGrading.Plan(
                    limits: limits, jobs: jobs, environment: context.locator.environment,
                    setup: WorkerProtocol.Setup(exercises: grader.exercises.map { $0.scenario.file }, revealsAnswers: grader.revealsAnswers),
                    progress: command.progress)
                return (workers, plan)
            }
        }

        /// Each job's grade, in their order. A job its worker stopped on (a crash, its
        /// memory or its time) is an `error` row that says so.
        func grade(_ jobs: [WorkerProtocol.Job]) -> [Grade] {
            guard let pool else {
                return jobs.map { job in
                    progress?("grading \(job.file.name) …")
                    return grader.grade(job.file, student: job.student, expected: job.expected)
                }
            }
            return zip(jobs, pool.workers.run(jobs, pool.plan)).map { job, result in
                switch result {
                case .success(let grade): return grade
                case .failure(let stop): return stopped(job, stop)
                }
            }
        }

        /// The row of a file its worker stopped on: `error`, worth 0 of its exercise's
        /// points (the exercise it must be, else the one it names, else its file's name).
        func stopped(_ job: WorkerProtocol.Job, _ stop: WorkerProtocol.Stop) -> Grade {
            let exercise =
                job.expected.flatMap(grader.exercise) ?? Exercise.declaredID(in: job.file).flatMap(grader.exercise)
                ?? grader.exercise(GradeCommand.stem(of: job.file.name))
            var row = Grade.invalid(
                file: job.file.name, student: job.student, reason: "the grader stopped on this file: \(stop.words)", exercise: exercise,
                status: .error)
            row.details = stop.details(job.file.name)
            return row
        }
    }
}
