/// A dictionary split into shards by hash, so that a copy which then changes a few keys copies
/// only the shards those keys live in, not the whole table.
///
/// Why: a snapshot's identifier index is shared between the results before and after a
/// change. As one `Dictionary` of a million entries, changing one key while the old version
/// is alive copies all of them; here it copies the shard table (a few hundred references) and
/// one shard of a few thousand entries.
///
/// Complexity: look-up O(1) amortised; a change O(1) amortised plus, when the storage is
/// shared, O(s + n / s) for s shards; the shard count grows with the size (rehashing
/// everything, amortised O(1) per insertion), from one shard up.
public struct ShardedDictionary<Key: Hashable, Value> {
    /// Entries per shard a table is sized for: a new table gets one shard per this many
    /// entries (a power of two of them). It grows once its shards hold twice this on average.
    @usableFromInline static var shardSize: Int { 2_048 }

    @usableFromInline var shards: [[Key: Value]]
    /// `shards.count` is `1 << shift`; a key's shard is the top `shift` bits of its hash.
    @usableFromInline var shift: Int
    @usableFromInline var storedCount: Int

    /// An empty dictionary sized for about `capacity` entries.
    @inlinable
    public init(minimumCapacity capacity: Int = 0) {
        var shift = 0
        while (1 << shift) * Self.shardSize < capacity { shift += 1 }
        self.shift = shift
        let perShard = capacity >> shift
        shards = (0..<(1 << shift)).map { _ in [Key: Value](minimumCapacity: perShard) }
        storedCount = 0
    }

    /// The number of entries. O(1).
    @inlinable public var count: Int { storedCount }

    @inlinable
    func shard(of key: Key) -> Int {
        shift == 0 ? 0 : Int(truncatingIfNeeded: UInt(bitPattern: key.hashValue) >> UInt(Int.bitWidth - shift))
    }

    /// The value for `key`, or nil; setting nil removes it.
    @inlinable
    public subscript(key: Key) -> Value? {
        get { shards[shard(of: key)][key] }
        set {
            let shard = shard(of: key)
            if let newValue {
                updateValue(newValue, forKey: key)
            } else if shards[shard].removeValue(forKey: key) != nil {
                storedCount -= 1
            }
        }
    }

    /// Sets `value` for `key`; returns the value it replaced, nil when `key` is new. One
    /// look-up, where reading then setting takes two.
    @inlinable
    @discardableResult
    public mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let shard = shard(of: key)
        guard let old = shards[shard].updateValue(value, forKey: key) else {
            storedCount += 1
            if storedCount > (shards.count * Self.shardSize) * 2 { grow() }
            return nil
        }
        return old
    }

    /// Rebuilds the table sized for twice the entries it holds, which is eight times the
    /// shards (then about ``shardSize`` / 4 entries each), rehashing every entry. Amortised
    /// over the insertions that made it necessary.
    @inlinable
    mutating func grow() {
        var larger = ShardedDictionary(minimumCapacity: storedCount * 2)
        for shard in shards {
            for (key, value) in shard { larger[key] = value }
        }
        self = larger
    }
}

extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}
