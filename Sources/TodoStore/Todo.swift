import TextSafety

/// One todo: its id and its fields (a name, an optional deadline, whether it is done, and its
/// details: a priority, tags, a note, and when it was created and completed).
///
/// A value: reading a todo never gives a live object, and two todos with equal fields are
/// equal. `id` is the row id in the `todos` table, assigned by SQLite and never reused. The
/// fields are ``TodoFields``'s (the one place they are declared), read and written through the
/// todo itself: `todo.name`, `todo.isDone = true`.
@dynamicMemberLookup
public struct Todo: Identifiable, Hashable, Sendable {
    /// The todo's id, stable for its whole life and never given to another todo.
    public let id: Int64
    /// Its fields, without the id.
    public var fields: TodoFields
    /// The id of the list it is in (``TodoList``). Not one of the fields: a list is where a todo
    /// is (a collection, when synced), not something it carries; ``TodoRepository/move(ids:to:)``
    /// changes it.
    public var listID: Int64
    /// The id of the todo it is a subtask of, `nil` at the top level. Not one of the fields
    /// either: it is where the todo sits in its list's tree, in ids of this file (sync carries it
    /// as the parent's UID). It may name a todo that is gone or in another list (another
    /// program's writing): readers then show the todo at the top level (``TodoOutline``).
    /// ``TodoRepository/setParent(_:ids:)`` changes it.
    public var parentID: Int64?

    /// The todo `id` with `fields`, in the list `listID`, under `parentID`. Persisting one is
    /// ``TodoRepository/add(_:nameCheck:now:list:parent:)``'s job.
    public init(id: Int64, _ fields: TodoFields, listID: Int64 = TodoList.firstID, parentID: Int64? = nil) {
        self.id = id
        self.fields = fields
        self.listID = listID
        self.parentID = parentID
    }

    /// A field, by name: `todo.deadline`.
    @inlinable
    public subscript<Value>(dynamicMember path: WritableKeyPath<TodoFields, Value>) -> Value {
        get { fields[keyPath: path] }
        set { fields[keyPath: path] = newValue }
    }

    /// The one rule for a todo's name, used wherever a name is written or imported: it must
    /// contain a character that is neither white space nor a control character (TextSafety's
    /// policy: a name of only ESC, or of ESC and a no-break space, is refused). Anything else
    /// is kept as written, control characters included: output escapes them.
    ///
    /// Checks bytes first, so a typical name costs a byte or two.
    public static func isValidName(_ name: String) -> Bool {
        for byte in name.utf8 {
            if byte > 0x20 && byte < 0x7F { return true }
            if byte >= 0x80 {
                return name.unicodeScalars.contains { !$0.properties.isWhitespace && !ControlCharacters.contains($0) }
            }
        }
        return false
    }

    /// Throws ``TodoStoreError/emptyName`` unless ``isValidName(_:)``.
    public static func validateName(_ name: String) throws(TodoStoreError) {
        guard isValidName(name) else { throw .emptyName }
    }
}
