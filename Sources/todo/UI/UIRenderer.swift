import TodoSnapshot
import TodoStore

/// Turns the list and the state into the screen's lines: a header, the visible window of the
/// list, and a one-line footer. Each line is cut to the width, so nothing ever wraps.
///
/// Todo rows are cached by row id: the snapshot diff says which rows changed (an update or a
/// move carries the new content), and only those are rendered again.
struct UIRenderer {
    let style: TextStyle
    let today: CalendarDate
    /// The local clock's reading of deadlines with a time of day, the command's.
    let dueTimes: DueTimeConverter
    /// Columns available to a line: one less than the terminal's, so writing the last row
    /// never scrolls the screen.
    private(set) var width = 79
    private(set) var idWidth = 1
    /// The largest id the id column has been sized for.
    private(set) var maxIDSeen: Int64 = 1
    private var cache: [UIRowID: Row] = [:]

    /// A rendered todo row: its text, fitted to the width, with the deadline columns' colour
    /// when colour is on, and the columns it takes (escape sequences take none); and the lead
    /// its name had (a subtask's indent and fold mark), which a fold or another todo's change can
    /// alter: a cached row whose lead is no longer the row's is rendered again.
    private struct Row {
        var text: String
        var columns: Int
        var lead = ""
    }

    init(style: TextStyle, today: CalendarDate, dueTimes: DueTimeConverter = DueTimeConverter()) {
        self.style = style
        self.today = today
        self.dueTimes = dueTimes
        rowText = Self.rowText(
            today: today, style: style, showsHints: true, showsTimes: false, dueTimes: dueTimes, listNames: nil)
    }

    /// `todo list`'s row text on a terminal, for the deadline, time and hint columns and their
    /// colour: the same rule (``TodoText/urgency(of:)``), the same layout; and for the list a
    /// row names (``TodoText/listName(of:)``). Its id width and line width are unused here.
    /// Made again when the columns or the lists' names change, not once a row.
    private var rowText: TodoText

    /// The lists' names by id where rows name their list (the app asks `todo list`'s rule:
    /// ``CommandContext/text(for:in:)``), nil where they do not. Setting it redraws every row.
    var listNames: [Int64: String]? {
        get { rowText.listNames }
        set {
            guard newValue != rowText.listNames else { return }
            rowText.listNames = newValue
            cache.removeAll(keepingCapacity: true)
        }
    }
    /// Whether the outline's rows name their list too: not when its groups are the lists.
    var outlineNamesLists = true {
        didSet { cache.removeAll(keepingCapacity: true) }
    }
    /// What the header says of the lists shown (`list: Groceries`), nil for every list.
    var shownLists: String?

    private static func rowText(
        today: CalendarDate, style: TextStyle, showsHints: Bool, showsTimes: Bool, dueTimes: DueTimeConverter,
        listNames: [Int64: String]?
    ) -> TodoText {
        var text = TodoText(
            maxID: 1, today: today, style: style, lineWidth: nil, showsHints: showsHints, showsTimes: showsTimes,
            dueTimes: dueTimes)
        text.listNames = listNames
        return text
    }

    /// Whether rows carry the hint column: unless the terminal is so narrow that it would leave
    /// an outline row's name fewer than `TodoText.minimumNameWidth` columns (rows never wrap, so
    /// the name would be cut to nothing; the date and its colour stay).
    private(set) var showsHints = true
    /// Whether a todo of the list has a time of day, which asks for the time column.
    private(set) var timesAsked = false
    /// Whether rows carry the time column: when ``timesAsked``, and the terminal is wide
    /// enough for it beside the hint column (it gives way first, as in `todo list`).
    private(set) var showsTimes = false

    /// The footer's key hints, most useful first; the last two are never cut.
    static let keyHints = [
        "↑↓/jk move", "space done", "←→ fold", "e edit", "d delete", "a add", "s sort", "/ filter", "v view", "u undo",
        "l list", "m move", "A subtask"
    ]
    static let essentialKeyHints = ["? keys", "q quit"]

