import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Runs it with no signal blocked. Foundation's `run()` spawns the child with the calling
    /// thread's signal mask, and the test runner's threads (Dispatch workers) block most signals,
    /// SIGTERM and SIGINT among them: a server started from a test so never sees the SIGTERM that
    /// asks it to stop, and each stop waited out its grace period before a SIGKILL.
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t(), previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
