import TodoStore

/// Reads the output of taskwarrior's `task export`: a JSON array of tasks, or one task per line
/// (`task export rc.json.array=off`).
///
/// - `description` is the name (required, not blank).
/// - `due`, a UTC instant like `20240501T000000Z`, becomes the calendar date at that instant in
///   the given ``LocalTimeZone``: taskwarrior stores `due:2024-05-01` typed in Tokyo as
///   `20240430T150000Z`, which is 2024-05-01 again in Tokyo. Absent (or `null`): no deadline.
///   Its time of day there, unless it is midnight (what a due date without a time is), is the
///   due time, floating (``TodoDueTime/wall(secondOfDay:zone:)`` without a zone): typed as
///   `due:2024-05-01T18:30`, it is 18:30 on the clock of whoever reads it, as taskwarrior
///   shows it in the zone it runs in.
/// - `wait` (hidden until then: what a todo's start means) is the start, its local date as
///   `due`'s; without it, `scheduled` ("the earliest date work can start"), and a `scheduled`
///   on another day than `wait` is counted as not kept. A start on the due date is no separate
///   start (the day is the deadline's); one after it has no place and is counted. A start is a
///   day: the time of day of the `wait` or `scheduled` it came from, unless midnight, is counted.
/// - `status`: `pending` and `waiting` are not done, `completed` is done, `deleted` tasks are
///   not kept and counted (deleted there, not cancelled: a cancelled todo would bring back what
///   the user deleted); any other status is an error naming the record. A pending task with a
///   `start` (active: `task start`, until `task stop`) is in progress; the time in `start` is
///   counted, on any task.
/// - A recurring task is a template (`status:recurring`, with `recur`, `due`, `until`, `mask`)
///   and its instances (`parent` naming the template's `uuid`, `imask` its place in the series).
///   Together they are one repeating todo, at the template's place in the file: `recur` is its
///   rule (``RepeatPeriod/taskwarrior(_:)``; in hours or minutes it does not repeat, and the
///   report says so), `until` the rule's UNTIL (its local date), its deadline the due date of
///   the earliest pending instance, and each completed instance a finished occurrence in its
///   history (deleted ones are counted). taskwarrior makes the next instance only when its date
///   comes: with none pending, the deadline is the last occurrence done (the importer moves it
///   on to the next, with the recurrence engine), else the template's due date. The start
///   keeps its distance from the deadline, as taskwarrior gives each instance the template's
///   `wait` moved by as much as its `due`: the earliest pending instance's own start, else the
///   template's moved to the deadline. Instances of one parent with the same `imask` are one
///   occurrence: taskwarrior replicas that each generate instances duplicate them. Instances
///   without their template in the file are put together the same way; those of a deleted
///   template (a series deleted there) import each as the task it is, their `recur` and `until`
///   counted. An instance whose description, tags, project, priority, annotations or attributes
///   are not its template's is counted: the series is one todo, with the template's.
/// - `priority` H, M, L is high, medium, low (1, 5, 9). `project` is the project (`Home.Garden`:
///   `Garden` inside `Home`, ``TodoProject``), apart from the tags; each of `tags` is a `+` tag; `annotations` become the note, one line each
///   (`YYYY-MM-DD HH:MM description`, the local date and time of its `entry`), and after them
///   each user-defined attribute (any key taskwarrior does not define, ``attributes``) a line
///   `key: value`, by key (a date attribute as its local date, and time unless midnight).
///   `entry` is the created time and, for a completed task, `end` the completed time (on
///   another task it is counted). `uuid` is the todo's UID, so that importing the same export
///   again finds the todos it made. `depends` (an array of uuids; taskwarrior 2.5 wrote them as
///   one comma-separated string) says what the todo waits for: each task of the file it names,
///   an instance standing for its series' todo (``ImportReport/dependencies``).
/// - What still has no place is counted in the ``ImportReport``, with the record it was in, so
///   the user is told: a deleted task; a tag that is not one word, a project that names none, an unknown
///   priority, an annotation without text; a `wait` or `scheduled` after the due date, a
///   `scheduled` beside a `wait` of another day, their times of day; `start`; `until` on a task
///   that does not repeat, and its time of day on one that does; `end` on a task not completed;
///   a `recur` that is no rule; an instance with fields of its own; a `depends` uuid of a task
///   not imported (deleted, or not in the file). The rest (`id`, `urgency`, `modified`, a
///   series' `mask`, `imask`, `parent`, `rtype`) is bookkeeping, derived from what is read.
enum TaskwarriorReader {
    /// One task of the file, read and checked, before the series are put together.
    private struct Task {
        enum Status { case pending, completed, recurring }

