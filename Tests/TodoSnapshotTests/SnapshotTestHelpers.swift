import TestSupport

@testable import TodoSnapshot

extension SeededGenerator {
    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < p }

    /// A number in `0..<bound`; the modulo bias is irrelevant at these sizes, and the generic
    /// `Int.random(in:using:)` is slow in debug builds.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// An item with an identity and a content that can change under the same identity.
struct Row: Identifiable, Equatable, Sendable, CustomStringConvertible {
    var id: Int
    var content: Int

    init(_ id: Int, _ content: Int = 0) {
        self.id = id
        self.content = content
    }

    var description: String { "\(id):\(content)" }
}

typealias RowSnapshot = Snapshot<String, Row>

/// A snapshot from a literal description: `[("a", [1, 2]), ("b", [3])]`, content 0.
func makeSnapshot(_ sections: [(String, [Int])]) -> RowSnapshot {
    RowSnapshot(sections: sections.map { (id: $0.0, items: $0.1.map { Row($0) }) })
}

/// The length of a longest strictly increasing subsequence, by the quadratic dynamic program:
/// an oracle independent of the patience sorting under test.
func longestIncreasingLength(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
    }
    return best.max() ?? 0
}

/// The best set of items a diff can keep in place, by the quadratic dynamic program (an oracle
/// independent of the Fenwick tree under test): over the strictly increasing runs of `offsets`,
/// the most unchanged items, then the most changed ones.
func bestKeptInPlace(_ offsets: [Int], unchanged: [Bool]) -> (unchanged: Int, changed: Int) {
    var best: [(unchanged: Int, changed: Int)] = []
    for i in offsets.indices {
        var prior = (unchanged: 0, changed: 0)
        for j in 0..<i where offsets[j] < offsets[i] && best[j] > prior { prior = best[j] }
        best.append(unchanged[i] ? (prior.unchanged + 1, prior.changed) : (prior.unchanged, prior.changed + 1))
    }
    return best.max { $0 < $1 } ?? (0, 0)
}

/// The fewest moves plus updates that turn one list into another with the same items, and the
/// updates among them: every changed item costs one change (an update if kept in place, else a
/// move), every unchanged item left out of the run kept in place costs a move. `offsets` are
/// the old offsets of the shared items in new order.
func minimalMovesAndUpdates(_ offsets: [Int], unchanged: [Bool]) -> (total: Int, updates: Int) {
    let changedCount = unchanged.filter { !$0 }.count
    let kept = bestKeptInPlace(offsets, unchanged: unchanged)
    return (changedCount + (unchanged.count - changedCount - kept.unchanged), kept.changed)
}

/// Everything the batch semantics promise about a snapshot difference, beyond applying
/// correctly; returns a description of the first broken promise, or nil.
func brokenPromise(
    _ diff: SnapshotDifference<String, Row>, old: RowSnapshot, new: RowSnapshot
) -> String? {
    let itemIDs =
        diff.itemDeletes.map(\.id) + diff.itemInserts.map(\.id) + diff.itemMoves.map(\.id)
        + diff.itemUpdates.map(\.id)
    if Set(itemIDs).count != itemIDs.count { return "an item id is reported twice" }
    let sectionIDs = diff.sectionDeletes.map(\.id) + diff.sectionInserts.map(\.id) + diff.sectionMoves.map(\.id)
    if Set(sectionIDs).count != sectionIDs.count { return "a section id is reported twice" }
    let froms = diff.itemDeletes.map(\.from) + diff.itemMoves.map(\.from)
    if Set(froms).count != froms.count { return "an old index path is reported twice" }
    let tos = diff.itemInserts.map(\.to) + diff.itemMoves.map(\.to)
    if Set(tos).count != tos.count { return "a new index path is reported twice" }
    let updateTos = diff.itemUpdates.map(\.to)
    if !Set(updateTos).isDisjoint(with: tos) || Set(updateTos).count != updateTos.count {
        return "an update shares its index path"
    }
    let sectionFroms = diff.sectionDeletes.map(\.from) + diff.sectionMoves.map(\.from)
    if Set(sectionFroms).count != sectionFroms.count { return "an old section index is reported twice" }
    let sectionTos = diff.sectionInserts.map(\.to) + diff.sectionMoves.map(\.to)
    if Set(sectionTos).count != sectionTos.count { return "a new section index is reported twice" }
    for update in diff.itemUpdates where old.item(withID: update.id) == update.item {
        return "update of \(update.id) without a content change"
    }
    if diff.itemDeletes.map(\.from) != diff.itemDeletes.map(\.from).sorted()
        || diff.itemInserts.map(\.to) != diff.itemInserts.map(\.to).sorted()
        || diff.itemMoves.map(\.to) != diff.itemMoves.map(\.to).sorted()
        || diff.itemUpdates.map(\.to) != diff.itemUpdates.map(\.to).sorted()
    {
        return "changes are not sorted by index"
    }
    // Minimal changes: every item changing section is a move; per section kept on both sides,
    // moves plus updates are the fewest possible, with as many updates among them as can be.
    var expectedTotal = 0
    var expectedUpdates = 0
    for (section, items) in new.sectionItems.enumerated() {
        let sectionID = new.sectionIDs[section]
        let oldSection = old.index(ofSection: sectionID)
        var staying: [Int] = []
        var unchanged: [Bool] = []
        for item in items {
            guard let path = old.indexPath(ofItem: item.id) else { continue }
            if path.section == oldSection {
                staying.append(path.item)
                unchanged.append(old.item(withID: item.id) == item)
            } else {
                expectedTotal += 1
            }
        }
        let minimal = minimalMovesAndUpdates(staying, unchanged: unchanged)
        expectedTotal += minimal.total
        expectedUpdates += minimal.updates
    }
    if diff.itemMoves.count + diff.itemUpdates.count != expectedTotal {
        return
            "\(diff.itemMoves.count) item moves and \(diff.itemUpdates.count) updates where \(expectedTotal) changes suffice"
    }
    if diff.itemUpdates.count != expectedUpdates {
        return "\(diff.itemUpdates.count) item updates where \(expectedUpdates) are possible"
    }
    let survivingSections = new.sectionIDs.compactMap { old.index(ofSection: $0) }
    let expectedSectionMoves = survivingSections.count - longestIncreasingLength(survivingSections)
    if diff.sectionMoves.count != expectedSectionMoves {
        return "\(diff.sectionMoves.count) section moves where \(expectedSectionMoves) suffice"
    }
    return nil
}

