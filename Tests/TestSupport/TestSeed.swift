import Foundation

/// The seed of a randomised test: `TODO_TEST_SEED` when set, to replay a failure, else a fresh
/// one. It is printed before the test uses it, so a failing run's log says how to replay it;
/// tests also put it in their failure messages.
public enum TestSeed {
    public static func make(_ label: String) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment["TODO_TEST_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("[seed] \(label): \(seed) (replay with TODO_TEST_SEED=\(seed))")
        return seed
    }
}
