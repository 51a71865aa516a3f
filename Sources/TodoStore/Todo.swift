/// One todo: a name, an optional deadline, whether it is done, and its details (a priority,
/// tags, a note, and when it was created and completed).
///
/// A value: reading a todo never gives a live object, and two todos with equal fields are
/// equal. `id` is the row id in the `todos` table, assigned by SQLite and never reused.
public struct Todo: Identifiable, Hashable, Sendable {
    /// The todo's id, stable for its whole life and never given to another todo.
    public let id: Int64
    /// What to do. `todo` and this store never write a blank name (see ``isValidName(_:)``),
    /// but other programs sharing the file may have: read names can be empty.
    public var name: String
    /// The day it is due, if any.
    public var deadline: CalendarDate?
    /// Whether it is done.
    public var isDone: Bool
    /// Its priority (``TodoPriority/none`` when it has none).
    public var priority: TodoPriority
    /// Its tags, in the order they were added.
    public var tags: TodoTags
    /// A note of any number of lines, if any.
    public var note: String?
    /// When it was added, if known (a todo another program inserted has no time).
    public var created: UTCTimestamp?
    /// When it was last marked done, while it is done (if known).
    public var completed: UTCTimestamp?

    /// Creates a todo value. Persisting one is ``TodoRepository/add(name:deadline:isDone:nameCheck:)``'s job.
    public init(
        id: Int64, name: String, deadline: CalendarDate? = nil, isDone: Bool = false,
        priority: TodoPriority = .none, tags: TodoTags = [], note: String? = nil, created: UTCTimestamp? = nil,
        completed: UTCTimestamp? = nil
    ) {
        self.id = id
        self.name = name
        self.deadline = deadline
        self.isDone = isDone
        self.priority = priority
        self.tags = tags
        self.note = note
        self.created = created
        self.completed = completed
    }

    /// The todo `id` with `fields`.
    public init(id: Int64, _ fields: TodoFields) {
        self.init(
            id: id, name: fields.name, deadline: fields.deadline, isDone: fields.isDone, priority: fields.priority,
            tags: fields.tags, note: fields.note, created: fields.created, completed: fields.completed)
    }

    /// Its fields, without the id.
    public var fields: TodoFields { TodoFields(self) }

    /// The one rule for a todo's name, used wherever a name is written or imported: it must
    /// contain a character that is not white space. Anything else is kept as written (control
    /// characters included; output escapes them).
    ///
    /// Checks bytes first, so a typical name costs a byte or two.
    public static func isValidName(_ name: String) -> Bool {
        for byte in name.utf8 {
            if byte > 0x20 && byte < 0x7F { return true }
            if byte >= 0x80 { return name.contains { !$0.isWhitespace } }
        }
        return false
    }

    /// Throws ``TodoStoreError/emptyName`` unless ``isValidName(_:)``.
    public static func validateName(_ name: String) throws(TodoStoreError) {
        guard isValidName(name) else { throw .emptyName }
    }
}
