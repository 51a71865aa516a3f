/// A failure the command line reports: one `error:` line, an optional hint, an exit status.
struct CLIError: Error, Equatable {
    /// 1: the operation failed; 2: the command line was wrong.
    enum Kind: Int32 {
        case failure = 1
        case usage = 2
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
}
