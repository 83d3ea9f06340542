import CLibXML2

/// The numbers of the names a schema mentions, by the pointer the parser's dictionary interns
/// each under: libxml2 hands every element and attribute name over as such a pointer, so one
/// hash probe numbers it, instead of a scan of every name the schema mentions.
struct XMLNameIndex {
    /// Open addressing: pointer bits (0: empty) and the name's number, `mask + 1` slots.
    private var keys: [UInt]
    private var numbers: [Int]
    private let mask: Int
    private let shift: UInt

    /// - Parameter names: the interned names, in number order (the first of equal pointers wins).
    init(_ names: [UnsafePointer<xmlChar>]) {
        var bits: UInt = 3
        while 1 << bits < 4 * names.count { bits += 1 }
        shift = 64 - bits
        mask = (1 << bits) - 1
        keys = Array(repeating: 0, count: mask + 1)
        numbers = Array(repeating: -1, count: mask + 1)
        for (number, name) in names.enumerated() {
            let key = UInt(bitPattern: name)
            var slot = Self.slot(key, shift)
            while keys[slot] != 0 && keys[slot] != key { slot = (slot + 1) & mask }
            if keys[slot] == 0 {
                keys[slot] = key
                numbers[slot] = number
            }
        }
    }

    /// The number of `name`, or -1 when the schema does not mention it.
    @inline(__always)
    func index(of name: UnsafePointer<xmlChar>) -> Int {
        let key = UInt(bitPattern: name)
        return keys.withUnsafeBufferPointer { keys in
            var slot = Self.slot(key, shift)
            while true {
                let found = keys[slot]
                if found == key { return numbers[slot] }
                if found == 0 { return -1 }
                slot = (slot + 1) & mask
            }
        }
    }

    @inline(__always)
    private static func slot(_ key: UInt, _ shift: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }
}
