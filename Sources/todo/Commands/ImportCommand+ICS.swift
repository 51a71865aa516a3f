import TodoInterop
import TodoStore
import TodoSync

extension Command {
    /// `todo import --from ics`: each VTODO a todo, its UID kept, so that the todo and the
    /// object it came from stay one when the database later syncs with the same calendar. A UID
    /// already known here is the same todo: importing a file again updates what changed in it.
    static func importICS(_ bytes: [UInt8], path: String, context: inout CommandContext) throws(CLIError) {
        let reading: ICSFile.Reading
        do {
            reading = try ICSFile.read(bytes)
        } catch {
            throw .failure("\(path == "-" ? "standard input" : path): \(error)", hint: "Nothing was imported.")
        }
        let entries = reading.entries.enumerated().map {
            ImportEntry(
                fields: $0.element.fields, uid: $0.element.uid, history: $0.element.history,
                source: reading.sources.indices.contains($0.offset) ? reading.sources[$0.offset] : nil)
        }
        let outcome = try importEntries(
            ImportBatch(entries: entries, parents: reading.parents, dependencies: reading.dependencies),
            context: context)
        // As the other formats do: nothing the other app had disappears without a word.
        var counts: [ImportReport.NotKept: Int] = [:]
        for dropped in outcome.dropped { counts[dropped.what, default: 0] += 1 }
        Command.writeImportSummary(
            outcome, readAs: nil,
            notKept: reading.notKept.map(\.description) + counts.keys.sorted().map { $0.describe(counts[$0] ?? 0) },
            dropped: reading.dropped.map { ($0.what, $0.source) } + outcome.dropped.map { ($0.what.label, $0.source) },
            context: context)
    }
}

