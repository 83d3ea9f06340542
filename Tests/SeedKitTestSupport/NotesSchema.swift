import SeedTestSupport

/// A schema of one CSV table, `notes` (read from `notes.txt`), for tests of one column feature.
public enum NotesSchema {
    /// Writes the schema, whose columns are `columns` (YAML flow mappings such as
    /// `{ name: text, trim: false }`), to `folder/notes.yaml`; returns its path.
    public static func write(into folder: TemporaryFolder, columns: [String]) -> String {
        folder.write(
            "notes.yaml",
            """
            name: notes
            schemaVersion: 1
            tables:
              - name: notes
                columns:

            """ + columns.map { "      - \($0)\n" }.joined())
    }
}
