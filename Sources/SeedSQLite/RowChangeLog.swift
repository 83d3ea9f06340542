import CSQLite3

/// The rowids that one connection's INSERT, UPDATE and DELETE statements touch, by table
/// (`sqlite3_update_hook`): what a delta apply changed, so that only the content chunks holding
/// those rows are hashed again.
///
/// SQLite does not report changes to `WITHOUT ROWID` tables, the rows a `DELETE` without a
/// `WHERE` removes (the truncate optimization), nor rows a `REPLACE` removes: a caller hashes
/// those tables whole (and proves the result by its root anyway). One log per connection at a
/// time: the hook is the connection's, and this log owns it until ``stop()`` or `deinit`.
package final class RowChangeLog {
    private let connection: Connection
    /// The rowids each table's statements touched, with repeats, in the order they came.
    package private(set) var rowids: [String: [Int64]] = [:]

    package init(_ connection: Connection) {
        self.connection = connection
        sqlite3_update_hook(
            connection.handle,
            { context, _, _, table, rowid in
                guard let context, let table else { return }
                let log = Unmanaged<RowChangeLog>.fromOpaque(context).takeUnretainedValue()
                log.rowids[String(cString: table), default: []].append(rowid)
            },
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// Stops recording (the connection's hook is removed).
    package func stop() {
        sqlite3_update_hook(connection.handle, nil, nil)
    }

    deinit { stop() }
}