extension Command {
    /// Imports the todos an import read in one undoable transaction, whatever the format: the
    /// one rule of identity for every format that carries UIDs (iCalendar, todo's own JSON,
    /// taskwarrior's uuids).
    ///
    /// - A todo whose UID is a todo's here is that todo: the fields the file gives replace its
    ///   own (those the file does not give, such as taskwarrior's missing percent, stay), the
    ///   occurrences the file finished join its history, and what it waits for among the todos
    ///   of the file follows the file. One that changes nothing is counted unchanged; importing
    ///   a file twice changes nothing the second time. Its list and parent stay as they are.
    /// - A UID whose todo was deleted here, and whose deletion a sync has still to send, is left
    ///   deleted; one given twice in the file is imported once (the first), the other counted.
    /// - Any other todo is added, with its UID when the file gave one and its completion history
    ///   (the occurrences another app finished, logged as not pending: they are that app's, not
    ///   this device's to send), under the id it had in the file when no todo here ever had that
    ///   id (todo's own export: an export imported into a new file keeps its ids), else a new one.
    ///
    /// The todos added go to the list `--list` names; else each to the list `lists` names for it
    /// (todo's own export says each todo's list), made when there is none of that name; else to
    /// the default list.
    ///
    /// `parents` names each subtask's parent (no loops: the readers cut them). A subtask without
    /// a parent here goes under the todo its parent became or is; a link that would still close a
    /// loop with todos here is left out. `dependencies` names what each todo waits for (no
    /// cycles), mapped the same way; a link that would close a cycle with the links here is left
    /// out. A todo added gets the file's links; one updated gets them too and loses those to
    /// other todos of the file that the file no longer names (links to todos elsewhere stay).
    static func importEntries(_ batch: ImportBatch, context: CommandContext) throws(CLIError) -> ImportOutcome {
        let repository = try context.openRepository()
        let uids = TodoUIDs(repository: repository)
        // `--list`: where they go (else each one's list as the file names it, else the default
        // list, read once for the whole import).
        let list = try context.arguments.value("--list").map { (name) throws(CLIError) in
            try context.list(named: name, in: repository).id
        }
        let defaultList = try context.perform { () throws(TodoStoreError) in try repository.defaultListID() }
        let entries = batch.entries
        return try context.perform { () throws(TodoStoreError) -> ImportOutcome in
            try repository.withTemporaryFilesInMemory(mapError: { $0 }) { () throws(TodoStoreError) in
                try repository.recordingUndo("import") { () throws(TodoStoreError) -> ImportOutcome in
                    var outcome = ImportOutcome()
                    // The todo each entry is already here as, by offset; the entries to add.
                    var matched: [Int: Int64] = [:]
                    var new: [Int] = []
                    var seen = Set<String>()
                    // Into a file where no todo ever had a UID (a first import), each UID is new.
                    let noneKnown = try uids.noneGiven()
                    for (offset, entry) in entries.enumerated() {
                        guard let uid = entry.uid else {
                            new.append(offset)
                            continue
                        }
                        let source =
                            entry.source ?? ImportSource(location: .record(offset + 1), name: entry.fields.name)
                        guard seen.insert(uid).inserted else {
                            outcome.dropped.append(ImportReport.Dropped(what: .uidTwice, source: source))
                            continue
                        }
                        if noneKnown {
                            new.append(offset)
                        } else if let id = try uids.todoID(forUID: uid) {
                            matched[offset] = id
                        } else if try uids.isKnown(uid) {
                            outcome.deletedHere += 1
                        } else {
                            new.append(offset)
                        }
                    }
                    let ids = try plannedIDs(new, batch: batch, repository: repository, outcome: &outcome)
                    // The todo each entry became, or is already here as.
                    var todoIDs = matched
                    // The lists named in the file, by folded name, as found or made.
                    var named: [String: Int64] = [:]
                    var updated: [Int: [String]] = [:]
                    // The todos to add, in file order, written many to a statement.
                    var added: [TodoRepository.NewTodo] = []
                    added.reserveCapacity(new.count)
                    var addedUIDs: [(uid: String, todo: Int64)] = []
                    for offset in new {
                        let entry = entries[offset]
                        // The readers applied each format's name rule; names are stored as read, with
                        // every field read (times the file did not give are the import's). A series
                        // whose history reaches its deadline stands at its next occurrence.
                        let fields = RepeatingTodo.movedPast(
                            entry.history.map(\.occurrence), of: entry.fields,
                            completedAt: entry.history.last?.completedAt)
                        var target = list
                        if target == nil, let name = batch.lists[offset], TodoList.isValidName(name) {
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
                        guard let id = ids[offset] else { continue }
                        added.append(TodoRepository.NewTodo(fields: fields, id: id, list: target ?? defaultList))
                        todoIDs[offset] = id
                        if let uid = entry.uid { addedUIDs.append((uid, id)) }
                    }
                    try repository.add(inBulk: added)
                    try uids.record(addedUIDs)
                    outcome.added = added.count
                    for offset in new {
                        guard let id = todoIDs[offset] else { continue }
                        for completion in entries[offset].history {
                            try repository.recordCompletion(completion.completion(ofTodo: id))
                        }
                    }
                    for (offset, id) in matched.sorted(by: { $0.key < $1.key }) {
                        let changes = try update(
                            id, from: entries[offset], offset: offset, batch: batch, in: repository)
                        if !changes.isEmpty { updated[offset] = changes }
                    }
                    for (offset, parent) in batch.parents.sorted(by: { $0.key < $1.key }) {
                        guard let id = todoIDs[offset], let parentID = todoIDs[parent],
                            try repository.todo(id: id)?.parentID == nil
                        else { continue }
                        do throws(TodoStoreError) {
                            _ = try repository.setParent(parentID, ids: [id])
                            if matched[offset] != nil { updated[offset, default: []].append("parent") }
                        } catch .subtaskCycle {
                            continue
                        }
                    }
                    // What each todo waits for, among the todos of the file.
                    let ofTheFile = Set(todoIDs.values)
                    for (offset, id) in todoIDs.sorted(by: { $0.key < $1.key }) {
                        let wanted = (batch.dependencies[offset] ?? []).compactMap { todoIDs[$0] }.filter { $0 != id }
                        guard matched[offset] != nil || !wanted.isEmpty else { continue }
                        let current = matched[offset] == nil ? [] : try repository.dependencyIDs(of: id)
                        var changed = false
                        let gone = current.filter { ofTheFile.contains($0) && !wanted.contains($0) }
                        if !gone.isEmpty {
                            try repository.removeDependencies(gone, from: id)
                            changed = true
                        }
                        for other in wanted where !current.contains(other) {
                            do throws(TodoStoreError) {
                                _ = try repository.addDependencies([other], to: id)
                                changed = true
                            } catch .dependencyCycle {
                                continue
                            }
                        }
                        if changed, matched[offset] != nil { updated[offset, default: []].append("depends") }
                    }
                    for (offset, changes) in updated.sorted(by: { $0.key < $1.key }) {
                        guard let id = matched[offset] else { continue }
                        outcome.updated.append((id, entries[offset].fields.name, changes))
                    }
                    outcome.unchanged = matched.count - outcome.updated.count
                    return outcome
                }
            }
        }
    }

    /// The ids of the todos to add, by offset: the id each had in the file where no todo here
    /// ever had it (nor an earlier todo of the file: ids are never reused), then new ids above
    /// them all, in file order, as the database would number them. An id not kept is counted in
    /// `outcome`.
    private static func plannedIDs(
        _ new: [Int], batch: ImportBatch, repository: TodoRepository, outcome: inout ImportOutcome
    ) throws(TodoStoreError) -> [Int: Int64] {
        guard !new.isEmpty else { return [:] }
        let given = try repository.highestIDEverGiven()
        var ids: [Int: Int64] = [:]
        var taken = Set<Int64>()
        for offset in new {
            guard let id = batch.ids[offset] else { continue }
            // Above what JSON numbers hold exactly, an id would crowd out the ids after it.
            if id > given, id <= Int64(1) << 53, taken.insert(id).inserted {
                ids[offset] = id
            } else {
                let entry = batch.entries[offset]
                outcome.dropped.append(
                    ImportReport.Dropped(
                        what: .idNotFree,
                        source: entry.source ?? ImportSource(location: .record(offset + 1), name: entry.fields.name)))
            }
        }
        var next = max(given, taken.max() ?? 0)
        for offset in new where ids[offset] == nil {
            next += 1
            ids[offset] = next
        }
        return ids
    }

    /// Updates the todo `id` from the entry at `offset`, which has its UID: the fields the file
    /// gives, and the occurrences it finished. Returns the names of the fields that changed (and
    /// `history`), none when the file says what the todo says.
    private static func update(
        _ id: Int64, from entry: ImportEntry, offset: Int, batch: ImportBatch, in repository: TodoRepository
    ) throws(TodoStoreError) -> [String] {
        guard let todo = try repository.todo(id: id) else { return [] }
        let old = todo.fields
        let read = RepeatingTodo.movedPast(
            entry.history.map(\.occurrence), of: entry.fields, completedAt: entry.history.last?.completedAt)
        var fields = old
        for field in TodoField.all where batch.gives(field.name, offset) { field.copy(from: read, into: &fields) }
        // Times the file does not say (a task without `entry`) stay the todo's.
        if read.created == nil { fields.created = old.created }
        if fields.status == .completed, read.completed == nil {
            fields.completed = old.status == .completed ? old.completed : .now()
        }
        if !batch.gives("percent", offset), fields.status != old.status {
            // The percent goes with the state, as `todo done` and `undone` move it.
            if fields.status == .completed {
                fields.percent = 100
            } else if old.status == .completed, fields.percent == 100 {
                fields.percent = nil
            }
        }
        var changes = TodoField.all.filter { !$0.isEqual(fields, old) }.map(\.name)
        // `done` and `status` change together: the status says it.
        if changes.contains("status") { changes.removeAll { $0 == "done" } }
        if !changes.isEmpty { try repository.replaceFields(id: id, with: fields) }
        let known = Set(try repository.completions(ofTodo: id).map(\.occurrence))
        var logged = false
        for completion in entry.history where !known.contains(completion.occurrence) {
            try repository.recordCompletion(completion.completion(ofTodo: id))
            logged = true
        }
        if logged { changes.append("history") }
        return changes
    }
}
