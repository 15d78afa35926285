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
racelab.workerExecutable = RaceLab.currentExecutable
// Step mode takes keys from a terminal, or lines from anything else.
racelab.terminal = Terminal.standard()
let output = racelab.main(Array(CommandLine.arguments.dropFirst()))
// A failed write (a full disk, a closed output) is an I/O error, not a silent success.
if let failure = RaceLab.write(output.stdout, to: STDOUT_FILENO) {
    _ = RaceLab.write(output.stderr + "error: cannot write to standard output: \(failure)\n", to: STDERR_FILENO)
    exit(ExitCode.ioError.rawValue)
}
_ = RaceLab.write(output.stderr, to: STDERR_FILENO)
exit(output.exitCode)
