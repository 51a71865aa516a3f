#if canImport(Glibc)
    import Glibc
#endif

/// A filter term that is all ASCII and case-folded, as ``UINameIndex`` looks for it in its
/// lowered bytes: by its rarest byte, with `memchr`.
///
/// Why the rarest byte: `memchr` reads many bytes at a time, and every place it stops costs a
/// comparison of the whole term. Looking for "gar" by its "g" stops at fewer places than by
/// its "a"; looking for "+w" by its "+" stops at every tag. Which byte is rarest comes from the
/// index's own counts.
struct UINeedle {
    /// The term's bytes; never empty, never a zero byte (the index's separator).
    private let bytes: [UInt8]
    /// The offset in ``bytes`` of the byte the index holds fewest of.
    private let rare: Int

    /// The term `needle` (ASCII, folded, not empty, no zero byte), its rarest byte chosen by
    /// `byteCounts` (how often each byte value occurs where it will be looked for).
    init(_ needle: UnsafeBufferPointer<UInt8>, byteCounts: [Int]) {
        bytes = Array(needle)
        rare = needle.indices.min { byteCounts[Int(needle[$0])] < byteCounts[Int(needle[$1])] } ?? 0
    }

    /// Where the term first occurs wholly inside `all[from..<to]`, as an offset in `all`; nil
    /// when it does not.
    func firstOccurrence(in all: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        let count = bytes.count
        guard count > 0, from >= 0, to <= all.count, to - from >= count, let base = all.baseAddress else {
            return nil
        }
        let rareByte = Int32(bytes[rare])
        // A match starting at `start` (from...to - count) has its rare byte at `start + rare`.
        var scan = from + rare
        let scanEnd = to - count + rare + 1
        return bytes.withUnsafeBufferPointer { needle -> Int? in
            guard let needleBase = needle.baseAddress else { return nil }
            while scan < scanEnd {
                guard let found = memchr(base + scan, rareByte, scanEnd - scan) else { return nil }
                let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
                let start = at - rare
                // Most terms are a few bytes: compared here, without a call.
                var offset = 0
                while offset < count, base[start + offset] == needleBase[offset] { offset += 1 }
                if offset == count { return start }
                scan = at + 1
            }
            return nil
        }
    }

    /// Whether the term occurs wholly inside `all[from..<to]`.
    func occurs(in all: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        firstOccurrence(in: all, from: from, to: to) != nil
    }
}
