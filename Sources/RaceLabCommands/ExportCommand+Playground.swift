import RaceLabEngine
import RaceLabGrading
import RaceLabLanguage
import RaceLabPresentation

extension ExportCommand {
    /// Where the playground's WebAssembly engine is: `RACELAB_WASM` (a module, or one
    /// gzipped), else the gzipped module `.ci/build-wasm` writes beside the shipped
    /// `Scenarios` folder.
    static func modulePath(_ locator: ScenarioLocator) -> String? {
        if let given = locator.environment["RACELAB_WASM"], !given.isEmpty { return given }
        return locator.shipped.map { Path.join(Path.parent($0), ".build-wasm/racelab.wasm.gz") }
    }

    /// `--format playground`: the page that runs the engine itself, opened on this
    /// scenario's program, with every shipped scenario and exercise beside it.
    func playground(_ scenario: Scenario, _ context: CommandContext) -> CommandOutput {
        let start = (file: Path.lastPart(scenario.file.name), source: scenario.file.text, title: "\(scenario.name): \(scenario.title)")
        switch Self.playgroundPage(start, levels: [], context.locator) {
        case .success(let page): return write(page, context.parsed.values["output"], context.locator.files)
        case .failure(let output): return output
        }
    }

    /// The playground page, opened on `start`, with the engine and every shipped
    /// scenario and exercise embedded; `levels` makes it a course. Or why not.
    static func playgroundPage(
        _ start: (file: String, source: String, title: String), levels: [PlaygroundPage.Level], _ locator: ScenarioLocator
    ) -> Result<String, CommandOutput> {
        let files = locator.files
        let build = "build it with .ci/build-wasm (see the README's development section), or set RACELAB_WASM to a racelab.wasm(.gz)"
        guard let path = modulePath(locator) else {
            let why = "the playground embeds the WebAssembly engine, and no Scenarios folder says where it is"
            return .failure(CommandOutput(stderr: "error: \(why): \(build)\n", status: .noInput))
        }
        let module: [UInt8]
        switch files.bytes(path) {
        case .success(let bytes): module = bytes
        case .failure(let failure):
            return .failure(CommandOutput(stderr: "error: the playground embeds the WebAssembly engine: \(failure.message); \(build)\n", status: .noInput))
        }
        guard module.starts(with: PlaygroundPage.wasmMagic) || module.starts(with: PlaygroundPage.gzipMagic) else {
            return .failure(CommandOutput(stderr: "error: \(path) is not a WebAssembly module; \(build)\n", status: .noInput))
        }
        var shipped: [(path: String, text: String)] = []
        if let folder = locator.shipped {
            for (inside, exercise) in [(folder, false), (Path.join(folder, "Exercises"), true)] {
                for name in (files.names(inside) ?? []).filter({ $0.hasSuffix(".race") }).sorted() {
                    let path = PlaygroundPage.shippedPath(String(name.dropLast(5)), exercise: exercise)
                    if case .success(let text) = files.read(Path.join(inside, name)) { shipped.append((path, text)) }
                }
            }
        }
        let page = PlaygroundPage(fileName: start.file, source: start.source, title: start.title, shipped: shipped, module: module, levels: levels)
        return .success(page.render())
    }
}
