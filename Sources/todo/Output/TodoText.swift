import TextSafety
import TodoStore
import TodoSync

/// Text rendering of todos for people: aligned rows with a done mark, the deadline (with its
/// time of day, where any todo listed has one and there is room) and how far away it is, and
/// the name cut to the terminal's width.
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
    /// terminal is wide enough (see ``init(maxID:today:style:lineWidth:showsHints:showsTimes:dueTimes:)``).
    let showsHints: Bool
    /// Whether rows carry the time column (`19:00`, blank for a todo without a time).
    let showsTimes: Bool
    /// Whether hints were asked for at all (a terminal), whatever the width: `show`'s deadline
    /// line has room for its hint.
    private let hintsAsked: Bool
    /// Whether the time column was asked for (some todo listed has a time), whatever the width.
    private let timesAsked: Bool
    /// The local zone's reading of deadlines with a time of day, shared by every row.
    let dueTimes: DueTimeConverter
    /// The lists' names by id, when rows name their list (`  in Groceries` after the name):
    /// when the database has more than one and the rows are not all of one (``CommandContext/text(for:in:)``).
    var listNames: [Int64: String]? = nil {
        didSet { listSuffixes = listNames?.mapValues { "  in " + Self.sanitized($0) } }
    }
    /// ``listNames`` as each row writes them, made safe once rather than once a row.
    private var listSuffixes: [Int64: String]? = nil
    /// The blocked todos, with the ids of the todos not done that each waits for
    /// (``TodoRepository/blockers()``), when the file has dependencies: a blocked todo's row says
    /// `  waits for 3, 4` after its name. `nil` (most files) writes nothing and costs nothing.
    var blockers: [Int64: [Int64]]? = nil

    /// The hint column's width: "in 99 days" is the longest hint.
    static let hintWidth = 10

    /// The time column's width: `HH:MM` (rows leave out seconds; `show` has them).
    static let timeWidth = 5

    /// The fewest columns a name keeps before the hint column gives way (`list` and `todo ui`).
    static let minimumNameWidth = 10

    /// `showsHints` asks for the hint column, `showsTimes` for the time column; at a width that
    /// would leave a list row's name fewer than ``minimumNameWidth`` columns the time column is
    /// dropped first, then the hint column (as `todo ui` does), and then the name is cut to
    /// what is left, so that no row is wider than `lineWidth`.
    init(
        maxID: Int64, today: CalendarDate, style: TextStyle, lineWidth: Int?, showsHints: Bool,
        showsTimes: Bool = false, dueTimes: DueTimeConverter
    ) {
        idWidth = String(max(maxID, 1)).count
        self.today = today
        self.style = style
        self.lineWidth = lineWidth
        self.dueTimes = dueTimes
        hintsAsked = showsHints
        timesAsked = showsTimes
        let columns = Self.fittingColumns(
            rowStart: 2 + idWidth + 7, lineWidth: lineWidth, hints: showsHints, times: showsTimes)
        self.showsHints = columns.hints
        self.showsTimes = columns.times
    }

    /// Which of the hint and time columns fit a row whose columns before the date take
    /// `rowStart`, each only when asked for: the time goes first, and is kept only while the
    /// hints asked for are kept too, so a narrowing row loses the time, then the hints.
    static func fittingColumns(rowStart: Int, lineWidth: Int?, hints: Bool, times: Bool) -> (hints: Bool, times: Bool) {
        func fits(_ width: Int) -> Bool { lineWidth.map { $0 - width >= minimumNameWidth } ?? true }
        let dateColumns = rowStart + 10 + 2
        let showsHints = hints && fits(dateColumns + hintWidth + 2)
        let showsTimes =
            times && showsHints == hints && fits(dateColumns + timeWidth + 2 + (showsHints ? hintWidth + 2 : 0))
        return (showsHints, showsTimes)
    }

    /// This layout for rows whose largest id is `maxID`, the other choices kept.
    func fitting(maxID: Int64) -> TodoText {
        fitting(maxID: maxID, showsTimes: timesAsked)
    }

    /// This layout for rows whose largest id is `maxID`, with the time column when
    /// `showsTimes` (and it fits), the other choices kept.
    func fitting(maxID: Int64, showsTimes: Bool) -> TodoText {
        var text = TodoText(
            maxID: maxID, today: today, style: style, lineWidth: lineWidth, showsHints: hintsAsked,
            showsTimes: showsTimes, dueTimes: dueTimes)
        text.listNames = listNames
        text.blockers = blockers
        return text
    }

    /// The deadline, time and hint columns' width, with the two spaces between them.
    var deadlineColumnsWidth: Int {
        10 + (showsTimes ? 2 + Self.timeWidth : 0) + (showsHints ? 2 + Self.hintWidth : 0)
    }

    /// Appends `  3  [ ]  2024-05-01  tomorrow    Buy milk` to `out`; a repeating todo's date
    /// is marked `2024-05-01↻`, and with the time column a deadline's time follows:
    /// `2024-05-01  19:00  tomorrow    Buy milk`. The mark says the todo's state
    /// (``mark(_:)``: `[ ]`, `[~]` in progress, `[x]` completed, `[-]` cancelled).
    ///
    /// Overdue and due-today deadlines are coloured; done todos are dimmed and get no hint.
    /// Writes bytes straight into the buffer: listing 100,000 todos must not build Strings per
    /// row on top of the name SQLite's text already costs.
    ///
    /// A subtask at `depth` has its name indented by two columns a level (at most
    /// ``maximumIndentedDepth`` levels: a deep tree still leaves its names room at 40 columns);
    /// a row shown only as a chosen subtask's parent (`isContext`) is dimmed.
    func writeRow(_ todo: Todo, depth: Int = 0, isContext: Bool = false, to out: inout OutputStream) {
        out.writeSpaces(2)
        out.write(todo.id, width: idWidth)
        switch todo.status {
        case .needsAction: out.write("  [ ]  ")
        case .inProcess: out.write("  [~]  ")
        case .completed: out.write("  [x]  ")
        case .cancelled: out.write("  [-]  ")
        }
        writeDeadlineColumns(todo, to: &out)
        writeName(
            todo, prefixWidth: idWidth + 2 + 7 + deadlineColumnsWidth + 2, lead: Self.indent(depth), dim: isContext,
            to: &out)
    }

    /// The deepest level rows indent for; deeper subtasks are shown at this level.
    static let maximumIndentedDepth = 5

    /// The lead of a name at `depth`: two spaces a level, up to ``maximumIndentedDepth``.
    static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(max(depth, 0), maximumIndentedDepth))
    }

    /// A todo's state as rows mark it, three columns: `[ ]` needs action, `[~]` in progress,
    /// `[x]` completed, `[-]` cancelled (done, but never completed).
    static func mark(_ status: TodoStatus) -> String {
        switch status {
        case .needsAction: "[ ]"
        case .inProcess: "[~]"
        case .completed: "[x]"
        case .cancelled: "[-]"
        }
    }

    /// Appends an outline child row: `├─ 3  2024-04-30  overdue     Pay rent` (`└─` last). The
    /// group says whether a todo is done; a todo in progress or cancelled has its ``mark(_:)``
    /// before its name (`[~] Pay rent`), as a group holds both of its done state. A subtask at
    /// `depth` in its group's tree has its name indented as ``writeRow(_:depth:isContext:to:)``
    /// indents it (``indent(_:)``).
    func writeTreeRow(_ todo: Todo, depth: Int = 0, isLast: Bool, to out: inout OutputStream) {
        out.write(isLast ? "└─ " : "├─ ")
        out.write(todo.id, width: idWidth)
        out.write("  ")
        writeDeadlineColumns(todo, to: &out)
        let mark = todo.status == .inProcess || todo.status == .cancelled ? Self.mark(todo.status) + " " : ""
        writeName(
            todo, prefixWidth: 3 + idWidth + 2 + deadlineColumnsWidth + 2, lead: Self.indent(depth) + mark, to: &out)
    }

    /// The name, made safe, with the priority before it (`(H) `) and the tags after it
    /// (` +work @phone`), then what a blocked todo waits for and the list, after `lead`, cut to
    /// what is left of the line, dimmed when done; then a newline.
    private func writeName(
        _ todo: Todo, prefixWidth: Int, lead: String = "", dim: Bool = false, to out: inout OutputStream
    ) {
        let dimmed = (todo.isDone || dim) && style.enabled
        // Nothing to fit nor to paint (a pipe, a file): the pieces go straight into the buffer.
        guard lineWidth != nil || dimmed else {
            if !lead.isEmpty { out.write(lead) }
            Self.writeLabelled(todo, to: &out)
            if let waits = waitsFor(todo) { out.write(waits) }
            if let list = listName(of: todo) { out.write(list) }
            out.write("\n")
            return
        }
        let name = lead + Self.labelled(todo) + (waitsFor(todo) ?? "") + (listName(of: todo) ?? "")
        let fitted = lineWidth.map { DisplayWidth.truncate(name, toWidth: max(1, $0 - prefixWidth)) } ?? name
        if dimmed {
            out.write(style.paint(fitted, .dim))
        } else {
            out.write(fitted)
        }
        out.write("\n")
    }

    /// `  waits for 3, 4` for a blocked todo (``blockers``): the todos not done it waits for, the
    /// first three and how many more; `nil` for a todo that is not blocked.
    func waitsFor(_ todo: Todo) -> String? {
        guard let ids = blockers?[todo.id], !ids.isEmpty else { return nil }
        let shown = ids.prefix(3).map(String.init).joined(separator: ", ")
        return "  waits for " + shown + (ids.count > 3 ? " and \(ids.count - 3) more" : "")
    }

    /// `  in Groceries`, made safe, when rows name their list; `nil` when they do not.
    func listName(of todo: Todo) -> String? {
        guard let listSuffixes else { return nil }
        return listSuffixes[todo.listID] ?? "  in #\(todo.listID)"
    }

    /// The deadline, its time and its hint, padded to their columns and coloured by urgency
    /// (when `colored` and colour is on), and the two columns before the name; the first column
    /// after the date holds ``repeatMark`` for a repeating todo (undated too).
    private func writeDeadlineColumns(_ todo: Todo, colored: Bool = true, to out: inout some RowWriter) {
        let gap = Self.gap(after: todo)
        guard let due = localDue(todo) else {
            out.writeSpaces(10)
            out.write(gap)
            if showsTimes { out.writeSpaces(Self.timeWidth + 2) }
            if showsHints {
                let hint = startHint(todo) ?? ""
                out.write(hint)
                out.writeSpaces(Self.hintWidth - hint.utf8.count + 2)
            }
            return
        }
        // How far away it is, only where a hint or a colour shows it.
        let (days, color) =
            showsHints || (colored && style.enabled) ? urgency(due: due.date, isDone: todo.isDone) : (nil, nil)
        let paints = color != nil && colored && style.enabled
        if let color, paints { out.write(style.start(color)) }
        out.write(due.date)
        if showsTimes || showsHints { out.write(gap) }
        if showsTimes {
            if let second = due.secondOfDay {
                out.write(Self.rowClock(second))
            } else {
                out.writeSpaces(Self.timeWidth)
            }
            if showsHints { out.writeSpaces(2) }
        }
        if showsHints {
            let hint = startHint(todo) ?? days.map(Self.hint(days:)) ?? ""
            out.write(hint)
            out.writeSpaces(Self.hintWidth - hint.utf8.count)
        }
        if paints { out.write(TextStyle.reset) }
        out.write(showsTimes || showsHints ? "  " : gap)
    }

    /// What marks a repeating todo in a row, right after its date: one column, so that rows
    /// keep their width and their columns line up whether or not a todo repeats.
    static let repeatMark = "↻"

    /// The two columns after a row's date: ``repeatMark`` and a blank for a repeating todo,
    /// two blanks otherwise.
    static func gap(after todo: Todo) -> String { todo.fields.repeats ? repeatMark + " " : "  " }

    /// The day and time of day `todo` is due on the local clock (`nil` without a deadline):
    /// its deadline as stored when it has no time, converted when its time is on another
    /// zone's clock or an instant (see ``DueTimeConverter``).
    func localDue(_ todo: Todo) -> (date: CalendarDate, secondOfDay: Int?)? {
        guard todo.dueTime != nil else { return todo.deadline.map { ($0, nil) } }
        return dueTimes.due(of: todo.fields)
    }

    /// How urgent a todo's deadline is: the days until it (nil when the todo is done or has
    /// none) and the colour that says so (overdue red, due today yellow). The one rule for
    /// every view of a todo: `list`'s rows, `show`, and `todo ui`'s rows.
    func urgency(of todo: Todo) -> (days: Int?, color: TextStyle.Color?) {
        guard let due = localDue(todo) else { return (nil, nil) }
        return urgency(due: due.date, isDone: todo.isDone)
    }

    /// ``urgency(of:)`` of a todo due on `date` (the local one).
    private func urgency(due date: CalendarDate, isDone: Bool) -> (days: Int?, color: TextStyle.Color?) {
        guard !isDone else { return (nil, nil) }
        let days = today.days(until: date)
        let color: TextStyle.Color? =
            switch days {
            case ..<0: .red
            case 0: .yellow
            default: nil
            }
        return (days, color)
    }

    /// The deadline, time and hint columns as text, exactly as ``writeRow(_:to:)`` lays them
    /// out, up to the name (`2024-05-01  tomorrow    `, `2024-05-01↻ ` for a repeating todo
    /// without hints, blanks for no deadline), without colour; and the colour they take. For
    /// views that build their rows as Strings (`todo ui`, which fits and caches them).
    func deadlineColumns(_ todo: Todo) -> (text: String, color: TextStyle.Color?) {
        var text = RowText()
        writeDeadlineColumns(todo, colored: false, to: &text)
        return (text.text, urgency(of: todo).color)
    }

    /// The deadline with its time of day (exact, in the local zone) and, on a terminal, its
    /// hint as text (for `show`), e.g. `2024-05-01 19:00 (tomorrow)`.
    func deadlineText(_ todo: Todo) -> String? {
        localDue(todo).map { due in
            let hint =
                urgency(due: due.date, isDone: todo.isDone).days.map { hintsAsked ? Self.hint(days: $0) : "" } ?? ""
            let date = due.date.description + (due.secondOfDay.map { " " + TodoDueTime.clock($0) } ?? "")
            return hint.isEmpty ? date : "\(date) (\(hint))"
        }
    }

    /// A start date as `show` gives it: `2026-12-07`, and on a terminal how far away it is
    /// while it is ahead (`2026-12-07 (in 10 days)`).
    func startText(_ date: CalendarDate) -> String {
        let days = today.days(until: date)
        let hint = hintsAsked && days > 0 ? Self.hint(days: days) : ""
        return hint.isEmpty ? date.description : "\(date) (\(hint))"
    }

    /// `HH:MM` of a time of day, its seconds left out (rows have five columns for it).
    static func rowClock(_ secondOfDay: Int) -> String { TodoDueTime.clock(secondOfDay - secondOfDay % 60) }

    /// The hint of a todo not done that has not started yet, in place of its deadline's:
    /// `starts sat` within the week, `starts 12d` up to 99 days ahead, `waiting` further out;
    /// `nil` for any other todo.
    func startHint(_ todo: Todo) -> String? {
        guard let start = todo.start, start > today, !todo.isDone else { return nil }
        let days = today.days(until: start)
        switch days {
        case ..<7: return "starts " + DueDateParser.weekdays[start.weekday].prefix(3)
        case ..<100: return "starts \(days)d"
        default: return "waiting"
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

    /// The name as rows show it: how far along a todo not done is (`40% `, when it has a
    /// percent above 0), `(H) ` for a priority (``TodoPriority/shortLabel``), the name, its
    /// project (`project:Work.ClientA`) and its tags after it, made safe. Just the name for a todo with none of them.
    static func labelled(_ todo: Todo) -> String {
        guard !todo.priority.isNone || !todo.tags.isEmpty || todo.project != nil || progress(todo) != nil else {
            return sanitized(todo.name)
        }
        var text = RowText()
        writeLabelled(todo, to: &text)
        return text.text
    }

    /// Writes ``labelled(_:)``'s text to `out`, piece by piece.
    static func writeLabelled(_ todo: Todo, to out: inout some RowWriter) {
        if let percent = progress(todo) {
            out.write(String(percent))
            out.write("% ")
        }
        if !todo.priority.isNone {
            out.write("(")
            out.write(todo.priority.shortLabel)
            out.write(") ")
        }
        out.write(sanitized(todo.name))
        if let project = todo.project {
            out.write(" ")
            out.write(sanitized(project.word))
        }
        if !todo.tags.isEmpty {
            out.write(" ")
            out.write(sanitized(todo.tags.storage))
        }
    }

    /// The percent rows show for `todo`: a todo not done that is some way along (above 0);
    /// `nil` otherwise (a done todo's percent says nothing more than its mark).
    static func progress(_ todo: Todo) -> Int? {
        guard let percent = todo.percent, percent > 0, !todo.isDone else { return nil }
        return percent
    }

    /// One-line summary for commands that report what they changed: `✓ 3  Buy milk`.
    static func summary(_ mark: String, _ todo: Todo) -> String {
        summary(mark, id: todo.id, name: todo.name)
    }

    /// ``summary(_:_:)`` naming the todo's list where these rows name theirs (``listNames``):
    /// `+ 3  Buy milk  in Groceries`, as `todo watch` writes a change.
    func summary(_ mark: String, _ todo: Todo) -> String {
        guard let suffix = listSuffixes?[todo.listID] else { return Self.summary(mark, todo) }
        return "\(mark) \(todo.id)  \(Self.sanitized(todo.name))\(suffix)\n"
    }

    /// ``summary(_:_:)`` of a todo known by its id and name alone (one a sync deleted).
    static func summary(_ mark: String, id: Int64, name: String) -> String {
        "\(mark) \(id)  \(sanitized(name))\n"
    }

    /// ``summary(_:_:)`` with the deadline, for a person at a terminal: `+ 3  Buy milk  due fri
    /// 2026-11-27` (the weekday says which day a relative date such as `friday` or `+1w` became),
    /// with its time of day on the local clock (`due fri 2026-11-27 19:00`), the day it starts
    /// (`starts mon 2026-11-23`), and how a repeating todo repeats: `+ 4  Pay rent  due tue
    /// 2026-12-01  ↻ every month`. `showsNoDeadline` writes `no deadline` for a todo without one
    /// (`edit` shows every value); `dueWord` names the date (`first occurrence` when a repeat
    /// moved it).
    ///
    /// `list` names the todo's list after its name (`+ 3  Buy milk  in Groceries  due ...`): where
    /// there is more than one, so that a todo never lands unseen in a list its user did not mean.
    static func summaryWithDeadline(
        _ mark: String, _ todo: Todo, dueTimes: DueTimeConverter, showsNoDeadline: Bool = false,
        dueWord: String = "due", list: String? = nil
    ) -> String {
        let due =
            dueTimes.due(of: todo.fields).map { due in
                "  \(dueWord) \(day(due.date))" + (due.secondOfDay.map { " " + TodoDueTime.clock($0) } ?? "")
            } ?? (showsNoDeadline ? "  no deadline" : "")
        let starts = todo.start.map { "  starts \(day($0))" } ?? ""
        let repeats = repeatText(todo).map { "  \(repeatMark) " + $0 } ?? ""
        let inList = list.map { "  in " + sanitized($0) } ?? ""
        return "\(mark) \(todo.id)  \(labelled(todo))\(inList)\(due)\(starts)\(repeats)\n"
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
    /// written, a time in UTC, a percent as `40%`, `none` for no value; sanitized.
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
        case .percent(let percent): "\(percent)%"
        }
    }

    /// `text` with control characters made visible (`^[`, `\n`): a name from another client
    /// must not be able to move the cursor, clear the screen or fake other rows. The one policy's
    /// terminal rendering (TextSafety's ``ControlCharacters/escapedForTerminal(_:)``).
    static func sanitized(_ text: String) -> String { ControlCharacters.escapedForTerminal(text) }
}

