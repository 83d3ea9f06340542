import ArgumentParser
import Foundation
import SeedKit

extension SeedGen.SchemaCommand {
    struct Draft: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "draft",
            abstract: "Draft a schema from XML inputs: tables, typed columns, keys and references.",
            discussion: """
                Reads every XML file among the inputs once, streaming (memory stays bounded \
                whatever their size), and writes a schema that builds as it is:

                  - a table per repeated element (an element that occurs more than once in one \
                parent), nested in the table of the repeated element around it (parent: and a \
                $position column), plus a table per root element for what no list holds;
                  - a column per attribute and element text, typed from every value seen \
                (integer, real, date, partial date, datetime with its digits of a second, \
                duration, boolean, else text); an empty element is an exists: column;
                  - a key where an id-like attribute or child (id, key, <element>Id) is in every \
                record and unique (in the input, or in each file: [file, xml_id]);
                  - a reference where a column's values are a table's keys (OwnerUserId -> users, \
                nd/@ref -> node), with onMissing: keep when some are not;
                  - the namespaces the files use, every version, and entities: html when they \
                use HTML's named characters.

                Comments give counts and examples, and say what the draft does not keep (the \
                markup inside mixed content). Review it, rename what you like, then build.

                Examples:
                  seedgen schema draft dump/ --out dump.yaml
                  seedgen build dump/ --schema dump.yaml --out dump.sqlite
                """)

        @Argument(help: ArgumentHelp("Input folders, .zip archives or XML files.", valueName: "input"))
        var inputs: [String]

        @Option(
            name: .shortAndLong, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file")
        )
        var out: String?

        @Option(help: ArgumentHelp("The schema's name (default: the first input's name).", valueName: "name"))
        var name: String?

        func validate() throws {
            if inputs.isEmpty { throw ValidationError("Give at least one input folder, .zip or XML file.") }
            if let name, name.isEmpty || !name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) {
                throw ValidationError("--name must be letters, digits and _.")
            }
        }

        func run() throws {
            let draft: SchemaDraft
            do { draft = try SchemaDraft.draft(inputs: inputs, name: name) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(1)
            }
            try SeedGen.SchemaCommand.emit(draft.text, to: out)
            if let out {
                FileHandle.standardError.write(
                    Data(
                        """
                        drafted \(out): \(draft.tableCount) table\(draft.tableCount == 1 ? "" : "s") from \
                        \(draft.files.count) file\(draft.files.count == 1 ? "" : "s")\n
                        """
                        .utf8))
            }
        }
    }
}
