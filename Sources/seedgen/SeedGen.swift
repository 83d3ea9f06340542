import ArgumentParser
import SeedKit

@main
struct SeedGen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seedgen",
        abstract: "Compile data sets into SQLite seed databases, and install them at startup.",
        discussion: """
            A typical flow: build in CI, check, pack, and install where it runs.
              seedgen build feed.zip --out seed.sqlite
              seedgen verify seed.sqlite
              seedgen pack seed.sqlite      (seed.sqlite.gz and its manifest)
              seedgen install seed.sqlite.gz --to /var/lib/app/seed.sqlite
            Over the network: seedgen publish writes a channel folder, seedgen update
            installs from its URL, and seedgen channel check checks what it serves.
            """,
        version: SeedKit.toolVersion,
        subcommands: [
            Build.self, Install.self, Pack.self, Delta.self, Publish.self, Keygen.self, Update.self, Channel.self,
            Inspect.self, Verify.self, Diff.self, Report.self, SchemaCommand.self, Journeys.self
        ]
    )
}
