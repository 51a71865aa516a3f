import JSONCodec
import TodoStore

/// Reads a todo.txt file (http://todotxt.org): one todo a line.
///
/// Each non-blank line is a todo; blank lines are skipped but counted, so errors name the line
/// an editor shows. Lines may end in LF or CRLF, and a UTF-8 byte order mark is ignored.
/// - Done: a line starting with `x ` is done; the completion date after it is the completed
///   time and the creation date after that the created time (noon UTC on those days, so that
///   they read as the same days from UTC-11 to UTC+11).
/// - Priority: a leading `(A) ` to `(Z) ` on a line that is not done (or a `pri:A` tag, which
///   apps write when they complete a todo) is the priority: A to I are 1 to 9 exactly, so that
///   a letter read is the letter written back; J to Z are 9, the lowest. A creation date after
///   it is the created time.
/// - Deadline: a `due:YYYY-MM-DD` tag (the convention of todo.txt apps) is the deadline and
///   leaves the name; a due date that is malformed or not a real day is an error naming the
///   line, and so are two `due:` tags on one line.
/// - Repeat: a `rec:` tag (`rec:3d`, `rec:+1w`: Simpletask's, SwiftoDo's and topydo's
///   `[+][N](d|b|w|m|y)`) is the repeat rule (``RepeatPeriod``), counted from the due date with a
///   `+` and from the day it was done without one; `b`, business days, is every weekday, from
///   the due date either way (counted from the day done, the rule of weekdays would skip to the
///   next week). It leaves the name. A value of another form, or two `rec:` tags, is an error
///   naming the line; `rec:2b` and longer runs of business days, which no rule says, are counted
///   in the report.
/// - Start: a `t:YYYY-MM-DD` tag (threshold, Simpletask's and topydo's start date) is the start
///   and leaves the name, with the same errors as `due:`. One on the due date is no separate
///   start and is dropped; one after it has no place and is counted in the report.
/// - Project: a `project:Work.ClientA` tag (``TodoTxtWriter/projectWord(of:)``) is the project and
///   leaves the name; one that names no project, or two, is an error naming the line.
/// - `+project` and `@context` words are tags (with their `+` or `@`) and leave the name, as
///   `due:` does; all other `key:value` tags (URLs...) mean nothing to our todos and stay in the
///   text.
/// - The name is the rest of the line with surrounding spaces trimmed and its inner spacing
///   kept (a removed `due:` tag leaves one space). A line left with no name is an error.
enum TodoTxtReader {
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>) throws(ImportError) -> ImportReport {
        var report = ImportReport()
        var lineNumber = 0
        var lineStart = 0
        while lineStart < buffer.count {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < buffer.count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var end = lineEnd
            if end > lineStart, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<end])
            if let (todo, notKept) = try todo(line: line, location: .line(lineNumber)) {
                let source = ImportSource(location: .line(lineNumber), name: todo.name)
                for kind in notKept { report.drop(kind, at: source) }
                report.todos.append(todo)
                report.sources.append(source)
            }
            lineStart = lineEnd + 1
        }
        return report
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The todo on one line (without its line ending) and what it holds that todos cannot keep,
    /// or `nil` for a blank line.
    private static func todo(
        line: UnsafeBufferPointer<UInt8>, location: ImportError.Location
    ) throws(ImportError) -> (ImportedTodo, [ImportReport.NotKept])? {
        guard UTF8Validation.isValid(line) else { throw ImportError(location, "is not UTF-8 text") }
        var tokens: [Range<Int>] = []
        var index = 0
        while index < line.count {
            while index < line.count, isSpace(line[index]) { index += 1 }
            let start = index
            while index < line.count, !isSpace(line[index]) { index += 1 }
            if index > start { tokens.append(start..<index) }
        }
        guard let first = tokens.first else { return nil }

        // The markers only count at the very start of the line, followed by a space.
        let startsMarker = first.lowerBound == 0 && first.upperBound < line.count
        var next = 0
        var isDone = false
        var priority = TodoPriority.none
        var notKept: [ImportReport.NotKept] = []
        var created: UTCTimestamp?
        var completed: UTCTimestamp?
        /// The date of the token at `position` as noon UTC that day; `nil` when it is no date.
        func noon(at position: Int) -> UTCTimestamp? {
            guard position < tokens.count,
                let day = CalendarDate(iso: UnsafeBufferPointer(rebasing: line[tokens[position]]))
            else { return nil }
            return UTCTimestamp(secondsSince1970: Int64(day.daysSinceEpoch) * 86_400 + 43_200)
        }
        if startsMarker && first.count == 1 && line[0] == UInt8(ascii: "x") {
            isDone = true
            next = 1
            if let day = noon(at: next) {  // completion date
                completed = day
                next += 1
                if let day = noon(at: next) {  // creation date
                    created = day
                    next += 1
                }
            }
        } else {
            if startsMarker && first.count == 3 && line[0] == UInt8(ascii: "(") && line[2] == UInt8(ascii: ")"),
                let letter = Self.priority(letter: line[1])
            {
                priority = letter
                if line[1] > UInt8(ascii: "I") { notKept.append(.priorityAfterI) }
                next = 1
            }
            if let day = noon(at: next) {  // creation date
                created = day
                next += 1
            }
        }
        var tags = TodoTags()

        var deadline: CalendarDate? = nil
        var repeats: RepeatPeriod.TodoTxtRepeat? = nil
        var start: CalendarDate? = nil
        var project: TodoProject? = nil
        var name: [UInt8] = []
        var previous: Range<Int>? = nil
        var removedSincePrevious = false
        for token in tokens[next...] {
            let bytes = UnsafeBufferPointer(rebasing: line[token])
            if bytes.count >= 4, bytes[0] == UInt8(ascii: "d"), bytes[1] == UInt8(ascii: "u"),
                bytes[2] == UInt8(ascii: "e"), bytes[3] == UInt8(ascii: ":")
            {
                guard deadline == nil else { throw ImportError(location, "more than one due: tag") }
                deadline = try date(tag: bytes, key: 4, location: location)
                removedSincePrevious = true
                continue
            }
            if bytes.starts(with: "rec:".utf8) {
                guard repeats == nil else { throw ImportError(location, "more than one rec: tag") }
                let text = String(decoding: bytes, as: UTF8.self)
                guard let value = RepeatPeriod.todoTxt(text.dropFirst(4)) else {
                    throw ImportError(location, "\(text) is not a repeat like rec:3d or rec:+1w")
                }
                repeats = value
                removedSincePrevious = true
                continue
            }
            if bytes.starts(with: "t:".utf8) {
                guard start == nil else { throw ImportError(location, "more than one t: tag") }
                start = try date(tag: bytes, key: 2, location: location)
                removedSincePrevious = true
                continue
            }
            if bytes.starts(with: TodoProject.wordPrefix.utf8) {
                guard project == nil else { throw ImportError(location, "more than one project: tag") }
                let text = String(decoding: bytes, as: UTF8.self)
                guard let value = TodoProject(text.dropFirst(TodoProject.wordPrefix.count)) else {
                    throw ImportError(location, "\(text) is not a project like project:Work.ClientA")
                }
                project = value
                removedSincePrevious = true
                continue
            }
            if bytes.count == 5, bytes[0] == UInt8(ascii: "p"), bytes[1] == UInt8(ascii: "r"),
                bytes[2] == UInt8(ascii: "i"), bytes[3] == UInt8(ascii: ":"),
                let letter = Self.priority(letter: bytes[4])
            {
                priority = letter
                if bytes[4] > UInt8(ascii: "I") { notKept.append(.priorityAfterI) }
                removedSincePrevious = true
                continue
            }
            if bytes.count > 1, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "@"),
                let tag = TodoTag(String(decoding: bytes, as: UTF8.self))
            {
                tags.insert(tag)
                removedSincePrevious = true
                continue
            }
            if let previous {
                if removedSincePrevious {
                    name.append(0x20)
                } else {
                    name.append(contentsOf: UnsafeBufferPointer(rebasing: line[previous.upperBound..<token.lowerBound]))
                }
            }
            name.append(contentsOf: bytes)
            previous = token
            removedSincePrevious = false
        }
        let text = String(decoding: name, as: UTF8.self)
        guard Todo.isValidName(text) else { throw ImportError(location, "the todo has no name") }
        var todo = ImportedTodo(
            name: text, deadline: deadline, isDone: isDone, priority: priority, tags: tags, created: created,
            completed: completed)
        todo.project = project
        switch repeats {
        case .period(let period, let strict)?:
            todo.repeatRule = period.rule(anchor: deadline)
            todo.repeatFrom = strict || period.unit == .weekday ? .due : .done
        case .businessDays?:
            notKept.append(.businessDays)
        case nil:
            break
        }
        if let start {
            if let deadline, start >= deadline {
                // On the due date it is no separate start; after it, a start todos cannot have.
                if start > deadline { notKept.append(.threshold) }
            } else {
                todo.start = start
            }
        }
        return (todo, notKept)
    }

    /// The priority of a todo.txt letter: A to I are 1 to 9, J to Z 9 (the lowest); `nil` for
    /// anything but a capital letter.
    static func priority(letter: UInt8) -> TodoPriority? {
        guard letter >= UInt8(ascii: "A"), letter <= UInt8(ascii: "Z") else { return nil }
        return TodoPriority(rawValue: min(Int(letter - UInt8(ascii: "A")) + 1, 9))
    }

    /// The date of a `due:` or `t:` tag whose key (with its colon) is `key` bytes long, telling a
    /// malformed date from an impossible one.
    private static func date(tag: UnsafeBufferPointer<UInt8>, key: Int, location: ImportError.Location)
        throws(ImportError) -> CalendarDate
    {
        let value = UnsafeBufferPointer(rebasing: tag[key...])
        if let date = CalendarDate(iso: value) { return date }
        let text = String(decoding: tag, as: UTF8.self)
        if DateShape.isISODate(value) { throw ImportError(location, "\(text) is not a day in the calendar") }
        throw ImportError(location, "\(text) is not a YYYY-MM-DD date")
    }
}
