import TodoStore

/// Reads the output of taskwarrior's `task export`: a JSON array of tasks, or one task per line
/// (`task export rc.json.array=off`).
///
/// - `description` is the name (required, not blank).
/// - `due`, a UTC instant like `20240501T000000Z`, becomes the calendar date at that instant in
///   the given ``LocalTimeZone``: taskwarrior stores `due:2024-05-01` typed in Tokyo as
///   `20240430T150000Z`, which is 2024-05-01 again in Tokyo. Absent (or `null`): no deadline.
/// - `status`: `pending` and `waiting` are not done, `completed` is done, `deleted` tasks are
///   skipped; any other status is an error naming the record.
/// - `recurring` marks the template of a recurring task. Taskwarrior exports its instances too,
///   as pending tasks with a `parent` naming the template's `uuid`; importing both would list the
///   same todo twice, so a template is skipped when an instance of it is in the file, and
///   imported as a todo that is not done otherwise.
/// - `priority` H, M, L is high, medium, low (1, 5, 9). `project` is a `+` tag (`Home.Garden`
///   as it is: one word) and so is each of `tags`; `annotations` become the note, one line each
///   (`YYYY-MM-DD description`, the UTC day of its `entry`). `entry` is the created time and, for
///   a completed task, `end` the completed time.
/// - What still has no place is counted in the ``ImportReport`` so the user is told: a tag or
///   project that is not one word, an unknown priority, an annotation without text. The rest
///   (`uuid`, `urgency`, `modified`, UDAs...) is bookkeeping and ignored.
enum TaskwarriorReader {
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, timeZone: LocalTimeZone) throws(ImportError) -> ImportReport
    {
        let records = try self.records(buffer)
        timeZone.prepare()
        var templatesWithInstances = Set<String>()
        for record in records {
            if case .string(let parent)? = record["parent"] { templatesWithInstances.insert(parent) }
        }
        var report = ImportReport()
        report.todos.reserveCapacity(records.count)
        for (offset, record) in records.enumerated() {
            let location = ImportError.Location.record(offset + 1)
            guard case .object(let task) = record else {
                throw ImportError(location, "expected a task object, found \(record.kindDescription)")
            }
            let isDone: Bool
            switch task["status"] {
            case nil:
                throw ImportError(location, "\"status\" is missing")
            case .string(let status)?:
                switch status {
                case "pending", "waiting": isDone = false
                case "completed": isDone = true
                case "deleted": continue
                case "recurring":
                    if case .string(let uuid)? = task["uuid"], templatesWithInstances.contains(uuid) { continue }
                    isDone = false
                default:
                    throw ImportError(
                        location,
                        "unknown status \"\(status)\" (expected pending, waiting, recurring, completed or deleted)")
                }
            case let other?:
                throw ImportError(location, "\"status\" must be a string, found \(other.kindDescription)")
            }
            let name = try JSONFields.name(task, key: "description", location: location)
            var deadline: CalendarDate? = nil
            switch task["due"] {
            case nil, .null?:
                break
            case .string(let text)?:
                deadline = try date(due: text, timeZone: timeZone, location: location)
            case let other?:
                throw ImportError(
                    location, "\"due\" must be a timestamp like 20240501T000000Z, found \(other.kindDescription)")
            }
            var todo = ImportedTodo(name: name, deadline: deadline, isDone: isDone)
            if case .string(let project)? = task["project"], !project.isEmpty {
                if let tag = TodoTag(word: project, sigil: .plus) {
                    todo.tags.insert(tag)
                } else {
                    report.drop(.project)
                }
            }
            if case .array(let tags)? = task["tags"] {
                for value in tags {
                    if case .string(let word) = value, let tag = TodoTag(word: word, sigil: .plus) {
                        todo.tags.insert(tag)
                    } else {
                        report.drop(.tag)
                    }
                }
            }
            if case .string(let priority)? = task["priority"], !priority.isEmpty {
                switch priority {
                case "H": todo.priority = .high
                case "M": todo.priority = .medium
                case "L": todo.priority = .low
                default: report.drop(.priority)
                }
            }
            if case .array(let annotations)? = task["annotations"] {
                var lines: [String] = []
                for annotation in annotations {
                    guard case .string(let text)? = annotation["description"] else {
                        report.drop(.annotation)
                        continue
                    }
                    let day = Self.time(annotation["entry"])?.date.map { "\($0) " } ?? ""
                    lines.append(day + text)
                }
                if !lines.isEmpty { todo.note = lines.joined(separator: "\n") }
            }
            todo.created = Self.time(task["entry"])
            if isDone { todo.completed = Self.time(task["end"]) }
            report.todos.append(todo)
        }
        return report
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

    /// The local calendar date of a `due` instant written `YYYYMMDDTHHMMSSZ`.
    private static func date(
        due text: String, timeZone: LocalTimeZone,
        location: ImportError.Location
    ) throws(ImportError) -> CalendarDate {
        guard let seconds = UTCTimestamp(basic: text)?.secondsSince1970 else {
            if BasicTime.hasUTCShape(text) {
                throw ImportError(location, "\"due\" \(text) is not a real date and time")
            }
            throw ImportError(location, "\"due\" is not a UTC timestamp like 20240501T000000Z")
        }
        guard let date = timeZone.calendarDate(atEpochSeconds: seconds) else {
            throw ImportError(location, "\"due\" \(text) is outside the years 1 to 9999")
        }
        return date
    }
}
