import Foundation

/// A `SchemaDraftPlan` written as a schema file: YAML that `Schema.parse` reads, one flow
/// mapping per column and reference, each commented with what the inputs held.
struct SchemaDraftText {
    let plan: SchemaDraftPlan
    let name: String
    let inputs: [String]

    var text: String {
        let structure = plan.structure
        var lines: [String] = []
        let shownFiles = structure.files.prefix(6).joined(separator: ", ") + (structure.files.count > 6 ? ", ..." : "")
        lines.append("# Drafted by `seedgen schema draft` from \(count(structure.files.count, "file")): \(shownFiles).")
        lines.append("# It builds as it is:")
        lines.append("#   seedgen build \(inputs.joined(separator: " ")) --schema THIS_FILE --out seed.sqlite")
        lines.append("# Then make it yours: rename tables and columns, leave out what you do not need, and")
        lines.append("# raise schemaVersion whenever you change it (Schema/README.md, \"Your first schema\").")
        lines.append("# Each table reads the elements at the paths it names (from the root); values are")
        lines.append("# trimmed of surrounding white space, and date-times are stored in UTC.")
        if !plan.notes.isEmpty {
            lines.append("# Not described:")
            for note in plan.notes { lines.append("#   - " + Self.comment(note)) }
        }
        lines.append("name: \(name)")
        lines.append("schemaVersion: 1")
        lines.append("format: xml")
        if structure.usesHTMLEntities {
            lines.append("entities: html   # the files use HTML's named characters (&eacute;, &nbsp;, ...)")
        }
        if !plan.prefixes.isEmpty {
            lines.append("# The namespaces the files use. Names below are written without a prefix, and so match")
            lines.append("# them in any namespace (every version of an export), unless two names differ only there.")
            if let none = plan.prefixes.first(where: { $0.uri.isEmpty }) {
                lines.append(
                    """
                    # '\(none.prefix)' is no namespace: '\(none.prefix):name' is in none, beside the same name in \
                    a namespace.
                    """
                )
            }
            lines.append("namespaces:")
            for (prefix, uri) in plan.prefixes { lines.append("  \(prefix): \(Self.quoted(uri))") }
        }
        lines.append("tables:")
        for table in plan.tables { lines.append(contentsOf: self.table(table)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func table(_ table: SchemaDraftPlan.Table) -> [String] {
        let structure = plan.structure
        var lines = [""]
        let paths = table.elements.map { plan.anchoredPath($0) }
        let files = Set(table.elements.flatMap { structure.elements[$0].files })
        let what =
            table.isDocument
            ? "the root <\(table.elementName.localName)> of each file (what no list holds)"
            : "\(Self.grouped(table.records)) <\(table.elementName.localName)> element\(table.records == 1 ? "" : "s")"
        lines.append("  # \(what), in \(count(files.count, "file"))")
        for note in table.notes { lines.append("  # " + Self.comment(note)) }
        let pattern = table.parent == nil ? filePattern(table) : nil
        if let pattern, !pattern.unread.isEmpty {
            let unread = pattern.unread.prefix(3).joined(separator: ", ") + (pattern.unread.count > 3 ? ", ..." : "")
            lines.append(
                "  # "
                    + Self.comment(
                        """
                        '\(pattern.pattern)' names \(unread), not XML: the build would read it and fail; move it \
                        out of the input
                        """
                    ))
        }
        lines.append("  - name: \(table.name)")
        // Another table reading elements named alike (in other records): a relative path
        // would read them too, values the columns were not typed from. Every path is listed.
        let alike =
            plan.tables.filter {
                $0.elementName.localName == table.elementName.localName
                    && $0.parentName?.localName == table.parentName?.localName
            }.count > 1
        if paths.count == 1 {
            lines.append("    element: \(Self.quoted(paths[0]))")
        } else if paths.count <= SchemaDraftPlan.alternativeLimit || alike || !plan.relativePathReadsOnly(table) {
            lines.append("    element: [\(paths.map(Self.quoted).joined(separator: ", "))]")
        } else {
            // Too many paths to list: the element under its parent, at any depth.
            let element = plan.writtenName(table.elements[0])
            let parent = structure.elements[table.elements[0]].parent
            lines.append(
                """
                    element: \(Self.quoted(parent >= 0 ? plan.writtenName(parent) + "/" + element : element))   # \
                at \(paths.count) paths
                """
            )
        }
        if let parent = table.parent {
            lines.append("    parent: \(plan.tables[parent].name)")
        } else if let pattern {
            lines.append("    file: \(Self.quoted(pattern.pattern))")
        }
        if table.key.count == 1 {
            lines.append("    key: \(table.key[0])")
        } else if !table.key.isEmpty {
            lines.append("    key: [\(table.key.joined(separator: ", "))]")
        }
        lines.append("    columns:")
        for column in table.columns { lines.append(self.column(column, records: table.records)) }
        if !table.references.isEmpty {
            lines.append("    references:")
            for reference in table.references {
                var entry = "      - { column: \(reference.column), from: "
                entry += reference.from.count == 1 ? reference.from[0] : "[\(reference.from.joined(separator: ", "))]"
                entry += ", to: \(plan.tables[reference.to].name)"
                if reference.keep { entry += ", onMissing: keep" }
                entry += " }   # " + Self.comment(reference.note)
                lines.append(entry)
            }
        }
        return lines
    }

    private func column(_ column: SchemaDraftPlan.Column, records: Int) -> String {
        var parts = ["name: \(column.name)"]
        if column.exists {
            parts.append("exists: true")
        } else if column.type != .text {
            parts.append("type: \(column.type.rawValue)")
        }
        if let format = column.format { parts.append("format: \(Self.quoted(format))") }
        if column.precision > 0 { parts.append("precision: \(column.precision)") }
        if column.partial { parts.append("partial: true") }
        parts.append("source: \(Self.quoted(column.source))")
        if column.required { parts.append("required: true") }
        var line = "      - { " + parts.joined(separator: ", ") + " }"
        var comment: [String] = []
        if let profile = column.profile {
            let present = column.exists ? column.present : profile.count
            comment.append("\(Self.grouped(present)) of \(Self.grouped(records))")
            if !profile.examples.isEmpty {
                comment.append("e.g. " + profile.examples.map { "'\($0)'" }.joined(separator: ", "))
            }
        } else if column.exists {
            comment.append("there in \(Self.grouped(column.present)) of \(Self.grouped(records))")
        }
        if let note = column.note { comment.append(note) }
        if !comment.isEmpty { line += "   # " + Self.comment(comment.joined(separator: "; ")) }
        return line
    }

    /// The files a top-level table reads: its one file, all of the same extension, all, all
    /// named alike (`NX_*.xml`), or all ending alike (`*.[rx][dm][fl]`); the first of these
    /// that names no input the draft
    /// did not read (not XML: the build would fail on it), with the unread ones it names
    /// when each does.
    private func filePattern(_ table: SchemaDraftPlan.Table) -> (pattern: String, unread: [String]) {
        let structure = plan.structure
        // Past `fileLimit` the files an element is in are not all known: any file read may be.
        let more = table.elements.contains { structure.elements[$0].moreFiles }
        let names =
            more
            ? structure.files
            : Set(table.elements.flatMap { structure.elements[$0].files }).sorted().map { structure.files[$0] }
        var patterns: [String] = []
        if names.count == 1 { patterns.append(Self.escaped(names[0])) }
        let extensions = Set(
            names.map { name -> String in name.lastIndex(of: ".").map { String(name[$0...]).lowercased() } ?? "" })
        if extensions.count == 1, let only = extensions.first, !only.isEmpty {
            patterns.append("*" + Self.escaped(only))
        }
        patterns.append("*")
        if names.count > 1 {
            let lowered = names.map { Array($0.lowercased()) }
            var prefix = lowered[0], suffix = lowered[0]
            for name in lowered.dropFirst() {
                prefix = zip(prefix, name).prefix { $0.0 == $0.1 }.map(\.0)
                suffix = zip(suffix.reversed(), name.reversed()).prefix { $0.0 == $0.1 }.map(\.0).reversed()
            }
            let shortest = lowered.map(\.count).min() ?? 0
            if prefix.count + suffix.count > shortest { suffix = Array(suffix.suffix(shortest - prefix.count)) }
            if !prefix.isEmpty || !suffix.isEmpty {
                patterns.append(Self.escaped(String(prefix)) + "*" + Self.escaped(String(suffix)))
            }
            // The last characters, each one of those the names have there (`*.[rx][dm][fl]`
            // for .xml and .rdf): broader than the names, but it may leave the unread out.
            // The extensions' length first (the shortest one's, with its dot).
            let safe = Set("abcdefghijklmnopqrstuvwxyz0123456789._")
            let extensionLength =
                lowered.map { name in name.lastIndex(of: ".").map { name.count - $0 } ?? 0 }.min() ?? 0
            let lengths =
                (extensionLength > 1 ? [extensionLength] : []) + (1...shortest).filter { $0 != extensionLength }
            for length in lengths
            where length <= shortest && lowered.allSatisfy({ $0.suffix(length).allSatisfy(safe.contains) }) {
                patterns.append(
                    "*"
                        + (0..<length).map { offset -> String in
                            let characters = Set(lowered.map { $0[$0.count - length + offset] }).sorted()
                            return characters.count == 1 ? String(characters[0]) : "[" + String(characters) + "]"
                        }.joined())
            }
        }
        var first: (String, [String])?
        for pattern in patterns {
            let unread = structure.unreadFiles.filter { XMLMapping.file($0, matches: pattern) }
            if unread.isEmpty { return (pattern, []) }
            if first == nil { first = (pattern, unread) }
        }
        return first!
    }

    /// `name` as an `fnmatch` pattern that matches it alone.
    static func escaped(_ name: String) -> String {
        var result = ""
        for character in name {
            if "*?[\\".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private func count(_ number: Int, _ noun: String) -> String {
        "\(Self.grouped(number)) \(noun)\(number == 1 ? "" : "s")"
    }

    static func grouped(_ number: Int) -> String { MappingCheck.grouped(number) }

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            default:
                if scalar.value < 32 {
                    result += String(format: "\\x%02X", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// Text fit for one comment line.
    static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
