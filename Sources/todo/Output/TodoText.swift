import TodoStore

/// Text rendering of todos for people: aligned rows with a done mark, the deadline and how
/// far away it is, and the name cut to the terminal's width.
struct TodoText {
    /// Width of the widest id, for right-aligning ids.
    let idWidth: Int
    /// The local day, for the "overdue / today / in N days" hints.
    let today: CalendarDate
    /// Colour on or off.
    let style: TextStyle
    /// Columns available for a whole row, when the output has a width (a terminal or `COLUMNS`).
    let lineWidth: Int?

    /// The hint column's width: "in 99 days" is the longest hint.
    static let hintWidth = 10

    init(maxID: Int64, today: CalendarDate, style: TextStyle, lineWidth: Int?) {
        idWidth = String(max(maxID, 1)).count
        self.today = today
        self.style = style
        self.lineWidth = lineWidth
    }

    /// Appends `  3  [ ]  2024-05-01  tomorrow    Buy milk` to `out`.
    ///
    /// Overdue and due-today deadlines are coloured; done todos are dimmed and get no hint.
    func writeRow(_ todo: Todo, to out: inout OutputStream) {
        let id = String(todo.id)
        out.write(bytes: repeatElement(UInt8(ascii: " "), count: idWidth - id.utf8.count + 2))
        out.write(id)
        out.write(todo.isDone ? "  [x]  " : "  [ ]  ")
        out.write(deadlineColumns(todo))
        out.write("  ")
        let name = Self.sanitized(todo.name)
        let prefixWidth = idWidth + 2 + 7 + 10 + 2 + Self.hintWidth + 2
        let fitted = lineWidth.map { DisplayWidth.truncate(name, toWidth: max(8, $0 - prefixWidth)) } ?? name
        out.write(todo.isDone ? style.paint(fitted, .dim) : fitted)
        out.write("\n")
    }

    /// The deadline and its hint, padded to their columns and coloured by urgency.
    func deadlineColumns(_ todo: Todo) -> String {
        guard let deadline = todo.deadline else { return String(repeating: " ", count: 10 + 2 + Self.hintWidth) }
        let hint = todo.isDone ? "" : Self.hint(days: today.days(until: deadline))
        let text = deadline.description + "  " + hint + String(repeating: " ", count: Self.hintWidth - hint.count)
        guard !todo.isDone else { return text }
        switch today.days(until: deadline) {
        case ..<0: return style.paint(text, .red)
        case 0: return style.paint(text, .yellow)
        default: return text
        }
    }

    /// "overdue", "today", "tomorrow", "in N days" (up to 99), or nothing further out.
    static func hint(days: Int) -> String {
        switch days {
        case ..<0: "overdue"
        case 0: "today"
        case 1: "tomorrow"
        case 2...99: "in \(days) days"
        default: ""
        }
    }

    /// Appends an outline child row: `├─ 3  2024-04-30  overdue     Pay rent` (`└─` last).
    func writeTreeRow(_ todo: Todo, isLast: Bool, to out: inout OutputStream) {
        let id = String(todo.id)
        out.write(isLast ? "└─ " : "├─ ")
        out.write(bytes: repeatElement(UInt8(ascii: " "), count: idWidth - id.utf8.count))
        out.write(id)
        out.write("  ")
        out.write(deadlineColumns(todo))
        out.write("  ")
        let name = Self.sanitized(todo.name)
        let prefixWidth = 3 + idWidth + 2 + 10 + 2 + Self.hintWidth + 2
        let fitted = lineWidth.map { DisplayWidth.truncate(name, toWidth: max(8, $0 - prefixWidth)) } ?? name
        out.write(todo.isDone ? style.paint(fitted, .dim) : fitted)
        out.write("\n")
    }

    /// One-line summary for commands that report what they changed: `✓ 3  Buy milk`.
    static func summary(_ mark: String, _ todo: Todo) -> String {
        "\(mark) \(todo.id)  \(sanitized(todo.name))\n"
    }

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
