import TodoStore

/// Reads our own `todo export`: a JSON array of todo objects.
///
/// Each record is `{"id": 3, "name": "Buy milk", "deadline": "2024-05-01" | null, "done": false}`:
/// - `name` is required: a string, kept exactly, blank included (a name another program
///   stored blank comes back as it was: the name rule is for names people type);
/// - `deadline` is optional: absent or `null` for none, else a real `YYYY-MM-DD` day;
/// - `done` is optional: `true` or `false`, `false` when absent;
/// - `uid` is optional: the todo's iCalendar UID, which the export writes when the todo has one,
///   so that importing a file twice adds its todos once (see ``ImportReport/uids``);
/// - `priority` (a whole number 0-9), `tags` (an array of tags such as `"+work"`, `"@phone"`),
///   `note` (a string or `null`), `created` and `completed` (`YYYY-MM-DDTHH:MM:SSZ` or `null`)
///   are optional, none when absent (files from before they existed import as they did);
/// - `repeat_rule` (an RRULE value as written, or `null`) and `repeat_from` (`"due"` or
///   `"done"`; `"due"` when absent) are optional too: a rule another app wrote comes back as it
///   was, whether or not this version's engine reads it;
/// - `status` (`"needs-action"`, `"in-process"`, `"completed"` or `"cancelled"`; absent or
///   `null`: what `done` says) and `percent` (a whole number 0-100, or `null`) are optional;
///   a status, when given, decides over `done`;
/// - `list` is optional: the name of the todo's list (``ImportReport/lists``);
/// - `parent` (a todo's id or `null`) and `depends` (an array of todos' ids) are optional: the
///   todo it is a subtask of and those it waits for, by their records' `id` in the same file (a
///   todo the file does not hold is left out: ``ImportReport/parents``, ``ImportReport/dependencies``);
/// - `id` is the todo's id in the file it was exported from (``ImportReport/ids``: the importer
///   keeps it where it is free); `children` and `depth` say again what `parent` says;
/// - any other key (a newer version's, another program's) is no error, so such files still
///   import, but is counted as not kept, by its name (``ImportReport/NotKept/key(_:)``); and so
///   are a `parent` or `depends` id the file does not hold, a `list` that is no list's name, an
///   `id` a record before it has.
/// - the fields a record leaves out are the todo's own when an import updates a todo it holds
///   (``ImportReport/fieldsNotGiven``).
enum TodoJSONReader {
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(ImportError) -> ImportReport {
        let document: JSONValue
        do {
            document = try JSONParser.parse(buffer)
        } catch {
            throw ImportError(error)
        }
        guard case .array(let records) = document else {
            throw ImportError(
                .file, "expected a JSON array of todos (the output of `todo export`), found \(document.kindDescription)"
            )
        }
        var report = ImportReport()
        report.todos.reserveCapacity(records.count)
        report.sources.reserveCapacity(records.count)
        // Each record's "id" (the first record of an id, where a file repeats one) and "parent":
        // a subtask's parent is the record of that id, wherever it is in the file.
        var offsets: [Int64: Int] = [:]
        var parentIDs: [Int: Int64] = [:]
        var dependsIDs: [Int: [Int64]] = [:]
        for (offset, record) in records.enumerated() {
            let (todo, uid) = try todo(from: record, location: .record(offset + 1))
            let source = ImportSource(location: .record(offset + 1), identity: uid, name: todo.name)
            report.sources.append(source)
            if let uid { report.uids[offset] = uid }
            if case .object(let object) = record {
                // What no field or link reads (a newer version's key, another program's) is counted
                // by its key; `null` holds nothing to lose.
                for member in object.members where !Self.keys.contains(member.key) && member.value != .null {
                    report.drop(.key(member.key), at: source)
                }
                var notGiven = Set<String>()
                for field in TodoField.all where object[field.name] == nil { notGiven.insert(field.name) }
                if !notGiven.isEmpty { report.fieldsNotGiven[offset] = notGiven }
                switch object["list"] {
                case nil, .null?: break
                case .string(let list)? where TodoList.isValidName(list): report.lists[offset] = list
                default: report.drop(.listName, at: source)
                }
                if case .number(let number)? = object["id"], let id = Int64(exactly: number) {
                    if offsets[id] == nil {
                        offsets[id] = offset
                        report.ids[offset] = id
                    } else {
                        // Another record has it: this one gets a new id.
                        report.drop(.idNotFree, at: source)
                    }
                }
                switch object["parent"] {
                case nil, .null?: break
                case .number(let number)? where Int64(exactly: number) != nil:
                    parentIDs[offset] = Int64(exactly: number)
                case let other?:
                    throw ImportError(
                        .record(offset + 1), "\"parent\" must be a todo's id or null, found \(other.kindDescription)")
                }
                switch object["depends"] {
                case nil, .null?: break
                case .array(let values)?:
                    var ids: [Int64] = []
                    for value in values {
                        guard case .number(let number) = value, let id = Int64(exactly: number) else {
                            throw ImportError(
                                .record(offset + 1),
                                "\"depends\" must be an array of todos' ids, found \(value.kindDescription) in it")
                        }
                        ids.append(id)
                    }
                    if !ids.isEmpty { dependsIDs[offset] = ids }
                case let other?:
                    throw ImportError(
                        .record(offset + 1),
                        "\"depends\" must be an array of todos' ids, found \(other.kindDescription)")
                }
            }
            report.todos.append(todo)
        }
        // A parent the file does not hold (exported with a filter) leaves the todo at the top,
        // and is counted.
        for (offset, parent) in parentIDs.sorted(by: { $0.key < $1.key }) {
            if let parentOffset = offsets[parent] {
                if parentOffset != offset { report.parents[offset] = parentOffset }
            } else {
                report.drop(.parentNotInFile, at: report.source(of: offset))
            }
        }
        report.dropLoops()
        for (offset, ids) in dependsIDs.sorted(by: { $0.key < $1.key }) {
            var links: [Int] = []
            var missing = false
            for id in ids {
                guard let other = offsets[id] else {
                    missing = true
                    continue
                }
                if other != offset, !links.contains(other) { links.append(other) }
            }
            if missing { report.drop(.dependsNotInFile, at: report.source(of: offset)) }
            if !links.isEmpty { report.dependencies[offset] = links }
        }
        report.dropDependencyLoops()
        return report
    }

