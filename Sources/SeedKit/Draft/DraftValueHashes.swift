/// The values of one field a draft may make a key or a reference, kept as 64-bit hashes in
/// bounded memory: enough to tell whether the values repeat (in the whole input, or within
/// one file) and whether the values of a reference are all values of a key.
struct DraftValueHashes {
    /// The hashes of the values.
    private(set) var values: Set<UInt64> = []
    /// The hashes of (file, value).
    private(set) var fileValues: Set<UInt64> = []
    /// True when some value occurs twice in the input.
    private(set) var repeats = false
    /// True when some value occurs twice in one file.
    private(set) var repeatsInFile = false
    /// False once the budget ran out: later new values were checked, not kept.
    private(set) var complete = true

    /// Adds a value read from file number `file`, within the shared `budget`.
    mutating func add(_ bytes: UnsafeRawBufferPointer, file: Int, budget: DraftHashBudget) {
        let hash = Self.hash(bytes)
        let fileHash = Self.mix(hash, file)
        if budget.remaining >= 2 {
            if !values.insert(hash).inserted { repeats = true } else { budget.remaining -= 1 }
            if !fileValues.insert(fileHash).inserted { repeatsInFile = true } else { budget.remaining -= 1 }
        } else {
            if values.contains(hash) { repeats = true } else { complete = false }
            if fileValues.contains(fileHash) { repeatsInFile = true }
        }
    }

    /// Adds the values of `other` (the same field at another path).
    mutating func merge(_ other: DraftValueHashes) {
        if !values.isDisjoint(with: other.values) { repeats = true }
        if !fileValues.isDisjoint(with: other.fileValues) { repeatsInFile = true }
        values.formUnion(other.values)
        fileValues.formUnion(other.fileValues)
        repeats = repeats || other.repeats
        repeatsInFile = repeatsInFile || other.repeatsInFile
        complete = complete && other.complete
    }

    /// The share of the distinct values of `self` that are values of `key` (per file, when
    /// `perFile`), from 0 to 1; nil when `self` has none.
    func share(in key: DraftValueHashes, perFile: Bool) -> Double? {
        let mine = perFile ? fileValues : values
        let theirs = perFile ? key.fileValues : key.values
        guard !mine.isEmpty else { return nil }
        return Double(mine.lazy.filter(theirs.contains).count) / Double(mine.count)
    }

    /// How many distinct values were kept.
    var distinctCount: Int { values.count }

    /// FNV-1a, 64 bits, then a final mix: deterministic from run to run.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return mix(hash, 0)
    }

    private static func mix(_ hash: UInt64, _ salt: Int) -> UInt64 {
        var x = hash ^ (UInt64(truncatingIfNeeded: salt) &* 0x9E37_79B9_7F4A_7C15)
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        return x
    }
}

/// How many value hashes a draft keeps in all (`DraftValueHashes`): about 16 bytes each.
final class DraftHashBudget {
    var remaining: Int

    init(_ entries: Int) {
        remaining = entries
    }
}
