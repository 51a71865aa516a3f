import Foundation
import Testing

/// A suite trait that times each test from the moment it runs, for `scripts/test`'s list of the
/// slowest tests. Swift Testing's own "passed after" starts when a test is scheduled, so in a
/// parallel run it mostly counts the wait for a free thread. An async test that suspends (an
/// exit test waiting for its child) still counts the wait to be resumed.
///
/// When `TODO_TEST_TIMES` names a file, each test case appends one line to it:
/// `SECONDS<TAB>SUITE/TEST`. Otherwise it does nothing.
public struct Timed: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard testCase != nil, let path = ProcessInfo.processInfo.environment["TODO_TEST_TIMES"] else {
            return try await function()
        }
        let start = ContinuousClock.now
        defer {
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let suite = test.id.nameComponents.dropLast().last ?? test.id.moduleName
            Self.append(String(format: "%.3f", seconds) + "\t\(suite)/\(test.name)\n", to: path)
        }
        try await function()
    }

    /// One `write` to a file opened with O_APPEND: lines from tests running at once never mix.
    static func append(_ line: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }
}

extension Trait where Self == Timed {
    /// Each test's own time, for `scripts/test` (see ``Timed``).
    public static var timed: Timed { Timed() }
}

extension Trait where Self == TimeLimitTrait {
    /// The time after which a suite that runs servers and processes is taken to hang: one bound
    /// for all of them. It is far above what any of their tests takes alone, because in
    /// `scripts/test`'s parallel run a test's time also counts the wait for a free thread, and on
    /// 2 cores tests that block a thread in a process's wait (a soak, a sync killed at every
    /// point) can hold both for a minute and more: a limit of one minute failed there, on a
    /// test that takes 3 s alone.
    public static var hangLimit: Self { .timeLimit(.minutes(5)) }
}
