import TextSafety
import TodoStore
import TodoSync

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
    /// Whether rows carry the hint column ("overdue", "in 3 days"). Only on a terminal: text
    /// on a pipe or in a file must not change from one day to the next; and only when the
    /// terminal is wide enough (see ``init(maxID:today:style:lineWidth:showsHints:)``).
    let showsHints: Bool
    /// Whether hints were asked for at all (a terminal), whatever the width: `show`'s deadline
    /// line has room for its hint.
    private let hintsAsked: Bool

    /// The hint column's width: "in 99 days" is the longest hint.
    static let hintWidth = 10

    /// The fewest columns a name keeps before the hint column gives way (`list` and `todo ui`).
    static let minimumNameWidth = 10

    /// `showsHints` asks for the hint column; at a width that would leave a list row's name
    /// fewer than ``minimumNameWidth`` columns it is dropped, first of all (as `todo ui` does),
    /// and then the name is cut to what is left, so that no row is wider than `lineWidth`.
    init(maxID: Int64, today: CalendarDate, style: TextStyle, lineWidth: Int?, showsHints: Bool) {
        idWidth = String(max(maxID, 1)).count
        self.today = today
        self.style = style
        self.lineWidth = lineWidth
        hintsAsked = showsHints
        let rowWithHints = 2 + idWidth + 7 + 10 + 2 + Self.hintWidth + 2
        self.showsHints = showsHints && (lineWidth.map { $0 - rowWithHints >= Self.minimumNameWidth } ?? true)
    }

    /// This layout for rows whose largest id is `maxID`, the other choices kept.
    func fitting(maxID: Int64) -> TodoText {
        TodoText(maxID: maxID, today: today, style: style, lineWidth: lineWidth, showsHints: hintsAsked)
    }

    /// The deadline and hint columns' width, with the two spaces between them.
    var deadlineColumnsWidth: Int { 10 + (showsHints ? 2 + Self.hintWidth : 0) }

    /// Appends `  3  [ ]  2024-05-01  tomorrow    Buy milk` to `out`; a repeating todo's date
    /// is marked `2024-05-01↻`.
    ///
    /// Overdue and due-today deadlines are coloured; done todos are dimmed and get no hint.
    /// Writes bytes straight into the buffer: listing 100,000 todos must not build Strings per
    /// row on top of the name SQLite's text already costs.
    func writeRow(_ todo: Todo, to out: inout OutputStream) {
        out.writeSpaces(2)
        out.write(todo.id, width: idWidth)
        out.write(todo.isDone ? "  [x]  " : "  [ ]  ")
        writeDeadlineColumns(todo, to: &out)
        writeName(todo, prefixWidth: idWidth + 2 + 7 + deadlineColumnsWidth + 2, to: &out)
    }

    /// Appends an outline child row: `├─ 3  2024-04-30  overdue     Pay rent` (`└─` last).
    func writeTreeRow(_ todo: Todo, isLast: Bool, to out: inout OutputStream) {
        out.write(isLast ? "└─ " : "├─ ")
        out.write(todo.id, width: idWidth)
        out.write("  ")
        writeDeadlineColumns(todo, to: &out)
        writeName(todo, prefixWidth: 3 + idWidth + 2 + deadlineColumnsWidth + 2, to: &out)
    }

    /// The name, made safe, with the priority before it (`(H) `) and the tags after it
    /// (` +work @phone`), cut to what is left of the line, dimmed when done; then a newline.
    private func writeName(_ todo: Todo, prefixWidth: Int, to out: inout OutputStream) {
        let name = Self.labelled(todo)
        let fitted = lineWidth.map { DisplayWidth.truncate(name, toWidth: max(1, $0 - prefixWidth)) } ?? name
        if todo.isDone && style.enabled {
            out.write(style.paint(fitted, .dim))
        } else {
            out.write(fitted)
        }
        out.write("\n")
    }

    /// The deadline and its hint, padded to their columns and coloured by urgency, and the two
    /// columns before the name; the first column after the date holds ``repeatMark`` for a
    /// repeating todo (undated too).
    private func writeDeadlineColumns(_ todo: Todo, to out: inout OutputStream) {
        let gap = Self.gap(after: todo)
        guard let deadline = todo.deadline else {
            out.writeSpaces(10)
            out.write(gap)
            if showsHints { out.writeSpaces(Self.hintWidth + 2) }
            return
        }
        let (days, color) = urgency(of: todo)
        if let color, style.enabled { out.write(style.start(color)) }
        out.write(deadline)
        if showsHints {
            out.write(gap)
            let hint = days.map(Self.hint(days:)) ?? ""
            out.write(hint)
            out.writeSpaces(Self.hintWidth - hint.utf8.count)
        }
        if color != nil, style.enabled { out.write(TextStyle.reset) }
        out.write(showsHints ? "  " : gap)
    }

    /// What marks a repeating todo in a row, right after its date: one column, so that rows
    /// keep their width and their columns line up whether or not a todo repeats.
    static let repeatMark = "↻"

    /// The two columns after a row's date: ``repeatMark`` and a blank for a repeating todo,
    /// two blanks otherwise.
    static func gap(after todo: Todo) -> String { todo.fields.repeats ? repeatMark + " " : "  " }

    /// How urgent a todo's deadline is: the days until it (nil when the todo is done or has
    /// none) and the colour that says so (overdue red, due today yellow). The one rule for
    /// every view of a todo: `list`'s rows, `show`, and `todo ui`'s rows.
    func urgency(of todo: Todo) -> (days: Int?, color: TextStyle.Color?) {
        guard let deadline = todo.deadline, !todo.isDone else { return (nil, nil) }
        let days = today.days(until: deadline)
        let color: TextStyle.Color? =
            switch days {
            case ..<0: .red
            case 0: .yellow
            default: nil
            }
        return (days, color)
    }

    /// The deadline and hint columns as text, exactly as ``writeRow(_:to:)`` lays them out, up
    /// to the name (`2024-05-01  tomorrow    `, `2024-05-01↻ ` for a repeating todo without
    /// hints, blanks for no deadline), without colour; and the colour they take. For views that
    /// build their rows as Strings (`todo ui`, which fits and caches them).
    func deadlineColumns(_ todo: Todo) -> (text: String, color: TextStyle.Color?) {
        let gap = Self.gap(after: todo)
        let hintBlanks = showsHints ? String(repeating: " ", count: Self.hintWidth + 2) : ""
        guard let deadline = todo.deadline else { return (String(repeating: " ", count: 10) + gap + hintBlanks, nil) }
        let (days, color) = urgency(of: todo)
        var text = deadline.description + gap
        if showsHints {
            let hint = days.map(Self.hint(days:)) ?? ""
            text += hint + String(repeating: " ", count: Self.hintWidth - hint.utf8.count) + "  "
        }
        return (text, color)
    }

    /// The deadline and, on a terminal, its hint as text (for `show`), e.g. `2024-05-01 (tomorrow)`.
    func deadlineText(_ todo: Todo) -> String? {
        todo.deadline.map { date in
            let hint = urgency(of: todo).days.map { hintsAsked ? Self.hint(days: $0) : "" } ?? ""
            return hint.isEmpty ? date.description : "\(date) (\(hint))"
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

    /// The name as rows show it: `(H) ` before it for a priority (``TodoPriority/shortLabel``),
    /// its tags after it, made safe. Just the name for a todo with neither.
    static func labelled(_ todo: Todo) -> String {
        let name = sanitized(todo.name)
        guard !todo.priority.isNone || !todo.tags.isEmpty else { return name }
        let priority = todo.priority.isNone ? "" : "(\(todo.priority.shortLabel)) "
        let tags = todo.tags.isEmpty ? "" : " " + sanitized(todo.tags.storage)
        return priority + name + tags
    }

    /// One-line summary for commands that report what they changed: `✓ 3  Buy milk`.
    static func summary(_ mark: String, _ todo: Todo) -> String {
        "\(mark) \(todo.id)  \(sanitized(todo.name))\n"
    }

    /// ``summary(_:_:)`` with the deadline, for a person at a terminal: `+ 3  Buy milk  due fri
    /// 2026-11-27` (the weekday says which day a relative date such as `friday` or `+1w` became),
    /// and how a repeating todo repeats: `+ 4  Pay rent  due tue 2026-12-01  ↻ every month`.
    /// `showsNoDeadline` writes `no deadline` for a todo without one (`edit` shows every value);
    /// `dueWord` names the date (`first occurrence` when a repeat moved it).
    static func summaryWithDeadline(
        _ mark: String, _ todo: Todo, showsNoDeadline: Bool = false, dueWord: String = "due"
    ) -> String {
        let due =
            todo.deadline.map { "  \(dueWord) \(day($0))" }
            ?? (showsNoDeadline ? "  no deadline" : "")
        let repeats = repeatText(todo).map { "  \(repeatMark) " + $0 } ?? ""
        return "\(mark) \(todo.id)  \(labelled(todo))\(due)\(repeats)\n"
    }

    /// ``summary(_:_:)`` followed by what became of a repeating todo: `✓ 12  Pay rent  next fri
    /// 2027-01-01`, `✓ 12  Pay rent  series over`.
    static func summary(_ mark: String, _ todo: Todo, then: String) -> String {
        "\(mark) \(todo.id)  \(sanitized(todo.name))  \(then)\n"
    }

    /// A date as a person reads it, with its weekday: `fri 2026-11-27`.
    static func day(_ date: CalendarDate) -> String {
        "\(DueDateParser.weekdays[date.weekday].prefix(3)) \(date)"
    }

    /// How a todo repeats, in words, made safe (`every month`, `every 2 weeks on Mon, Thu (from
    /// done)`); a rule todo cannot read as it is written; `nil` when it does not repeat.
    static func repeatText(_ todo: Todo) -> String? {
        guard let rule = todo.repeatRule else { return nil }
        return sanitized(RepeatingTodo(todo.fields)?.summary ?? rule)
    }

    /// A field's value in a line of text (a sync conflict): a name or note quoted, a date as
    /// `YYYY-MM-DD`, done as `done` or `not done`, a priority by its class (`high`), tags as
    /// written, a time in UTC, `none` for no value; sanitized.
    static func value(_ value: TodoField.Value) -> String {
        switch value {
        case .none: "none"
        case .text(let text): "\"\(sanitized(text))\""
        case .date(let date): "\(date)"
        case .flag(let flag): flag ? "done" : "not done"
        case .priority(let priority): priority.label
        case .tags(let tags): tags.isEmpty ? "none" : sanitized(tags.storage)
        case .time(let time): "\(time)"
        case .clock(let time): sanitized(time.text)
        }
    }

    /// `text` with control characters made visible (`^[`, `\n`): a name from another client
    /// must not be able to move the cursor, clear the screen or fake other rows. The one policy's
    /// terminal rendering (TextSafety's ``ControlCharacters/escapedForTerminal(_:)``).
    static func sanitized(_ text: String) -> String { ControlCharacters.escapedForTerminal(text) }
}
