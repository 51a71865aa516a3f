import SQLite
import TodoStore

/// The todos a todo waits for, as sync carries them: RELATED-TO;RELTYPE=DEPENDS-ON (RFC 9253) on
/// its object, one link a todo, merged three ways as a set against the links last synced
/// (``SyncItem/dependsOnUIDs``): a link added on either side stays unless the other side removed
/// it since, as tags merge.
///
/// A todo waited for that is not on this device (yet) keeps its link on the object, and in the
/// merge base; the link is made here when that todo arrives
/// (``SyncState/linkDependencies(onArrived:)``).
struct DependencyLinks: Equatable {
    /// The UIDs it names: those of the todos it waits for here that have one, and those of the
    /// links last synced whose todo never was here.
    var uids: [String]
    /// The todos it waits for here that have no UID yet: each is given one when the links are sent.
    var unnamed: [Int64]

    /// Whether they are other links than `base`, the links last synced.
    func differ(fromBase base: [String]) -> Bool { !unnamed.isEmpty || Set(uids) != Set(base) }

    /// The set three ways: `base` changed by what `remote` and `local` each added and removed.
    static func merged(base: [String], local: [String], remote: [String]) -> [String] {
        let (base, localSet, remoteSet) = (Set(base), Set(local), Set(remote))
        let removed = base.subtracting(localSet).union(base.subtracting(remoteSet))
        var result: [String] = []
        for uid in remote + local where !removed.contains(uid) && !result.contains(uid) { result.append(uid) }
        return result
    }
}

extension SyncState {
    /// ``DependencyLinks`` of the todo `id`, whose links last synced are `base`.
    func dependencyLinks(of id: Int64, base: [String]) throws(TodoStoreError) -> DependencyLinks {
        let uids = TodoUIDs(repository: repository)
        var links = DependencyLinks(uids: [], unnamed: [])
        for waited in try repository.dependencyIDs(of: id) {
            if let uid = try uids.uid(ofTodo: waited) { links.uids.append(uid) } else { links.unnamed.append(waited) }
        }
        for uid in base where !links.uids.contains(uid) {
            if try !uids.wasEverGiven(uid) { links.uids.append(uid) }
        }
        return links
    }

    /// Makes the todo `id` wait for the todos here of `uids` (those not here are left to their
    /// arrival), and for the todos of `keeping` (ids: links made here to todos without a UID).
    /// A set that would make a cycle (a server's objects can say anything) is not made: the
    /// todo keeps its links, and `false` says so.
    func setDependencies(of id: Int64, toUIDs uids: [String], keeping: [Int64] = []) throws(TodoStoreError) -> Bool {
        let names = TodoUIDs(repository: repository)
        var ids = keeping
        for uid in uids {
            if let waited = try names.todoID(forUID: uid), waited != id, !ids.contains(waited) { ids.append(waited) }
        }
        guard Set(ids) != Set(try repository.dependencyIDs(of: id)) else { return true }
        do {
            _ = try repository.setDependencies(ids, of: id)
            return true
        } catch .dependencyCycle {
            return false
        }
    }

    /// Makes the links the objects of this list named to the todos that `arrived` (UIDs of todos
    /// this sync added here): they came after the todos waiting for them. Returns the ids of the
    /// todos whose links a cycle kept as they were.
    func linkDependencies(onArrived arrived: Set<String>) throws(TodoStoreError) -> [Int64] {
        guard !arrived.isEmpty else { return [] }
        let waiting = try TodoStoreError.wrap { () throws(SQLiteError) -> [(Int64, [String])] in
            let statement = try connection.internalCachedStatement(
                """
                SELECT t.id, s.depends_uids FROM sync_items s JOIN todo_uids u ON u.uid = s.uid
                JOIN todos t ON t.id = u.todo_id
                WHERE s.list_id = \(listSQL) AND coalesce(s.depends_uids, '') <> '' ORDER BY t.id
                """)
            var found: [(Int64, [String])] = []
            try statement.forEachRow { row in
                let uids = row.string(1).split(separator: "\n").map(String.init)
                if uids.contains(where: arrived.contains) { found.append((row.int64(0), uids)) }
            }
            return found
        }
        var refused: [Int64] = []
        for (id, uids) in waiting {
            let current = try repository.dependencyIDs(of: id)
            // The arrived ones only: a link to a todo that was here already and is not linked
            // was taken away here, and that change is sent.
            if !(try setDependencies(of: id, toUIDs: uids.filter(arrived.contains), keeping: current)) {
                refused.append(id)
            }
        }
        return refused
    }
}