    /// The key hints that fit in `width` columns: as many of ``keyHints`` as fit, then always
    /// ``essentialKeyHints``, so a narrow terminal still says how to get help and how to leave.
    static func keysHelp(width: Int) -> String {
        let tail = essentialKeyHints.joined(separator: "  ")
        var hints: [String] = []
        var used = DisplayWidth.of(tail)
        for hint in keyHints {
            let needed = DisplayWidth.of(hint) + 2
            guard used + needed <= width else { break }
            hints.append(hint)
            used += needed
        }
        return (hints + [tail]).joined(separator: "  ")
    }

    /// The help page's rows: keys, and what they do.
    static let keyMeanings: [(keys: String, meaning: String)] = [
        ("↑ ↓  j k", "move the cursor (PgUp PgDn Home End jump)"),
        ("space  Enter", "toggle done on a todo (a repeating one moves to its next date)"),
        ("p", "priority: none, high, medium, low"),
        ("i", "in progress ([~]), or not started again (as todo start, todo stop)"),
        ("Enter  ← →", "collapse or expand an Undone / Done group"),
        ("← →  z", "fold or unfold a todo's subtasks (▸ folded, ▾ open); ← on a subtask goes to its parent"),
        ("A", "add a subtask of the todo under the cursor: its name, then its deadline"),
        ("e", "edit the name, then the deadline"),
        ("d", "delete (asks first)"),
        ("a", "add a todo: its name, then its deadline"),
        ("s", "sort: due, name, status, priority"),
        ("/", "filter: names with every word typed (empty clears)"),
        ("v", "view: All, Outline, or both (kept for the next run)"),
        ("u", "undo the last change"),
        ("l", "list: every list, then each list in turn"),
        ("m", "move the todo to another list (type its name; Tab completes it)"),
        ("Ctrl-Z", "suspend (fg resumes)"),
        ("q  Ctrl-C", "quit")
    ]

    /// Where the meanings start on a help row: two spaces, the widest keys, two spaces.
    static let meaningColumn = 2 + 12 + 2

    /// The help page wrapped to `width` columns: a row too long for the width continues on
    /// the next lines under its meaning (or, when even that leaves too little room, under its
    /// keys), so nothing is cut; the page scrolls when it is taller than the screen.
    static func keysPage(width: Int) -> [String] {
        let meaningColumn = width - Self.meaningColumn >= 20 ? Self.meaningColumn : 4
        var lines = ["Keys", ""]
        let margin = String(repeating: " ", count: meaningColumn)
        for (keys, meaning) in keyMeanings {
            var first = "  " + keys
            if DisplayWidth.of(first) + 2 > meaningColumn {
                lines.append(first)
                first = ""
            }
            first += String(repeating: " ", count: meaningColumn - DisplayWidth.of(first))
            for (index, part) in TextWrapping.wrap(meaning, width: width - meaningColumn).enumerated() {
                lines.append((index == 0 ? first : margin) + part)
            }
        }
        lines.append("")
        lines += TextWrapping.wrap(
            "  In a prompt: ← → Home End (Ctrl-A Ctrl-E) move, Delete, Ctrl-U, Ctrl-W erase.", width: width,
            indent: 2)
        return lines
    }

    /// Adopts a new width and id width, and whether the list has times of day (`nil`: as
    /// before); cached rows are dropped when the layout changes.
    mutating func configure(columns: Int, maxID: Int64, timesAsked: Bool? = nil) {
        let newWidth = max(columns - 1, 10)
        let newIDWidth = String(max(maxID, 1)).count
        let asked = timesAsked ?? self.timesAsked
        // An outline row: indent, check box, id, then the date, time and hint columns, and the name.
        let fitting = TodoText.fittingColumns(
            rowStart: 6 + 4 + newIDWidth + 2, lineWidth: newWidth, hints: true, times: asked)
        if newWidth != width || newIDWidth != idWidth || fitting.times != showsTimes {
            cache.removeAll(keepingCapacity: true)
        }
        width = newWidth
        idWidth = newIDWidth
        self.timesAsked = asked
        if fitting.hints != rowText.showsHints || fitting.times != rowText.showsTimes {
            rowText = Self.rowText(
                today: today, style: style, showsHints: fitting.hints, showsTimes: fitting.times, dueTimes: dueTimes,
                listNames: rowText.listNames)
        }
        showsHints = fitting.hints
        showsTimes = fitting.times
        maxIDSeen = max(maxID, 1)
    }

