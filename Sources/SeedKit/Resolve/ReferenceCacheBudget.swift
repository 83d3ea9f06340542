import SeedSystem
import Foundation

/// The entries all reference caches of one build may hold together (`LRUCache.budget`).
///
/// Each reference has its own LRU cache of keys (`Reference.cacheSize`, 65,536 by default),
/// but a schema has many references (NeTEx: 24) and in a big input each one meets more keys
/// than that, so per-cache bounds alone let memory grow with the input, up to about 170 bytes
/// (a key, its id, the LRU links and the dictionary slot) times 65,536 per reference: peak
/// RSS 98 MB at 200 MB of NeTEx, 129 MB at 800 MB. With the budget, once the caches
/// together hold `capacity` entries, a cache that misses replaces its own least recently
/// used entry instead of growing; each may still grow to `share` entries, so a reference
/// read late is never left without a cache. The caches only save queries: which of them
/// holds what never changes a resolved id, so the seed's bytes do not depend on it.
///
/// Memory bound: `capacity` + `share` per reference entries, about 15 MB with the defaults
/// for NeTEx's 24 references (85 and 87 MB peak RSS at 200 and 800 MB: Documentation/
/// performance.md).
final class ReferenceCacheBudget: @unchecked Sendable {
    // @unchecked: `used` is behind `lock`; the bounds are immutable.
    /// Entries all caches hold together, unless one reference's own size is larger.
    static let defaultCapacity = 65_536
    /// Entries each cache may hold whatever the others hold.
    static let defaultShare = 1_024

    let capacity: Int
    let share: Int
    private var used = 0
    // Caches grow on the writer thread; a resolver may be released on a reader's.
    private let lock = Lock()

    init(capacity: Int = ReferenceCacheBudget.defaultCapacity, share: Int = ReferenceCacheBudget.defaultShare) {
        self.capacity = capacity
        self.share = share
    }

    /// The budget of a build of `schema`: the default, or more when a reference asks to
    /// cache more keys than that (`cache:`, or `--cache-size` for every reference).
    convenience init(schema: Schema, cacheSize: Int?) {
        let largest = schema.tables.flatMap(\.references).map { cacheSize ?? $0.cacheSize }.max() ?? 0
        self.init(capacity: max(Self.defaultCapacity, largest))
    }

    /// Entries taken and not given back.
    var count: Int { lock.withLock { used } }

    /// Takes one entry for a cache that holds `held`: true when it may grow (it holds less
    /// than its share, or the caches together hold less than `capacity`).
    func take(held: Int) -> Bool {
        lock.withLock {
            guard held < share || used < capacity else { return false }
            used += 1
            return true
        }
    }

    /// Gives back the entries of a cache that is released.
    func giveBack(_ entries: Int) {
        lock.withLock { used -= entries }
    }
}
