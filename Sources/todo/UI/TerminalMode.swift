#if canImport(Glibc)
    import Glibc
#endif

/// The terminal as `todo ui` needs it: raw input, the alternate screen, a hidden cursor, and
/// the promise to put everything back: on a normal exit, on an error, and on the crash signals
/// a process can still catch (a failed precondition is SIGILL or SIGTRAP, then SIGABRT).
///
/// State is process-wide (there is one terminal), kept in statics so that a C signal handler,
/// which cannot capture anything, can restore it. The handler's path calls only
/// async-signal-safe functions (`write`, `tcsetattr`, `raise`) and touches no lazily
/// initialised global: the escape sequences are computed `StaticString`s (constant bytes in the
/// binary), and the flag and saved settings are plain values initialised statically.
enum TerminalMode {
    /// Switch to the alternate screen, hide the cursor, clear.
    static var enterSequence: StaticString { "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J" }
    /// Reset attributes, show the cursor, leave the alternate screen.
    static var leaveSequence: StaticString { "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l" }

    nonisolated(unsafe) private static var original = termios()
    nonisolated(unsafe) private static var active = false

    /// Why the terminal could not be prepared.
    struct Failure: Error {
        let message: String
    }

    /// Puts standard input in raw mode (no echo, no line editing, no signals from keys: Ctrl-C
    /// arrives as byte 3) and standard output on the alternate screen.
    static func enter() throws(Failure) {
        guard !active else { return }
        guard isatty(0) == 1 else { throw Failure(message: "standard input is not a terminal") }
        guard tcgetattr(0, &original) == 0 else {
            throw Failure(message: "cannot read the terminal's settings: \(String(cString: strerror(errno)))")
        }
        var raw = original
        cfmakeraw(&raw)  // also VMIN 1, VTIME 0: a read returns as soon as a byte is there
        guard tcsetattr(0, TCSAFLUSH, &raw) == 0 else {
            throw Failure(message: "cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
        }
        active = true
        installCrashHandlers()
        unblockSignals()
        writeAll(enterSequence)
    }

    /// Undoes ``enter()``. Idempotent and async-signal-safe.
    static func restore() {
        guard active else { return }
        active = false
        writeAll(leaveSequence)
        _ = tcsetattr(0, TCSANOW, &original)
    }

    /// The terminal's size in columns and rows (80x24 when it cannot be read).
    static func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes a constant sequence; async-signal-safe (no allocation, `write` only).
    static func writeAll(_ sequence: StaticString) {
        _ = sequence.withUTF8Buffer { writeAll(UnsafeRawBufferPointer($0)) }
    }

    /// Writes every byte to standard output, retrying short writes and EINTR.
    /// Returns the number of bytes written.
    @discardableResult
    static func writeAll(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { writeAll($0) }
    }

    /// Writes every byte to standard output, retrying short writes and EINTR.
    /// Returns the number of bytes written.
    @discardableResult
    static func writeAll(_ buffer: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        if let base = buffer.baseAddress {
            while offset < buffer.count {
                let written = write(1, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        return offset
    }

    /// A parent may have started us with signals blocked (a blocked mask is inherited across
    /// exec): then SIGHUP and SIGQUIT would never reach the handlers that restore the terminal.
    /// Unblock them. SIGTERM, SIGINT and SIGWINCH stay blocked: UIEvents receives them through
    /// dispatch sources, which read blocked signals (see `SignalSources`).
    private static func unblockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGHUP, SIGQUIT] { sigaddset(&set, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Fatal signals restore the terminal, then take their default action (the handler is
    /// reset first, so re-raising ends the process as it would have without us).
    private static func installCrashHandlers() {
        for signalNumber in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGHUP, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { received in
                TerminalMode.restore()
                raise(received)
            }
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
    }
}