    /// The keys read: every field's, and the todo's id, UID, list and links. `"children"` and
    /// `"depth"` (what `todo list --json` adds) say again what the parents say.
    static let keys: Set<String> = Set(TodoField.all.map(\.name)).union([
        "id", "uid", "list", "parent", "children", "depends", "depth"
    ])

    private static func todo(
        from record: JSONValue, location: ImportError.Location
    ) throws(ImportError) -> (ImportedTodo, uid: String?) {
        guard case .object(let object) = record else {
            throw ImportError(location, "expected a todo object, found \(record.kindDescription)")
        }
        // Our own export reproduces every todo, so a name another program stored blank is
        // read back as it is (the name rule is for names people type).
        let name = try JSONFields.name(object, key: "name", location: location, allowingBlank: true)
        var uid: String? = nil
        switch object["uid"] {
        case nil, .null?: break
        case .string(let text)? where !text.isEmpty: uid = text
        case let other?:
            throw ImportError(location, "\"uid\" must be a non-empty string or null, found \(other.kindDescription)")
        }
        var fields = ImportedTodo(name: name)
        for field in TodoField.all where field.name != "name" {
            guard let json = object[field.name] else { continue }
            guard field.set(try value(of: field, json, location: location), in: &fields) else {
                // Text the field still refuses: a repeat_from other than "due" or "done", a status
                // that is none of the four.
                let shown = if case .string(let text) = json { text.debugDescription } else { json.kindDescription }
                let allowed =
                    field.name == "repeat_from"
                    ? TodoRepeatFrom.allCases.map(\.rawValue) : TodoStatus.allCases.map(\.rawValue)
                let words = allowed.map { "\"\($0)\"" }.joined(separator: " or ")
                let expected = ["repeat_from", "status"].contains(field.name) ? " (expected \(words))" : ""
                throw ImportError(location, "\"\(field.name)\" cannot be \(shown)\(expected)")
            }
        }
        return (fields, uid)
    }