/// Where ``TodoText`` writes a row's columns: the output's buffer (`list`, `watch`), or a
/// String (`todo ui`, which caches its rows), so that both lay them out by the same code.
protocol RowWriter {
    mutating func write(_ text: String)
    mutating func writeSpaces(_ count: Int)
    mutating func write(_ date: CalendarDate)
}

extension OutputStream: RowWriter {}

/// A row's columns as a String.
struct RowText: RowWriter {
    var text = ""
    mutating func write(_ text: String) { self.text += text }
    mutating func writeSpaces(_ count: Int) { text += String(repeating: " ", count: max(count, 0)) }
    mutating func write(_ date: CalendarDate) { text += date.description }
}

/// One command's ``LocalDueTimes``: the zone in force and the zones it has read, shared by
/// every row and line the command prints, so that a list of thousands of todos reads each
/// zone once. Created empty: a command that shows no time reads no zone.
final class DueTimeConverter {
    private var times: LocalDueTimes?

    init() {}

    /// The day and time of day (seconds after midnight) `fields` are due on the local clock,
    /// `nil` without a deadline: the deadline as stored when there is no time of day, a
    /// floating time as written, another zone's wall time or an instant converted.
    func due(of fields: TodoFields) -> (date: CalendarDate, secondOfDay: Int?)? {
        guard fields.dueTime != nil else { return fields.deadline.map { ($0, nil) } }
        if times == nil { times = LocalDueTimes(zone: .system) }
        return times?.due(of: fields)
    }
}
