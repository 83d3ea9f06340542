/// A map of bounded size that forgets the least recently used entry when full: when it holds
/// `capacity` entries, or when the `budget` it shares with other caches is spent.
///
/// Entries live in arrays linked by index, so a hit moves no memory and allocates nothing.
struct LRUCache<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var previous: Int
        var next: Int
    }

    let capacity: Int
    /// The entries this cache shares with others (nil: only `capacity` bounds it). The owner
    /// gives `count` back when it releases the cache.
    let budget: ReferenceCacheBudget?
    private var nodes: [Node] = []
    private var positions: [Key: Int] = [:]
    private var head = -1 // most recent
    private var tail = -1 // least recent
    private(set) var hits = 0
    private(set) var misses = 0

    init(capacity: Int, budget: ReferenceCacheBudget? = nil) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.budget = budget
    }

    var count: Int { nodes.count }

    mutating func value(for key: Key) -> Value? {
        guard let position = positions[key] else {
            misses += 1
            return nil
        }
        hits += 1
        moveToFront(position)
        return nodes[position].value
    }

    mutating func insert(_ value: Value, for key: Key) {
        if let position = positions[key] {
            nodes[position].value = value
            moveToFront(position)
            return
        }
        if nodes.count < capacity && budget?.take(held: nodes.count) ?? true {
            nodes.append(Node(key: key, value: value, previous: -1, next: head))
            let position = nodes.count - 1
            if head >= 0 { nodes[head].previous = position }
            head = position
            if tail < 0 { tail = position }
            positions[key] = position
        } else {
            // Reuse the least recently used node.
            let position = tail
            positions[nodes[position].key] = nil
            nodes[position].key = key
            nodes[position].value = value
            positions[key] = position
            moveToFront(position)
        }
    }

    private mutating func moveToFront(_ position: Int) {
        guard position != head else { return }
        let previous = nodes[position].previous, next = nodes[position].next
        if previous >= 0 { nodes[previous].next = next }
        if next >= 0 { nodes[next].previous = previous }
        if position == tail { tail = previous }
        nodes[position].previous = -1
        nodes[position].next = head
        nodes[head].previous = position
        head = position
    }
}
