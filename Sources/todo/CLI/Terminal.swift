#if canImport(Glibc)
    import Glibc
#endif

/// What the CLI needs to know about the terminal: its width, and a yes/no question.
enum Terminal {
    /// Columns for a row when stdout is a terminal: `COLUMNS` when set, else the terminal's
    /// width. A pipe or a file gets `nil`, whatever `COLUMNS` says: nothing is cut there (an
    /// exported `COLUMNS` must not cut names that `grep` looks for).
    static func lineWidth() -> Int? {
        guard isatty(1) == 1 else { return nil }
        if let columns = Environment.value("COLUMNS").flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Rows of the terminal stdout is: `LINES` when set, else the terminal's height. A pipe or a
    /// file gets `nil`, and so does a terminal that does not say (a height of 0): nothing is
    /// left out there.
    static func height() -> Int? {
        guard isatty(1) == 1 else { return nil }
        if let lines = Environment.value("LINES").flatMap({ Int($0) }), lines > 0 { return lines }
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0 else { return nil }
        return Int(size.ws_row)
    }

    /// Whether standard input is a terminal (a person who can answer a question).
    static var stdinIsTerminal: Bool { isatty(0) == 1 }

    /// Asks `question` on stderr and reads one line from stdin: true for "y" or "yes".
    /// End of input counts as no.
    static func confirm(_ question: String, err: inout OutputStream) -> Bool {
        let text = ask(question + " [y/N]", err: &err).lowercased().filter { !$0.isWhitespace }
        return text == "y" || text == "yes"
    }

    /// Asks `question` on `err` and returns the line typed on standard input, without its
    /// newline and the spaces around it (empty at end of input). At most 4 KiB are kept.
    static func ask(_ question: String, err: inout OutputStream) -> String {
        err.write(question + " ")
        err.flush()
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1, byte != UInt8(ascii: "\n") {
            if answer.count < 4096 { answer.append(byte) }
        }
        return String(decoding: answer, as: UTF8.self).trimmingSpaces
    }
}
