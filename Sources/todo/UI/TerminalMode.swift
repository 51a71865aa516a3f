#if canImport(Glibc)
import Glibc
#endif

/// The terminal as `todo ui` needs it: raw input, the alternate screen, a hidden cursor, and
/// the promise to put everything back: on a normal exit, on an error, and on the crash signals
/// a process can still catch (a failed precondition is SIGILL or SIGTRAP, then SIGABRT).
///
/// State is process-wide (there is one terminal), kept in statics so that a C signal handler,
/// which cannot capture anything, can restore it with async-signal-safe calls only
/// (`write`, `tcsetattr`).
enum TerminalMode {
    /// Switch to the alternate screen, hide the cursor, clear.
    static let enterSequence: [UInt8] = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
    /// Reset attributes, show the cursor, leave the alternate screen.
    static let leaveSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

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

    /// Writes every byte to standard output, retrying short writes and EINTR.
    /// Returns the number of bytes written.
    @discardableResult
    static func writeAll(_ bytes: [UInt8]) -> Int {
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
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
    /// exec): then SIGTERM, SIGINT, SIGWINCH and SIGHUP would never reach us. Unblock them.
    private static func unblockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signalNumber in [SIGTERM, SIGINT, SIGWINCH, SIGHUP, SIGQUIT] { sigaddset(&set, signalNumber) }
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
