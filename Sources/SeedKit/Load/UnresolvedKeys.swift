/// The one place a key that names no row of the whole input is judged (while streaming for
/// CSV, after loading for XML and self-references): an error, or, when the reference (or the
/// build, `allowDangling` or `lenient`) keeps such rows, a warning. The keys of an
/// `onMissing: keep` reference are counted for one summarised warning (`reportOutside`).
/// Runs on the writer thread.
final class UnresolvedKeys {
    private let table: Table
    private let context: BuildContext
    private let keepsNull: [Bool] // per reference: a dangling key keeps the row
    private var outside: [(count: Int, example: BuildIssue?)] // per reference: `onMissing: keep` keys
    private var keptNulls: [Bool] // per reference: a row was kept with a key that names nothing

    init(table: Table, context: BuildContext) {
        self.table = table
        self.context = context
        keepsNull = table.references.map { reference in
            (context.allowDangling || context.lenient || reference.onMissing == .null)
                && !(table.withoutRowID && table.key.contains(reference.column))
        }
        outside = Array(repeating: (0, nil), count: table.references.count)
        keptNulls = Array(repeating: false, count: table.references.count)
    }

    /// True once a row was kept with a key of reference `r` that names nothing (its reference NULL).
    func keptNull(_ r: Int) -> Bool { keptNulls[r] }

    /// Judges `key` of reference `r`, read at `file`:`line`:`column` in `field` (nil: the
    /// reference's first source column). Returns true when the row is kept.
    func judge(_ r: Int, file: String, line: Int?, column: Int?, field: String?, key: String) -> Bool {
        let reference = table.references[r]
        let target = context.schema.table(named: reference.to)!
        let field = field ?? reference.from.first { $0 != Schema.feedColumn } ?? reference.from[0]
        if reference.onMissing == .keep && keepsNullAllowed(r) {
            if outside[r].example == nil {
                outside[r].example = BuildIssue(
                    kind: .outsideReference, file: file, line: line, column: column, field: field, value: key,
                    message: "")
            }
            outside[r].count += 1
            keptNulls[r] = true
            return true
        }
        if keepsNull[r] {
            keptNulls[r] = true
            context.issues.record(
                BuildIssue(
                    kind: .nullReference, file: file, line: line, column: column, field: field, value: key,
                    message: missingTarget(r, target, kept: true)
                        + (context.schema.format == .csv
                            ? "; the row is kept, referring to nothing" : "; kept with \(reference.column) = NULL")))
            return true
        }
        // `--lenient` keeps such rows like `allowDangling` (`keepsNull`); a NULL that would
        // be part of a WITHOUT ROWID key cannot be kept, so the row is left out.
        context.issues.record(
            BuildIssue(
                kind: context.lenient ? .rowLeftOut : .danglingReference, file: file, line: line, column: column,
                field: field, value: key,
                message: missingTarget(r, target) + (context.lenient ? "; the row is left out" : ""),
                code: context.lenient ? NoticeCode.foreignKeyViolation : nil))
        return false
    }

    /// What a key names nothing of, in the input's terms: a CSV file and its fields
    /// (`names no trip_id in trips.txt`), else the table and its key columns.
    private func missingTarget(_ r: Int, _ target: Table, kept: Bool = false) -> String {
        let reference = table.references[r]
        let columns = reference.targetColumns(in: target)
        if context.schema.format == .csv, let file = target.file {
            let names = columns.filter { $0 != Schema.feedColumn }.map { name in
                target.columns.first { $0.name == name }?.source.first ?? name
            }
            return "names no \(names.joined(separator: "+")) in \(file)"
                + (columns.contains(Schema.feedColumn) ? " of its feed" : "")
        }
        if kept { return "names no row of '\(reference.to)' in any input" }
        return
            "names no row of '\(reference.to)' (\(reference.toColumns == nil ? "key" : "columns") "
            + "\(columns.joined(separator: ", "))): "
            + (forwardOnly
                ? "not found before it (a withoutRowID table cannot refer to rows further on)"
                : "not found in any input")
    }

    /// One warning for all the keys of reference `r` kept as ids of objects outside the input.
    func reportOutside(_ r: Int) {
        guard var issue = outside[r].example else { return }
        let reference = table.references[r]
        let count = outside[r].count
        issue.message =
            """
            names no row of '\(reference.to)' in any input (an object outside the input); kept as its id with \
            \(reference.column) = NULL
            """
            + (count > 1
                ? (count == 2 ? ", as is 1 more key" : ", as are \(count - 1) more keys")
                    + " of \(table.name).\(reference.column)" : "")
        context.issues.record(issue)
    }

    /// True when keys must name rows read earlier: XML WITHOUT ROWID rows cannot be updated
    /// after loading (CSV tables always load after their targets).
    private var forwardOnly: Bool { context.schema.format == .xml && table.withoutRowID }

    /// `onMissing: keep` cannot keep a NULL that is part of a WITHOUT ROWID key.
    private func keepsNullAllowed(_ r: Int) -> Bool {
        !(table.withoutRowID && table.key.contains(table.references[r].column))
    }
}
