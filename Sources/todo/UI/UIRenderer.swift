import TodoSnapshot
import TodoStore

/// Turns the list and the state into the screen's lines: a header, the visible window of the
/// list, and a one-line footer. Each line is cut to the width, so nothing ever wraps.
///
/// Todo rows are cached by row id: the snapshot diff says which rows changed (an update or a
/// move carries the new content), and only those are rendered again.
struct UIRenderer {
    var style: TextStyle
    let today: CalendarDate
    /// Columns available to a line: one less than the terminal's, so writing the last row
    /// never scrolls the screen.
    private(set) var width = 79
    private(set) var idWidth = 1
    /// The largest id the id column has been sized for.
    private(set) var maxIDSeen: Int64 = 1
    private var cache: [UIRowID: Row] = [:]

    /// A rendered todo row: its text, fitted to the width, with the deadline columns' colour
    /// when colour is on, and the columns it takes (escape sequences take none).
    private struct Row {
        var text: String
        var columns: Int
    }

    init(style: TextStyle, today: CalendarDate) {
        self.style = style
        self.today = today
    }

    /// `todo list`'s row text on a terminal, for the deadline and hint columns and their
    /// colour: the same rule (``TodoText/urgency(of:)``), the same layout. Its id width and
    /// line width are unused here.
    private var rowText: TodoText {
        TodoText(maxID: 1, today: today, style: style, lineWidth: nil, showsHints: showsHints)
    }

    /// Whether rows carry the hint column: unless the terminal is so narrow that it would leave
    /// an outline row's name fewer than `TodoText.minimumNameWidth` columns (rows never wrap, so
    /// the name would be cut to nothing; the date and its colour stay).
    private(set) var showsHints = true

    /// The footer's key hints, most useful first; the last two are never cut.
    static let keyHints = [
        "↑↓/jk move", "space done", "←→ fold", "e edit", "d delete", "a add", "s sort", "/ filter", "u undo"
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

    static let keysPage: [String] = [
        "Keys",
        "",
        "  ↑ ↓  j k        move the cursor (PgUp PgDn Home End jump)",
        "  space  Enter    toggle done on a todo",
        "  Enter  ← →      collapse or expand an Undone / Done group",
        "  e               edit the name, then the deadline",
        "  d               delete (asks first)",
        "  a               add a todo: its name, then its deadline",
        "  s               sort: due, name, status",
        "  /               filter by text (empty clears)",
        "  u               undo the last change",
        "  Ctrl-Z          suspend (fg resumes)",
        "  q  Ctrl-C       quit",
        "",
        "  In a prompt: ← → Home End (Ctrl-A Ctrl-E) move, Delete, Ctrl-U, Ctrl-W erase.",
        "",
        "Press any key to go back."
    ]

    /// Adopts a new width and id width; cached rows are dropped when either changes.
    mutating func configure(columns: Int, maxID: Int64) {
        let newWidth = max(columns - 1, 10)
        let newIDWidth = String(max(maxID, 1)).count
        if newWidth != width || newIDWidth != idWidth { cache.removeAll(keepingCapacity: true) }
        width = newWidth
        idWidth = newIDWidth
        // An outline row: indent, check box, id, date, hint, name.
        let outlinePrefix = 6 + 4 + idWidth + 2 + 10 + 2 + TodoText.hintWidth + 2
        showsHints = width - outlinePrefix >= TodoText.minimumNameWidth
        maxIDSeen = max(maxID, 1)
    }

    /// Forgets the rendered lines of these todos, in both sections.
    mutating func invalidate(todos ids: [Int64]) {
        for id in ids {
            cache[.todo(id, .all)] = nil
            cache[.todo(id, .outline)] = nil
        }
    }

    mutating func invalidateAll() { cache.removeAll(keepingCapacity: true) }

    /// Every line of the screen, `rows` of them.
    mutating func frame(list: UIList, state: UIState, rows: Int) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(rows)
        lines.append(header(list: list, state: state))
        let height = max(rows - 2, 0)
        if case .help = state.mode {
            for index in 0..<height { lines.append(index < Self.keysPage.count ? fit(Self.keysPage[index]) : "") }
        } else {
            for index in state.top..<(state.top + height) {
                guard index < list.count else {
                    lines.append(
                        index == list.count && list.todoCount == 0 ? fit("  (no todos: press a to add one)") : "")
                    continue
                }
                lines.append(
                    line(list.entry(at: index), id: list.id(at: index), list: list, isCursor: index == state.cursor))
            }
        }
        if rows > 1 { lines.append(footer(state: state)) }
        return Array(lines.prefix(max(rows, 0)))
    }

