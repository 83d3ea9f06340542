import SeedSQLite

/// Where a row the database refused comes from.
extension RowWriter {
    /// Notes the input behind `error`: the file, line and column of row `row` of `batch` (nil:
    /// after loading, the table as a whole), its element and its key.
    func noteFailure(_ error: SQLiteError, batch: RowBatch?, row: Int) {
        var failure = InternalFailure(
            file: fields.file, element: table.element ?? table.file ?? table.name, error: error)
        if let batch, row < batch.count {
            failure.line = Int(batch.lines[row])
            failure.column = sourceColumn(0, batch, row)
            let keyColumns = table.key.compactMap { name in table.columns.firstIndex { $0.name == name } }
            let parts = keyColumns.filter {
                ![[XMLMapping.fileSource], [Schema.feedSource]].contains(table.columns[$0].source)
            }
            .map { batch.messageText(batch.cell(row, $0)) }
            if !parts.isEmpty { failure.key = parts.joined(separator: ",") }
        }
        context.noteWriteFailure(failure)
    }

    /// The character column where the field of column `index` begins in `row` (CSV), or
    /// the record's column (XML); nil when unknown.
    func sourceColumn(_ index: Int, _ batch: RowBatch, _ row: Int) -> Int? {
        let column = Int(fields.columnsPerValue ? batch.valueColumns[batch.cell(row, index)] : batch.sourceColumns[row])
        return column > 0 ? column : nil
    }
}
