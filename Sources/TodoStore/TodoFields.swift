/// A todo's fields without its local id: the one place they are declared. What an import reads
/// from another tool's file, and what sync reads from and writes to a VTODO, compares with the
/// last synced version and merges. (An id means "this row in this file"; these fields are what
/// travels.) ``TodoField/all`` describes each of them once, for everything that handles every
/// field.
public struct TodoFields: Sendable, Equatable, Hashable {
    /// What to do. `todo` and this store never write a blank name (see ``Todo/isValidName(_:)``),
    /// but other programs sharing the file may have: read names can be empty.
    public var name: String
    /// The day it is due, if any: with a ``dueTime``, the date of that time on its own clock
    /// (the wall clock of its zone; for an instant, the zone that read it).
    public var deadline: CalendarDate?
    /// The time of day it is due on its deadline, if it has one (`nil`: any time that day).
    public var dueTime: TodoDueTime?
    /// The day it starts, when that is before its deadline's day (DTSTART; taskwarrior's `wait`
    /// and `scheduled`, todo.txt's `t:`): until then it is hidden from the lists, as Tasks.org
    /// hides it. A start on the deadline's own day is no separate start, and is `nil`.
    public var start: CalendarDate?
    /// Where it stands: to do, under way, completed or cancelled (``TodoStatus``).
    public var status: TodoStatus
    /// Whether it is done: completed or cancelled. Setting it to what it is changes nothing;
    /// to another value, the todo becomes completed, or needs action (a status is ended, as
    /// another program's `UPDATE todos SET done = 1` ends it: migration 0016's trigger).
    public var isDone: Bool {
        get { status.isDone }
        set { if newValue != status.isDone { status = newValue ? .completed : .needsAction } }
    }
    /// How far along it is, 0 to 100 (iCalendar's PERCENT-COMPLETE), if known.
    public var percent: Int?
    /// Its priority (``TodoPriority/none`` when it has none).
    public var priority: TodoPriority
    /// Its tags, in the order they were added.
    public var tags: TodoTags
    /// The project it belongs to, if any (``TodoProject``): not a tag.
    public var project: TodoProject?
    /// A note of any number of lines, if any.
    public var note: String?
    /// When it was added, if known (a todo another program inserted has no time).
    public var created: UTCTimestamp?
    /// When it was last marked done, while it is completed (if known; a cancelled todo has none).
    public var completed: UTCTimestamp?
    /// How it repeats: an iCalendar RRULE value as written (`FREQ=MONTHLY`), `nil` when it does
    /// not. The deadline is then the current occurrence.
    public var repeatRule: String?
    /// Where the next date of a repeating todo is counted from.
    public var repeatFrom: TodoRepeatFrom

    public init(
        name: String, deadline: CalendarDate? = nil, isDone: Bool = false, priority: TodoPriority = .none,
        tags: TodoTags = [], note: String? = nil, created: UTCTimestamp? = nil, completed: UTCTimestamp? = nil,
        repeatRule: String? = nil, repeatFrom: TodoRepeatFrom = .due, dueTime: TodoDueTime? = nil,
        start: CalendarDate? = nil, status: TodoStatus? = nil, percent: Int? = nil, project: TodoProject? = nil
    ) {
        self.name = name
        self.deadline = deadline
        self.status = status ?? (isDone ? .completed : .needsAction)
        self.percent = percent
        self.priority = priority
        self.tags = tags
        self.project = project
        self.note = note
        self.created = created
        self.completed = completed
        self.repeatRule = repeatRule
        self.repeatFrom = repeatFrom
        self.dueTime = dueTime
        self.start = start
    }

    /// Whether it repeats.
    public var repeats: Bool { repeatRule != nil }

    /// Moves the deadline to `date`, and what goes with it by as many days: the start date, and
    /// an instant due time. A wall-clock due time stays at its time of day. Without a deadline
    /// before, only the deadline is set.
    public mutating func moveDeadline(to date: CalendarDate?) {
        defer { deadline = date }
        guard let old = deadline else { return }
        guard let date else {
            dueTime = nil
            return
        }
        let days = old.days(until: date)
        guard days != 0 else { return }
        start = start.flatMap { $0.adding(days: days) }
        dueTime = dueTime?.moved(byDays: days)
    }

    /// Whether it has a start date after `today`: not started yet.
    public func startsAfter(_ today: CalendarDate) -> Bool { start.map { $0 > today } ?? false }
}

extension TodoFields {
    /// Puts the todo in `status` as the commands do (`todo start`, `stop`, `cancel`, `done`,
    /// `undone`): completed at `now` (unless it was completed already) with its percent at 100;
    /// any other state without a completed time, a percent of 100 taken away when it leaves
    /// completed (what was done is no longer). `percent`, when given, is the new percent.
    public mutating func setStatus(_ status: TodoStatus, percent: Int? = nil, now: UTCTimestamp) {
        if status == .completed {
            if self.status != .completed { completed = now }
            self.percent = 100
        } else {
            completed = nil
            if self.status == .completed, self.percent == 100 { self.percent = nil }
            if let percent { self.percent = percent }
        }
        self.status = status
    }
}

/// Where the next date of a repeating todo is counted from.
public enum TodoRepeatFrom: String, Sendable, Hashable, CaseIterable {
    /// From its current date, by the rule (every CalDAV app's reading of a rule).
    case due
    /// One interval after the day it was done (todo.txt's `rec:3d`, taskwarrior-like habits).
    case done
}