    private func header(list: UIList, state: UIState) -> String {
        var text = "todo · \(list.todoCount) \(list.todoCount == 1 ? "todo" : "todos") · sort: \(state.order.rawValue)"
        if let search = state.search { text += " · filter: \"\(TodoText.sanitized(search))\"" }
        return style.paint(fit(text), .bold)
    }

    private func footer(state: UIState) -> String {
        switch state.mode {
        case .prompt(let prompt):
            return promptLine(prompt)
        case .confirmDelete(let todo):
            return fit("Delete \"\(TodoText.sanitized(todo.name))\"? [y/N]")
        case .help:
            return fit("? keys · any key returns")
        case .browsing:
            if let message = state.message {
                let shown = TodoText.sanitized(message)  // a CLIError quotes paths and server text
                return state.messageIsError ? style.paint(fit(shown), .red) : fit(shown)
            }
            return style.paint(fit(Self.keysHelp(width: width)), .dim)
        }
    }

    /// `Label: text_`, the `_` standing for the cursor at the end; with the cursor inside the
    /// text, the character under it is shown in reverse video instead (an attribute, not a
    /// colour, so also under NO_COLOR). Cut so that the cursor always stays in view.
    private func promptLine(_ prompt: UIState.Prompt) -> String {
        let before = prompt.label + TodoText.sanitized(prompt.line.beforeCursor)
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
        case .todo(let todo, let section):
            if let id, let cached = cache[id] {
                row = cached
            } else {
                row = todoRow(todo, indent: section == .all ? 2 : 6)
                if let id { cache[id] = row }
            }
        }
        guard isCursor else {
            if case .todo(let todo, _) = entry, todo.isDone { return style.paint(row.text, .dim) }
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

    /// `  [ ] 12  2024-05-01  tomorrow    Buy milk`, cut to the width: the deadline and hint
    /// columns are `todo list`'s on a terminal, coloured as there (overdue red, today yellow).
    private func todoRow(_ todo: Todo, indent: Int) -> Row {
        let id = String(todo.id)
        var prefix = String(repeating: " ", count: indent)
        prefix += todo.isDone ? "[x] " : "[ ] "
        prefix += String(repeating: " ", count: idWidth - id.count) + id + "  "
        let (columns, color) = rowText.deadlineColumns(todo)
        let text = fit(prefix + columns + "  " + TodoText.sanitized(todo.name))
        let plainRow = Row(text: text, columns: DisplayWidth.of(text))
        guard let color, style.enabled else { return plainRow }
        // The prefix and the columns are ASCII, one Character a column: whatever of the columns
        // the width kept (a cut leaves "…", one Character too) is painted.
        let start = text.index(text.startIndex, offsetBy: prefix.count, limitedBy: text.endIndex) ?? text.endIndex
        let end = text.index(start, offsetBy: columns.count, limitedBy: text.endIndex) ?? text.endIndex
        guard start < end else { return plainRow }
        let painted =
            String(text[..<start]) + style.start(color) + String(text[start..<end]) + TextStyle.reset
            + String(text[end...])
        return Row(text: painted, columns: plainRow.columns)
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
