// swift-tools-version:6.0
import PackageDescription

// RaceLab: one module per layer. Nothing downstream reaches back upstream:
// Language → Engine → Presentation → Grading → Commands, then
// Commands → CLI (the machine's files, terminal and processes) → the `racelab` executable;
// Commands → Web (files in memory), the browser's entry.
let package = Package(
    name: "RaceLab",
    products: [
        .executable(name: "racelab", targets: ["racelab"])
    ],
    targets: [
        .target(name: "RaceLabLanguage"),
        .target(name: "RaceLabEngine", dependencies: ["RaceLabLanguage"]),
        .target(name: "RaceLabPresentation", dependencies: ["RaceLabLanguage", "RaceLabEngine"]),
        .target(name: "RaceLabGrading", dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation"]),
        // The commands, with the files, terminal and worker processes given to them.
        .target(name: "RaceLabCommands", dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation", "RaceLabGrading"]),
        // The machine's files, terminal and worker processes (Foundation).
        .target(name: "RaceLabCLI", dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation", "RaceLabGrading", "RaceLabCommands"]),
        .executableTarget(name: "racelab", dependencies: ["RaceLabCLI"]),
        // The engine's entry for the browser: built for wasm32 by scripts/build-wasm
        // (Embedded Swift), and natively for its tests.
        .target(name: "RaceLabWeb", dependencies: ["RaceLabPresentation", "RaceLabCommands"], exclude: ["wasm"]),
        // The exploration benchmark: swift run -c release racelab-bench
        .executableTarget(name: "racelab-bench", dependencies: ["RaceLabLanguage", "RaceLabEngine"]),
        // The libFuzzer target: .ci/fuzz builds it with -sanitize=fuzzer -D FUZZING.
        .executableTarget(
            name: "racelab-fuzz",
            dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation", "RaceLabGrading"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // The shipped scenarios and exercises, found on disk, for every test target.
        .target(name: "RaceLabTestSupport", dependencies: ["RaceLabLanguage", "RaceLabEngine"], path: "Tests/RaceLabTestSupport"),
        .testTarget(name: "RaceLabLanguageTests", dependencies: ["RaceLabLanguage"]),
        .testTarget(
            name: "RaceLabEngineTests",
            dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabTestSupport"],
            // The textbook corpus is read from the source tree (see TextbookTests.swift).
            exclude: ["Fixtures"]
        ),
        // The fuzz target's program generator and search oracle, on fixed seeds.
        .testTarget(name: "RaceLabFuzzTests", dependencies: ["racelab-fuzz", "RaceLabLanguage", "RaceLabEngine", "RaceLabTestSupport"]),
        .testTarget(
            name: "RaceLabPresentationTests", dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation", "RaceLabTestSupport"]),
        .testTarget(name: "RaceLabWebTests", dependencies: ["RaceLabWeb", "RaceLabPresentation", "RaceLabCLI"]),
        .testTarget(
            name: "RaceLabCLITests",
            dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabPresentation", "RaceLabGrading", "RaceLabCLI", "RaceLabTestSupport"],
            // Golden files and fixtures are read from the source tree (see GoldenTests.swift).
            exclude: ["Golden", "Fixtures"]
        ),
        .testTarget(
            name: "RaceLabGradingTests",
            dependencies: ["RaceLabLanguage", "RaceLabEngine", "RaceLabGrading", "RaceLabPresentation", "RaceLabCLI", "RaceLabTestSupport"],
            // Reference solutions and graded submissions are read from the source tree.
            exclude: ["Solutions", "Submissions", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
