import JSONCodec
import SyncProtocol

/// The members of a listing, kept compactly: their hrefs and etags in one store of bytes (in
/// blocks of 1 MiB, never copied as it grows), with a table of their places for finding an href
/// again. In the order first listed; a member listed again is updated in place.
///
/// Bounded: ``maximumKept`` bytes in all, counting each member ``costPerMember`` bytes beside
/// its href and etag (its place in the store and in the table).
struct ListedMembers {
    /// What the helper keeps of one listing (over all its pages), in bytes: twice what 100,000
    /// todos with hrefs of 60 bytes and etags of 42 take (about 14 MiB, with ``costPerMember``
    /// each), so that a large collection fits and a server that lists without end is stopped
    /// here instead of growing the helper without limit.
    static let maximumKept = 28 << 20
    /// What a member costs beside its href and etag: its entry (20 bytes) and its place in the
    /// table (4-byte slots, the table a quarter to half full once it has grown: up to 16 bytes).
    static let costPerMember = 40
    private static let blockSize = 1 << 20
    private static let entriesPerChunk = 1 << 16

    private struct Entry {
        var href: UInt32
        var hrefLength: UInt32
        var etag: UInt32
        /// `UInt32.max` for none.
        var etagLength: UInt32
        var removed: Bool
    }

    private var blocks: [[UInt8]] = []
    private var chunks: [[Entry]] = []
    /// Open addressing: index + 1 of an entry, 0 for free.
    private var table: [Int32] = []
    private(set) var count = 0
    private(set) var kept = 0
    private(set) var removedCount = 0

    /// The bytes kept, at `offset`.
    private func bytes(_ offset: UInt32, _ length: UInt32) -> ArraySlice<UInt8> {
        let block = Int(offset) / Self.blockSize
        let start = Int(offset) % Self.blockSize
        return blocks[block][start..<start + Int(length)]
    }

    private mutating func store(_ text: String) -> UInt32 {
        let length = text.utf8.count
        if blocks.isEmpty || blocks[blocks.count - 1].count + length > Self.blockSize {
            var block = [UInt8]()
            block.reserveCapacity(Self.blockSize)
            blocks.append(block)
        }
        let offset = (blocks.count - 1) * Self.blockSize + blocks[blocks.count - 1].count
        blocks[blocks.count - 1].append(contentsOf: text.utf8)
        return UInt32(offset)
    }

    private func entry(_ index: Int) -> Entry { chunks[index / Self.entriesPerChunk][index % Self.entriesPerChunk] }

