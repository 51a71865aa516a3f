import TodoStore

/// What an import read, and what it could not keep: the todos, the UIDs and completion history
/// the file gave them, and how many of each kind of field, record or value the file held that
/// our todos could not take (a deleted taskwarrior task, a `wait:` date after the due date, a
/// `recur:` in hours, a todo.txt `rec:2b`, a JSON key no field reads...), each with the todo it
/// came from (``dropped``), so that nothing disappears without a word.
public struct ImportReport: Sendable, Equatable {
    /// The todos, in file order.
    public var todos: [ImportedTodo]
    /// Where each todo of ``todos`` came from, by the same offsets (the record or line, its uuid
    /// or UID, its name as read): what `todo import --verbose` names. Empty in a report made by
    /// hand; ``source(of:)`` reads it.
    public var sources: [ImportSource] = []
    /// The UIDs the file gave its todos, by offset in ``todos``: todo's own JSON export carries
    /// each todo's UID when it has one, and a taskwarrior task its `uuid`, so that an import
    /// matches the todos it already holds and updates them instead of adding them again.
    public var uids: [Int: String] = [:]
    /// The ids the file gave its todos, by offset in ``todos``: todo's own export writes each
    /// todo's `"id"` (the first record of an id, where a file repeats one), which an import
    /// keeps where no todo of the database ever had it.
    public var ids: [Int: Int64] = [:]
    /// The finished occurrences of repeating todos, by offset in ``todos``, oldest first: a
    /// taskwarrior template's completed instances.
    public var history: [Int: [ImportedCompletion]] = [:]
    /// The name of the list of some todos, by their index in ``todos``: what `todo export`
    /// writes (`"list": "Work"`), so that an import puts each todo back in a list of that name.
    public var lists: [Int: String] = [:]
    /// The parent of some todos, by their index in ``todos``: the index of the todo they are a
    /// subtask of in the same file (todo's own export says `"parent": 3`, an iCalendar file
    /// RELATED-TO). Never a loop: ``dropLoops()`` cuts a link that would close one.
    public var parents: [Int: Int] = [:]
    /// What some todos wait for, by their index in ``todos``: the indexes of the todos of the same
    /// file they wait for (taskwarrior's `depends:`, todo's own export `"depends": [3]`, an
    /// iCalendar file's RELATED-TO;RELTYPE=DEPENDS-ON), each once, never the todo itself. Never a
    /// cycle: ``dropDependencyLoops()`` cuts a link that would close one.
    public var dependencies: [Int: [Int]] = [:]
    /// The fields (``TodoField/name``) the format never gives, whatever the record: taskwarrior
    /// has no percent. An import that updates a todo it holds keeps the todo's own values of
    /// these (``gives(_:todo:)``).
    public var fieldsNeverGiven: Set<String> = []
    /// The fields some records do not give, by offset in ``todos``: the keys a JSON record
    /// leaves out (a file from before a field existed). Kept as the todo has them on an update.
    public var fieldsNotGiven: [Int: Set<String>] = [:]
    /// Counts of what was read but not kept, in the order a person reads them, each non-zero.
    public var notKept: [(what: NotKept, count: Int)] {
        counts.keys.sorted().map { ($0, counts[$0] ?? 0) }
    }
    /// Each thing counted in ``notKept``, with where it was, in file order (but for what is found
    /// after the whole file is read: the links cut, at the end).
    public private(set) var dropped: [Dropped] = []

    private var counts: [NotKept: Int] = [:]

    /// One thing an import did not keep, and the record or line it was in.
    public struct Dropped: Sendable, Hashable {
        public var what: NotKept
        public var source: ImportSource

        public init(what: NotKept, source: ImportSource) {
            self.what = what
            self.source = source
        }
    }

    /// Where the todo at `offset` of ``todos`` came from, when the reader said.
    public func source(of offset: Int) -> ImportSource? {
        sources.indices.contains(offset) ? sources[offset] : nil
    }

    /// Whether the file gives the field named `field` (``TodoField/name``) for the todo at
    /// `offset`: an update takes the file's value of each field it gives, and keeps the todo's
    /// own value of the others.
    public func gives(_ field: String, todo offset: Int) -> Bool {
        !fieldsNeverGiven.contains(field) && fieldsNotGiven[offset]?.contains(field) != true
    }

