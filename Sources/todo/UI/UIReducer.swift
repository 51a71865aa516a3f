import TodoSnapshot
import TodoStore

/// What a key asks the app to do beyond its own state: writes, undo, a new fetch. The reducer
/// returns these; ``UIApp`` performs them and reports the outcome in the footer.
enum UIEffect: Equatable {
    case delete(Todo)
    case setDone(Todo, Bool)
    /// `i`: in progress, or out of it again (as `todo start` and `todo stop`).
    case setInProgress(Todo, Bool)
    /// `p`: the next priority in none, high, medium, low, none...
    case setPriority(Todo, TodoPriority)
    /// `a`: a new todo, its fields read from the prompts as `todo add` reads its words (``QuickCapture``).
    case add(TodoFields)
    /// `A`: a subtask of `parent` (as `todo add --under`).
    case addSubtask(TodoFields, parent: Todo)
    /// `e`: `todo`'s fields as the prompts changed them.
    case edit(Todo, TodoFields)
    /// `m`: to another list, one undo step (as `todo move`).
    case move(Todo, to: TodoList)
    case undo
    /// Ctrl-Z: give the terminal back to the shell until `fg`.
    case suspend
    /// `v` chose the sections shown: kept for the next run.
    case rememberSections(UISections)
    /// The sort or the lists shown in the state changed: fetch the list again.
    case refetch(announcing: RefetchReason)
    /// The filter prompt: its text changed (the list follows at once), Enter kept it, or Esc
    /// put back the filter `/` found (``UIState/searches`` already say which).
    case filter(FilterStep)

    enum FilterStep: Equatable {
        case typed, kept, cancelled
    }

    /// What the footer says once the new list is in.
    enum RefetchReason: Equatable {
        case sorted
        /// `l`: another list, or every list.
        case listShown
    }
}

/// The pure half of `todo ui`: a key, the state and the list in; the new state and the
/// effects to perform out. No I/O, no repository, no terminal, so keys are unit tested without
/// a terminal (`UIUnitTests`, in Tests/TodoCLITests/UIUnitTests.swift).
///
/// The list is passed `inout` only for its outline's expansion state, which keys change.
enum UIReducer {
    /// What a key needs besides the state: the list as shown, the page size, today.
    struct Context {
        var page: Int
        var today: CalendarDate
        /// The help page's last scroll position: its lines past the screen's (0 when it fits).
        var helpLastTop = 0
        /// Every list, in display order: what `l` cycles through and `m` moves to.
        var lists: [TodoList] = []
    }

    static func reduce(_ state: inout UIState, _ key: Key, list: inout UIList, context: Context) -> [UIEffect] {
        if key == .interrupt {
            state.quitting = true
            return []
        }
        // In any mode, as in a shell: a prompt being typed is still there after `fg`.
        if key == .suspend { return [.suspend] }
        switch state.mode {
        case .help(let top):
            state.mode = scrollHelp(from: top, by: key, context: context).map { .help(top: $0) } ?? .browsing
            return []
        case .confirmDelete(let todo):
            state.mode = .browsing
            if key == .character("y") || key == .character("Y") { return [.delete(todo)] }
            state.say("Kept \"\(TodoText.sanitized(todo.name))\"")
            return []
        case .prompt(var prompt):
            if prompt.line.handle(key) {
                state.mode = .prompt(prompt)
                // The filter narrows the list as it is typed, not only on Enter.
                guard case .filter = prompt.purpose else { return [] }
                let searches = UIState.searchTerms(of: prompt.text)
                guard searches != state.searches else { return [] }
                state.searches = searches
                // Another list: shown from its top, so its "All" heading shows whenever the
                // cursor's row fits on the screen with it.
                state.top = 0
                return [.filter(.typed)]
            }
            switch key {
            case .escape:
                state.mode = .browsing
                state.say("Cancelled")
                // The list as it was before `/`: its filter, or none.
                if case .filter(let previous, let cursor) = prompt.purpose {
                    state.searches = previous
                    // Back to the row the cursor was on, with the list from its top.
                    if let cursor { state.cursorID = cursor }
                    state.top = 0
                    return [.filter(.cancelled)]
                }
                return []
            case .enter:
                state.mode = .browsing
                return submit(prompt, &state, context: context)
            case .tab:
                if case .move(let todo, _) = prompt.purpose {
                    prompt.line = LineEditor(completedListName(prompt.text, lists: context.lists, except: todo.listID))
                }
            default: break
            }
            state.mode = .prompt(prompt)
            return []
        case .browsing:
            state.message = nil
            return browse(key, &state, &list, context: context)
        }
    }

