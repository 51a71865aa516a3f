import TodoInterop
import TodoStore
import TodoSync

extension Command {
    /// `todo import --from ics`: each VTODO a todo, its UID kept, so that the todo and the
    /// object it came from stay one when the database later syncs with the same calendar. A UID
    /// already known here is skipped: importing a file twice adds its todos once.
    static func importICS(_ bytes: [UInt8], path: String, context: inout CommandContext) throws(CLIError) {
        let reading: ICSFile.Reading
        do {
            reading = try ICSFile.read(bytes)
        } catch {
            throw .failure("\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.")
        }
        let (added, skipped) = try addSkippingKnownUIDs(
            reading.entries.map { ($0.fields, $0.uid, $0.history) }, parents: reading.parents,
            dependencies: reading.dependencies, context: context)
        var summary = importSummary(added: added, skipped: skipped) + "."
        if !reading.notKept.isEmpty {
            // As the other formats do: nothing the other app had disappears without a word.
            summary +=
                " Not kept (todos have no place for them): "
                + reading.notKept.map(\.description).joined(separator: ", ") + "."
        }
        context.out.write(summary + "\n")
    }
}

extension Command {
    /// Adds the todos read by an import in one undoable transaction, each with its UID when the
    /// file gave one and its completion history (the occurrences another app finished, logged
    /// as not pending: they are that app's, not this device's to send), and skips a todo whose
    /// UID is already known here (also one twice in the file: the first one recorded it), its
    /// history with it. The one rule for every format that carries UIDs (iCalendar, todo's own
    /// JSON, taskwarrior's uuids), so importing a file twice adds its todos once.
    /// Returns how many were added and skipped.
    ///
    /// The todos go to the list `--list` names; else each to the list `lists` names for it (by
    /// offset in `entries`: todo's own export says each todo's list), made when there is none of
    /// that name; else to the default list.
    ///
    /// `parents` names each subtask's parent by offset in `entries` (no loops: the readers cut
    /// them). A subtask goes under the todo its parent became, or the todo already here that the
    /// parent's UID named; a link that would still close a loop with todos here is left out.
    ///
    /// `dependencies` names what each todo waits for by offsets in `entries` (no cycles: the
    /// readers cut them), mapped the same way: a todo waits for what the todo it names became, or
    /// is already here as; a link that would close a cycle with the links here is left out. Only
    /// the todos added get links: one already here keeps what it waits for.
    static func addSkippingKnownUIDs(
        _ entries: [(fields: TodoFields, uid: String?, history: [ImportedCompletion])], lists: [Int: String] = [:],
        parents: [Int: Int] = [:], dependencies: [Int: [Int]] = [:], context: CommandContext
    ) throws(CLIError) -> (added: Int, skipped: Int) {
        let repository = try context.openRepository()
        let uids = TodoUIDs(repository: repository)
        // `--list`: where they go (else each one's list as the file names it, else the default
        // list, read once for the whole import).
        let list = try context.arguments.value("--list").map { (name) throws(CLIError) in
            try context.list(named: name, in: repository).id
        }
        let defaultList = try context.perform { () throws(TodoStoreError) in try repository.defaultListID() }
        return try context.perform { () throws(TodoStoreError) -> (Int, Int) in
            try repository.recordingUndo("import") { () throws(TodoStoreError) -> (Int, Int) in
                // The entries added (not skipped), by offset.
                var added = Set<Int>()
                var skipped = 0
                // The lists named in the file, by folded name, as found or made.
                var named: [String: Int64] = [:]
                // The todo each entry became, or is already here as.
                var ids: [Int: Int64] = [:]
                for (offset, entry) in entries.enumerated() {
                    if let uid = entry.uid, try uids.isKnown(uid) {
                        if let id = try uids.todoID(forUID: uid) { ids[offset] = id }
                        skipped += 1
                        continue
                    }
                    // The readers applied each format's name rule; names are stored as read, with
                    // every field read (times the file did not give are the import's). A series
                    // whose history reaches its deadline stands at its next occurrence.
                    let fields = RepeatingTodo.movedPast(
                        entry.history.map(\.occurrence), of: entry.fields, completedAt: entry.history.last?.completedAt)
                    var target = list
                    if target == nil, let name = lists[offset], TodoList.isValidName(name) {
                        let key = TodoSearch.fold(name)
                        if named[key] == nil {
                            if let found = try repository.list(named: name) {
                                named[key] = found.id
                            } else {
                                named[key] = try repository.createList(named: name).id
                            }
                        }
                        target = named[key]
                    }
                    let todo = try repository.add(fields, nameCheck: .asStored, list: target ?? defaultList)
                    ids[offset] = todo.id
                    added.insert(offset)
                    if let uid = entry.uid { try uids.record(uid, forTodo: todo.id) }
                    for completion in entry.history {
                        try repository.recordCompletion(completion.completion(ofTodo: todo.id))
                    }
                }
                for (offset, parent) in parents.sorted(by: { $0.key < $1.key }) {
                    guard let id = ids[offset], let parentID = ids[parent],
                        try repository.todo(id: id)?.parentID == nil
                    else { continue }
                    do throws(TodoStoreError) {
                        _ = try repository.setParent(parentID, ids: [id])
                    } catch .subtaskCycle {
                        continue
                    }
                }
                // Links of the todos added now: a todo already here keeps what it waits for.
                for (offset, others) in dependencies.sorted(by: { $0.key < $1.key }) where added.contains(offset) {
                    guard let id = ids[offset] else { continue }
                    for other in others {
                        guard let otherID = ids[other], otherID != id else { continue }
                        do throws(TodoStoreError) {
                            _ = try repository.addDependencies([otherID], to: id)
                        } catch .dependencyCycle {
                            continue
                        }
                    }
                }
                return (added.count, skipped)
            }
        }
    }

    /// `Imported 3 todos`, and `. Skipped 2 already here (same UID)` when some were skipped:
    /// the summary's start, without its final full stop.
    static func importSummary(added: Int, skipped: Int) -> String {
        "Imported \(added) \(added == 1 ? "todo" : "todos")"
            + (skipped > 0 ? ". Skipped \(skipped) already here (same UID)" : "")
    }
}
