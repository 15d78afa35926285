import RaceLabEngine
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
        let locator = context.locator, files = locator.files
        let build = "build it with .ci/build-wasm (see the README's development section), or set RACELAB_WASM to a racelab.wasm(.gz)"
        guard let path = Self.modulePath(locator) else {
            let why = "the playground embeds the WebAssembly engine, and no Scenarios folder says where it is"
            return CommandOutput(stderr: "error: \(why): \(build)\n", status: .noInput)
        }
        let module: [UInt8]
        switch files.bytes(path) {
        case .success(let bytes): module = bytes
        case .failure(let failure):
            return CommandOutput(stderr: "error: the playground embeds the WebAssembly engine: \(failure.message); \(build)\n", status: .noInput)
        }
        guard module.starts(with: PlaygroundPage.wasmMagic) || module.starts(with: PlaygroundPage.gzipMagic) else {
            return CommandOutput(stderr: "error: \(path) is not a WebAssembly module; \(build)\n", status: .noInput)
        }
        var shipped: [(path: String, text: String)] = []
        if let folder = locator.shipped {
            for (inside, prefix) in [(folder, "Scenarios/"), (Path.join(folder, "Exercises"), "Scenarios/Exercises/")] {
                for name in (files.names(inside) ?? []).filter({ $0.hasSuffix(".race") }).sorted() {
                    if case .success(let text) = files.read(Path.join(inside, name)) { shipped.append((prefix + name, text)) }
                }
            }
        }
        let page = PlaygroundPage(
            fileName: Path.lastPart(scenario.file.name), source: scenario.file.text, title: "\(scenario.name): \(scenario.title)",
            shipped: shipped, module: module)
        return write(page.render(), context.parsed.values["output"], files)
    }
}