    /// Cuts every parent link of ``parents`` that closes a loop (a file's own, or a damaged one),
    /// counting each as a ``NotKept/parentLoop``: the todo is imported at the top level.
    public mutating func dropLoops() {
        var done = Set<Int>()
        for start in parents.keys.sorted() where !done.contains(start) {
            var path: [Int] = []
            var onPath = Set<Int>()
            var current = start
            while !done.contains(current) {
                path.append(current)
                onPath.insert(current)
                guard let up = parents[current] else { break }
                if onPath.contains(up) {
                    parents[current] = nil
                    drop(.parentLoop, at: source(of: current))
                    break
                }
                current = up
            }
            done.formUnion(path)
        }
    }

    /// Cuts every link of ``dependencies`` that closes a cycle (a damaged file's: the tools refuse
    /// them), counting each as a ``NotKept/dependsLoop``; the todo keeps its other links. A walk in
    /// index order, each todo's links in their order: the same file always loses the same links.
    public mutating func dropDependencyLoops() {
        // 1: on the walk's path, 2: done with.
        var state: [Int: Int] = [:]
        for start in dependencies.keys.sorted() where state[start] == nil {
            // The path: each todo and how many of its links were followed.
            var path: [(todo: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = path.last {
                let links = dependencies[top.todo] ?? []
                guard top.next < links.count else {
                    state[top.todo] = 2
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let other = links[top.next]
                switch state[other] {
                case 1?:
                    dependencies[top.todo]?.removeAll { $0 == other }
                    path[path.count - 1].next -= 1
                    if dependencies[top.todo]?.isEmpty == true { dependencies[top.todo] = nil }
                    drop(.dependsLoop, at: source(of: top.todo))
                case nil:
                    state[other] = 1
                    path.append((other, 0))
                default:
                    break
                }
            }
        }
    }

    /// A kind of field, record or value an import does not keep. Counted by the number of
    /// things (`2 deleted tasks`, `1 tag`) or of todos that had one (`wait: after the due date on
    /// 2 todos`), as ``describe(_:)`` words them; ordered as the summary lists them.
    public enum NotKept: Sendable, Hashable, Comparable {
        /// A taskwarrior task deleted there (`status:deleted`), instances of a series included:
        /// never brought back as a todo.
        case deletedTask
        /// A taskwarrior project or tag that is no tag (a control character, two spaces in a
        /// row), a priority other than H, M, L, an annotation without text.
        case project, tag, priority, annotation
        /// taskwarrior's `wait:` after the task's due date: a todo's start is before its
        /// deadline's day. (A wait on the due date itself is no separate start, and loses
        /// nothing.) This and the taskwarrior fields below are counted by todo.
        case wait
        /// taskwarrior's `scheduled:` after the due date, on a task without a `wait:`.
        case scheduled
        /// taskwarrior's `scheduled:` on another day than the task's `wait:`, which is the start.
        case scheduledBesideWait
        /// The time of day of the `wait:` or `scheduled:` that became the start, when it is not
        /// midnight: a start is a day.
        case waitTime, scheduledTime
        /// taskwarrior's `start:`, when work began: a pending task with one is in progress, but
        /// the time has no place (nor has it on a completed task, nor the state).
        case start
        /// `until:` on a task that does not repeat: todos have no expiry.
        case until
        /// The time of day of a series' `until:`, when it is not midnight: a repeat ends on a day.
        case untilTime
        /// `end:` on a task that is not completed (taskwarrior writes it on completed and
        /// deleted tasks only).
        case end
        /// `depends:` naming a task that is not imported (deleted, or not in the file): a todo
        /// waits for a todo here.
        case depends
        /// A taskwarrior `recur:` in hours or minutes: the todo is imported without repeating.
        case recurShorterThanADay
        /// A taskwarrior `recur:` of no form read here (`P1DT12H`).
        case recurOther
        /// `recur:` on an instance of a series whose template was deleted there: taskwarrior makes
        /// no more of them, and the instance is imported as the task it is.
        case recurOfDeletedSeries
        /// An instance of a taskwarrior series (or an iCalendar occurrence) whose description,
        /// tags, project, priority, annotations or attributes are not its series': the series is
        /// one todo with the template's.
        case changedOccurrence
        /// todo.txt's `t:` (threshold, the start date) after the `due:` date.
        case threshold
        /// todo.txt's `rec:2b` and longer runs of business days, which no repeat rule says.
        case businessDays
        /// todo.txt's priorities `(J)` to `(Z)`, read as the lowest, 9, which is `(I)`.
        case priorityAfterI
        /// A key of a JSON record that no field reads (a newer version's, another program's).
        case key(String)
        /// A JSON record's `"parent"` that is not in the file (exported with a filter): the todo
        /// is imported at the top level.
        case parentNotInFile
        /// A JSON record's `"depends"` naming a todo that is not in the file.
        case dependsNotInFile
        /// A JSON record's `"list"` that is no list's name (blank, a control character).
        case listName
        /// A JSON record's `"id"` that a todo of the database has or had (ids are never reused), or
        /// that another record of the file gave first: the todo gets a new id.
        case idNotFree
        /// A record whose UID an earlier record of the same file has: the first one is imported.
        case uidTwice
        /// A subtask link that would close a loop: the todo is imported at the top level.
        case parentLoop
        /// A dependency that would close a cycle: the todo is imported without it.
        case dependsLoop

        /// `2 deleted tasks`, `1 tag`, `2 priorities`; a field by its name and the number of todos
        /// that had it: `start: on 2 todos`, `t: after the due date on 1 todo`.
        public func describe(_ count: Int) -> String {
            let todos = "on \(count) \(count == 1 ? "todo" : "todos")"
            func things(_ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
            return switch self {
            case .deletedTask: things("deleted task", "deleted tasks")
            case .project: things("project", "projects")
            case .tag: things("tag", "tags")
            case .priority: things("priority", "priorities")
            case .annotation: things("annotation", "annotations")
            case .changedOccurrence:
                things("occurrence", "occurrences") + " with fields of \(count == 1 ? "its" : "their") own"
            case .dependsLoop: things("dependency", "dependencies") + " that would make a loop"
            case .uidTwice: things("record", "records") + " with a UID given twice in the file"
            default: "\(label) \(todos)" + (self == .parentLoop ? " (imported at the top level)" : "")
            }
        }

        /// What one of them is, for a line of `todo import --verbose`: `deleted task`, `wait:
        /// after the due date`.
        public var label: String {
            switch self {
            case .deletedTask: "deleted task"
            case .project: "project that names no project"
            case .tag: "tag that is no tag"
            case .priority: "priority other than H, M, L"
            case .annotation: "annotation without text"
            case .wait: "wait: after the due date"
            case .scheduled: "scheduled: after the due date"
            case .scheduledBesideWait: "scheduled: other than wait:"
            case .waitTime: "wait: time of day"
            case .scheduledTime: "scheduled: time of day"
            case .start: "start: (when work began)"
            case .until: "until:"
            case .untilTime: "until: time of day"
            case .end: "end: on a task not completed"
            case .depends: "depends: on a task not imported (deleted or not in the file)"
            case .recurShorterThanADay: "recur: in hours or minutes"
            case .recurOther: "recur: of another form"
            case .recurOfDeletedSeries: "recur: of a deleted series"
            case .changedOccurrence: "occurrence with fields of its own"
            case .threshold: "t: after the due date"
            case .businessDays: "rec: of 2 or more business days"
            case .priorityAfterI: "priority (J) to (Z), read as (I)"
            case .key(let key): "\"\(key)\""
            case .parentNotInFile: "parent not in the file"
            case .dependsNotInFile: "depends on a todo not in the file"
            case .listName: "list that is no list name"
            case .idNotFree: "id not free here (given a new one)"
            case .uidTwice: "UID given twice in the file"
            case .parentLoop: "a parent that would make a loop"
            case .dependsLoop: "a dependency that would make a loop"
            }
        }

        /// The summary's order: records, then fields as each format lists them, then links; keys
        /// by name.
        private var rank: (Int, String) {
            switch self {
            case .deletedTask: (0, "")
            case .project: (1, "")
            case .tag: (2, "")
            case .priority: (3, "")
            case .annotation: (4, "")
            case .wait: (5, "")
            case .scheduled: (6, "")
            case .scheduledBesideWait: (7, "")
            case .waitTime: (8, "")
            case .scheduledTime: (9, "")
            case .start: (10, "")
            case .until: (11, "")
            case .untilTime: (12, "")
            case .end: (13, "")
            case .depends: (14, "")
            case .recurShorterThanADay: (15, "")
            case .recurOther: (16, "")
            case .recurOfDeletedSeries: (17, "")
            case .changedOccurrence: (18, "")
            case .threshold: (19, "")
            case .businessDays: (20, "")
            case .priorityAfterI: (21, "")
            case .key(let key): (22, key)
            case .parentNotInFile: (23, "")
            case .dependsNotInFile: (24, "")
            case .listName: (25, "")
            case .idNotFree: (26, "")
            case .uidTwice: (27, "")
            case .parentLoop: (28, "")
            case .dependsLoop: (29, "")
            }
        }

        public static func < (lhs: NotKept, rhs: NotKept) -> Bool { lhs.rank < rhs.rank }
    }

    public init(todos: [ImportedTodo] = []) {
        self.todos = todos
    }

    /// Notes one more thing of `kind` that was not kept, found at `source` (`nil`: the source of
    /// no todo, such as the file as a whole).
    public mutating func drop(_ kind: NotKept, at source: ImportSource?) {
        counts[kind, default: 0] += 1
        dropped.append(Dropped(what: kind, source: source ?? ImportSource(location: .file)))
    }

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.todos == rhs.todos && lhs.uids == rhs.uids && lhs.history == rhs.history && lhs.counts == rhs.counts
            && lhs.lists == rhs.lists && lhs.parents == rhs.parents && lhs.dependencies == rhs.dependencies
            && lhs.ids == rhs.ids && lhs.sources == rhs.sources && lhs.dropped == rhs.dropped
            && lhs.fieldsNeverGiven == rhs.fieldsNeverGiven && lhs.fieldsNotGiven == rhs.fieldsNotGiven
    }
}

/// Where a todo (or a record that became none) was in the file it was imported from: what a line
/// of `todo import --verbose` names, as `record 12 (uuid 5f0c…) "Pay rent"`.
public struct ImportSource: Sendable, Hashable {
    /// The record (JSON) or line (todo.txt, iCalendar).
    public var location: ImportError.Location
    /// Its identity in the other tool, when it has one: a taskwarrior `uuid`, a UID.
    public var identity: String?
    /// The name it has there (a task's description, a SUMMARY), as read: not yet made safe for
    /// a terminal.
    public var name: String?

    public init(location: ImportError.Location, identity: String? = nil, name: String? = nil) {
        self.location = location
        self.identity = identity
        self.name = name
    }
}

/// One finished occurrence of a repeating todo, read from another tool's file: a row of the
/// todo's completion log (`TodoCompletion`) once the import has given the todo its id. History
/// from another tool is never pending: it is not this device's to send to a server.
public struct ImportedCompletion: Sendable, Hashable {
    /// The occurrence's date: the todo's deadline when it was the current one.
    public var occurrence: CalendarDate
    /// When it was done, if the file says.
    public var completedAt: UTCTimestamp?
    /// How the other tool finished it: `.advance` for a taskwarrior instance completed there,
    /// `.override` for an iCalendar RECURRENCE-ID component marked done, `.skip` for one
    /// cancelled.
    public var source: TodoCompletion.Source

    public init(occurrence: CalendarDate, completedAt: UTCTimestamp?, source: TodoCompletion.Source) {
        self.occurrence = occurrence
        self.completedAt = completedAt
        self.source = source
    }

    /// The log's row for the todo `id`.
    public func completion(ofTodo id: Int64) -> TodoCompletion {
        TodoCompletion(todoID: id, occurrence: occurrence, completedAt: completedAt, source: source, pending: false)
    }
}
