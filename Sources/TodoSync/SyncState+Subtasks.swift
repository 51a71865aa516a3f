import SQLite
import TodoStore

/// A todo's place in the tree as sync carries it: the UID of its parent (RELATED-TO of type
/// PARENT on its object), merged three ways as one field against the parent last synced
/// (``SyncItem/parentUID``).
///
/// A parent that is not on this device (yet) keeps its link: the todo shows at the top level
/// here (its `parent_id` is NULL), its object keeps naming the parent, and once the parent
/// arrives the todo goes under it (``SyncState/placeSubtasksWhoseParentArrived()``).
enum ParentLink: Equatable {
    /// At the top level.
    case none
    /// Under the todo of this UID.
    case uid(String)
    /// Under the todo of this id here, which has no UID yet: it is given one when the link is
    /// sent (a subtask added here under a todo never synced).
    case unnamedParent(Int64)

    /// The UID it names, if any.
    var uid: String? {
        if case .uid(let uid) = self { return uid }
        return nil
    }

    /// Whether it is another link than `base`, the parent last synced: a parent without a UID
    /// always is (it is new here).
    func differs(fromBase base: String?) -> Bool {
        if case .unnamedParent = self { return true }
        return uid != base
    }

    /// The one rule, from what the file holds: the todo's `parent_id`; the list of that parent
    /// (`nil` when it is gone) and its UID; the todo's list; the parent last synced (`base`);
    /// and whether that UID was ever a todo's here (`baseIsKnown`).
    ///
    /// - A todo under a parent with a UID is under that UID (even in another list: the link is
    ///   the phone's as much as ours; only the display puts it at the top).
    /// - Under a parent of its list without a UID: ``unnamedParent(_:)``.
    /// - At the top here, while the parent last synced was never a todo here: that parent has
    ///   not arrived, and the link stands. At the top otherwise: none (moved to the top here).
    /// - Under a parent deleted here: none (the deletion goes to the server too).
    static func of(
        parentID: Int64?, parentList: Int64?, parentUID: String?, todoList: Int64, base: String?, baseIsKnown: Bool
    ) -> ParentLink {
        guard let parentID else {
            if let base, !baseIsKnown { return .uid(base) }
            return .none
        }
        guard let parentList else { return .none }
        if let parentUID { return .uid(parentUID) }
        return parentList == todoList ? .unnamedParent(parentID) : .none
    }
}

extension SyncState {
    /// ``ParentLink/of(parentID:parentList:parentUID:todoList:base:baseIsKnown:)`` for `todo`,
    /// whose parent last synced is `base`, looked up in the file.
    func parentLink(of todo: Todo, base: String?) throws(TodoStoreError) -> ParentLink {
        let parent = try todo.parentID.flatMap { id throws(TodoStoreError) in try repository.todo(id: id) }
        let uids = TodoUIDs(repository: repository)
        return ParentLink.of(
            parentID: todo.parentID, parentList: parent?.listID,
            parentUID: try parent.flatMap { parent throws(TodoStoreError) in try uids.uid(ofTodo: parent.id) },
            todoList: todo.listID, base: base,
            baseIsKnown: try base.map { uid throws(TodoStoreError) in try uids.wasEverGiven(uid) } ?? false)
    }

    /// Puts the todo `id` under the todo of `uid` (`nil`: at the top), as a sync takes a link in:
    /// under the todo here that has the UID, whatever its list; at the top when none has it (the
    /// parent has not arrived; the link waits in the item). A link that would close a loop (a
    /// server's objects can say anything) is not made: the todo stays at the top, and `false`
    /// says so.
    func placeTodo(_ id: Int64, underUID uid: String?) throws(TodoStoreError) -> Bool {
        let parent = try uid.flatMap { uid throws(TodoStoreError) in
            try TodoUIDs(repository: repository).todoID(forUID: uid)
        }
        guard try repository.todo(id: id)?.parentID != parent else { return true }
        do {
            try repository.linkParent(parent, of: id)
            return true
        } catch .subtaskCycle {
            try repository.linkParent(nil, of: id)
            return false
        }
    }

    /// Puts under their parent the todos of this list at the top level whose object names one of
    /// the todos that `arrived` (UIDs of todos this sync added here): their parent came after
    /// them, in this sync or a later one. Only those: a todo whose parent was here already and
    /// that is at the top was put there here, and that change is sent. Returns the ids of the
    /// todos a loop kept at the top.
    func placeSubtasks(underArrived arrived: Set<String>) throws(TodoStoreError) -> [Int64] {
        guard !arrived.isEmpty else { return [] }
        let waiting = try TodoStoreError.wrap { () throws(SQLiteError) -> [(Int64, String)] in
            let statement = try connection.internalCachedStatement(
                """
                SELECT t.id, s.parent_uid FROM sync_items s JOIN todo_uids u ON u.uid = s.uid
                JOIN todos t ON t.id = u.todo_id
                WHERE s.list_id = \(listSQL) AND s.parent_uid IS NOT NULL AND t.parent_id IS NULL ORDER BY t.id
                """)
            var found: [(Int64, String)] = []
            try statement.forEachRow { row in
                let parent = row.string(1)
                if arrived.contains(parent) { found.append((row.int64(0), parent)) }
            }
            return found
        }
        var looping: [Int64] = []
        for (id, uid) in waiting where !(try placeTodo(id, underUID: uid)) { looping.append(id) }
        return looping
    }
}
