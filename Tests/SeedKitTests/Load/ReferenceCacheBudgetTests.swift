import Testing
@testable import SeedKit

/// The entries all reference caches of a build hold together: caches stop growing once the
/// budget is spent (each keeps its share), forget their least recently used key instead, and
/// give their entries back when released.
@Suite("Reference cache budget")
struct ReferenceCacheBudgetTests {
    @Test("caches stop growing once together they hold the budget; each still gets its share")
    func sharedBound() {
        let budget = ReferenceCacheBudget(capacity: 10, share: 3)
        var first = LRUCache<String, Int64?>(capacity: 100, budget: budget)
        var second = LRUCache<String, Int64?>(capacity: 100, budget: budget)
        for key in 0..<20 { first.insert(Int64(key), for: "a\(key)") }
        #expect(first.count == 10)
        #expect(budget.count == 10)
        for key in 0..<20 { second.insert(Int64(key), for: "b\(key)") }
        #expect(second.count == 3)
        #expect(budget.count == 13)
        // Full caches keep their most recent keys, with the right values.
        #expect(first.value(for: "a19") == .some(19))
        #expect(first.value(for: "a9") == nil)
        #expect(second.value(for: "b19") == .some(19))
        #expect(second.value(for: "b16") == nil)
    }

    @Test("a cache's own capacity still bounds it below the budget")
    func ownCapacity() {
        let budget = ReferenceCacheBudget(capacity: 100, share: 3)
        var cache = LRUCache<Int, Int>(capacity: 5, budget: budget)
        for key in 0..<50 { cache.insert(key * 2, for: key) }
        #expect(cache.count == 5)
        #expect(budget.count == 5)
        #expect(cache.value(for: 49) == 98)
        #expect(cache.value(for: 44) == nil)
    }

    @Test("entries given back let another cache grow")
    func givenBack() {
        let budget = ReferenceCacheBudget(capacity: 4, share: 1)
        var first = LRUCache<Int, Int>(capacity: 100, budget: budget)
        for key in 0..<4 { first.insert(key, for: key) }
        var second = LRUCache<Int, Int>(capacity: 100, budget: budget)
        for key in 0..<4 { second.insert(key, for: key) }
        #expect(second.count == 1)
        budget.giveBack(first.count)
        for key in 4..<8 { second.insert(key, for: key) }
        #expect(second.count == 4)
        #expect(budget.count == 4)
    }

    @Test("a build's budget is the default, or the largest cache a reference or --cache-size asks for")
    func buildBudget() throws {
        let yaml = """
            name: budget
            schemaVersion: 1
            tables:
              - name: stops
                file: stops.txt
                key: stop_id
                columns:
                  - { name: stop_id, source: stop_id }
              - name: times
                file: times.txt
                columns:
                  - { name: stop_id, source: stop_id }
                references:
                  - { column: stop_ref, from: stop_id, to: stops, cache: 200000 }
            """
        let schema = try Schema.parse(Array(yaml.utf8), file: "budget.yaml")
        #expect(ReferenceCacheBudget(schema: schema, cacheSize: nil).capacity == 200_000)
        #expect(ReferenceCacheBudget(schema: schema, cacheSize: 10).capacity == ReferenceCacheBudget.defaultCapacity)
        #expect(ReferenceCacheBudget(schema: schema, cacheSize: 500_000).capacity == 500_000)
        #expect(ReferenceCacheBudget(schema: schema, cacheSize: 500_000).share == ReferenceCacheBudget.defaultShare)
    }
}
