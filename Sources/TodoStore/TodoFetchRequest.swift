import SQLite

/// What to fetch from the todo list, and in which order: a value, so it can be stored,
/// compared and sent across threads.
public struct TodoFetchRequest: Hashable, Sendable {
    /// The list order (`todo list --sort`, the `s` key of `todo ui`). Every order ends with `id`, so it is total
    /// and stable: equal keys never swap between two fetches.
    public enum Order: String, CaseIterable, Sendable {
        /// Deadline ascending, undated last, then id.
        case due
        /// Name, ignoring case (ASCII letters: SQLite's NOCASE), then id.
        case name
        /// Undone first, then deadline (undated last), then id.
        case status
        /// Priority, the highest first and none last, then deadline (undated last), then id.
        case priority
    }

    /// Which todos to include, by done state.
    public enum DoneFilter: String, CaseIterable, Sendable {
        case all, done, undone
    }

    /// The order of the results.
    public var order: Order
    /// Which todos to include.
    public var filter: DoneFilter
    /// Only todos whose name, tags or note contain every one of these texts, ignoring case in
    /// every script (none: all), so each term narrows the list (`todo list --search milk --search
    /// +shop`). ``TodoSearch/matches(_:foldedNeedle:)`` is the rule.
    public var searches: [String]
    /// The one search text of a caller that has one (`todo ui`'s filter): the first of
    /// ``searches``, `nil` when there is none. Setting it replaces every term.
    public var search: String? {
        get { searches.first }
        set { searches = newValue.map { [$0] } ?? [] }
    }
    /// Only todos due before this day (a deadline strictly earlier; undated todos never match).
    public var dueBefore: CalendarDate?
    /// Only todos due after this day (a deadline strictly later; undated todos never match).
    public var dueAfter: CalendarDate?
    /// Only todos that have started by this day: done, or without a start date, or starting on
    /// or before it (`todo list` hides the others until their day; `nil`: no such condition).
    public var startedBy: CalendarDate?
    /// Only todos not done that start after this day: those waiting to start (`todo list
    /// --waiting`; `nil`: no such condition). Where both are set, none matches.
    public var startsAfter: CalendarDate?
    /// Only todos with every one of these tags (none: all), matched by their case-folded word
    /// (`todo list --tag work --tag home`).
    public var tags: [TodoTag] = []
    /// Only todos with at least one of these tags (none: all), matched as ``tags`` are (`todo
    /// list --any-tag work --any-tag home`).
    public var anyTags: [TodoTag] = []
    /// Only todos with none of these tags (none: all), matched as ``tags`` are (`todo list
    /// --no-tag someday`).
    public var excludedTags: [TodoTag] = []
    /// Only todos completed after this day, on ``timeZone``'s calendar: completed (not cancelled,
    /// which is never completed), at an instant after the day ended (`todo list
    /// --completed-after 2024-05-01`). Todos without a completed time never match.
    public var completedAfter: CalendarDate?
    /// Only todos completed before this day began, on ``timeZone``'s calendar.
    public var completedBefore: CalendarDate?
    /// Only todos created after this day, on ``timeZone``'s calendar (todos without a created
    /// time never match).
    public var createdAfter: CalendarDate?
    /// Only todos created before this day began, on ``timeZone``'s calendar.
    public var createdBefore: CalendarDate?
    /// The calendar the completed and created days are read on: the local one unless a caller
    /// says otherwise. The days are compared as `dueBefore` and `dueAfter` compare deadlines
    /// (strictly), though the columns hold UTC instants: each bound becomes the instant its day
    /// begins or ends on this clock, so the comparison is one of stored text and an index could
    /// serve it.
    public var timeZone: LocalTimeZone = .system
    /// Only todos whose priority is in one of these ranges of values (none: all): ``TodoPriority/Level/values``
    /// for a class, `0...0` for todos without one.
    public var priorities: [ClosedRange<Int>] = []
    /// Only todos in one of these lists, by id (none: every list), as `todo list --list Work
    /// --list Home` asks.
    public var lists: [Int64] = []
    /// Only todos in one of these projects or inside one of them (none: all), matched by their
    /// case-folded paths (``TodoProject/isWithin(_:)``: `todo list --project Work` takes
    /// `Work.ClientA` too).
    public var projects: [TodoProject] = []
    /// Only todos in one of these states (none: any), as `todo list --status in-process
    /// --status needs-action` asks.
    public var statuses: [TodoStatus] = []
    /// Only blocked todos (`true`: not done, waiting for a todo not done, as
    /// ``TodoRepository/isBlocked(_:)`` says), or only the todos not done that are not blocked
    /// (`false`: those that can be done now), as `todo list --blocked` and `--unblocked` ask;
    /// `nil`: no such condition.
    public var blocked: Bool?
    /// At most this many todos (`nil`: no limit).
    public var limit: Int?
    /// Skip this many todos first.
    public var offset: Int

