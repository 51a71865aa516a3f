import TestSupport
import Testing

@testable import TodoSnapshot

/// Random pairs: the difference must apply exactly and keep every promise of the batch
/// semantics. Each pair has its own seed, printed with any failure, so a case can be replayed
/// with `SeededGenerator(seed:)`.
@Suite(.timed) struct DifferencePropertyTests {
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

    @Test func identicalSnapshotsHaveAnEmptyDifference() {
        for seed in 0..<UInt64(200) {
            var rng = SeededGenerator(seed: seed)
            let snapshot = randomSnapshot(using: &rng)
            #expect(snapshot.difference(from: snapshot).isEmpty, "seed \(seed)")
        }
    }
}
