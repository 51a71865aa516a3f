#if canImport(Glibc)
    import Glibc
#endif

/// A failure the command line reports: one `error:` line, an optional hint, an exit status.
struct CLIError: Error, Equatable {
    /// The exit status: 1 the operation failed; 2 the command line was wrong; 128 + N a
    /// long-running command (`watch`, `ui`) stopped by signal N, as shells expect.
    enum Kind: Int32 {
        case failure = 1
        case usage = 2
        case interrupted = 130  // SIGINT, Ctrl-C
        case terminated = 143  // SIGTERM

        /// True for the signal statuses, which print no error line.
        var isStop: Bool { rawValue > 128 }
    }

    var kind: Kind
    var message: String
    var hint: String?

    /// A usage error (exit 2): unknown command or flag, bad value, missing argument.
    static func usage(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(kind: .usage, message: message, hint: hint)
    }

    /// An operational failure (exit 1): no such todo, busy or full database, bad file.
    static func failure(_ message: String, hint: String? = nil) -> CLIError {
        CLIError(kind: .failure, message: message, hint: hint)
    }

    /// Standard output could not be written (`errno` `code`: a full disk, an I/O error): a
    /// failed command, never a truncated output that looks like a success.
    static func outputFailed(_ code: Int32) -> CLIError {
        .failure("cannot write standard output: \(String(cString: strerror(code)))")
    }

    /// A long-running command stopped, cleanly, by `signal` (SIGINT or SIGTERM): no message,
    /// status 128 + the signal's number.
    static func stopped(by signal: Int32) -> CLIError {
        CLIError(kind: Kind(rawValue: 128 + signal) ?? .terminated, message: "", hint: nil)
    }
}