    /// The priority `p` sets after `priority`: none, high, medium, low, then none again (an
    /// exact value another app wrote, such as 2, goes on from its class).
    static func nextPriority(after priority: TodoPriority) -> TodoPriority {
        switch priority.level {
        case nil: .high
        case .high?: .medium
        case .medium?: .low
        case .low?: .none
        }
    }

    private static func browse(_ key: Key, _ state: inout UIState, _ list: inout UIList, context: Context)
        -> [UIEffect]
    {
        let page = context.page
        switch key {
        case .up, .character("k"): state.move(by: -1, in: list)
        case .down, .character("j"): state.move(by: 1, in: list)
        case .pageUp: state.move(by: -page, in: list)
        case .pageDown: state.move(by: page, in: list)
        case .home, .character("g"): state.place(at: 1, in: list)
        case .end, .character("G"): state.place(at: list.count - 1, in: list, direction: -1)
        case .character(" "):
            if let todo = cursorTodo(state, list) { return [.setDone(todo, !todo.isDone)] }
        case .enter:
            if let todo = cursorTodo(state, list) { return [.setDone(todo, !todo.isDone)] }
            if let group = cursorGroup(state, list) { setExpanded(group, !list.isExpanded(group), &state, &list) }
        case .left:
            if let group = cursorGroup(state, list) {
                setExpanded(group, false, &state, &list)
            } else if let id = cursorTreeTodo(state, list) {
                // In the tree: fold the todo's subtasks, or go up to its parent, as outline views do.
                if list.hasSubtasks(id), !list.isFolded(id) {
                    list.setFolded(id, true)
                    state.follow(in: &list)
                } else if let parent = list.treeParent(of: id),
                    let index = list.index(of: .todo(parent, .all))
                {
                    state.place(at: index, in: list)
                }
            } else if let row = state.cursorID, let group = list.group(ofRow: row),
                let index = list.index(of: .group(group.id))
            {
                // On a child row: go up to its group, as outline views do.
                state.place(at: index, in: list)
            }
        case .right:
            if let group = cursorGroup(state, list) {
                setExpanded(group, true, &state, &list)
            } else if let id = cursorTreeTodo(state, list), list.isFolded(id) {
                list.setFolded(id, false)
                state.follow(in: &list)
            }
        case .character("z"):
            if let id = cursorTreeTodo(state, list), list.hasSubtasks(id) {
                list.setFolded(id, !list.isFolded(id))
                state.follow(in: &list)
            }
        case .character("A"):
            if let todo = cursorTodo(state, list) { state.mode = .prompt(.init(purpose: .addSubtask(todo), text: "")) }
        case .character("p"):
            if let todo = cursorTodo(state, list) { return [.setPriority(todo, nextPriority(after: todo.priority))] }
        case .character("i"):
            if let todo = cursorTodo(state, list) { return [.setInProgress(todo, todo.status != .inProcess)] }
        case .character("d"), .delete: if let todo = cursorTodo(state, list) { state.mode = .confirmDelete(todo) }
        case .character("a"): state.mode = .prompt(.init(purpose: .add, text: ""))
        case .character("e"):
            if let todo = cursorTodo(state, list) {
                state.mode = .prompt(.init(purpose: .editName(todo), text: todo.name))
            }
        case .character("/"):
            state.mode = .prompt(
                .init(purpose: .filter(previous: state.searches, cursor: state.cursorID), text: state.filterText))
        case .character("s"):
            state.order = UIState.nextOrder(after: state.order)
            return [.refetch(announcing: .sorted)]
        case .character("u"): return [.undo]
        case .character("l"):
            guard context.lists.count > 1 else {
                state.say(onlyOneList(context.lists))
                return []
            }
            state.lists = UIState.nextLists(after: state.lists, in: context.lists)
            return [.refetch(announcing: .listShown)]
        case .character("m"):
            guard let todo = cursorTodo(state, list) else { return [] }
            guard context.lists.count > 1 else {
                state.say(onlyOneList(context.lists))
                return []
            }
            let names = context.lists.map { TodoText.sanitized($0.name) }.joined(separator: ", ")
            state.mode = .prompt(.init(purpose: .move(todo, names: names), text: ""))
        case .character("v"):
            state.show(list.sections.next, in: &list)
            state.say(list.sections.description)
            return [.rememberSections(list.sections)]
        case .character("?"): state.mode = .help(top: 0)
        case .character("q"), .character("Q"): state.quitting = true
        default: break
        }
        return []
    }

