import TodoStore
import TodoSync

#if canImport(Glibc)
    import Glibc
#endif

extension Command {
    /// `todo export --format ics`: one VCALENDAR with a VTODO per todo the request selects.
    ///
    /// Each todo is given its UID now if it has none (a write): a todo exported, imported by
    /// another app and later synced from it is then recognised as the same todo, not a copy.
    static func writeICS(
        _ repository: TodoRepository, _ request: TodoFetchRequest,
        _ out: inout OutputStream
    ) throws(TodoStoreError) {
        let todos = try repository.fetch(request)
        let uids = try TodoUIDs(repository: repository).assign(toTodos: todos.map(\.id))
        // A todo deleted by another program meanwhile has no UID and is left out.
        let entries = todos.compactMap { todo in uids[todo.id].map { ICSFile.Entry(uid: $0, fields: todo.fields) }
        }
        out.write(ICSFile.write(entries, now: Int64(time(nil))))
    }
}
