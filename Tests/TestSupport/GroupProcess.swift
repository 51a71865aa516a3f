import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started in a process group of its own (as a shell starts a job), its stdout and
/// stderr going to files: a test can kill it and every process it started (`todo sync` and its
/// `todo-sync`) at once, at a moment of its choosing, and tell how it ended.
///
/// Started by ``spawn(_:_:environment:stdout:stderr:ownGroup:)``; reaped by its pid alone.
public final class GroupProcess: @unchecked Sendable {
    /// How it ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// Its pid, which is also its process group's id.
    public let pid: pid_t
    private let outputPath: String
    private let errorPath: String
    private let lock = NSLock()
    private var ended: Termination?

    /// Starts `executable` with `arguments` in `environment` (added to a minimal clean one, as
    /// ``ProcessRunner`` does), stdin /dev/null, stdout and stderr to `output` and `output`.err
    /// (made anew).
    public init(_ executable: String, _ arguments: [String], environment: [String: String], output: String) throws {
        outputPath = output
        errorPath = output + ".err"
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        pid = try Self.spawn(
            executable, arguments, environment: env.map { "\($0.key)=\($0.value)" }, stdout: outputPath,
            stderr: errorPath, ownGroup: true)
    }

    /// Starts `executable` by `posix_spawn` with stdin /dev/null, stdout and stderr to the files
    /// given (made anew; `nil`: /dev/null) and exactly `environment` (`NAME=value`), no signal
    /// blocked and every disposition at its default (a test runs on a Dispatch thread that blocks
    /// most signals, which a child would inherit), in a process group of its own with
    /// `ownGroup`. Its pid, for the caller to reap.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String], stdout: String?, stderr: String?,
        ownGroup: Bool = false
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, path) in [(Int32(1), stdout), (2, stderr)] {
            if let path {
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            } else {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw ServerDidNotStart(description: "posix_spawn \(executable): \(String(cString: strerror(status)))")
        }
        return pid
    }

    /// Kills it if it still runs, and reaps it: a test that failed half-way leaves nothing behind.
    deinit {
        if termination == nil {
            killGroup()
            _ = wait(timeout: 10)
        }
    }

    /// How it ended, or `nil` while it runs (never blocks).
    public var termination: Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let ended { return ended }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        // WIFEXITED / WIFSIGNALED, which Swift does not import.
        ended = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
        return ended
    }

    /// Waits up to `timeout` seconds for its end; how it ended, or `nil` if it still runs.
    public func wait(timeout: TimeInterval) -> Termination? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            if let ended = termination { return ended }
            if Date() >= deadline { return nil }
            usleep(1_000)
        }
    }

    /// Waits until `condition` holds or it ends, whichever comes first (at most `timeout`
    /// seconds); whether the condition held while it still ran.
    public func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while termination == nil && Date() < deadline {
            if condition() { return termination == nil }
            usleep(500)
        }
        return false
    }

    /// Sends `signal` to its whole process group (it and every child it started).
    public func killGroup(_ signal: Int32 = SIGKILL) {
        kill(-pid, signal)
    }

    /// What it printed on stdout so far.
    public var stdout: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What it printed on stderr so far.
    public var stderr: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}
