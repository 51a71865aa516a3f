import TodoStore
import TodoSync

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// `todo export --format ics`: one VCALENDAR with a VTODO per todo the request selects; a
    /// synced todo is its object's own text, with the changes made here written in, as the
    /// next sync would send it (``SyncState/outgoingTexts(of:uids:timeZone:now:)``), so that
    /// nothing another app wrote in it is lost.
    ///
    /// Each todo is given its UID now if it has none (a write): a todo exported, imported by
    /// another app and later synced from it is then recognised as the same todo, not a copy.
    static func writeICS(
        _ repository: TodoRepository, _ request: TodoFetchRequest,
        _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let todos = try repository.fetch(request)
        let uids = try TodoUIDs(repository: repository).assign(toTodos: todos.map(\.id))
        // A subtask names its parent by UID (RELATED-TO), as the tree rule places it: the parent
        // is given one too when it has none, exported or not.
        let parents = try repository.parentIDs(of: todos)
        let parentUIDs = try TodoUIDs(repository: repository).assign(toTodos: Array(Set(parents.values)))
        // What each todo waits for, by UID (RELATED-TO;RELTYPE=DEPENDS-ON): those todos are given
        // one too, exported or not.
        let links = try repository.hasDependencies() ? try repository.dependencyIDsByTodo() : [:]
        let dependsUIDs = try TodoUIDs(repository: repository).assign(
            toTodos: Array(Set(todos.flatMap { links[$0.id] ?? [] })))
        // A todo deleted by another program meanwhile has no UID and is left out.
        let entries = todos.compactMap { todo in
            uids[todo.id].map {
                ICSFile.Entry(
                    uid: $0, fields: todo.fields, parentUID: parents[todo.id].flatMap { parentUIDs[$0] },
                    dependsOnUIDs: (links[todo.id] ?? []).compactMap { dependsUIDs[$0] })
            }
        }
        let now = Int64(time(nil))
        let texts = try SyncState(repository: repository).outgoingTexts(of: todos, uids: uids, now: now)
        var objects: [String: String] = [:]
        for (id, text) in texts { if let uid = uids[id] { objects[uid] = text } }
        out.write(ICSFile.write(entries, now: now, objects: objects))
    }
}
