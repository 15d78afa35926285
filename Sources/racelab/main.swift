import Foundation
import RaceLabCLI

var racelab = RaceLab(environment: ProcessInfo.processInfo.environment)
// A live progress line for long searches, only when a person watches the terminal.
if isatty(STDERR_FILENO) == 1 {
    racelab.progress = { line in
        FileHandle.standardError.write(("\r\u{1B}[K" + line).data(using: .utf8)!)
    }
}
// Step mode takes keys from a terminal, or lines from anything else.
racelab.terminal = Terminal.standard()
let output = racelab.main(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(output.stdout.data(using: .utf8)!)
FileHandle.standardError.write(output.stderr.data(using: .utf8)!)
exit(output.exitCode)
