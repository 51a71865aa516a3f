/// One todo: a name, an optional deadline, and whether it is done.
///
/// A value: reading a todo never gives a live object, and two todos with equal fields are
/// equal. `id` is the row id in the `todos` table, assigned by SQLite and never reused.
public struct Todo: Identifiable, Hashable, Sendable {
    /// The todo's id, stable for its whole life and never given to another todo.
    public let id: Int64
    /// What to do. Never empty.
    public var name: String
    /// The day it is due, if any.
    public var deadline: CalendarDate?
    /// Whether it is done.
    public var isDone: Bool

    /// Creates a todo value. Persisting one is ``TodoRepository/add(name:deadline:isDone:)``'s job.
    public init(id: Int64, name: String, deadline: CalendarDate? = nil, isDone: Bool = false) {
        self.id = id
        self.name = name
        self.deadline = deadline
        self.isDone = isDone
    }
}
