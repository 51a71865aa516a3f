import TodoSnapshot
import TodoStore
import TodoSync

#if canImport(Glibc)
    import Glibc
#endif

/// Keys in, effects out: ``UIReducer`` (pure) decides what a key means; this shell performs
/// the effects it returns (writes, undo, a new fetch) and puts their outcome in the footer.
///
/// The list itself is never patched here: it changes only when the controller reports a
/// commit (``controller(_:didChangeContentWith:)``), for our writes as for anyone's. Placing the
/// cursor on an added todo only names its row: ``UIState/follow(in:)`` finds it whenever the
/// list has it.
extension UIApp {
    func handle(_ key: Key) {
        let context = UIReducer.Context(
            page: max(size.rows - 3, 1), today: today, helpLastTop: renderer.helpLastTop(rows: size.rows),
            lists: lists)
        for effect in UIReducer.reduce(&state, key, list: &list, context: context) {
            perform(effect)
        }
    }

    /// Performs one effect and reports it.
    func perform(_ effect: UIEffect) {
        switch effect {
        case .delete(let todo):
            // With its subtasks, as `todo rm` with --with-subtasks: never a subtask left under nothing.
            if let deleted = change(
                "rm", { () throws(TodoStoreError) in try repository.deleteSubtrees(ids: [todo.id]) })
            {
                let with =
                    deleted.count > 1 ? " with \(deleted.count - 1) \(deleted.count == 2 ? "subtask" : "subtasks")" : ""
                state.say("Deleted \"\(TodoText.sanitized(todo.name))\"\(with) (u undoes)")
            }
        case .setDone(let todo, let isDone):
            if isDone, todo.fields.repeats {
                finishOccurrence(of: todo)
                return
            }
            let refused = change(isDone ? "done" : "undone") { () throws(TodoStoreError) -> Bool in
                if isDone, !(try SyncState(repository: repository).todosInContinuingSeries(among: [todo.id]).isEmpty) {
                    return true
                }
                // Done with its undone subtasks, as the phones complete them.
                if isDone {
                    _ = try repository.setStatus(.completed, subtreesOf: [todo.id])
                } else {
                    _ = try repository.setDone(false, ids: [todo.id])
                }
                return false
            }
            if refused == true { state.say(RepeatRefusal.error([.listedDates(todo)]).message, error: true) }
        case .setInProgress(let todo, let start):
            let status: TodoStatus = start ? .inProcess : .needsAction
            if change(
                start ? "start" : "stop",
                { () throws(TodoStoreError) in try repository.setStatus(status, ids: [todo.id]) }) != nil
            {
                state.say((start ? "In progress" : "Not started") + " (u undoes)")
            }
        case .setPriority(let todo, let priority):
            if change(
                "edit", { () throws(TodoStoreError) in try repository.update(id: todo.id) { $0.priority = priority } })
                != nil
            {
                state.say("Priority \(priority.label) (u undoes)")
            }
        case .add(let fields):
            if let todo = change("add", { () throws(TodoStoreError) in try repository.add(fields) }) {
                state.cursorID = .todo(todo.id, .all)
                state.follow(in: &list)
                state.say("Added \"\(TodoText.sanitized(todo.name))\"")
            }
        case .addSubtask(let fields, let parent):
            // As `todo add --under`: in the parent's list; the cursor goes to it, the parent
            // unfolded if it was folded.
            if let todo = change("add", { () throws(TodoStoreError) in try repository.add(fields, parent: parent.id) })
            {
                list.setFolded(parent.id, false)
                state.cursorID = .todo(todo.id, .all)
                state.follow(in: &list)
                state.say("Added \"\(TodoText.sanitized(todo.name))\" under \"\(TodoText.sanitized(parent.name))\"")
            }
        case .edit(let todo, let fields):
            // Only the fields the prompts changed: another program's change since the prompt
            // opened (a sync's new note) stays.
            let changed = TodoField.all.filter { !$0.isEqual(todo.fields, fields) }
            let saved = change("edit") { () throws(TodoStoreError) in
                try repository.update(id: todo.id) { current in
                    for field in changed { field.copy(from: fields, into: &current) }
                }
            }
            if saved != nil { state.say("Saved \"\(TodoText.sanitized(fields.name))\"") }
        case .move(let todo, let target):
            // As `todo move`: one undo step. The cursor follows the todo to its new group (by
            // list), or stays on its line when the list shown no longer has it.
            if change(
                "move", { () throws(TodoStoreError) in try repository.moveSubtrees(ids: [todo.id], to: target.id) })
                != nil
            {
                state.say("Moved \"\(TodoText.sanitized(todo.name))\" to \(TodoText.sanitized(target.name)) (u undoes)")
            }
        case .undo:
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
        case .suspend:
            suspend()
        case .rememberSections(let sections):
            UIStateFile.save(sections)
        case .filter(let step):
            performFilter(step)
        case .refetch(let reason):
            let cursor = state.cursorID
            refetch()
            switch reason {
            case .sorted:
                state.say("Sorted by \(state.order.rawValue)")
            case .listShown:
                // Shown from its top; on the same todo when this list has it, else the first.
                state.top = 0
                if let cursor, list.index(of: cursor) == nil { state.place(at: 1, in: list) }
                state.say("Showing \(shownListNames ?? "every list") (l switches)")
            }
        }
    }

    /// The toggle on a repeating todo, as `todo done` does it: its occurrence finished, the
    /// next date (or the series' end) in the footer; a repeat todo cannot follow is refused
    /// there, nothing changed.
    private func finishOccurrence(of todo: Todo) {
        let now = UTCTimestamp.now()
        if let refusal = RepeatRefusal.finishing(todo, .done, today: today, now: now) {
            state.say(RepeatRefusal.error([refusal]).message, error: true)
            return
        }
        let finished = change("done") { () throws(TodoStoreError) in
            try repository.finishOccurrence(of: todo.id, .done, today: today, now: now)
        }
        guard let (outcome, moved) = finished ?? nil else { return }
        let name = "\"\(TodoText.sanitized(moved.name))\""
        switch outcome {
        case .seriesOver: state.say("Done \(name): series over (u undoes)")
        case .next: state.say("Done \(name) \(TodoText.next(moved, isTerminal: true)) (u undoes)")
        case .notCompletable(let reason):
            state.say(RepeatRefusal.error([RepeatRefusal.notFollowed(moved, reason)]).message, error: true)
        }
    }

    /// Ctrl-Z: puts the terminal back as the shell left it and stops the process group (as
    /// the key would outside raw mode); once `fg` continues it, takes the terminal again and
    /// draws every line, since the shell wrote over the screen meanwhile.
    func suspend() {
        TerminalMode.restore()
        kill(0, SIGTSTP)
        // Here after SIGCONT (or at once, when SIGTSTP is ignored: no job control).
        do throws(TerminalMode.Failure) {
            try TerminalMode.enter()
        } catch {
            state.quitting = true
            return
        }
        resize()
    }
}