    /// Forgets the rendered lines of these todos, in both sections (an outline todo's line is
    /// cached once whatever its group: ``cacheKey(_:)``).
    mutating func invalidate(todos ids: [Int64]) {
        for id in ids {
            cache[.todo(id, .all)] = nil
            cache[.todo(id, .outline)] = nil
        }
    }

    mutating func invalidateAll() { cache.removeAll(keepingCapacity: true) }

    /// The cache's key for a row: a todo's outline line reads the same under each of its groups
    /// (by tag), so member rows share `.todo(id, .outline)`.
    private static func cacheKey(_ id: UIRowID) -> UIRowID {
        if case .member(let todoID, _) = id { return .todo(todoID, .outline) }
        return id
    }

    /// Every line of the screen, `rows` of them: the header, the window of the list (or of
    /// the help page), and the footer's lines.
    mutating func frame(list: UIList, state: UIState, rows: Int) -> [String] {
        let footer = footerLines(state: state, rows: rows)
        var lines: [String] = []
        lines.reserveCapacity(rows)
        lines.append(header(list: list, state: state))
        let height = max(rows - 1 - footer.count, 0)
        if case .help(let top) = state.mode {
            let page = Self.keysPage(width: width)
            for index in top..<(top + height) { lines.append(index < page.count ? page[index] : "") }
        } else {
            for index in state.top..<(state.top + height) {
                guard index < list.count else {
                    lines.append(emptyListLine(index - list.count, list: list, state: state))
                    continue
                }
                lines.append(
                    line(list.entry(at: index), id: list.id(at: index), list: list, isCursor: index == state.cursor))
            }
        }
        lines += footer
        return Array(lines.prefix(max(rows, 0)))
    }

    /// The lines the list gets between the header and the footer.
    func listHeight(state: UIState, rows: Int) -> Int {
        max(rows - 1 - footerLines(state: state, rows: rows).count, 1)
    }

    /// The help page's last scroll position on a screen of `rows` lines: 0 when it fits.
    func helpLastTop(rows: Int) -> Int {
        max(0, Self.keysPage(width: width).count - max(rows - 2, 1))
    }

    /// The `offset`th line after the end of the list: under an empty list, why it is empty
    /// and what to do: add a todo, or (when a filter hides every todo) clear the filter.
    private func emptyListLine(_ offset: Int, list: UIList, state: UIState) -> String {
        guard list.todoCount == 0 else { return "" }
        let hint: [String]
        if state.searches.isEmpty {
            hint = ["  (no todos: press a to add one)"]
        } else if case .prompt(let prompt) = state.mode, case .filter = prompt.purpose {
            hint = ["  (no todo matches the filter)", "  (Esc puts the list back)"]
        } else {
            hint = ["  (no todo matches the filter)", "  (/ Ctrl-U Enter clears it)"]
        }
        return offset < hint.count ? fit(hint[offset]) : ""
    }

    private func header(list: UIList, state: UIState) -> String {
        var text = "todo · \(list.todoCount) \(list.todoCount == 1 ? "todo" : "todos") · sort: \(state.order.rawValue)"
        if let shownLists { text += " · " + shownLists }
        if !state.searches.isEmpty { text += " · filter: \"\(TodoText.sanitized(state.filterText))\"" }
        return style.paint(fit(text), .bold)
    }