    /// Creates a request; the defaults fetch every todo in deadline order.
    public init(
        order: Order = .due, filter: DoneFilter = .all, search: String? = nil,
        dueBefore: CalendarDate? = nil, dueAfter: CalendarDate? = nil,
        limit: Int? = nil, offset: Int = 0
    ) {
        self.order = order
        self.filter = filter
        self.searches = search.map { [$0] } ?? []
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        self.limit = limit
        self.offset = offset
    }

    /// The todos not done that start after `today`, in the list's order: those waiting to start.
    public static func waiting(after today: CalendarDate) -> TodoFetchRequest {
        var request = TodoFetchRequest()
        request.startsAfter = today
        return request
    }

    /// The SELECT for this request. Its parameters: ``filterArguments`` (the `dueBefore`,
    /// `dueAfter`, `startedBy` and `startsAfter` days when set, each folded search text twice, each tag's folded word, and
    /// each priority range's bounds), then the limit and the offset (``arguments`` binds them
    /// all).
    ///
    /// Few distinct texts exist (orders x filters x which of the deadline bounds are set x how
    /// many search terms, tags and priority ranges), so each is prepared once and cached.
    var sql: String { sql(selecting: TodoColumns.list) }

    /// ``sql`` selecting `columns` (a key read's, ``TodoKeyColumns``) instead of every column.
    func sql(selecting columns: String) -> String {
        "SELECT \(columns) FROM todos" + whereClause + orderBy + " LIMIT ? OFFSET ?"
    }

    /// ``sql`` reading what the subtask tree needs of each todo (``TodoOutline/Node``): its id,
    /// its parent's and its list's, in the same order, with the same parameters.
    var treeSQL: String {
        "SELECT id, parent_id, list_id FROM todos" + whereClause + orderBy + " LIMIT ? OFFSET ?"
    }

    /// ` ORDER BY ...` for ``order``.
    private var orderBy: String { " ORDER BY " + orderTerms.joined(separator: ", ") }

    /// The terms ``order`` sorts by, each an expression on the `todos` columns, ascending: the
    /// flat list's ORDER BY and the subtask tree's sibling order (``outlineSQL``) alike.
    var orderTerms: [String] {
        switch order {
        case .due: ["deadline IS NULL", "deadline", "id"]
        case .name: ["name COLLATE NOCASE", "id"]
        // `done + 0`: the expression migration 0021 indexes, so that this order reads that
        // index and no `done = ?` filter does (see the migration).
        case .status: ["done + 0", "deadline IS NULL", "deadline", "id"]
        case .priority: ["priority = 0", "priority", "deadline IS NULL", "deadline", "id"]
        }
    }

    /// The SELECT of the todos after one in this request's order (keyset pagination): the
    /// request's filter and search, then `key` (the ordering columns of the todo after which to
    /// start, ``Order/keyColumns``, as stored) compared as the `ORDER BY` compares them; at most
    /// `limit` todos (-1: no limit), no offset. The SQL and its arguments, in order.
    func sql(after key: [StoredValue], limit: Int, selecting columns: String = TodoColumns.list)
        -> (sql: String, arguments: [any SQLiteBindable])
    {
        var arguments = filterArguments
        // A deadline comparison that also holds for undated todos, which sort last.
        func afterDeadline(_ deadline: StoredValue, id: StoredValue) -> String {
            if deadline.isNull {
                arguments.append(id)
                return "(deadline IS NULL AND id > ?)"
            }
            arguments += [deadline, deadline, id] as [any SQLiteBindable]
            return "(deadline IS NULL OR deadline > ? OR (deadline = ? AND id > ?))"
        }
        let after: String
        switch order {
        case .due:
            after = afterDeadline(key[0], id: key[1])
        case .name:
            arguments += [key[0], key[0], key[1]] as [any SQLiteBindable]
            after = "(name COLLATE NOCASE > ? OR (name COLLATE NOCASE = ? AND id > ?))"
        case .status:
            arguments += [key[0], key[0]] as [any SQLiteBindable]
            after = "(done > ? OR (done = ? AND \(afterDeadline(key[1], id: key[2]))))"
        case .priority:
            // None (0) sorts after every priority: after a todo with none come only others with none.
            if key[0].integer == 0 {
                after = "(priority = 0 AND \(afterDeadline(key[1], id: key[2])))"
            } else {
                arguments += [key[0], key[0]] as [any SQLiteBindable]
                after = "(priority = 0 OR priority > ? OR (priority = ? AND \(afterDeadline(key[1], id: key[2]))))"
            }
        }
        arguments.append(Int64(limit))
        let sql =
            "SELECT \(columns) FROM todos WHERE " + (conditions + [after]).joined(separator: " AND ")
            + orderBy + " LIMIT ?"
        return (sql, arguments)
    }

