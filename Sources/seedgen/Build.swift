import ArgumentParser
import SeedKit

extension SeedGen {
    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Build a seed database from input data.")
        func run() throws {}
    }
}