    private static func hash<C: Sequence>(_ bytes: C) -> Int where C.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash >> 1)
    }

    /// The slot of `href` in the table: where it is, or the free slot where it goes.
    private func slot(of href: String) -> (slot: Int, index: Int?) {
        let mask = table.count - 1
        var slot = Self.hash(href.utf8) & mask
        while true {
            let found = Int(table[slot])
            if found == 0 { return (slot, nil) }
            let candidate = entry(found - 1)
            if Int(candidate.hrefLength) == href.utf8.count
                && bytes(candidate.href, candidate.hrefLength).elementsEqual(href.utf8)
            {
                return (slot, found - 1)
            }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let size = max(1 << 10, table.count * 2)
        table = []  // the old table goes before the new one is made
        table = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for index in 0..<count {
            let member = entry(index)
            var slot = Self.hash(bytes(member.href, member.hrefLength)) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = Int32(index + 1)
        }
    }

    func contains(_ href: String) -> Bool {
        guard !table.isEmpty else { return false }
        return slot(of: href).index != nil
    }

    /// Adds `href` (or, with `replacing`, updates it when listed already: its etag and whether
    /// it is removed). Returns whether it was new. Throws past the bounds.
    @discardableResult
    mutating func add(_ href: String, etag: String?, removed: Bool = false, replacing: Bool) throws(HelperError) -> Bool
    {
        if table.isEmpty || (count + 1) * 2 > table.count { grow() }
        let (slot, index) = slot(of: href)
        if let index {
            guard replacing else { return false }
            var member = entry(index)
            if member.removed != removed { removedCount += removed ? 1 : -1 }
            member.removed = removed
            if let etag {
                if member.etagLength == UInt32.max || !bytes(member.etag, member.etagLength).elementsEqual(etag.utf8) {
                    try reserve(etag.utf8.count)
                    member.etag = store(etag)
                    member.etagLength = UInt32(etag.utf8.count)
                }
            } else {
                member.etagLength = UInt32.max
            }
            chunks[index / Self.entriesPerChunk][index % Self.entriesPerChunk] = member
            return false
        }
        guard count < MultistatusReader.maximumResponses else {
            throw HelperError(
                .badResponse, "the server lists more than \(MultistatusReader.maximumResponses) objects; stopped")
        }
        try reserve(href.utf8.count + (etag?.utf8.count ?? 0) + Self.costPerMember)
        let hrefOffset = store(href)
        let etagOffset = etag.map { store($0) } ?? 0
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.entriesPerChunk {
            var chunk = [Entry]()
            chunk.reserveCapacity(Self.entriesPerChunk)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(
            Entry(
                href: hrefOffset, hrefLength: UInt32(href.utf8.count), etag: etagOffset,
                etagLength: etag.map { UInt32($0.utf8.count) } ?? UInt32.max, removed: removed))
        if removed { removedCount += 1 }
        count += 1
        table[slot] = Int32(count)
        return true
    }

    private mutating func reserve(_ bytes: Int) throws(HelperError) {
        guard kept + bytes <= Self.maximumKept else {
            throw HelperError(
                .badResponse,
                "the server lists more than \(Self.maximumKept >> 20) MiB of hrefs and etags "
                    + "(\(count) objects so far); stopped")
        }
        kept += bytes
    }

    /// Each member in order: its href and etag bytes, and whether it is removed.
    func forEach(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>?, Bool) -> Void) {
        for chunk in chunks {
            for member in chunk {
                body(
                    bytes(member.href, member.hrefLength),
                    member.etagLength == UInt32.max ? nil : bytes(member.etag, member.etagLength),
                    member.removed)
            }
        }
    }

    /// The members as SyncProtocol items (the removed ones apart): for tests and small answers.
    var items: (changed: [ListedItem], removed: [String]) {
        var changed: [ListedItem] = []
        var removed: [String] = []
        forEach { href, etag, isRemoved in
            let text = String(decoding: href, as: UTF8.self)
            if isRemoved {
                removed.append(text)
            } else {
                changed.append(ListedItem(href: text, etag: etag.map { String(decoding: $0, as: UTF8.self) }))
            }
        }
        return (changed, removed)
    }
}

/// The answer to `changes`, written as SyncProtocol's ``ChangesAnswer`` is, byte for byte, but
/// straight from the ``ListedMembers``: a listing of 100,000 objects is never a JSON tree.
enum ListingAnswer {
    case delta(ListedMembers, token: String)
    /// Every object; `truncated` when the server cut the listing short (see ``ChangesAnswer``).
    case everything(ListedMembers, token: String?, truncated: Bool)

    /// The same answer as SyncProtocol's value (for tests: it costs a tree).
    var changesAnswer: ChangesAnswer {
        switch self {
        case .delta(let members, let token):
            let (changed, removed) = members.items
            return .delta(changed: changed, removed: removed, token: token)
        case .everything(let members, let token, let truncated):
            return .everything(items: members.items.changed, token: token, truncated: truncated)
        }
    }

    /// The JSON text, without its newline, handed to `write` in pieces of about 64 KiB:
    /// SyncProtocol's one encoder of the answer, walking the members kept.
    func encode(_ write: ([UInt8]) -> Void) {
        switch self {
        case .delta(let members, let token): ChangesAnswer.encode(.delta, members, token: token, to: write)
        case .everything(let members, let token, let truncated):
            ChangesAnswer.encode(.everything, members, token: token, truncated: truncated, to: write)
        }
    }
}

extension ListedMembers: ListedItems {
    func forEachItem(_ body: (ArraySlice<UInt8>, ArraySlice<UInt8>?, Bool) -> Void) { forEach(body) }
}