    /// The values for ``sql``'s parameters, in order.
    var arguments: [any SQLiteBindable] {
        let paging: [any SQLiteBindable] = [Int64(limit ?? -1), Int64(offset)]
        return filterArguments + paging
    }

    /// The SELECT of the largest id among the todos this request selects, NULL for none, and its
    /// arguments. Without a limit or an offset, the order does not matter and is left out.
    var maxIDSQL: (sql: String, arguments: [any SQLiteBindable]) {
        guard limit != nil || offset != 0 else { return ("SELECT max(id) FROM todos" + whereClause, filterArguments) }
        return ("SELECT max(id) FROM (SELECT id FROM todos" + whereClause + orderBy + " LIMIT ? OFFSET ?)", arguments)
    }

    /// The SELECT counting the todos ``conditions`` select. Parameters: ``filterArguments``.
    var countSQL: String { "SELECT count(*) FROM todos" + whereClause }

    /// The SELECT of whether any todo ``conditions`` select has a time of day (1 or 0).
    /// Parameters: ``filterArguments``. Migration 0012's partial index holds the todos with a
    /// time alone, so the answer costs those todos, not the list.
    var hasDueTimesSQL: String {
        "SELECT EXISTS (SELECT 1 FROM todos WHERE " + (["due_time IS NOT NULL"] + conditions).joined(separator: " AND ")
            + ")"
    }

    /// The values for the parameters of the deadline bounds, start bounds, completed and created
    /// bounds, search terms, tags (every, any, none), priority ranges, lists and projects, in
    /// ``conditions`` order.
    var filterArguments: [any SQLiteBindable] {
        var arguments: [any SQLiteBindable] = []
        if let dueBefore { arguments.append(dueBefore) }
        if let dueAfter { arguments.append(dueAfter) }
        if let startedBy { arguments.append(startedBy) }
        if let startsAfter { arguments.append(startsAfter) }
        arguments += instantBounds.map(\.instant)
        // Each term three times: for the name, the tags and the note (see ``conditions``).
        arguments += searches.flatMap { term in
            let folded = TodoSearch.fold(term)
            return [folded, folded, folded]
        }
        arguments += tags.map(\.folded)
        arguments += anyTags.map(\.folded)
        arguments += excludedTags.map(\.folded)
        for range in priorities { arguments += [Int64(range.lowerBound), Int64(range.upperBound)] }
        arguments += lists.map { $0 as any SQLiteBindable }
        arguments += projects.map(\.folded)
        return arguments
    }

    /// The WHERE term of the todos in `status`.
    private static func condition(_ status: TodoStatus) -> String {
        switch status {
        case .needsAction: "(done = 0 AND status IS NOT 'in-process')"
        case .inProcess: "(done = 0 AND status = 'in-process')"
        case .completed: "(done = 1 AND status IS NOT 'cancelled')"
        case .cancelled: "(done = 1 AND status = 'cancelled')"
        }
    }

