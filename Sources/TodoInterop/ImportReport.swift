import TodoStore

/// What an import read, and what it could not keep: the todos, the UIDs and completion history
/// the file gave them, and how many of each kind of field other tools have that our todos could
/// not take (a taskwarrior project or tag that is no tag, a `wait:` date after the due date, a
/// `recur:` in hours, a todo.txt `rec:2b`...), so that nothing disappears without a word.
public struct ImportReport: Sendable, Equatable {
    /// The todos, in file order.
    public var todos: [ImportedTodo]
    /// The UIDs the file gave its todos, by offset in ``todos``: todo's own JSON export carries
    /// each todo's UID when it has one, and a taskwarrior task its `uuid`, so an import can skip
    /// the todos it already holds.
    public var uids: [Int: String] = [:]
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
    /// Counts of what was read but not kept, in the order a person reads them, each non-zero.
    public var notKept: [(what: NotKept, count: Int)] {
        NotKept.allCases.compactMap { kind in counts[kind].map { (kind, $0) } }
    }

    private var counts: [NotKept: Int] = [:]

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
                    drop(.parentLoop)
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
                    drop(.dependsLoop)
                case nil:
                    state[other] = 1
                    path.append((other, 0))
                default:
                    break
                }
            }
        }
    }

    /// A kind of field an import drops.
    public enum NotKept: String, Sendable, CaseIterable {
        case project, tag, priority, annotation
        /// taskwarrior's `wait:` after the task's due date: a todo's start is before its
        /// deadline's day. (A wait on the due date itself is no separate start, and loses
        /// nothing.) This and the taskwarrior fields below are counted by todo.
        case wait
        /// taskwarrior's `scheduled:` after the due date, on a task without a `wait:`.
        case scheduled
        /// taskwarrior's `scheduled:` on another day than the task's `wait:`, which is the start.
        case scheduledBesideWait
        /// taskwarrior's `start:` on a completed task (when work began: a pending one is in
        /// progress), and `until:` on a task that does not repeat: todos have no such time or
        /// expiry. `depends:` naming a task that is not imported (deleted, or not in the file):
        /// a todo waits for a todo here.
        case start, until, depends
        /// A taskwarrior `recur:` in hours or minutes: the todo is imported without repeating.
        case recurShorterThanADay
        /// A taskwarrior `recur:` of no form read here (`P1DT12H`).
        case recurOther
        /// todo.txt's `t:` (threshold, the start date) after the `due:` date.
        case threshold
        /// todo.txt's `rec:2b` and longer runs of business days, which no repeat rule says.
        case businessDays
        /// A subtask link that would close a loop: the todo is imported at the top level.
        case parentLoop
        /// A dependency that would close a cycle: the todo is imported without it.
        case dependsLoop

        /// `2 projects`, `1 tag`, `2 priorities`; a field by its name and the number of todos
        /// that had it: `start: on 2 todos`, `t: after the due date on 1 todo`.
        public func describe(_ count: Int) -> String {
            let todos = "on \(count) \(count == 1 ? "todo" : "todos")"
            return switch self {
            case .project, .tag, .priority, .annotation: "\(count) \(count == 1 ? rawValue : plural)"
            case .wait, .scheduled: "\(rawValue): after the due date \(todos)"
            case .scheduledBesideWait: "scheduled: other than wait: \(todos)"
            case .start, .until: "\(rawValue): \(todos)"
            case .depends: "depends: on a task not imported (deleted or not in the file) \(todos)"
            case .recurShorterThanADay: "recur: in hours or minutes \(todos)"
            case .recurOther: "recur: of another form \(todos)"
            case .threshold: "t: after the due date \(todos)"
            case .businessDays: "rec: of 2 or more business days \(todos)"
            case .parentLoop: "a parent that would make a loop \(todos) (imported at the top level)"
            case .dependsLoop: "\(count) \(count == 1 ? "dependency" : "dependencies") that would make a loop"
            }
        }

        /// The kind's plural, as English spells it.
        var plural: String {
            switch self {
            case .priority: "priorities"
            default: rawValue + "s"
            }
        }
    }

    public init(todos: [ImportedTodo] = []) {
        self.todos = todos
    }

    /// Notes `count` more fields of `kind` that were not kept.
    mutating func drop(_ kind: NotKept, count: Int = 1) {
        guard count > 0 else { return }
        counts[kind, default: 0] += count
    }

    public static func == (lhs: ImportReport, rhs: ImportReport) -> Bool {
        lhs.todos == rhs.todos && lhs.uids == rhs.uids && lhs.history == rhs.history && lhs.counts == rhs.counts
            && lhs.lists == rhs.lists && lhs.parents == rhs.parents && lhs.dependencies == rhs.dependencies
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
