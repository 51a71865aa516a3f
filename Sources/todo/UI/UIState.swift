import TodoStore

/// What `todo ui` remembers between key presses: the cursor (by line and by row id), the
/// scroll position, the sort and filter, and what the footer is doing.
struct UIState {
    /// What keys currently mean.
    enum Mode {
        /// Moving around the list.
        case browsing
        /// Typing into the footer.
        case prompt(Prompt)
        /// `Delete "NAME"? [y/N]` for this todo.
        case confirmDelete(Todo)
        /// The list of keys, scrolled to start at line `top`; scrolling keys scroll it, any
        /// other key returns.
        case help(top: Int)
    }

    /// A line being typed into the footer.
    struct Prompt {
        enum Purpose {
            case add
            case addDeadline(name: String)
            /// `A`: a subtask of this todo, its name, then its deadline.
            case addSubtask(Todo)
            case addSubtaskDeadline(name: String, parent: Todo)
            case editName(Todo)
            case editDeadline(Todo, name: String)
            /// `previous`: the filter when `/` was pressed, which Esc puts back; `cursor`: the
            /// row the cursor was on then, which it goes back to whenever the list shows it
            /// again (a text that matches nothing moves it to a group row meanwhile).
            case filter(previous: [String], cursor: UIRowID?)
            /// `m`: the list to move this todo to; `names`, the lists it may name, as shown.
            case move(Todo, names: String)
        }

        var purpose: Purpose
        var line: LineEditor

        init(purpose: Purpose, text: String) {
            self.purpose = purpose
            self.line = LineEditor(text)
        }

        var text: String { line.text }

        /// What the prompt asks for: always shown whole, before the text.
        var label: String {
            switch purpose {
            case .add: "New todo: "
            case .addSubtask: "New subtask: "
            case .editName: "Name: "
            case .addDeadline, .editDeadline, .addSubtaskDeadline: "Deadline: "
            case .filter: "Filter: "
            case .move: "Move to list: "
            }
        }

        /// What the prompt accepts, when it needs saying: shown inside the label when the line
        /// has room (``wideLabel``), else wrapped on the lines above it.
        var explanation: String? {
            switch purpose {
            case .addDeadline, .editDeadline, .addSubtaskDeadline: "YYYY-MM-DD, tomorrow, fri, +3d; empty: none"
            case .addSubtask(let parent): "under " + TodoText.sanitized(parent.name)
            case .move(_, let names): names
            case .add, .editName, .filter: nil
            }
        }

        /// The label with its explanation, for a line with room for both and the text.
        var wideLabel: String {
            guard let explanation else { return label }
            return label.dropLast(2) + " (\(explanation)): "
        }
    }

    var order: TodoFetchRequest.Order
    /// The filter's terms: a todo is shown when its name, tags or note contain every one, as with several
    /// `--search` options in `todo list`; none, no filter.
    var searches: [String]

    /// The ids of the lists shown (`--list`, or `l`); empty: every list.
    var lists: [Int64] = []

    /// The filter as the prompt and the header show it: the terms, space separated.
    var filterText: String { searches.joined(separator: " ") }

