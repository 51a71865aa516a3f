import TodoStore

/// Text rendering of todos for people: one aligned row per todo.
enum TodoText {
    /// Appends `  3  [ ]  2024-05-01  Buy milk` (id right-aligned to `idWidth`) to `out`.
    ///
    /// Writes bytes straight into the buffer: listing 100,000 todos must not build a String
    /// per row on top of the one SQLite's text already costs.
    static func writeRow(_ todo: Todo, idWidth: Int, to out: inout OutputStream) {
        let id = String(todo.id)
        out.write(bytes: repeatElement(UInt8(ascii: " "), count: max(0, idWidth - id.utf8.count) + 2))
        out.write(id)
        out.write(todo.isDone ? "  [x]  " : "  [ ]  ")
        if let deadline = todo.deadline {
            out.write(deadline.description)
        } else {
            out.write("          ")
        }
        out.write("  ")
        out.write(sanitized(todo.name))
        out.write("\n")
    }

    /// Appends an outline child row: `├─ 3  2024-04-30  Pay rent` (`└─` for the last child).
    static func writeTreeRow(_ todo: Todo, idWidth: Int, isLast: Bool, to out: inout OutputStream) {
        let id = String(todo.id)
        out.write(isLast ? "└─ " : "├─ ")
        out.write(bytes: repeatElement(UInt8(ascii: " "), count: max(0, idWidth - id.utf8.count)))
        out.write(id)
        out.write("  ")
        out.write(todo.deadline?.description ?? "          ")
        out.write("  ")
        out.write(sanitized(todo.name))
        out.write("\n")
    }

    /// One-line summary for commands that report what they changed: `✓ 3  Buy milk`.
    static func summary(_ mark: String, _ todo: Todo) -> String {
        "\(mark) \(todo.id)  \(sanitized(todo.name))\n"
    }

    /// The width of the widest id up to `maxID`, for aligning rows.
    static func idWidth(maxID: Int64) -> Int { String(max(maxID, 1)).count }

    /// `text` with control characters made visible (`^[`, `\n`): a name from another client
    /// must not be able to move the cursor, clear the screen or fake other rows.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20: out += "^" + String(UnicodeScalar(UInt8(scalar.value) + 64))
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            || (0x2028...0x2029).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value)
    }
}
