/// A todo's fields without its local id: what an import reads from another tool's file, and
/// what sync reads from and writes to a VTODO, compares with the last synced version and
/// merges. (An id means "this row in this file"; these fields are what travels.)
public struct TodoFields: Sendable, Equatable, Hashable {
    public var name: String
    public var deadline: CalendarDate?
    public var isDone: Bool
    public var priority: TodoPriority
    public var tags: TodoTags
    public var note: String?
    public var created: UTCTimestamp?
    public var completed: UTCTimestamp?

    public init(
        name: String, deadline: CalendarDate? = nil, isDone: Bool = false, priority: TodoPriority = .none,
        tags: TodoTags = [], note: String? = nil, created: UTCTimestamp? = nil, completed: UTCTimestamp? = nil
    ) {
        self.name = name
        self.deadline = deadline
        self.isDone = isDone
        self.priority = priority
        self.tags = tags
        self.note = note
        self.created = created
        self.completed = completed
    }

    /// The fields of `todo`.
    public init(_ todo: Todo) {
        self.init(
            name: todo.name, deadline: todo.deadline, isDone: todo.isDone, priority: todo.priority, tags: todo.tags,
            note: todo.note, created: todo.created, completed: todo.completed)
    }
}
