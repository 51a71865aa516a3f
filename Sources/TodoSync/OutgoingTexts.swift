import SQLite
import TodoStore

extension SyncState {
    /// The object text a sync would write now for each of `todos` whose object the collection
    /// has (or had, deleted there while the todo stayed here), by todo id: its last synced text
    /// with the changes made here since written in, as ``SyncEngine`` writes it, so that every
    /// line another app wrote (alarms, `X-` properties, a URL, attachments, a class, a rule) is
    /// in it. A todo never synced, or one whose UID `uids` does not give, has none. For `todo
    /// export --format ics`; reads only.
    ///
    /// - Parameters:
    ///   - todos: the todos, as they are here.
    ///   - uids: their UIDs, by todo id.
    ///   - timeZone: where a date-time `DUE` becomes a deadline (as the sync reads it).
    ///   - now: seconds since 1970 (UTC), the revision stamps of an object with changes written in.
    public func outgoingTexts(
        of todos: [Todo], uids: [Int64: String], timeZone: LocalTimeZone = .system, now: Int64
    ) throws(TodoStoreError) -> [Int64: String] {
        guard try holdsObjects() else { return [:] }
        timeZone.prepare()
        var texts: [Int64: String] = [:]
        for todo in todos {
            guard let uid = uids[todo.id] else { continue }
            if let item = try anyItem(uid: uid), let stored = try? VTodoObject(parsing: item.text, timeZone: timeZone) {
                let pending = try repository.pendingCompletions(ofTodo: todo.id)
                var object = SyncEngine.outgoingObject(
                    stored, fields: todo.fields, pending: pending, timeZone: timeZone, now: now
                ).object
                // Its place in the tree, when that changed here, as the sync would send it.
                let link = try parentLink(of: todo, base: item.parentUID)
                if link.differs(fromBase: item.parentUID) {
                    let parent: String? =
                        switch link {
                        case .none: nil
                        case .uid(let uid): uid
                        case .unnamedParent(let id): try TodoUIDs(repository: repository).uid(ofTodo: id)
                        }
                    object.setParent(parent, now: now)
                }
                // And the todos it waits for (those without a UID have none to name).
                let links = try dependencyLinks(of: todo.id, base: item.dependsOnUIDs)
                if links.differ(fromBase: item.dependsOnUIDs) {
                    let names = TodoUIDs(repository: repository)
                    var uids = links.uids
                    for id in links.unnamed { if let uid = try names.uid(ofTodo: id) { uids.append(uid) } }
                    object.setDependsOn(uids, now: now)
                }
                texts[todo.id] = object.text
            } else if let gone = try goneText(uid: uid) {
                texts[todo.id] =
                    SyncEngine.outgoingObject(uid: uid, fields: todo.fields, gone: gone, timeZone: timeZone, now: now)
                    .text
            }
        }
        return texts
    }

    /// Whether any object text is kept (synced items, or objects deleted there): a database
    /// never synced answers at once, whatever the list's size.
    private func holdsObjects() throws(TodoStoreError) -> Bool {
        try TodoStoreError.wrap { () throws(SQLiteError) -> Bool in
            try connection.internalCachedStatement(
                "SELECT EXISTS (SELECT 1 FROM sync_items) OR EXISTS (SELECT 1 FROM sync_gone)"
            ).scalarInt64() == 1
        }
    }
}