        var todo: ImportedTodo
        var status: Status
        /// Where it is in the file, for `--verbose`.
        var source: ImportSource
        /// What it held that todos cannot keep: counted only for the tasks that become todos.
        var notKept: [ImportReport.NotKept]
        var uuid: String?
        var parent: String?
        var imask: Int?
        var recur: String?
        var until: CalendarDate?
        /// Whether `until` was at another time than local midnight (a repeat ends on a day).
        var untilHasTime = false
        var end: UTCTimestamp?
        /// The uuids of the tasks it depends on (`depends`), in order.
        var depends: [String] = []

        /// Whether it says what `other` says but for what each occurrence has of its own (its
        /// dates, state and times): the name, priority, tags, note (annotations, attributes) and
        /// any other field an instance copies from its template.
        func sameFields(as other: Task) -> Bool {
            var mine = todo
            mine.deadline = other.todo.deadline
            mine.dueTime = other.todo.dueTime
            mine.start = other.todo.start
            mine.status = other.todo.status
            mine.completed = other.todo.completed
            mine.created = other.todo.created
            mine.percent = other.todo.percent
            return mine == other.todo
        }
    }

    /// A template and its instances, by their places in the file.
    private struct Series {
        var template: Int?
        var instances: [Int] = []
        var uuid: String?
    }

    /// Fields that are counted once per todo, whichever of a series' tasks holds them.
    private static let perTodoFields: [ImportReport.NotKept] = [
        .wait, .scheduled, .scheduledBesideWait, .waitTime, .scheduledTime, .start, .end
    ]

