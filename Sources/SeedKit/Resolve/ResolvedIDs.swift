/// The ids a row's references resolved to, kept from resolution until the row is bound:
/// `slots` rows (an `InsertGroup`'s waiting rows and the current one) of one id per
/// reference, nil for a NULL reference. Allocated once per writer.
final class ResolvedIDs {
    let slots: Int
    let referenceCount: Int
    private let ids: UnsafeMutablePointer<Int64>
    private let present: UnsafeMutablePointer<Bool>

    init(slots: Int, referenceCount: Int) {
        self.slots = slots
        self.referenceCount = referenceCount
        let count = max(1, slots * referenceCount)
        ids = .allocate(capacity: count)
        ids.initialize(repeating: 0, count: count)
        present = .allocate(capacity: count)
        present.initialize(repeating: false, count: count)
    }

    deinit {
        ids.deallocate()
        present.deallocate()
    }

    /// The id reference `r` of the row in `slot` resolved to; nil when NULL.
    @inline(__always)
    func id(slot: Int, _ r: Int) -> Int64? {
        let i = slot * referenceCount + r
        return present[i] ? ids[i] : nil
    }

    /// Records the id (nil: NULL) of reference `r` of the row in `slot`.
    @inline(__always)
    func set(slot: Int, _ r: Int, _ id: Int64?) {
        let i = slot * referenceCount + r
        present[i] = id != nil
        ids[i] = id ?? 0
    }

    /// Copies the ids of the row in `slot` to `other`.
    func copy(slot: Int, to other: Int) {
        for r in 0..<referenceCount { set(slot: other, r, id(slot: slot, r)) }
    }
}
