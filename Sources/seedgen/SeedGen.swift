import ArgumentParser
import SeedKit

@main
struct SeedGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedgen",
        abstract: "Compile data sets into SQLite seed databases, and install them at startup.",
        version: SeedKit.toolVersion,
        subcommands: [Build.self, Install.self, Pack.self, Inspect.self, Verify.self, Diff.self, SchemaCommand.self]
    )
}
