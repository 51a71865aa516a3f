/// A todo's fields without its local id: the one place they are declared. What an import reads
/// from another tool's file, and what sync reads from and writes to a VTODO, compares with the
/// last synced version and merges. (An id means "this row in this file"; these fields are what
/// travels.) ``TodoField/all`` describes each of them once, for everything that handles every
/// field.
public struct TodoFields: Sendable, Equatable, Hashable {
    /// What to do. `todo` and this store never write a blank name (see ``Todo/isValidName(_:)``),
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
    /// How it repeats: an iCalendar RRULE value as written (`FREQ=MONTHLY`), `nil` when it does
    /// not. The deadline is then the current occurrence.
    public var repeatRule: String?
    /// Where the next date of a repeating todo is counted from.
    public var repeatFrom: TodoRepeatFrom

    public init(
        name: String, deadline: CalendarDate? = nil, isDone: Bool = false, priority: TodoPriority = .none,
        tags: TodoTags = [], note: String? = nil, created: UTCTimestamp? = nil, completed: UTCTimestamp? = nil,
        repeatRule: String? = nil, repeatFrom: TodoRepeatFrom = .due
    ) {
        self.name = name
        self.deadline = deadline
        self.isDone = isDone
        self.priority = priority
        self.tags = tags
        self.note = note
        self.created = created
        self.completed = completed
        self.repeatRule = repeatRule
        self.repeatFrom = repeatFrom
    }

    /// Whether it repeats.
    public var repeats: Bool { repeatRule != nil }
}

/// Where the next date of a repeating todo is counted from.
public enum TodoRepeatFrom: String, Sendable, Hashable, CaseIterable {
    /// From its current date, by the rule (every CalDAV app's reading of a rule).
    case due
    /// One interval after the day it was done (todo.txt's `rec:3d`, taskwarrior-like habits).
    case done
}
