import TodoSnapshot

/// A set of todo ids as one bit per id, up to the largest: what ``UIList/narrowed(to:)``
/// tests every todo of a list against.
///
/// Why: a filter's first letter keeps most of a long list, and the list's groups are filtered
/// todo by todo; asking the narrowed results (a table of 16-byte keys by id) costs a read far
/// apart for each, where the bits of 100,000 ids are 12 KiB. Made only for ids that make a
/// small enough array (see ``init(_:)``).
struct UIIDBits {
    private var words: [UInt64]

    /// The largest id whose bits are kept: 2^26, an array of 8 MiB.
    static let idLimit: Int64 = 1 << 26

    /// The set of `ids`; nil when one is negative or past ``idLimit`` (ids another program
    /// chose), for which the caller asks its own table instead.
    init?(_ ids: ChunkedList<Int64>) {
        var largest: Int64 = -1
        var fits = true
        ids.forEachChunk { chunk in
            for id in chunk {
                if id < 0 || id >= Self.idLimit { fits = false }
                largest = max(largest, id)
            }
        }
        guard fits else { return nil }
        var words = [UInt64](repeating: 0, count: Int(largest / 64) + 1)
        ids.forEachChunk { chunk in
            for id in chunk { words[Int(id / 64)] |= 1 << UInt64(id % 64) }
        }
        self.words = words
    }

    /// Whether `id` is in the set. O(1).
    @inline(__always)
    func contains(_ id: Int64) -> Bool {
        guard id >= 0 else { return false }
        let word = Int(id / 64)
        return word < words.count && words[word] & (1 << UInt64(id % 64)) != 0
    }
}