    /// The value of `field` in its JSON form (the one `todo export` writes): `null` is the
    /// field's empty value but for done, which is `true` or `false`, and status, whose `null` is
    /// what done says (``TodoField/Value/none``, which its field takes so); a date `YYYY-MM-DD`; a
    /// priority a whole number 0-9; tags an array of tags such as `"+work"`; a time
    /// `YYYY-MM-DDTHH:MM:SSZ`; a due time as ``TodoDueTime/text`` writes it; text a string.
    private static func value(
        of field: TodoField, _ json: JSONValue, location: ImportError.Location
    ) throws(ImportError) -> TodoField.Value {
        let key = "\"\(field.name)\""
        if case .null = json, field.kind != .flag { return field.name == "status" ? .none : field.empty }
        switch (field.kind, json) {
        case (.flag, .bool(let flag)):
            return .flag(flag)
        case (.flag, _):
            throw ImportError(location, "\(key) must be true or false, found \(json.kindDescription)")
        case (.date, .string(let text)):
            return .date(try JSONFields.date(text, key: field.name, location: location))
        case (.date, _):
            throw ImportError(location, "\(key) must be a YYYY-MM-DD date or null, found \(json.kindDescription)")
        case (.priority, .number(let value)) where value == value.rounded() && (0...9).contains(value):
            return .priority(TodoPriority(rawValue: Int(value)) ?? .none)
        case (.priority, _):
            throw ImportError(location, "\(key) must be a whole number from 0 to 9, found \(json.kindDescription)")
        case (.tags, .array(let values)):
            var tags = TodoTags()
            for value in values {
                guard case .string(let text) = value, let tag = TodoTag(text) else {
                    throw ImportError(
                        location,
                        "\(key) must hold tags such as \"+work\" or \"@phone\", found \(value.kindDescription)")
                }
                tags.insert(tag)
            }
            return .tags(tags)
        case (.tags, _):
            throw ImportError(location, "\(key) must be an array of tags, found \(json.kindDescription)")
        case (.time, .string(let text)):
            guard let time = UTCTimestamp(iso: text) else {
                throw ImportError(
                    location, "\(key) must be a UTC time YYYY-MM-DDTHH:MM:SSZ, found \(text.debugDescription)")
            }
            return .time(time)
        case (.time, _):
            throw ImportError(location, "\(key) must be a UTC time or null, found \(json.kindDescription)")
        case (.clock, .string(let text)):
            guard let time = TodoDueTime(text: text) else {
                throw ImportError(
                    location,
                    "\(key) must be a time such as \"19:00\", \"19:00 Europe/Berlin\" or \"2026-11-27T18:00:00Z\", found \(text.debugDescription)"
                )
            }
            return .clock(time)
        case (.clock, _):
            throw ImportError(location, "\(key) must be a time of day or null, found \(json.kindDescription)")
        case (.percent, .number(let value)) where value == value.rounded() && (0...100).contains(value):
            return .percent(Int(value))
        case (.percent, _):
            throw ImportError(
                location, "\(key) must be a whole number from 0 to 100 or null, found \(json.kindDescription)")
        case (.text, .string(let text)):
            return .text(text)
        case (.text, _):
            throw ImportError(location, "\(key) must be a string or null, found \(json.kindDescription)")
        }
    }
}

/// Field checks shared by the JSON-based readers, with their error messages.
enum JSONFields {
    /// The required string at `key`, valid by ``Todo/isValidName(_:)`` unless `allowingBlank`.
    static func name(
        _ object: JSONObject, key: String, location: ImportError.Location,
        allowingBlank: Bool = false
    ) throws(ImportError) -> String {
        switch object[key] {
        case nil:
            throw ImportError(location, "\"\(key)\" is missing")
        case .string(let name)?:
            guard allowingBlank || Todo.isValidName(name) else { throw ImportError(location, "\"\(key)\" is empty") }
            return name
        case let other?:
            throw ImportError(location, "\"\(key)\" must be a string, found \(other.kindDescription)")
        }
    }

    /// `text` as a calendar date, telling a malformed date from an impossible one.
    static func date(_ text: String, key: String, location: ImportError.Location) throws(ImportError) -> CalendarDate {
        if let date = CalendarDate(text) { return date }
        if DateShape.isISODate(text.utf8) {
            throw ImportError(location, "\"\(key)\" \(text) is not a day in the calendar")
        }
        throw ImportError(location, "\"\(key)\" is not a YYYY-MM-DD date")
    }
}

/// Recognizes the shape of dates, valid or not, to word errors and to spot todo.txt dates.
enum DateShape {
    /// Whether `bytes` look like `YYYY-MM-DD` (ten characters, digits and two dashes), whether
    /// or not that day exists.
    static func isISODate(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count == 10 else { return false }
        for (offset, byte) in bytes.enumerated() {
            if offset == 4 || offset == 7 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
            }
        }
        return true
    }
}
