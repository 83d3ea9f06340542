/// The INSERT's columns: the row id, the stored columns created so far, the parent and the
/// references, each with its parameter (0 for a column the INSERT does not name).
struct InsertLayout {
    private(set) var names: [String]
    let idParameter: Int32
    private(set) var parameters: [Int32] = []
    private(set) var parentParameter: Int32 = 0
    private(set) var referenceParameters: [Int32] = []

    init(table: Table, created: Set<String>) {
        names = table.withoutRowID ? [] : [table.rowID]
        idParameter = table.withoutRowID ? 0 : 1
        for column in table.columns {
            if column.stored && created.contains(column.name) {
                names.append(column.name)
                parameters.append(Int32(names.count))
            } else {
                parameters.append(0)
            }
        }
        if let parent = table.parent, created.contains(parent.column) {
            names.append(parent.column)
            parentParameter = Int32(names.count)
        }
        for reference in table.references {
            if created.contains(reference.column) {
                names.append(reference.column)
                referenceParameters.append(Int32(names.count))
            } else {
                referenceParameters.append(0)
            }
        }
    }
}