    /// Where a scrolling key takes the help page (clamped to its lines), nil for any other key,
    /// which leaves help.
    private static func scrollHelp(from top: Int, by key: Key, context: Context) -> Int? {
        let last = max(context.helpLastTop, 0)
        let target: Int
        switch key {
        case .up, .character("k"): target = top - 1
        case .down, .character("j"): target = top + 1
        case .pageUp: target = top - context.page
        case .pageDown, .character(" "): target = top + context.page
        case .home, .character("g"): target = 0
        case .end, .character("G"): target = last
        default: return nil
        }
        return min(max(target, 0), last)
    }

    /// The name Tab gives the move prompt: the first list but the todo's own whose name begins
    /// with the text (under case folding, the store's rule for names); when the text is a list's
    /// whole name, the next one's, so that Tab goes round them.
    static func completedListName(_ text: String, lists: [TodoList], except own: Int64) -> String {
        let others = lists.filter { $0.id != own }
        guard !others.isEmpty else { return text }
        if let current = others.firstIndex(where: { TodoList.isSameName($0.name, text) }) {
            return others[(current + 1) % others.count].name
        }
        let typed = TodoSearch.fold(text)
        return others.first { TodoSearch.fold($0.name).hasPrefix(typed) }?.name ?? text
    }

    /// What `l` and `m` say when there is nothing to switch or move to.
    static func onlyOneList(_ lists: [TodoList]) -> String {
        let name = lists.first.map { "'" + TodoText.sanitized($0.name) + "'" } ?? "one"
        return "Only one list, \(name): 'todo lists new NAME' makes another"
    }

    /// The todo under the cursor, as the list shows it now.
    static func cursorTodo(_ state: UIState, _ list: UIList) -> Todo? {
        guard state.cursorID != nil else { return nil }
        return list.entry(at: state.cursor).todo
    }

    /// The id of the todo under the cursor when it is a row of "All"'s tree (the results have
    /// subtasks): the rows that fold.
    static func cursorTreeTodo(_ state: UIState, _ list: UIList) -> Int64? {
        guard list.hasTree, case .todo(let id, .all)? = state.cursorID else { return nil }
        return id
    }

    /// The group row under the cursor.
    static func cursorGroup(_ state: UIState, _ list: UIList) -> TodoGroup? {
        guard case .group? = state.cursorID, let row = state.cursorID else { return nil }
        return list.group(ofRow: row)
    }

    private static func setExpanded(_ group: TodoGroup, _ expanded: Bool, _ state: inout UIState, _ list: inout UIList)
    {
        list.setExpanded(group, expanded)
        state.follow(in: &list)
    }

    private static func submit(_ prompt: UIState.Prompt, _ state: inout UIState, context: Context) -> [UIEffect] {
        let text = prompt.text
        let today = context.today
        switch prompt.purpose {
        case .add:
            return named(prompt, &state, today: today, deadlinePrompt: .addDeadline(name: text)) { .add($0) }
        case .addDeadline(let line):
            return dated(prompt, line: line, &state, today: today) { .add($0) }
        case .addSubtask(let parent):
            return named(prompt, &state, today: today, deadlinePrompt: .addSubtaskDeadline(name: text, parent: parent))
            {
                .addSubtask($0, parent: parent)
            }
        case .addSubtaskDeadline(let line, let parent):
            return dated(prompt, line: line, &state, today: today) { .addSubtask($0, parent: parent) }
        case .editName(let todo):
            guard Todo.isValidName(text) else {
                state.say("a todo needs a name: nothing changed", error: true)
                return []
            }
            guard let capture = capture(text, &state, today: today, keepingWordsOf: todo.name) else {
                state.mode = .prompt(prompt)
                return []
            }
            guard capture.due == nil else {
                return edited(todo, capture, deadline: todo.deadline, &state, today: today)
            }
            state.mode = .prompt(
                .init(purpose: .editDeadline(todo, name: text), text: todo.deadline?.description ?? ""))
            return []
        case .editDeadline(let todo, let line):
            guard case .some(let deadline) = parseDeadline(text, &state, today: today),
                let capture = capture(line, &state, today: today, keepingWordsOf: todo.name)
            else {
                state.mode = .prompt(prompt)
                return []
            }
            return edited(todo, capture, deadline: deadline, &state, today: today)
        case .filter:
            // Already applied, key by key.
            return [.filter(.kept)]
        case .move(let todo, _):
            let name = text.trimmingSpaces
            guard !name.isEmpty else {
                state.say("Not moved")
                return []
            }
            // The store's rule for a list's name (case does not matter), as `todo move --to`.
            guard let target = context.lists.first(where: { TodoList.isSameName($0.name, name) }) else {
                state.say("no list named '\(TodoText.sanitized(name))': fix it, or Esc cancels", error: true)
                state.mode = .prompt(prompt)
                return []
            }
            guard target.id != todo.listID else {
                state.say("Already in \(TodoText.sanitized(target.name))")
                return []
            }
            return [.move(todo, to: target)]
        }
    }

