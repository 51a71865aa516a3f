import SQLite
import TodoObservation
import TodoStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CLIError {
    /// The words a person sees for a store error; the database path names the file involved.
    init(_ error: TodoStoreError, path: String) {
        switch error {
        case .notFound(let ids):
            let list = Self.idList(ids)
            self = .failure(
                ids.count == 1 ? "no todo with id \(list)" : "no todos with ids \(list)",
                hint: "Nothing was changed. 'todo list' shows the ids.")
        case .emptyName:
            self = .usage("a todo needs a name", hint: "For example: todo add \"Buy milk\"")
        case .newerSchema(let found, let supported):
            self = .failure(
                "\(path) has schema version \(found), newer than the \(supported) this todo knows; it was left untouched",
                hint: "Upgrade todo to use this database.")
        case .foreignDatabase(let path):
            self = .failure(
                "\(path) is an SQLite database of another application; todo will not change it",
                hint: "Choose another file with --db or TODO_DB.")
        case .notADatabase(let path):
            self = .failure(
                "\(path) is not an SQLite database; it was left untouched",
                hint: "Choose another file with --db or TODO_DB.")
        case .cannotCreate(let path, let code):
            self = .failure("cannot create \(path): \(String(cString: strerror(code)))")
        case .databaseMissing(let path):
            self = .failure("\(path) was deleted or moved away")
        case .nothingToUndo:
            self = .failure("nothing to undo")
        case .undoConflict(let command, let ids):
            self = Self.conflict(
                "undo", command, ids,
                hint: "Nothing was changed. 'todo undo --skip' forgets this step, so older ones can be undone.")
        case .undoNotStuck(let command):
            self = .failure(
                "the newest undo step ('\(command)') can be undone; it was not skipped",
                hint: "'todo undo' reverts it; 'todo undo --skip --force' forgets it anyway.")
        case .nothingToRedo:
            self = .failure(
                "nothing to redo", hint: "Redo re-applies what 'todo undo' reverted, until the next change.")
        case .redoConflict(let command, let ids):
            self = Self.conflict("redo", command, ids, hint: "Nothing was changed.")
        case .damagedHistory(let command):
            self = .failure(
                "the newest undo step ('\(command)') is damaged and cannot be applied",
                hint: "Nothing was changed. 'todo undo --skip' forgets it, so older ones can be undone.")
        case .noSuchList(let name):
            self = .failure(
                "no list named '\(TodoText.sanitized(name))'",
                hint: "Nothing was changed. 'todo lists' shows the lists.")
        case .listExists(let name):
            self = .failure(
                "a list named '\(TodoText.sanitized(name))' exists already",
                hint: "Nothing was changed. Choose another name.")
        case .invalidListName(let name):
            self = .usage(
                "'\(TodoText.sanitized(name))' cannot name a list",
                hint: "A list's name needs a letter or a sign, no control character, and cannot start with '-'.")
        case .invalidColor(let color):
            self = .usage(
                "'\(TodoText.sanitized(color))' is not a colour",
                hint: "Give one as #RRGGBB (for example #2E7D32), or 'none'.")
        case .listNotEmpty(let name, let count):
            self = .failure(
                "the list '\(TodoText.sanitized(name))' holds \(count) \(count == 1 ? "todo" : "todos")",
                hint: "Nothing was changed. Say what becomes of them: --move-to LIST or --delete-todos.")
        case .defaultListRemoved(let name):
            self = .failure(
                "'\(TodoText.sanitized(name))' is the default list and cannot be removed",
                hint: "Nothing was changed. Make another list the default first: todo lists default NAME.")
        case .subtaskCycle(let id, let parent):
            self = .failure(
                id == parent
                    ? "todo \(id) cannot be a subtask of itself"
                    : "todo \(id) cannot go under \(parent): \(parent) is one of its own subtasks",
                hint: "Nothing was changed. 'todo show \(id)' lists its subtasks.")
        case .dependencyCycle(let id, let waitsFor):
            self = .failure(
                id == waitsFor
                    ? "todo \(id) cannot wait for itself"
                    : "todo \(id) cannot wait for \(waitsFor): \(waitsFor) waits for \(id) (directly or through others)",
                hint: "Nothing was changed. 'todo show \(waitsFor)' lists what it waits for.")
        case .parentInAnotherList(let parent, let list):
            self = .failure(
                "todo \(parent) is in the list '\(TodoText.sanitized(list))': a subtask goes in its parent's list",
                hint:
                    "Nothing was changed. Move the parent first ('todo move \(parent) --to LIST'), or leave --list out."
            )
        case .sqlite(let error):
            if error.isPermissionDenied, let problem = DatabaseAccess.problem(at: path) {
                self = .failure(problem, hint: "Nothing was changed.")
            } else {
                self = CLIError(error)
            }
        }
    }

    /// The words for a file monitor that could not start (`watch`, `ui`).
    init(_ error: DatabaseFileMonitor.Failure) {
        self = .failure("cannot watch \(error.path): \(String(cString: strerror(error.errno)))")
    }

    /// An undo or redo (`verb`) of `command` that another program's change to `ids` (none: to a
    /// list) stands in the way of.
    private static func conflict(_ verb: String, _ command: String, _ ids: [Int64], hint: String) -> CLIError {
        let what =
            ids.isEmpty
            ? "a list it changed was changed since"
            : "\(ids.count == 1 ? "todo" : "todos") \(idList(ids)) changed since"
        return .failure("cannot \(verb) '\(command)': \(what), in another program", hint: hint)
    }

    /// `4, 5, 9`: at most ten ids, then how many more, so 5,000 missing ids stay one short line.
    static func idList(_ ids: [Int64]) -> String {
        var list = ids.prefix(10).map(String.init).joined(separator: ", ")
        if ids.count > 10 { list += " and \(ids.count - 10) more" }
        return list
    }

    /// The words for an SQLite error: busy and full disk get plain explanations.
    init(_ error: SQLiteError) {
        if error.isBusy {
            self = .failure(
                "the database is busy: another program held its lock for more than 5 seconds",
                hint: "Nothing was changed. Try again when the other program is done.")
        } else if error.isDiskFull {
            self = .failure("the disk is full: the change was not saved", hint: "Free some space and try again.")
        } else if error.isPermissionDenied {
            self = .failure("cannot write the database: \(error.message)")
        } else if error.isConstraintViolation {
            self = .failure("the database refused the change: \(error.message)")
        } else {
            self = .failure("database error: \(error.message)")
        }
    }
}
