import Foundation
import RaceLabCLI

var racelab = RaceLab(environment: ProcessInfo.processInfo.environment)
// A live progress line for long searches, only when a person watches the terminal.
if isatty(STDERR_FILENO) == 1 {
    racelab.progress = { line in
        _ = RaceLab.write("\r\u{1B}[K" + line, to: STDERR_FILENO)
    }
}
// `grade` grades each file in a worker process: this binary, run again.
if let binary = RaceLab.currentExecutable { racelab.gradeInWorkers(of: binary) }
// Step mode takes keys from a terminal, or lines from anything else.
racelab.terminal = Terminal.standard()?.keys
// The parser, the compiler and every walk over a script's syntax recurse once per
// level of nesting, up to `Parser.maxNesting`; a debug build's frames are large, so
// the command runs on a thread with room to spare, whatever the platform's default.
nonisolated(unsafe) let command = racelab
nonisolated(unsafe) var result: CommandOutput?
let finished = DispatchSemaphore(value: 0)
let worker = Thread {
    result = command.main(Array(CommandLine.arguments.dropFirst()))
    finished.signal()
}
worker.stackSize = 64 << 20
worker.start()
finished.wait()
let output = result!
// A failed write (a full disk, a closed output) is an I/O error, not a silent success.
if let failure = RaceLab.write(output.stdout, to: STDOUT_FILENO) {
    _ = RaceLab.write(output.stderr + "error: cannot write to standard output: \(failure)\n", to: STDERR_FILENO)
    exit(ExitCode.ioError.rawValue)
}
_ = RaceLab.write(output.stderr, to: STDERR_FILENO)
exit(output.exitCode)
