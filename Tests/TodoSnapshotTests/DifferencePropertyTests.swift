import TestSupport
import Testing
@testable import TodoSnapshot

/// Random pairs: the difference must apply exactly and keep every promise of the batch
/// semantics. Each pair has its own seed, printed with any failure, so a case can be replayed
/// with `SeededGenerator(seed:)`.
@Suite struct DifferencePropertyTests {
    static let pairs: UInt64 = 10_000

    @Test func snapshotDifferenceAppliesExactly() {
        var failures = 0
        for seed in 0..<Self.pairs {
            var rng = SeededGenerator(seed: seed)
            let old = randomSnapshot(using: &rng)
            let new = randomSuccessor(of: old, using: &rng)
            let diff = new.difference(from: old)
            var problem: String?
            do {
                let applied = try old.checkedApplying(diff)
                if applied != new { problem = "applying gives \(applied)" }
            } catch {
                problem = "the difference does not apply: \(error)"
            }
            problem = problem ?? brokenPromise(diff, old: old, new: new)
            if let problem {
                failures += 1
                Issue.record("seed \(seed): \(problem)\n old: \(old)\n new: \(new)\n diff: \(diff)")
                if failures >= 5 { return }
            }
        }
    }

    @Test func listDifferenceAppliesExactly() {
        var failures = 0
        for seed in 0..<Self.pairs {
            var rng = SeededGenerator(seed: seed ^ 0x5EED)
            let oldSnapshot = randomSnapshot(using: &rng)
            let newSnapshot = randomSuccessor(of: oldSnapshot, using: &rng)
            let old = oldSnapshot.items
            let new = newSnapshot.items
            let diff = ListDifference(from: old, to: new)
            var problem: String?
            do {
                let applied = try old.checkedApplying(diff)
                if applied != new { problem = "applying gives \(applied)" }
            } catch {
                problem = "the difference does not apply: \(error)"
            }
            let ids = diff.changes.map(\.id)
            if Set(ids).count != ids.count { problem = problem ?? "an id is reported twice" }
            let froms = diff.deletes.map(\.from) + diff.moves.map(\.from)
            if Set(froms).count != froms.count { problem = problem ?? "an old index is reported twice" }
            let tos = diff.inserts.map(\.to) + diff.moves.map(\.to)
            if Set(tos).count != tos.count { problem = problem ?? "a new index is reported twice" }
            if diff.updates.contains(where: { old[$0.from] == $0.item }) {
                problem = problem ?? "an update without a content change"
            }
            // Minimal: moves plus updates as few as possible, then as many updates as can be.
            var kept: [Int] = []
            var unchanged: [Bool] = []
            for item in new {
                guard let from = old.firstIndex(where: { $0.id == item.id }) else { continue }
                kept.append(from)
                unchanged.append(old[from] == item)
            }
            let minimal = minimalMovesAndUpdates(kept, unchanged: unchanged)
            if diff.moves.count + diff.updates.count != minimal.total {
                problem = problem ?? "\(diff.moves.count) moves and \(diff.updates.count) updates where \(minimal.total) changes suffice"
            } else if diff.updates.count != minimal.updates {
                problem = problem ?? "\(diff.updates.count) updates where \(minimal.updates) are possible"
            }
            // The section-restricted form must agree with the array form on the same lists.
            if let section = newSnapshot.sectionIdentifiers.first {
                let oldItems = oldSnapshot.contains(section: section) ? oldSnapshot.items(inSection: section) : []
                let expected = ListDifference(from: oldItems, to: newSnapshot.items(inSection: section))
                if newSnapshot.listDifference(from: oldSnapshot, inSection: section) != expected {
                    problem = problem ?? "listDifference(from:inSection:) disagrees with the array form"
                }
            }
            if let problem {
                failures += 1
                Issue.record("seed \(seed ^ 0x5EED): \(problem)\n old: \(old)\n new: \(new)\n diff: \(diff)")
                if failures >= 5 { return }
            }
        }
    }

    @Test func identicalSnapshotsHaveAnEmptyDifference() {
        for seed in 0..<UInt64(200) {
            var rng = SeededGenerator(seed: seed)
            let snapshot = randomSnapshot(using: &rng)
            #expect(snapshot.difference(from: snapshot).isEmpty, "seed \(seed)")
            #expect(ListDifference(from: snapshot.items, to: snapshot.items).isEmpty, "seed \(seed)")
        }
    }
}