/// A random snapshot: sections drawn from `"s0"`…`"s6"`, items from ids 0..<40.
func randomSnapshot(using rng: inout SeededGenerator) -> RowSnapshot {
    var sectionPool = (0..<7).map { "s\($0)" }
    sectionPool.shuffle(using: &rng)
    let sectionCount = rng.below(5)
    var sections = sectionPool.prefix(sectionCount).map { (id: $0, items: [Row]()) }
    guard !sections.isEmpty else { return RowSnapshot(sections: []) }
    for id in 0..<40 where rng.chance(0.45) {
        let section = rng.below(sections.count)
        let position = rng.below(sections[section].items.count + 1)
        sections[section].items.insert(Row(id, rng.below(3)), at: position)
    }
    return RowSnapshot(sections: sections)
}

/// A snapshot derived from `old` the way a list changes: sections and items vanish, appear,
/// move and change content, mostly a few at a time. One case in ten is unrelated to `old`.
func randomSuccessor(of old: RowSnapshot, using rng: inout SeededGenerator) -> RowSnapshot {
    if rng.chance(0.1) { return randomSnapshot(using: &rng) }
    var sections = old.sections.filter { _ in !rng.chance(0.15) }
    for _ in 0..<rng.below(3) where sections.count > 1 {
        let moved = sections.remove(at: rng.below(sections.count))
        sections.insert(moved, at: rng.below(sections.count + 1))
    }
    let used = Set(old.sectionIdentifiers)
    for id in (0..<7).map({ "s\($0)" }) where !used.contains(id) && rng.chance(0.15) {
        sections.insert((id: id, items: []), at: rng.below(sections.count + 1))
    }
    guard !sections.isEmpty else { return RowSnapshot(sections: []) }
    // Orphans of removed sections, and a few items of kept ones, go to a random new place.
    let kept = Set(sections.map(\.id))
    var homeless = old.sections.filter { !kept.contains($0.id) }.flatMap(\.items)
    for section in sections.indices {
        sections[section].items = sections[section].items.filter { item in
            if rng.chance(0.1) { return false }
            if rng.chance(0.1) {
                homeless.append(item)
                return false
            }
            return true
        }.map { item in rng.chance(0.2) ? Row(item.id, item.content + 1) : item }
    }
    homeless = homeless.filter { _ in rng.chance(0.7) }
    for id in 40..<50 where rng.chance(0.2) { homeless.append(Row(id)) }
    for item in homeless {
        let section = rng.below(sections.count)
        let position = rng.below(sections[section].items.count + 1)
        sections[section].items.insert(rng.chance(0.3) ? Row(item.id, item.content + 1) : item, at: position)
    }
    return RowSnapshot(sections: sections)
}
