import ArgumentParser
import Foundation
import SeedKit

extension SeedGen {
    struct SchemaCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "schema",
            abstract: "Draft a schema from XML, or share one with an app: generate Swift source, or print the DDL.",
            discussion: """
                An app and the tool must agree on the schema version. Instead of copying the \
                number by hand, generate Swift from the same schema file the seed is built \
                with, compile it into the app, and pass its schemaVersion to SeedInstaller.

                To start a schema for XML data nobody described yet, draft it from the data.

                Examples:
                  seedgen schema draft dump/ --out dump.yaml
                  seedgen schema swift Schema/transit.yaml --out Sources/App/TransitSchema.swift
                  seedgen schema sql Schema/transit.yaml
                """,
            subcommands: [Draft.self, SwiftSource.self, SQL.self]
        )

        struct SwiftSource: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "swift",
                abstract: "Generate Swift with the schema's version and its table and column names.",
                discussion: """
                    The output is one enum (default <Name>Schema, e.g. TransitSchema) with \
                    name, schemaVersion, schemaSHA256 and tables, and one nested enum per table \
                    (Stops, StopTimes, ...) with table, columns, key, primaryKey, allColumns and \
                    Columns.<name> for each column (stop_id -> stopID): a ColumnInfo with its \
                    name, sqlType, swiftType, schemaType, isNullable and, for a reference, the \
                    table and column it points at. It depends only on the schema, so CI can \
                    regenerate it and fail when the checked-in copy differs (git diff --exit-code). \
                    It compiles in Swift 6 language mode.

                    With --grdb the file imports GRDB and adds, per table, a Record struct \
                    (Codable, FetchableRecord, TableRecord) with one property per column and \
                    belongsTo / hasMany associations from the references, e.g. \
                    TransitSchema.StopTimes.Record.trip and TransitSchema.Trips.Record.stopTimes.

                    In the app:
                      let installer = SeedInstaller(source: shipped, destination: installed,
                                                    expectedSchemaVersion: TransitSchema.schemaVersion)
                      let sql = "SELECT \\(TransitSchema.Stops.Columns.stopName) FROM \\(TransitSchema.Stops.table)"
                      let stops = try \
                    TransitSchema.Stops.Record.order(TransitSchema.Stops.Columns.stopName).fetchAll(db)

                    Examples:
                      seedgen schema swift Schema/transit.yaml > Sources/App/TransitSchema.swift
                      seedgen schema swift transit --grdb --out Sources/App/TransitSchema.swift
                      seedgen schema swift transit --type-name Transit --access internal --out Transit.swift
                    """)

            @Argument(
                help: ArgumentHelp(
                    "The schema (a YAML file, or a built-in name such as 'transit').", valueName: "schema"))
            var schema: String

            @Option(
                name: .shortAndLong,
                help: ArgumentHelp(
                    "Write to this file (only when its content changes) instead of standard output.", valueName: "file")
            )
            var out: String?

            @Option(help: ArgumentHelp("The name of the generated enum (default: <Name>Schema).", valueName: "name"))
            var typeName: String?

            @Option(
                help: ArgumentHelp(
                    "The access level of the generated declarations: public or internal.", valueName: "level"))
            var access = "public"

            @Flag(help: "Also emit GRDB record structs with belongsTo/hasMany associations (the file imports GRDB).")
            var grdb = false

            func validate() throws {
                if !["public", "internal"].contains(access) {
                    throw ValidationError("--access must be public or internal.")
                }
                if let typeName,
                    typeName.isEmpty || !typeName.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
                        || typeName.first!.isNumber
                {
                    throw ValidationError("--type-name must be a Swift identifier.")
                }
            }

            func run() throws {
                let schema = try ShipText.loadSchema(self.schema)
                let source = SwiftSchemaGenerator(schema: schema, typeName: typeName, accessLevel: access, grdb: grdb)
                    .source
                try SchemaCommand.emit(source, to: out)
            }
        }

        struct SQL: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "sql",
                abstract: "Print the DDL of a seed built from the schema: CREATE TABLE and CREATE INDEX.",
                discussion: """
                    The statements seedgen build runs, in load order (a table after the tables \
                    it references), each ending with a semicolon. The seedgen_metadata and \
                    seedgen_inputs tables are not included.

                    Example:
                      seedgen schema sql Schema/transit.yaml | sqlite3 empty.sqlite
                    """)

            @Argument(
                help: ArgumentHelp(
                    "The schema (a YAML file, or a built-in name such as 'transit').", valueName: "schema"))
            var schema: String

            @Option(
                name: .shortAndLong,
                help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
            var out: String?

            func run() throws {
                let schema = try ShipText.loadSchema(self.schema)
                try SchemaCommand.emit(schema.sql + "\n", to: out)
            }
        }

        /// Prints `text`, or writes it to `path` when it differs from what is there (so build
        /// systems do not see a change that is not one).
        static func emit(_ text: String, to path: String?) throws {
            guard let path else { return print(text, terminator: "") }
            if let existing = FileManager.default.contents(atPath: path), existing == Data(text.utf8) { return }
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw ShipText.fail(
                    ShipError.io(path: path, message: "cannot write: \(error.localizedDescription)", cause: error))
            }
        }
    }
}