    /// The terms of a filter typed as `text`: its words, so that "milk town" keeps the todos
    /// whose names contain both (`todo list --search milk --search town`).
    static func searchTerms(of text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
    /// The line the cursor is on.
    var cursor = 0
    /// The row the cursor is on: what an update follows.
    var cursorID: UIRowID?
    /// The first line shown.
    var top = 0
    var mode: Mode = .browsing
    /// A one-off message for the footer (cleared by the next key).
    var message: String?
    var messageIsError = false
    /// Set when `q`, Ctrl-C, end of input or a stop signal ends the session.
    var quitting = false

    /// The next sort in the app's Sort menu: due, name, status, priority, due...
    static func nextOrder(after order: TodoFetchRequest.Order) -> TodoFetchRequest.Order {
        switch order {
        case .due: .name
        case .name: .status
        case .status: .priority
        case .priority: .due
        }
    }

    /// What `l` shows after `shown` (list ids; empty: every list): every list, then each list
    /// in display order, then every list again. From several lists (`--list` given twice), every
    /// list.
    static func nextLists(after shown: [Int64], in lists: [TodoList]) -> [Int64] {
        guard let first = lists.first else { return [] }
        if shown.isEmpty { return [first.id] }
        guard shown.count == 1, let index = lists.firstIndex(where: { $0.id == shown[0] }), index + 1 < lists.count
        else { return [] }
        return [lists[index + 1].id]
    }

    /// Shows a message in the footer until the next key.
    mutating func say(_ text: String, error: Bool = false) {
        message = text
        messageIsError = error
    }

    /// Puts the cursor on `index` (clamped, moved off section headers) and remembers its row.
    mutating func place(at index: Int, in list: UIList, direction: Int = 1) {
        guard list.count > 0 else { return }
        var target = min(max(index, 0), list.count - 1)
        if !list.isSelectable(target) {
            // Towards `direction`, else the other way.
            var probe = target
            while probe >= 0, probe < list.count, !list.isSelectable(probe) { probe += direction }
            if probe < 0 || probe >= list.count {
                probe = target
                while probe >= 0, probe < list.count, !list.isSelectable(probe) { probe -= direction }
            }
            target = min(max(probe, 0), list.count - 1)
        }
        cursor = target
        cursorID = list.id(at: target)
    }

    /// Moves the cursor by `delta` lines, skipping headers; stays put at either end.
    mutating func move(by delta: Int, in list: UIList) {
        guard delta != 0, list.count > 0 else { return }
        let direction = delta > 0 ? 1 : -1
        var target = min(max(cursor + delta, 0), list.count - 1)
        while target > 0, target < list.count - 1, !list.isSelectable(target) { target += direction }
        guard list.isSelectable(target) else {
            // Only a header lies that way (the top of the list): stay.
            return
        }
        cursor = target
        cursorID = list.id(at: target)
    }

    /// After the list changed: the cursor goes back to its row, wherever it moved; when the
    /// row is gone, the cursor stays on the same line (the row that took its place).
    mutating func follow(in list: inout UIList) {
        if case .prompt(let prompt) = mode, case .filter(_, let before?) = prompt.purpose, list.index(of: before) != nil
        {
            cursorID = before
        }
        if let cursorID, let index = list.index(of: cursorID) {
            cursor = index
        } else if case .todo(let id, .all)? = cursorID, list.reveal(id), let index = list.index(of: .todo(id, .all)) {
            // Its todo went under a folded one (another program moved it): unfolded, so that
            // the cursor stays on it.
            cursor = index
        } else {
            // Its line now holds the next row; past the end of a section, the previous one.
            place(at: cursor, in: list, direction: -1)
        }
    }

    /// Shows other sections of the list, the cursor staying on its todo: in the section shown,
    /// or on its group when that is collapsed; from a group, on the first todo. The list is
    /// shown from its top.
    mutating func show(_ sections: UISections, in list: inout UIList) {
        list.sections = sections
        top = 0
        if let id = cursorID, list.index(of: id) == nil {
            switch id {
            case .todo(let todo, .all):
                let group = list.group(ofTodo: todo)
                cursorID = group.flatMap { list.isExpanded($0) ? list.outlineRowID(ofTodo: todo) : .group($0.id) }
            case .todo(let todo, .outline), .member(let todo, _): cursorID = .todo(todo, .all)
            case .group: cursorID = nil
            }
        }
        if let id = cursorID, let index = list.index(of: id) {
            cursor = index
        } else {
            place(at: 1, in: list)
        }
    }

    /// Scrolls so the cursor is inside a window of `height` lines.
    mutating func scroll(height: Int, count: Int) {
        let height = max(height, 1)
        if cursor < top { top = cursor }
        if cursor >= top + height { top = cursor - height + 1 }
        top = max(0, min(top, max(0, count - height)))
        // Show the section header above the first todo when there is room.
        if cursor == 1, top == 1 { top = 0 }
    }
}