    /// The footer, last line at the bottom of the screen: what a prompt asks and what it
    /// accepts, a message, or the key hints. A line too long for the width is wrapped onto
    /// more lines, or its free text (a todo's name) shortened: what the user must read and the
    /// keys that answer are never cut. At most `rows - 2` lines, so the header and one line of
    /// the list stay.
    func footerLines(state: UIState, rows: Int) -> [String] {
        guard rows > 1 else { return [] }
        let lines: [String]
        switch state.mode {
        case .prompt(let prompt):
            lines = messageLines(state) + promptLines(prompt)
        case .confirmDelete(let todo):
            lines = confirmDeleteLines(todo)
        case .help:
            let fits = Self.keysPage(width: width).count <= rows - 2
            lines = [fit(fits ? "? keys · any key returns" : "↑↓ jk scroll · other keys return")]
        case .browsing:
            lines = state.message == nil ? [style.paint(fit(Self.keysHelp(width: width)), .dim)] : messageLines(state)
        }
        return Array(lines.suffix(max(rows - 2, 1)))
    }

    /// The footer's message, wrapped to the width (red for an error).
    private func messageLines(_ state: UIState) -> [String] {
        guard let message = state.message else { return [] }
        let shown = TodoText.sanitized(message)  // a CLIError quotes paths and server text
        return TextWrapping.wrap(shown, width: width).map { state.messageIsError ? style.paint($0, .red) : $0 }
    }

    /// The prompt line, under its explanation when the explanation does not fit beside the
    /// label with room left to type.
    private func promptLines(_ prompt: UIState.Prompt) -> [String] {
        let roomToType = 20
        guard let explanation = prompt.explanation, DisplayWidth.of(prompt.wideLabel) + roomToType > width else {
            return [promptLine(prompt, label: prompt.wideLabel)]
        }
        return TextWrapping.wrap("(\(explanation))", width: width).map { style.paint($0, .dim) }
            + [promptLine(prompt, label: prompt.label)]
    }

    /// `Delete "NAME"? [y/N]`: the name is shortened to fit, never the question or its keys;
    /// on a line too narrow even for that, the keys go on a line of their own.
    private func confirmDeleteLines(_ todo: Todo) -> [String] {
        let question = (before: "Delete \"", after: "\"? [y/N]")
        let room = width - DisplayWidth.of(question.before + question.after)
        let name = TodoText.sanitized(todo.name)
        guard room >= min(DisplayWidth.of(name), 1) else { return [fit("Delete \"\(name)\"?"), "[y/N]"] }
        return [question.before + DisplayWidth.truncate(name, toWidth: room) + question.after]
    }

    /// `Label: text_`, the `_` standing for the cursor at the end; with the cursor inside the
    /// text, the character under it is shown in reverse video instead (an attribute, not a
    /// colour, so also under NO_COLOR). Cut so that the cursor always stays in view.
    private func promptLine(_ prompt: UIState.Prompt, label: String) -> String {
        let before = label + TodoText.sanitized(prompt.line.beforeCursor)
        let after = TodoText.sanitized(prompt.line.afterCursor)
        guard let under = after.first else { return fit(before + "_", keepingEnd: true) }
        let head = fit(before + String(under), keepingEnd: true)
        let room = max(0, width - DisplayWidth.of(head))
        let rest = String(after.dropFirst())
        let tail = DisplayWidth.of(rest) <= room ? rest : DisplayWidth.truncate(rest, toWidth: room)
        return String(head.dropLast()) + "\u{1B}[7m" + String(under) + "\u{1B}[0m" + tail
    }