    /// ` WHERE ...` for ``conditions``, or nothing.
    private var whereClause: String {
        let conditions = self.conditions
        return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// The SELECT of the one todo with a given id, when the request's filter, deadline and start
    /// bounds, search, tags and priorities select it. Parameters: the id, then ``filterArguments``.
    var sqlForOneID: String { sqlForOneID(selecting: TodoColumns.list) }

    /// ``sqlForOneID`` selecting `columns` instead of every column.
    func sqlForOneID(selecting columns: String) -> String {
        (["SELECT \(columns) FROM todos WHERE id = ?"] + conditions).joined(separator: " AND ")
    }

    /// The WHERE terms of the filter, the deadline bounds, the start bounds, the completed and
    /// created bounds, the search, the tags (every, any, none), the priorities, the lists, the
    /// states, the blocked state and the projects, in parameter order
    /// (``filterArguments`` binds them; the states and the blocked state take none).
    private var conditions: [String] { conditions(of: "todos") }

    /// ``conditions`` on the rows of `table`, a name or alias of `todos` in the statement: the
    /// terms name their columns bare, which SQLite resolves in the innermost FROM first, and only
    /// the blocked state's subquery names the table.
    func conditions(of table: String) -> [String] {
        var conditions: [String] = []
        switch filter {
        case .all: break
        case .done: conditions.append("done = 1")
        case .undone: conditions.append("done = 0")
        }
        // Deadlines are 'YYYY-MM-DD' text, so text order is day order; NULL never compares true.
        if dueBefore != nil { conditions.append("deadline < ?") }
        if dueAfter != nil { conditions.append("deadline > ?") }
        // Start dates are 'YYYY-MM-DD' text too. A done todo waits for nothing. `start_date > ?`
        // lets SQLite count the waiting todos from migration 0012's partial index.
        if startedBy != nil { conditions.append("(done = 1 OR start_date IS NULL OR start_date <= ?)") }
        if startsAfter != nil { conditions.append("done = 0 AND start_date > ?") }
        conditions += instantBounds.map(\.condition)
        // A term matches the name, the tags or the note (TodoSearch.matches(_:foldedNeedle:) in
        // memory); most todos have no tags and no note, and `tags <> ''` and `note IS NOT NULL`
        // spare them a call of the function.
        let function = TodoSearch.sqlFunction
        let search =
            "(\(function)(name, ?) OR (tags <> '' AND \(function)(tags, ?))"
            + " OR (note IS NOT NULL AND \(function)(note, ?)))"
        conditions += searches.map { _ in search }
        conditions += tags.map { _ in "\(TodoSearch.tagFunction)(tags, ?)" }
        if !anyTags.isEmpty {
            conditions.append(
                "(" + anyTags.map { _ in "\(TodoSearch.tagFunction)(tags, ?)" }.joined(separator: " OR ") + ")")
        }
        conditions += excludedTags.map { _ in "NOT \(TodoSearch.tagFunction)(tags, ?)" }
        if !priorities.isEmpty {
            conditions.append("(" + priorities.map { _ in "priority BETWEEN ? AND ?" }.joined(separator: " OR ") + ")")
        }
        if !lists.isEmpty {
            conditions.append("list_id IN (" + lists.map { _ in "?" }.joined(separator: ", ") + ")")
        }
        // A state is both columns, read as TodoStatus reads them: done decides, and the status
        // column tells its two states apart. No parameters.
        if !statuses.isEmpty {
            conditions.append("(" + statuses.map(Self.condition).joined(separator: " OR ") + ")")
        }
        // No parameters either. Most files have no links: the EXISTS costs a look at an empty index.
        switch blocked {
        case true?: conditions.append(Self.blockedCondition(of: table))
        case false?: conditions.append("(done = 0 AND NOT \(Self.blockedCondition(of: table)))")
        case nil: break
        }
        if !projects.isEmpty {
            // Most todos have no project: `project IS NOT NULL` spares them a call of the function.
            let any = projects.map { _ in "\(TodoSearch.projectFunction)(project, ?)" }.joined(separator: " OR ")
            conditions.append("(project IS NOT NULL AND (" + any + "))")
        }
        return conditions
    }

    /// Whether no condition but ``startedBy`` narrows the request: it selects every todo, or
    /// every todo that has started. (Its order, limit and offset aside.) What a caller that may
    /// count the table instead of the request asks (`todo ui`'s first screen).
    public var hasNoConditionButStart: Bool {
        var others = self
        others.startedBy = nil
        return others.conditions.isEmpty
    }

    /// The completed and created bounds that are set, each as its WHERE term and the instant it
    /// compares with (`YYYY-MM-DDTHH:MM:SSZ`, as the columns hold them), in ``conditions``
    /// order.
    ///
    /// A day's bounds are the instants its first second begins and its next day's first second
    /// begins on ``timeZone``'s clock: completed after May 1 is completed at or after May 2,
    /// 00:00 local; before May 1, before May 1, 00:00 local. A bound past the calendar (after
    /// 9999-12-31) is one no stored time reaches.
    private var instantBounds: [(condition: String, instant: String)] {
        // Completed is read only for a completed todo (TodoColumns): a cancelled one, or one
        // another program marked undone, has none, whatever its column says.
        let completed = "done = 1 AND status IS NOT 'cancelled' AND completed"
        let bounds: [(CalendarDate?, String, Bool)] = [
            (completedAfter, completed + " >= ?", true), (completedBefore, completed + " < ?", false),
            (createdAfter, "created >= ?", true), (createdBefore, "created < ?", false)
        ]
        return bounds.compactMap { day, condition, after in
            guard let day else { return nil }
            return ("(" + condition + ")", Self.instant(startOf: after ? day.adding(days: 1) : day, on: timeZone))
        }
    }

    /// The stored form of the instant `day` begins on `zone`'s clock; for no day (past
    /// 9999-12-31) or an instant the clock cannot give, a text after every stored one.
    static func instant(startOf day: CalendarDate?, on zone: LocalTimeZone) -> String {
        zone.prepare()
        guard let day, let seconds = zone.epochSeconds(atSecond: 0, of: day) else { return "~" }
        return UTCTimestamp(secondsSince1970: seconds).description
    }
}
