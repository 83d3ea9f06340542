import SeedSystem
import Foundation

/// What the loaders of one build share: the writer thread (the only way to the database),
/// the issue log, the next row id of every table, and the options that change how rows are
/// treated. Shared by the reader's thread and the writer thread: what is fixed is `let`, what
/// changes is behind one of its locks.
final class BuildContext: @unchecked Sendable {
    // @unchecked: every `var` is behind `idLock` or `droppedLock` (the compiler cannot see a lock).
    /// The writer thread every loader hands its rows to; it owns the database connection.
    let writeQueue: WriteQueue
    let schema: Schema
    let issues: IssueLog
    /// Keep rows whose reference names no row, with a NULL reference, instead of failing.
    let allowDangling: Bool
    /// Overrides every reference's cache size, when set.
    let cacheSize: Int?
    /// Bounds on record, key and nesting sizes.
    let limits: InputLimits
    /// Data errors leave the value NULL or the row out, as warnings (`BuildOptions.lenient`).
    let lenient: Bool
    /// CSV syntax repairs are errors (`BuildOptions.strict`).
    let strict: Bool
    // Guarded by idLock. Per table that allocated ids, its name and next id; found by a scan
    // from the last one used (a reader asks for the same few tables' ids row after row; a
    // String-keyed dictionary would hash the name on every row).
    @exclusivity(unchecked) private var idTables: [String] = []
    @exclusivity(unchecked) private var nextIDs: [Int64] = []
    @exclusivity(unchecked) private var lastIDTable = 0
    private let idLock = Lock()
    /// The build's indexes: which are made while loading, which after.
    let indexes: SeedIndexes
    /// Row ids by integer key of the tables references look up (`BuildOptions.idMapCapacity`).
    let idMaps: IDMaps
    /// With `--previous`, in a CSV build: the ids rows keep, found while they are read.
    let previousIDs: PreviousIDs?
    /// What the reader and the writer see of `stop_times` for the planner's tables (one feed,
    /// ids as loaded: no `--previous`); nil when not kept.
    let tripStops: TripStopLog?
    /// The entries the lookup caches of all references hold together (writer thread).
    let referenceCacheBudget: ReferenceCacheBudget
    /// Statistics of every resolver, by `table.column`. Guarded by droppedLock.
    private var storedReferenceStatistics: [String: ReferenceStatistics] = [:]

    /// Statistics of every resolver, by `table.column`, for the summary. Thread-safe.
    var referenceStatistics: [String: ReferenceStatistics] { droppedLock.withLock { storedReferenceStatistics } }

    /// Adds a loader's resolver statistics (a region's table is loaded file by file: they add
    /// up). Thread-safe.
    func addReferenceStatistics(_ statistics: [String: ReferenceStatistics]) {
        droppedLock.withLock {
            storedReferenceStatistics.merge(statistics) { a, b in
                ReferenceStatistics(
                    hits: a.hits + b.hits, misses: a.misses + b.misses, created: a.created + b.created,
                    unresolved: a.unresolved + b.unresolved)
            }
        }
    }
    /// Tables some of whose rows were not inserted (left out, merged copies): rows nested in
    /// them may have been written under an id no row has (see `NestedRowCleanup`).
    private var droppedRowTables: Set<String> = []
    private let droppedLock = Lock()

    /// Notes that a row of `table` was not inserted. Thread-safe; rare (not per row).
    func noteDroppedRow(in table: String) {
        droppedLock.withLock { _ = droppedRowTables.insert(table) }
    }

    /// The tables some of whose rows were not inserted.
    var tablesWithDroppedRows: Set<String> { droppedLock.withLock { droppedRowTables } }

    /// Where the rows of each table were read, by table name, kept for the whole build: a
    /// derived table's broken key is explained by the objects it came from (`DerivedRowCheck`).
    private var rowPlaces: [String: [RowPlaces]] = [:]

    /// Keeps `places` of `table` for later messages. Thread-safe.
    func keepPlaces(_ places: RowPlaces, of table: String) {
        droppedLock.withLock { rowPlaces[table, default: []].append(places) }
    }

    /// The places recorded for the rows of `table`. Thread-safe.
    func places(of table: String) -> [RowPlaces] { droppedLock.withLock { rowPlaces[table] ?? [] } }

    /// The input the writer was storing when SQLite refused a statement of seedgen's own
    /// (a bug, not the input's fault): the build names it instead of the database's tables.
    private var storedWriteFailure: InternalFailure?