    private mutating func line(_ entry: UIList.Entry, id: UIRowID?, list: UIList, isCursor: Bool) -> String {
        let row: Row
        switch entry {
        case .sectionHeader(let section):
            let title = section == .all ? "All (\(list.todoCount))" : "Outline"
            return style.paint(fit(title), .bold)
        case .group(let group):
            let arrow = list.isExpanded(group) ? "▾" : "▸"
            let text = fit("  \(arrow) \(group.title) (\(list.count(of: group)))")
            row = Row(text: text, columns: DisplayWidth.of(text))
        case .todo(let todo, _), .member(let todo, _):
            let key = id.map(Self.cacheKey)
            let inAll = key == .todo(todo.id, .all)
            let lead = inAll ? Self.treeLead(of: todo.id, in: list) : ""
            if let key, let cached = cache[key], cached.lead == lead {
                row = cached
            } else {
                row = todoRow(todo, indent: inAll ? 2 : 6, lead: lead, namesList: inAll || outlineNamesLists)
                if let key { cache[key] = row }
            }
        }
        guard isCursor else {
            if entry.todo?.isDone == true { return style.paint(row.text, .dim) }
            return row.text
        }
        // The cursor: a '>' in the margin, and reverse video across the row when colour is on
        // (kept on after the deadline's colour ends).
        let marked = ">" + row.text.dropFirst()
        guard style.enabled else { return String(marked) }
        let padding = max(0, width - row.columns)
        let reversed = marked.replacing(TextStyle.reset, with: "\u{1B}[0;7m")
        return "\u{1B}[7m" + reversed + String(repeating: " ", count: padding) + "\u{1B}[0m"
    }

    /// `  [ ] 12  2024-05-01  tomorrow    Buy milk` (the state's mark: `[~]` in progress, `[x]`
    /// completed, `[-]` cancelled), cut to the width: the deadline and hint
    /// columns are `todo list`'s on a terminal (`↻` after a repeating todo's date), coloured as
    /// there (overdue red, today yellow),
    /// and the name as `list` writes it, with its priority and tags (``TodoText/labelled(_:)``).
    /// The lead of a todo's name in "All"'s tree: two columns a level (as `todo list` indents,
    /// ``TodoText/indent(_:)``), then `▾ ` before a todo with subtasks shown, `▸ ` before one
    /// whose subtasks are folded, two blanks before the others; nothing without a tree.
    static func treeLead(of id: Int64, in list: UIList) -> String {
        guard list.hasTree else { return "" }
        let mark = list.hasSubtasks(id) ? (list.isFolded(id) ? "▸ " : "▾ ") : "  "
        return TodoText.indent(list.depth(ofTodo: id)) + mark
    }

    private func todoRow(_ todo: Todo, indent: Int, lead: String = "", namesList: Bool) -> Row {
        let id = String(todo.id)
        var prefix = String(repeating: " ", count: indent)
        prefix += TodoText.mark(todo.status) + " "
        prefix += String(repeating: " ", count: idWidth - id.count) + id + "  "
        let (columns, color) = rowText.deadlineColumns(todo)
        // Its list after the name, as `todo list` writes it: cut first, from the end.
        let list = namesList ? rowText.listName(of: todo) ?? "" : ""
        let text = fit(prefix + columns + lead + TodoText.labelled(todo) + list)
        let plainRow = Row(text: text, columns: DisplayWidth.of(text), lead: lead)
        guard let color, style.enabled else { return plainRow }
        // The prefix and the columns are one Character a column (ASCII, and the repeat mark):
        // whatever of the columns the width kept (a cut leaves "…", one Character too) is painted.
        let start = text.index(text.startIndex, offsetBy: prefix.count, limitedBy: text.endIndex) ?? text.endIndex
        let end = text.index(start, offsetBy: columns.count, limitedBy: text.endIndex) ?? text.endIndex
        guard start < end else { return plainRow }
        let painted =
            String(text[..<start]) + style.start(color) + String(text[start..<end]) + TextStyle.reset
            + String(text[end...])
        return Row(text: painted, columns: plainRow.columns, lead: lead)
    }

    /// `text` cut to the width (keeping the end instead, for a prompt being typed).
    private func fit(_ text: String, keepingEnd: Bool = false) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard keepingEnd else { return DisplayWidth.truncate(text, toWidth: width) }
        var tail = Substring(text)
        while DisplayWidth.of(String(tail)) > width - 1 { tail = tail.dropFirst() }
        return "…" + tail
    }
}
