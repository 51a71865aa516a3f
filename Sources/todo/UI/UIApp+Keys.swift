import TodoSnapshot
import TodoStore

/// What each key does: the sample app's gestures, as keys.
extension UIApp {
    func handle(_ key: Key) {
        if key == .interrupt {
            state.quitting = true
            return
        }
        switch state.mode {
        case .help:
            state.mode = .browsing
        case .confirmDelete(let todo):
            state.mode = .browsing
            if key == .character("y") || key == .character("Y") {
                if change("rm", { try repository.delete(ids: [todo.id]) }) != nil {
                    state.say("Deleted \"\(TodoText.sanitized(todo.name))\" (u undoes)")
                }
            } else {
                state.say("Kept \"\(TodoText.sanitized(todo.name))\"")
            }
        case .prompt(var prompt):
            switch key {
            case .character(let character): prompt.text.append(character)
            case .backspace: if !prompt.text.isEmpty { prompt.text.removeLast() }
            case .clearLine: prompt.text = ""
            case .escape:
                state.mode = .browsing
                state.say("Cancelled")
                return
            case .enter:
                state.mode = .browsing
                submit(prompt)
                return
            default: break
            }
            state.mode = .prompt(prompt)
        case .browsing:
            state.message = nil
            browse(key)
        }
    }

    private func browse(_ key: Key) {
        let page = max(size.rows - 3, 1)
        switch key {
        case .up, .character("k"): state.move(by: -1, in: list)
        case .down, .character("j"): state.move(by: 1, in: list)
        case .pageUp: state.move(by: -page, in: list)
        case .pageDown: state.move(by: page, in: list)
        case .home, .character("g"): state.place(at: 1, in: list)
        case .end, .character("G"): state.place(at: list.count - 1, in: list, direction: -1)
        case .character(" "): if let todo = cursorTodo { toggle(todo) }
        case .enter:
            if let todo = cursorTodo {
                toggle(todo)
            } else if let group = cursorGroup {
                setExpanded(group, !list.isExpanded(group))
            }
        case .left:
            if let group = cursorGroup {
                setExpanded(group, false)
            } else if case .todo(let id, .outline)? = state.cursorID {
                // On a child row: go up to its group, as outline views do.
                if let group = list.group(ofTodo: id), let index = list.index(of: .group(group)) {
                    state.place(at: index, in: list)
                }
            }
        case .right: if let group = cursorGroup { setExpanded(group, true) }
        case .character("d"), .delete: if let todo = cursorTodo { state.mode = .confirmDelete(todo) }
        case .character("a"): state.mode = .prompt(.init(purpose: .add, text: ""))
        case .character("e"): if let todo = cursorTodo { state.mode = .prompt(.init(purpose: .editName(todo), text: todo.name)) }
        case .character("/"): state.mode = .prompt(.init(purpose: .filter, text: state.search ?? ""))
        case .character("s"):
            state.order = UIState.nextOrder(after: state.order)
            refetch()
            state.say("Sorted by \(state.order.rawValue)")
        case .character("u"): undo()
        case .character("?"): state.mode = .help
        case .character("q"), .character("Q"): state.quitting = true
        default: break
        }
    }

    /// The todo under the cursor, as the list shows it now.
    var cursorTodo: Todo? {
        guard case .todo(let todo, _) = list.entry(at: state.cursor), state.cursorID != nil else { return nil }
        return todo
    }

    /// The group row under the cursor.
    var cursorGroup: TodoGroup? {
        guard case .group(let group)? = state.cursorID else { return nil }
        return group
    }

    private func toggle(_ todo: Todo) {
        change(todo.isDone ? "undone" : "done") { try repository.setDone(!todo.isDone, ids: [todo.id]) }
    }

    private func setExpanded(_ group: TodoGroup, _ expanded: Bool) {
        list.setExpanded(group, expanded)
        state.follow(in: &list)
    }

    private func undo() {
        do {
            let undone = try repository.undo()
            state.say("Undid '\(undone.command)'")
        } catch {
            if case .nothingToUndo = error {
                state.say("nothing to undo")
            } else {
                state.say(CLIError(error, path: databasePath).message, error: true)
            }
        }
    }

    private func submit(_ prompt: UIState.Prompt) {
        let text = prompt.text
        let blank = !text.contains { !$0.isWhitespace }
        switch prompt.purpose {
        case .add:
            guard !blank else { return state.say("a todo needs a name: nothing added", error: true) }
            if let todo = change("add", { try repository.add(name: text) }) {
                state.cursorID = .todo(todo.id, .all)
                state.follow(in: &list)
                state.say("Added \"\(TodoText.sanitized(todo.name))\"")
            }
        case .editName(let todo):
            guard !blank else { return state.say("a todo needs a name: nothing changed", error: true) }
            state.mode = .prompt(.init(purpose: .editDeadline(todo, name: text), text: todo.deadline?.description ?? ""))
        case .editDeadline(let todo, let name):
            var deadline: CalendarDate?
            if !blank {
                do {
                    deadline = try DueDateParser.parse(text.filter { !$0.isWhitespace }, today: today)
                } catch {
                    return state.say("\(error.message): nothing changed", error: true)
                }
            }
            guard name != todo.name || deadline != todo.deadline else { return state.say("No change") }
            let saved = change("edit") { () throws -> Bool in
                if name != todo.name { _ = try repository.rename(id: todo.id, to: name) }
                if deadline != todo.deadline { _ = try repository.setDeadline(deadline, id: todo.id) }
                return true
            }
            if saved != nil { state.say("Saved \"\(TodoText.sanitized(name))\"") }
        case .filter:
            state.search = blank ? nil : text
            refetch()
            state.say(blank ? "Filter cleared" : "\(list.todoCount) matching \"\(TodoText.sanitized(text))\"")
        }
    }
}
