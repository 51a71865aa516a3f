/// A todo's three fields without its local id: what an import reads from another tool's file,
/// and what sync reads from and writes to a VTODO, compares with the last synced version and
/// merges. (An id means "this row in this file"; these fields are what travels.)
public struct TodoFields: Sendable, Equatable, Hashable {
    public var name: String
    public var deadline: CalendarDate?
    public var isDone: Bool

    public init(name: String, deadline: CalendarDate? = nil, isDone: Bool = false) {
        self.name = name
        self.deadline = deadline
        self.isDone = isDone
    }

    /// The fields of `todo`.
    public init(_ todo: Todo) {
        self.init(name: todo.name, deadline: todo.deadline, isDone: todo.isDone)
    }
}