    /// A new todo's name prompt answered: its words read (``QuickCapture``), then the deadline
    /// asked for (`deadlinePrompt`), unless a `due:` word gave it and the todo is made at once
    /// (`effect`). A blank name adds nothing; refused words ask again.
    private static func named(
        _ prompt: UIState.Prompt, _ state: inout UIState, today: CalendarDate,
        deadlinePrompt: UIState.Prompt.Purpose, effect: (TodoFields) -> UIEffect
    ) -> [UIEffect] {
        guard Todo.isValidName(prompt.text) else {
            state.say("a todo needs a name: nothing added", error: true)
            return []
        }
        guard let capture = capture(prompt.text, &state, today: today) else {
            state.mode = .prompt(prompt)
            return []
        }
        // A due: word gave the deadline: nothing left to ask.
        guard capture.due == nil else { return fields(capture, &state, today: today).map { [effect($0)] } ?? [] }
        state.mode = .prompt(.init(purpose: deadlinePrompt, text: ""))
        return []
    }

    /// A new todo's deadline prompt answered, for the name prompt's `line`: the todo made
    /// (`effect`), or the prompt asked again, with the name and the text kept (Esc still cancels).
    private static func dated(
        _ prompt: UIState.Prompt, line: String, _ state: inout UIState, today: CalendarDate,
        effect: (TodoFields) -> UIEffect
    ) -> [UIEffect] {
        guard case .some(let deadline) = parseDeadline(prompt.text, &state, today: today),
            let capture = capture(line, &state, today: today)
        else {
            state.mode = .prompt(prompt)
            return []
        }
        return fields(capture, deadline: deadline, &state, today: today).map { [effect($0)] } ?? []
    }

    /// What a name prompt's `line` says (``QuickCapture``), or `nil` when its words are refused or
    /// leave no name (the footer then says why; the caller asks again, for a fix). In an
    /// edit, the words of the todo's own name (`keepingWordsOf`) stay in the name as they are:
    /// a name another app wrote with `re:budget` or `+1` in it is no new attribute or tag.
    private static func capture(
        _ line: String, _ state: inout UIState, today: CalendarDate, keepingWordsOf name: String? = nil
    ) -> QuickCapture? {
        let words = QuickCapture.words(in: line, keeping: Set(name?.split(separator: " ") ?? []))
        do throws(CLIError) {
            var capture = try QuickCapture(words, today: today)
            // A line with no tag, attribute or quoted word is the name exactly as typed, its
            // spacing too: a phone's `Say  "hi"` is not rewritten by an edit of its deadline.
            if capture.takesNothing && !words.contains(where: \.unquoted) { capture.nameWords = [line] }
            guard Todo.isValidName(capture.name) else {
                state.say("a todo needs a name: fix it, or Esc cancels", error: true)
                return nil
            }
            return capture
        } catch {
            state.say("\(error.message): fix it, or Esc cancels", error: true)
            return nil
        }
    }

    /// A new todo's fields from `capture` and the deadline prompted for; `nil` when they are
    /// refused (the footer says why).
    private static func fields(
        _ capture: QuickCapture, deadline: CalendarDate? = nil, _ state: inout UIState, today: CalendarDate
    ) -> TodoFields? {
        do throws(CLIError) {
            return try capture.newTodo(deadline: deadline, today: today)
        } catch {
            state.say("\(error.message): nothing added", error: true)
            return nil
        }
    }

    /// The edit of `todo` that `capture` and the deadline prompted for make, or "No change".
    private static func edited(
        _ todo: Todo, _ capture: QuickCapture, deadline: CalendarDate?, _ state: inout UIState, today: CalendarDate
    ) -> [UIEffect] {
        var fields = todo.fields
        do throws(CLIError) {
            try capture.apply(to: &fields, deadline: deadline, today: today)
        } catch {
            state.say("\(error.message): nothing changed", error: true)
            return []
        }
        guard fields != todo.fields else {
            state.say("No change")
            return []
        }
        return [.edit(todo, fields)]
    }

    /// The deadline a prompt's text names, in any form `--due` takes: `.some(nil)` for none
    /// (empty text), `nil` when the text is not a date (the footer then says why, and how to
    /// give up, above the prompt that asks again).
    private static func parseDeadline(_ text: String, _ state: inout UIState, today: CalendarDate) -> CalendarDate?? {
        let dateText = text.trimmingSpaces
        guard !dateText.isEmpty else { return .some(nil) }
        do throws(CLIError) {
            return .some(try DueDateParser.parse(dateText, today: today))
        } catch {
            state.say("\(error.message): fix it, or Esc cancels", error: true)
            return nil
        }
    }
}