    /// Notes where the writer was when `error` happened; the first one counts. Thread-safe.
    func noteWriteFailure(_ failure: InternalFailure) {
        droppedLock.withLock { if storedWriteFailure == nil { storedWriteFailure = failure } }
    }

    /// Where the writer failed, if it did.
    var writeFailure: InternalFailure? { droppedLock.withLock { storedWriteFailure } }

    init(
        writeQueue: WriteQueue, schema: Schema, issues: IssueLog, allowDangling: Bool, cacheSize: Int?,
        limits: InputLimits = InputLimits(), lenient: Bool = false, strict: Bool = false,
        idMapCapacity: Int = IDMap.defaultCapacity, previousIDs: PreviousIDs? = nil, tripStops: TripStopLog? = nil
    ) {
        self.tripStops = tripStops
        self.limits = limits
        self.lenient = lenient
        self.strict = strict
        self.previousIDs = previousIDs
        self.writeQueue = writeQueue
        self.schema = schema
        self.issues = issues
        self.allowDangling = allowDangling
        self.cacheSize = cacheSize
        idMaps = IDMaps(schema: schema, capacity: idMapCapacity)
        referenceCacheBudget = ReferenceCacheBudget(schema: schema, cacheSize: cacheSize)
        indexes = SeedIndexes(schema: schema)
    }

    // Guarded by idLock. Per document (input file) read so far, in reading order: its name
    // and, per table, the first row id handed out while it was read. Rows are numbered in
    // reading order and files are read one after the other, so a row's document is the last
    // one whose first id is not above the row's id.
    @exclusivity(unchecked) private var documents: [(file: String, firstIDs: [String: Int64])] = []
    /// Tables where objects of two documents share a key (see `RowCopies`): their references
    /// are resolved by document after loading (`DocumentScope`). Guarded by droppedLock.
    private var sharedKeys: Set<String> = []

    /// Notes that the rows handed out from now on are read from `file`, the next document.
    func beginDocument(_ file: String) {
        idLock.withLock { documents.append((file, Dictionary(uniqueKeysWithValues: zip(idTables, nextIDs)))) }
    }

    /// The index in reading order of the document row `id` of `table` was read from (0 when
    /// no document was begun).
    func document(ofRow id: Int64, in table: String) -> Int {
        idLock.withLock {
            // The first ids only grow from one document to the next: bisect.
            var low = 0, high = documents.count
            while low < high {
                let middle = (low + high) / 2
                if (documents[middle].firstIDs[table] ?? 1) <= id { low = middle + 1 } else { high = middle }
            }
            return max(low - 1, 0)
        }
    }

    /// The first row id of `table` read from document `index`.
    func firstID(in table: String, ofDocument index: Int) -> Int64 {
        idLock.withLock { index < documents.count ? documents[index].firstIDs[table] ?? 1 : 1 }
    }

    /// The name of document `index` (an input's display path).
    func documentName(_ index: Int) -> String {
        idLock.withLock { index < documents.count ? documents[index].file : "" }
    }

    /// The first row id of `table` read from the current (last begun) document.
    func firstIDOfCurrentDocument(in table: String) -> Int64 {
        idLock.withLock { documents.last?.firstIDs[table] ?? 1 }
    }

    /// Notes that two documents hold objects of `table` sharing a key. Thread-safe.
    func noteSharedKey(in table: String) { droppedLock.withLock { _ = sharedKeys.insert(table) } }

    /// The tables where two documents' objects share a key.
    var tablesWithSharedKeys: Set<String> { droppedLock.withLock { sharedKeys } }

    /// Hands out the next row id of `table`: 1, 2, 3, ... in input order.
    /// Thread-safe: readers allocate ids of the tables they load, the writer those of
    /// find-or-create targets.
    func allocateID(in table: String) -> Int64 {
        idLock.withLock {
            var index = lastIDTable
            if index >= idTables.count || idTables[index] != table {
                index =
                    idTables.firstIndex(of: table)
                    ?? {
                        idTables.append(table)
                        nextIDs.append(1)
                        return idTables.count - 1
                    }()
                lastIDTable = index
            }
            let id = nextIDs[index]
            nextIDs[index] = id + 1
            return id
        }
    }
}

/// How a reference was resolved over a build.
public struct ReferenceStatistics: Sendable, Equatable {
    /// Lookups answered by the cache, the id map or the previous row's key.
    public var hits = 0
    /// Lookups that needed a query.
    public var misses = 0
    /// Target rows created on first sight (find-or-create).
    public var created = 0
    /// Keys that named no row.
    public var unresolved = 0
}
