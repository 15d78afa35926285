import Foundation
import RaceLabCLI

let output = RaceLab(environment: ProcessInfo.processInfo.environment).main(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(output.stdout.data(using: .utf8)!)
FileHandle.standardError.write(output.stderr.data(using: .utf8)!)
exit(output.exitCode)
