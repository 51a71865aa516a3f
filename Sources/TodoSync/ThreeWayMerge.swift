import TodoStore

/// A field whose value both sides changed differently since the last sync: the server's value
/// was kept (it got there first) and this one replaced, so the loss is reported, never silent.
/// `deleted` is an edit that beat a concurrent delete: `kept` is "edit", `replaced` "delete".
public struct SyncConflict: Sendable, Equatable {
    public enum Field: String, Sendable, Equatable, CaseIterable {
        case name, deadline, done, priority, note, created, completed, deleted
    }

    /// A field's value as the report shows it: a name, a date, a flag, or nothing.
    public enum Value: Sendable, Equatable, CustomStringConvertible {
        case text(String)
        case date(CalendarDate?)
        case flag(Bool)

        public var description: String {
            switch self {
            case .text(let text): text
            case .date(let date): date.map { "\($0)" } ?? "none"
            case .flag(let flag): flag ? "done" : "not done"
            }
        }
    }

    /// The local todo's id.
    public var todoID: Int64
    public var field: Field
    public var kept: Value
    public var replaced: Value

    /// For ``Field/deleted``: the todo's id before the sync. It differs from ``todoID`` when the
    /// todo had been deleted here and the server's edit brought it back under a new id.
    public var previousID: Int64?
    /// For ``Field/deleted``: the name of the todo that was kept.
    public var name: String?

    public init(
        todoID: Int64, field: Field, kept: Value, replaced: Value, previousID: Int64? = nil, name: String? = nil
    ) {
        self.todoID = todoID
        self.field = field
        self.kept = kept
        self.replaced = replaced
        self.previousID = previousID
        self.name = name
    }

    /// An edit (on either side) that survived the other side's delete.
    /// An edit on one side beat a delete on the other. `previousID` is the todo's id before the
    /// sync (the same as `todoID` when it was edited here and deleted there).
    public static func editBeatDelete(todoID: Int64, previousID: Int64, name: String) -> SyncConflict {
        SyncConflict(
            todoID: todoID, field: .deleted, kept: .text("edit"), replaced: .text("delete"),
            previousID: previousID, name: name)
    }

    /// Whether this is an edit made on the server that brought back a todo deleted here.
    public var deletedHere: Bool { field == .deleted && previousID != todoID }
}

/// The merge rule of `todo sync`, per field, against the values both sides last agreed on.
///
/// For each of name, deadline, done, priority, note, created and completed: a side that did
/// not change the field since the base takes the other side's value; when both changed it to
/// different values, the server's wins and the local value is reported as replaced. Tags merge
/// as a set: a tag is kept when either side has it and neither removed it since the base (a tag
/// added on the phone and another removed here both survive); no conflict is possible. Pure:
/// no store, no network.
public enum ThreeWayMerge {
    /// The merged fields and what was overridden. With no base (the same UID met on both sides
    /// with no record of a common version: a sync after `todo sync forget`), every field that
    /// differs counts as changed on both sides.
    public static func merge(
        base: TodoFields?, local: TodoFields, remote: TodoFields,
        todoID: Int64
    ) -> (fields: TodoFields, conflicts: [SyncConflict]) {
        var conflicts: [SyncConflict] = []
        func pick<Value: Equatable>(
            _ path: KeyPath<TodoFields, Value>, _ field: SyncConflict.Field,
            _ wrap: (Value) -> SyncConflict.Value
        ) -> Value {
            let mine = local[keyPath: path]
            let theirs = remote[keyPath: path]
            if mine == theirs { return theirs }
            if let base {
                if mine == base[keyPath: path] { return theirs }
                if theirs == base[keyPath: path] { return mine }
            }
            conflicts.append(SyncConflict(todoID: todoID, field: field, kept: wrap(theirs), replaced: wrap(mine)))
            return theirs
        }
        let fields = TodoFields(
            name: pick(\.name, .name, SyncConflict.Value.text),
            deadline: pick(\.deadline, .deadline, SyncConflict.Value.date),
            isDone: pick(\.isDone, .done, SyncConflict.Value.flag),
            priority: pick(\.priority, .priority) { .text($0.label) },
            tags: mergeTags(base: base?.tags, local: local.tags, remote: remote.tags),
            note: pick(\.note, .note) { .text($0 ?? "none") },
            created: pick(\.created, .created) { .text($0.map { "\($0)" } ?? "none") },
            completed: pick(\.completed, .completed) { .text($0.map { "\($0)" } ?? "none") })
        return (fields, conflicts)
    }

    /// The tags of both sides, less those either side removed since the base: the local ones
    /// first, in their order and as written here, then those added on the server. Without a
    /// base, the union.
    public static func mergeTags(base: TodoTags?, local: TodoTags, remote: TodoTags) -> TodoTags {
        let base = base ?? []
        func removed(on side: TodoTags, _ tag: TodoTag) -> Bool { base.contains(tag) && !side.contains(tag) }
        var merged = TodoTags()
        for tag in local where !removed(on: remote, tag) { merged.insert(tag) }
        for tag in remote where !removed(on: local, tag) { merged.insert(tag) }
        return merged
    }
}
