/// The lines todo writes to standard error for a person: `error: ...`, the hint under it,
/// `warning: ...` and `note: ...`. Every one of them goes through here.
///
/// Why one place: a message quotes what it is about, and that can be anything: a `--db` path a
/// script built, a name typed, an href or a status text a CalDAV server sent (relayed by the
/// `todo-sync` helper). Written raw, a newline in it would forge a second `error:` line for
/// whatever reads stderr, and an escape (ESC, CSI U+009B) or a bidi override would reach the
/// terminal. Here each line is made safe (``TodoText/sanitized(_:)``: control characters shown
/// escaped) and cut short, so one message is always exactly one line.
enum Diagnostics {
    /// The longest message shown, in characters: a huge token must not flood the terminal.
    static let maximumLength = 300

    /// `prefix` and `text` as one line: `text` sanitized, cut to ``maximumLength`` characters
    /// (the cut marked with `…`), and a newline.
    static func line(_ text: String, prefix: String = "") -> String {
        let safe = TodoText.sanitized(text)
        let shown = safe.count <= maximumLength ? safe : safe.prefix(maximumLength - 1) + "…"
        return prefix + shown + "\n"
    }
}

extension OutputStream {
    /// Writes `error: MESSAGE` and, when there is one, the hint on the next line (see
    /// ``Diagnostics``).
    func writeError(_ message: String, hint: String?) {
        write(Diagnostics.line(message, prefix: "error: "))
        if let hint { write(Diagnostics.line(hint)) }
    }

    /// Writes `warning: MESSAGE` (see ``Diagnostics``): something the command went past, such as
    /// an object on the server that is not a readable todo.
    func writeWarning(_ message: String) {
        write(Diagnostics.line(message, prefix: "warning: "))
    }

    /// Writes `note: MESSAGE` (see ``Diagnostics``): something a person should know about what
    /// the command did, in a pipe where standard output is for scripts.
    func writeNote(_ message: String) {
        write(Diagnostics.line(message, prefix: "note: "))
    }
}
