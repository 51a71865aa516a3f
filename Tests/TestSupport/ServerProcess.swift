import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starting and stopping the servers the tests run (Radicale, Xandikos, nginx, Apache, Cyrus).
extension Process {
    /// Runs it with no signal blocked. Foundation's `run()` spawns the child with the calling
    /// thread's signal mask, and the test runner's threads (Dispatch workers) block most signals,
    /// SIGTERM and SIGINT among them: a server started from a test so never sees the SIGTERM that
    /// asks it to stop, and each stop waited out its grace period before a SIGKILL.
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }

    /// Starts `executable` with `arguments` in the clean `environment`, its stdout and stderr
    /// going to the file `log` (made anew), its stdin /dev/null, no signal blocked.
    public static func startServer(
        _ executable: String, _ arguments: [String], environment: [String: String],
        log: String
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.runWithSignalsUnblocked()
        try? handle.close()
        return process
    }

    /// SIGTERM, then SIGKILL when it still runs after `grace` seconds, by pid; waits for its end.
    public func stopByPID(grace: TimeInterval = 2) {
        guard isRunning else { return }
        let pid = processIdentifier
        kill(pid, SIGTERM)
        let deadline = Date(timeIntervalSinceNow: grace)
        while isRunning && Date() < deadline { usleep(5_000) }
        if isRunning { kill(pid, SIGKILL) }
        waitUntilExit()
    }
}