    /// The attributes taskwarrior itself defines (2.6, and 3's `template` and `last`): every other
    /// key of a task is a user-defined attribute (UDA), kept as a `key: value` line of the note.
    /// Those read nowhere else are bookkeeping, derived from the rest: `id` (the working-set
    /// number, renumbered as tasks come and go), `urgency` (computed), `modified` (the time of
    /// the last change), and a series' `mask`, `imask`, `parent`, `rtype`, `template`, `last`
    /// (read to put a series together).
    static let attributes: Set<String> = [
        "id", "uuid", "description", "status", "entry", "modified", "start", "end", "due", "until", "wait",
        "scheduled", "recur", "mask", "imask", "parent", "project", "priority", "tags", "annotations", "depends",
        "urgency", "rtype", "template", "last"
    ]

    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, timeZone: LocalTimeZone) throws(ImportError) -> ImportReport
    {
        let records = try self.records(buffer)
        timeZone.prepare()
        var tasks: [Task?] = []
        tasks.reserveCapacity(records.count)
        var deletedTemplates = Set<String>()
        var report = ImportReport()
        for (offset, record) in records.enumerated() {
            let task = try self.task(record, location: .record(offset + 1), timeZone: timeZone)
            if task == nil {
                // Deleted there: counted, never brought back.
                var uuid: String?
                if case .string(let text)? = record["uuid"], !text.isEmpty { uuid = text }
                var name: String?
                if case .string(let text)? = record["description"] { name = text }
                report.drop(
                    .deletedTask, at: ImportSource(location: .record(offset + 1), identity: uuid, name: name))
                if let uuid, record["parent"] == nil, record["recur"] != nil { deletedTemplates.insert(uuid) }
            }
            tasks.append(task)
        }
        // Each template, and the instances of each parent not deleted, as one series.
        var series: [Series] = []
        var seriesOf: [Int: Int] = [:]
        var seriesByUUID: [String: Int] = [:]
        for (index, task) in tasks.enumerated() {
            guard let task else { continue }
            let key: String
            if task.status == .recurring {
                guard let uuid = task.uuid else {
                    seriesOf[index] = series.count
                    series.append(Series(template: index))
                    continue
                }
                key = uuid
            } else if let parent = task.parent, !deletedTemplates.contains(parent) {
                key = parent
            } else {
                continue
            }
            let number = seriesByUUID[key] ?? series.count
            if number == series.count {
                series.append(Series(uuid: key))
                seriesByUUID[key] = number
            }
            seriesOf[index] = number
            if task.status == .recurring {
                // A second template of the same uuid is the same series (a replica's copy).
                if series[number].template == nil { series[number].template = index }
            } else {
                series[number].instances.append(index)
            }
        }
        report.todos.reserveCapacity(records.count)
        report.sources.reserveCapacity(records.count)
        // Taskwarrior has no percent: an update keeps the todo's own.
        report.fieldsNeverGiven = ["percent"]
        // The todo each task became, by its uuid (a series' instances are its todo), and the
        // uuids each todo depends on.
        var offsetsByUUID: [String: Int] = [:]
        var depends: [Int: [String]] = [:]
        for (index, task) in tasks.enumerated() {
            guard let task else { continue }
            guard let number = seriesOf[index] else {
                if let uuid = task.uuid { report.uids[report.todos.count] = uuid }
                if let uuid = task.uuid, offsetsByUUID[uuid] == nil { offsetsByUUID[uuid] = report.todos.count }
                if !task.depends.isEmpty { depends[report.todos.count] = task.depends }
                for kind in task.notKept { report.drop(kind, at: task.source) }
                if task.parent != nil {
                    // An instance of a series deleted there: the task it is, which repeats no more.
                    if task.recur != nil { report.drop(.recurOfDeletedSeries, at: task.source) }
                    if task.until != nil { report.drop(.until, at: task.source) }
                }
                report.todos.append(task.todo)
                report.sources.append(task.source)
                continue
            }
            let group = series[number]
            // A series goes where its template is, else where its first instance is.
            guard index == group.template ?? group.instances.first else { continue }
            let (todo, history, notKept, base) = self.series(group, tasks: tasks)
            var source = base?.source ?? ImportSource(location: .record(index + 1))
            if let uuid = group.uuid {
                report.uids[report.todos.count] = uuid
                source.identity = uuid
            }
            let members = ([group.template].compactMap { $0 } + group.instances).compactMap { tasks[$0] }
            for uuid in ([group.uuid] + members.map(\.uuid)).compactMap({ $0 }) where offsetsByUUID[uuid] == nil {
                offsetsByUUID[uuid] = report.todos.count
            }
            let memberDepends = members.flatMap(\.depends)
            if !memberDepends.isEmpty { depends[report.todos.count] = memberDepends }
            if !history.isEmpty { report.history[report.todos.count] = history }
            for kind in notKept { report.drop(kind, at: source) }
            report.todos.append(todo)
            report.sources.append(source)
        }
        // `depends` names tasks by uuid, anywhere in the file: each one imported is a link; one
        // that is not (deleted, or not exported) is counted, once per todo.
        for (offset, uuids) in depends.sorted(by: { $0.key < $1.key }) {
            var links: [Int] = []
            var missing = false
            for uuid in uuids {
                guard let other = offsetsByUUID[uuid] else {
                    missing = true
                    continue
                }
                if other != offset, !links.contains(other) { links.append(other) }
            }
            if missing { report.drop(.depends, at: report.source(of: offset)) }
            if !links.isEmpty { report.dependencies[offset] = links }
        }
        report.dropDependencyLoops()
        return report
    }

    /// The one repeating todo of a template and its instances, its history, and what it cannot
    /// keep.
    private static func series(_ group: Series, tasks: [Task?]) -> (
        ImportedTodo, [ImportedCompletion], [ImportReport.NotKept], base: Task?
    ) {
        let template = group.template.flatMap { tasks[$0] }
        // One task per occurrence: duplicates (same imask, else the same due) are one, done if
        // any copy was done.
        var occurrences: [String: Task] = [:]
        var order: [String] = []
        for index in group.instances {
            guard let task = tasks[index] else { continue }
            let key = task.imask.map { "i\($0)" } ?? task.todo.deadline.map { "d\($0)" } ?? "r\(index)"
            if let seen = occurrences[key] {
                if seen.status != .completed, task.status == .completed { occurrences[key] = task }
            } else {
                occurrences[key] = task
                order.append(key)
            }
        }
        let instances = order.compactMap { occurrences[$0] }
        let pending = instances.filter { $0.status == .pending }
        let completed = instances.filter { $0.status == .completed }
        // The earliest due date first; an instance without one last.
        let earliestPending = pending.min { first, second in
            guard let one = first.todo.deadline else { return false }
            return second.todo.deadline.map { one < $0 } ?? true
        }
        guard let base = template ?? earliestPending ?? instances.first else {
            return (ImportedTodo(name: ""), [], [], nil)
        }
        var todo = base.todo
        todo.isDone = false
        todo.completed = nil

        var notKept = base.notKept
        for kind in perTodoFields where !notKept.contains(kind) {
            if ([template].compactMap { $0 } + pending).contains(where: { $0.notKept.contains(kind) }) {
                notKept.append(kind)
            }
        }
        // An occurrence whose own fields are not its series' (annotated, retagged, renamed there):
        // the series is one todo, with the template's.
        if let template {
            for instance in instances where !instance.sameFields(as: template) {
                notKept.append(.changedOccurrence)
            }
        }
        let recur = template?.recur ?? instances.lazy.compactMap(\.recur).first
        let until = template?.until ?? instances.lazy.compactMap(\.until).first

        if let recur {
            switch RepeatPeriod.taskwarrior(recur) {
            case .period(let period):
                // The series' first due date gives the day of the month a monthly rule keeps.
                let anchor = template?.todo.deadline ?? instances.compactMap(\.todo.deadline).min() ?? todo.deadline
                todo.repeatRule = period.rule(anchor: anchor, until: until)
            case .shorterThanADay:
                notKept.append(.recurShorterThanADay)
            case .other:
                notKept.append(.recurOther)
            }
        }
        if todo.repeatRule == nil, until != nil {
            notKept.append(.until)
        } else if until != nil, template?.untilHasTime ?? instances.contains(where: \.untilHasTime) {
            notKept.append(.untilTime)
        }
        var history: [ImportedCompletion] = []
        for task in completed {
            guard let occurrence = task.todo.deadline, !history.contains(where: { $0.occurrence == occurrence }) else {
                continue
            }
            history.append(ImportedCompletion(occurrence: occurrence, completedAt: task.end, source: .advance))
        }
        history.sort { $0.occurrence < $1.occurrence }
        // With no instance pending, the series stands at the last occurrence done, which the
        // importer moves on from. The start moves with the deadline, as taskwarrior moves the
        // template's wait to each instance it makes.
        let deadline =
            earliestPending?.todo.deadline ?? history.last?.occurrence ?? template?.todo.deadline
            ?? base.todo.deadline
        todo.moveDeadline(to: deadline)
        // The current occurrence's own time and start, when its instance is in the file: what
        // taskwarrior shows now, edited there or not.
        if let current = earliestPending, current.todo.deadline == deadline {
            todo.dueTime = current.todo.dueTime
            if let start = current.todo.start { todo.start = start }
            todo.status = current.todo.status
        }
        return (todo, history, notKept, base)
    }

    /// One record as a task; `nil` for a deleted one, whatever else it holds.
    private static func task(_ record: JSONValue, location: ImportError.Location, timeZone: LocalTimeZone)
        throws(ImportError) -> Task?
    {
        guard case .object(let task) = record else {
            throw ImportError(location, "expected a task object, found \(record.kindDescription)")
        }
        let status: Task.Status
        switch task["status"] {
        case nil:
            throw ImportError(location, "\"status\" is missing")
        case .string(let text)?:
            switch text {
            case "pending", "waiting": status = .pending
            case "completed": status = .completed
            case "recurring": status = .recurring
            case "deleted": return nil
            default:
                throw ImportError(
                    location,
                    "unknown status \"\(text)\" (expected pending, waiting, recurring, completed or deleted)")
            }
        case let other?:
            throw ImportError(location, "\"status\" must be a string, found \(other.kindDescription)")
        }
        let name = try JSONFields.name(task, key: "description", location: location)
        var uuid: String?
        if case .string(let text)? = task["uuid"], !text.isEmpty { uuid = text }
        let source = ImportSource(location: location, identity: uuid, name: name)
        let due = try wallTime(task, key: "due", timeZone: timeZone, location: location)
        var todo = ImportedTodo(name: name, deadline: due?.date, isDone: status == .completed)
        // Local midnight is how taskwarrior stores a due date typed without a time.
        if let second = due?.secondOfDay, second != 0 { todo.dueTime = .wall(secondOfDay: second, zone: nil) }
        var notKept: [ImportReport.NotKept] = []
        let waitTime = try wallTime(task, key: "wait", timeZone: timeZone, location: location)
        let scheduledTime = try wallTime(task, key: "scheduled", timeZone: timeZone, location: location)
        let wait = waitTime?.date
        let scheduled = scheduledTime?.date
        if let wait, let scheduled, wait != scheduled { notKept.append(.scheduledBesideWait) }
        if let start = wait ?? scheduled {
            if let deadline = todo.deadline, start > deadline {
                // After the due date, a start todos cannot have.
                notKept.append(wait != nil ? .wait : .scheduled)
            } else {
                // On the due date it is no separate start (the day is kept: it is the deadline's).
                if start != todo.deadline { todo.start = start }
                // A start is a day: the time of day of each date kept has no place.
                if let second = waitTime?.secondOfDay, second != 0 { notKept.append(.waitTime) }
                if let second = scheduledTime?.secondOfDay, second != 0, scheduled == start {
                    notKept.append(.scheduledTime)
                }
            }
        }
        if case .string(let project)? = task["project"], !project.isEmpty {
            if let value = TodoProject(project) {
                todo.project = value
            } else {
                notKept.append(.project)
            }
        }
        if case .array(let tags)? = task["tags"] {
            for value in tags {
                if case .string(let word) = value, let tag = TodoTag(word: word, sigil: .plus) {
                    todo.tags.insert(tag)
                } else {
                    notKept.append(.tag)
                }
            }
        }
        if case .string(let priority)? = task["priority"], !priority.isEmpty {
            switch priority {
            case "H": todo.priority = .high
            case "M": todo.priority = .medium
            case "L": todo.priority = .low
            default: notKept.append(.priority)
            }
        }
        var lines: [String] = []
        if case .array(let annotations)? = task["annotations"] {
            for annotation in annotations {
                guard case .string(let text)? = annotation["description"] else {
                    notKept.append(.annotation)
                    continue
                }
                // Its local date and time, to the minute, as `task info` shows it.
                let stamp = Self.time(annotation["entry"]).flatMap { Self.localMinute($0, timeZone: timeZone) }
                lines.append(stamp.map { "\($0) \(text)" } ?? text)
            }
        }
        // User-defined attributes (`client:ACME`), after the annotations, by name: `client: ACME`.
        let udas = task.members.filter { !attributes.contains($0.key) }
        for member in udas.sorted(by: { $0.key < $1.key }) {
            if let value = Self.attributeText(member.value, timeZone: timeZone) {
                lines.append("\(member.key): \(value)")
            }
        }
        if !lines.isEmpty { todo.note = lines.joined(separator: "\n") }
        todo.created = Self.time(task["entry"])
        let end = Self.time(task["end"])
        if status == .completed {
            todo.completed = end
        } else if end != nil {
            notKept.append(.end)
        }
        // `start` marks an active task (`task start`, until `task stop`): a pending one is in
        // progress. Its time has no place, nor has it on a completed task, done whatever it was.
        if Self.holdsValue(task["start"]) {
            if status == .pending { todo.status = .inProcess }
            notKept.append(.start)
        }
        // taskwarrior 2.6 on writes an array of uuids, 2.5 one string of them, comma-separated.
        var depends: [String] = []
        switch task["depends"] {
        case .array(let values)?:
            for case .string(let text) in values where !text.isEmpty { depends.append(text) }
        case .string(let text)?:
            depends = text.split(separator: ",").map(String.init).filter { !$0.isEmpty }
        default: break
        }
        var parent: String?
        if case .string(let text)? = task["parent"], !text.isEmpty { parent = text }
        var recur: String?
        if case .string(let text)? = task["recur"], !text.isEmpty { recur = text }
        var until: (date: CalendarDate, secondOfDay: Int)?
        if status == .recurring || parent != nil {
            until = try wallTime(task, key: "until", timeZone: timeZone, location: location)
        } else if Self.holdsValue(task["until"]) {
            notKept.append(.until)
        }
        return Task(
            todo: todo, status: status, source: source, notKept: notKept, uuid: uuid, parent: parent,
            imask: imask(task["imask"]), recur: recur, until: until?.date, untilHasTime: (until?.secondOfDay ?? 0) != 0,
            end: end, depends: depends)
    }

    /// `time` as the local date and time of day to the minute, `2024-05-01 10:22`.
    private static func localMinute(_ time: UTCTimestamp, timeZone: LocalTimeZone) -> String? {
        guard let wall = timeZone.wallTime(atEpochSeconds: time.secondsSince1970) else { return nil }
        let minute = wall.secondOfDay / 60
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(wall.date) \(two(minute / 60)):\(two(minute % 60))"
    }

    /// A user-defined attribute's value as a line of the note shows it: a string as it is, a
    /// date (`20240501T120000Z`, a UDA of type date) as its local date, and its time to the
    /// minute unless midnight, a number as written (`3`, `2.5`), anything else as JSON; `nil`
    /// for none (`null`, an empty string).
    private static func attributeText(_ value: JSONValue, timeZone: LocalTimeZone) -> String? {
        switch value {
        case .null:
            return nil
        case .string(let text):
            guard !text.isEmpty else { return nil }
            if let time = UTCTimestamp(basic: text), let wall = timeZone.wallTime(atEpochSeconds: time.secondsSince1970)
            {
                return wall.secondOfDay == 0 ? "\(wall.date)" : localMinute(time, timeZone: timeZone)
            }
            return text
        default:
            var out: [UInt8] = []
            value.encoded(into: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Whether a field holds something: not absent, `null`, an empty string or an empty array.
    private static func holdsValue(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: false
        case .string(let text)?: !text.isEmpty
        case .array(let values)?: !values.isEmpty
        default: true
        }
    }

    /// An instance's place in its series: a whole number, or one written as a string.
    private static func imask(_ value: JSONValue?) -> Int? {
        let number: Double?
        switch value {
        case .number(let value)?: number = value
        case .string(let text)?: number = Double(text)
        default: number = nil
        }
        guard let number, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// A taskwarrior time (`20240501T000000Z`) as a UTC time; `nil` for none or another form.
    private static func time(_ value: JSONValue?) -> UTCTimestamp? {
        guard case .string(let stamp)? = value, let seconds = UTCTimestamp(basic: stamp)?.secondsSince1970 else {
            return nil
        }
        return UTCTimestamp(secondsSince1970: seconds)
    }

    /// The tasks: the elements of a top-level array, or the values of a JSON Lines file.
    private static func records(_ buffer: UnsafeBufferPointer<UInt8>) throws(ImportError) -> [JSONValue] {
        var first = 0
        while first < buffer.count, [0x20, 0x0A, 0x0D, 0x09].contains(buffer[first]) { first += 1 }
        let isArray = first == buffer.count || buffer[first] == UInt8(ascii: "[")
        let document: JSONValue
        do throws(JSONParseError) {
            // An empty file goes to the single-document parser, which calls it what it is.
            if !isArray { return try JSONParser.parseSequence(buffer) }
            document = try JSONParser.parse(buffer)
        } catch {
            throw ImportError(error)
        }
        guard case .array(let records) = document else {
            throw ImportError(.file, "expected a JSON array of tasks (the output of `task export`)")
        }
        return records
    }

    /// The local calendar date of the instant at `key` (`until`, `wait`...), written
    /// `YYYYMMDDTHHMMSSZ`; `nil` when absent or `null`.
    private static func date(
        _ task: JSONObject, key: String, timeZone: LocalTimeZone, location: ImportError.Location
    ) throws(ImportError) -> CalendarDate? {
        try wallTime(task, key: key, timeZone: timeZone, location: location)?.date
    }

    /// The local date and time of day (seconds after midnight) of the instant at `key`, written
    /// `YYYYMMDDTHHMMSSZ`; `nil` when absent or `null`.
    private static func wallTime(
        _ task: JSONObject, key: String, timeZone: LocalTimeZone, location: ImportError.Location
    ) throws(ImportError) -> (date: CalendarDate, secondOfDay: Int)? {
        let text: String
        switch task[key] {
        case nil, .null?:
            return nil
        case .string(let value)?:
            text = value
        case let other?:
            throw ImportError(
                location, "\"\(key)\" must be a timestamp like 20240501T000000Z, found \(other.kindDescription)")
        }
        guard let seconds = UTCTimestamp(basic: text)?.secondsSince1970 else {
            if BasicTime.hasUTCShape(text) {
                throw ImportError(location, "\"\(key)\" \(text) is not a real date and time")
            }
            throw ImportError(location, "\"\(key)\" is not a UTC timestamp like 20240501T000000Z")
        }
        guard let time = timeZone.wallTime(atEpochSeconds: seconds) else {
            throw ImportError(location, "\"\(key)\" \(text) is outside the years 1 to 9999")
        }
        return time
    }
}
