import TodoStore

/// A field whose value both sides changed differently since the last sync: the server's value
/// was kept (it got there first) and this one replaced, so the loss is reported, never silent.
/// A deletion conflict is an edit that beat a concurrent delete.
public struct SyncConflict: Sendable, Equatable {
    /// What the conflict is about.
    public enum Subject: Sendable, Equatable {
        /// A field both sides changed (one of `TodoField.all`, by its name).
        case field(String)
        /// An edit on one side beat a delete on the other.
        case deleted
    }

    /// The local todo's id.
    public var todoID: Int64
    public var subject: Subject
    /// The value kept (the server's), for a field.
    public var kept: TodoField.Value
    /// The value replaced (this database's), for a field.
    public var replaced: TodoField.Value

    /// For a deletion: the todo's id before the sync. A todo deleted here that the server's
    /// edit brings back keeps it (``todoID``), unless that id was taken.
    public var previousID: Int64?
    /// For a deletion: the name of the todo that was kept.
    public var name: String?
    /// For a deletion: whether the todo was deleted here and edited on the server (else edited
    /// here and deleted there).
    public private(set) var deletedHere = false

    /// Both sides changed `field`: the server's `kept`, this database's `replaced`.
    public init(todoID: Int64, field: String, kept: TodoField.Value, replaced: TodoField.Value) {
        self.todoID = todoID
        self.subject = .field(field)
        self.kept = kept
        self.replaced = replaced
    }

    /// An edit on one side beat a delete on the other. `previousID` is the todo's id before the
    /// sync; `deletedHere` says the todo was deleted here and edited on the server (else it was
    /// edited here and deleted there).
    public static func editBeatDelete(todoID: Int64, previousID: Int64, name: String, deletedHere: Bool = false)
        -> SyncConflict
    {
        var conflict = SyncConflict(todoID: todoID, field: "", kept: .none, replaced: .none)
        conflict.subject = .deleted
        conflict.previousID = previousID
        conflict.name = name
        conflict.deletedHere = deletedHere
        return conflict
    }
}

/// The merge rule of `todo sync`, per field (`TodoField.all` and each field's
/// `TodoField.Merge`), against the values both sides last agreed on.
///
/// A field of one value: a side that did not change it since the base takes the other side's
/// value; when both changed it to different values, the server's wins and the local value is
/// reported as replaced. A set (tags): a member is kept when either side has it and neither
/// removed it since the base (a tag added on the phone and another removed here both survive);
/// no conflict is possible. Pure: no store, no network.
///
/// A todo's state is one field, `status` (needs action, in process, completed, cancelled), of
/// which `done` is a part: `done` is merged first, then `status` decides, so the merge never
/// mixes one side's done with the other side's status (done and in process, or not done and
/// cancelled). When both sides changed the state differently (one started the todo, the other
/// completed it), the server's state is kept, its done with it, and this one is reported
/// replaced, as for any field (as a conflict of `status`, never of `done`).
public enum ThreeWayMerge {
    /// The merged fields and what was overridden. With no base (the same UID met on both sides
    /// with no record of a common version: a sync after `todo sync forget`), every field that
    /// differs counts as changed on both sides.
    public static func merge(
        base: TodoFields?, local: TodoFields, remote: TodoFields,
        todoID: Int64
    ) -> (fields: TodoFields, conflicts: [SyncConflict]) {
        var merged = remote
        var conflicts: [SyncConflict] = []
        for field in TodoField.all {
            switch field.merge {
            case .set:
                field.mergeSet(base: base, local: local, remote: remote, into: &merged)
            case .oneValue:
                if field.isEqual(local, remote) { continue }
                if let base {
                    if field.isEqual(local, base) { continue }
                    if field.isEqual(remote, base) {
                        field.copy(from: local, into: &merged)
                        continue
                    }
                }
                // The server's value, whatever a field merged before set that shares its storage
                // (`done` is part of `status`, which reports the conflict: once).
                field.copy(from: remote, into: &merged)
                if field.name == TodoField.done.name { continue }
                conflicts.append(
                    SyncConflict(
                        todoID: todoID, field: field.name, kept: field.value(in: remote),
                        replaced: field.value(in: local)))
            }
        }
        return (merged, conflicts)
    }
}
