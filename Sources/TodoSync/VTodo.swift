import TodoInterop
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// One calendar object resource holding a todo: a VCALENDAR with a VTODO, as a CalDAV server
/// stores it, read as `TodoFields` and updated in place.
///
/// The object is kept whole: the properties no field maps (RRULE, LOCATION, X-...), its
/// VALARMs and VTIMEZONEs, and the VTODOs of single occurrences (with a RECURRENCE-ID) are
/// never touched, and ``text`` gives back every line `todo` did not change exactly as it was
/// read. ``update(to:now:)`` changes the properties of the fields that changed (SUMMARY, DUE,
/// DTSTART, STATUS, COMPLETED and PERCENT-COMPLETE, PRIORITY, CATEGORIES, X-TODO-PROJECT,
/// DESCRIPTION, CREATED, RRULE) and the revision stamps (DTSTAMP, LAST-MODIFIED, SEQUENCE), and no others, but for
/// what moves with a deadline (absolute alarms, KDE's marker of a series) and what a new one
/// makes invalid (a DURATION, removed).
///
/// The mapping, read from the master VTODO (the one without RECURRENCE-ID, else the first):
/// - name: SUMMARY as TEXT, unescaped; none is `""`.
/// - deadline and due time: DUE. `DUE;VALUE=DATE:20240501` is that date, with no time. A
///   DATE-TIME keeps its own clock: with `TZID=Name` its wall date and time in that zone,
///   floating (neither) its own wall date and time, `...Z` an instant whose date is read in the
///   given `LocalTimeZone` (`TodoDueTime`). A DUE that is not a date at all is no deadline
///   (and stays as it is until the deadline is set here).
/// - start: DTSTART's date, when it is before the deadline's day (a start on that day is none).
/// - status (done included): see ``status(_:)``. percent: PERCENT-COMPLETE when it is 0-100;
///   anything else is none.
/// - priority: PRIORITY when it is 0-9; anything else is none.
/// - tags: the CATEGORIES values that are tags (`@word`, or any other word or words with single
///   spaces: `Home Improvement`); the others (a control character, over 100 bytes...) are no
///   field, and stay on the object.
/// - note: DESCRIPTION as TEXT, unescaped; none is `nil`.
/// - project: `X-TODO-PROJECT` as TEXT, when it names a project (`TodoProject`).
/// - created: CREATED; completed: COMPLETED while completed (a cancelled todo was never
///   completed). Each only as a UTC DATE-TIME, as RFC 5545 requires; anything else is none.
public struct VTodoObject: Sendable, Equatable {
    /// The components of the object as read (one VCALENDAR, usually).
    public internal(set) var components: [ICalendarComponent]
    /// Where the master VTODO is: a top-level component, and the index of the VTODO among its
    /// children, or `nil` when the VTODO is itself top-level (a sloppy object without VCALENDAR).
    var location: (component: Int, child: Int?)
    /// The master VTODO's UID.
    public private(set) var uid: String
    /// The fields read from the master VTODO (or last written by ``update(to:now:)``).
    public internal(set) var fields: TodoFields
    /// The zone the fields were read in: where a UTC DUE's date is read, and an instant due time
    /// is moved to a new deadline.
    var timeZone: LocalTimeZone

    /// Reads an object's text.
    ///
    /// - Throws: the ``ICalendarError`` of malformed text; one of kind ``ICalendarError/Kind/noTodo``
    ///   for well-formed iCalendar with no VTODO (an event), and ``ICalendarError/Kind/missingUID``
    ///   for a VTODO without UID.
    public init(parsing text: String, timeZone: LocalTimeZone) throws(ICalendarError) {
        components = try ICalendar.parse(text)
        guard let location = Self.masterLocation(in: components) else {
            throw ICalendarError(.noTodo, line: nil, "no VTODO in the object")
        }
        self.location = location
        let todo = Self.todo(in: components, at: location)
        guard let uid = Self.uid(of: todo) else {
            throw ICalendarError(.missingUID, line: todo.line, "the VTODO has no UID")
        }
        self.uid = uid
        self.timeZone = timeZone
        timeZone.prepare()
        fields = Self.foldedFields(components: components, location: location, timeZone: timeZone)
    }

    /// A new object's instant due time (one another device read) is moved to its deadline in
    /// the system's zone.
    private init(
        components: [ICalendarComponent], location: (component: Int, child: Int?), uid: String, fields: TodoFields
    ) {
        self.components = components
        self.location = location
        self.uid = uid
        self.fields = fields
        self.timeZone = .system
    }

    /// A new object for a todo: a VCALENDAR (VERSION 2.0, our PRODID) with one VTODO.
    public static func new(uid: String, fields: TodoFields, now: Int64) -> VTodoObject {
        let calendar = ICalendarComponent(
            name: "VCALENDAR",
            children: [
                .property(ICalendarProperty(name: "VERSION", value: "2.0")),
                .property(ICalendarProperty(name: "PRODID", value: productID)),
                .component(newTodo(uid: uid, fields: fields, now: now))
            ])
        return VTodoObject(components: [calendar], location: (0, 2), uid: uid, fields: fields)
    }

    /// A VTODO's UID, or nil when it has none (or a blank one): the one reading of it, for an
    /// object from a server and for a VTODO in a file.
    static func uid(of todo: ICalendarComponent) -> String? {
        guard let uid = todo.property(named: "UID").map({ ICalendar.trimmed($0.value) }), !uid.isEmpty else {
            return nil
        }
        return uid
    }

    /// Our PRODID (RFC 5545 3.7.3).
    public static let productID = "-//todo//todo//EN"

    /// A VTODO for a todo: UID, DTSTAMP, CREATED (the todo's, else `now`), LAST-MODIFIED,
    /// SUMMARY, DUE (a DATE, when there is a deadline), STATUS, COMPLETED when completed (the
    /// todo's time, else `now`), PERCENT-COMPLETE (its percent, when it has one), and PRIORITY,
    /// CATEGORIES, `X-TODO-PROJECT` and DESCRIPTION when it has them.
    static func newTodo(uid: String, fields: TodoFields, now: Int64) -> ICalendarComponent {
        let stamp = UTCTimestamp(secondsSince1970: now).basic
        var todo = ICalendarComponent(
            name: "VTODO",
            children: [
                .property(ICalendarProperty(name: "UID", value: uid)),
                .property(ICalendarProperty(name: "DTSTAMP", value: stamp)),
                .property(ICalendarProperty(name: "CREATED", value: utcValue(fields.created) ?? stamp)),
                .property(ICalendarProperty(name: "LAST-MODIFIED", value: stamp)),
                .property(ICalendarProperty(name: "SUMMARY", text: fields.name))
            ])
        if let deadline = fields.deadline, let due = dueValue(deadline, fields.dueTime, timeZone: .system) {
            if let start = fields.start, start < deadline {
                let days = Int64(start.days(until: deadline))
                timeProperty("DTSTART", due.withSeconds(due.seconds - days * 86_400)).map { todo.setProperty($0) }
            } else if fields.repeatRule != nil {
                // A repeating todo's DTSTART is its DUE (RFC 5545 3.8.2.4 requires one beside
                // RRULE; jtx Board needs it, Apple Reminders writes the same).
                timeProperty("DTSTART", due).map { todo.setProperty($0) }
            }
            timeProperty("DUE", due).map { todo.setProperty($0) }
        } else if let start = fields.start {
            timeProperty("DTSTART", .date(start)).map { todo.setProperty($0) }
        }
        if let rule = fields.repeatRule { todo.setProperty(ICalendarProperty(name: "RRULE", value: rule)) }
        if fields.repeatFrom == .done {
            todo.setProperty(ICalendarProperty(name: repeatFromProperty, value: "COMPLETION"))
        }
        todo.setProperty(ICalendarProperty(name: "STATUS", value: statusValue(fields.status)))
        if fields.status == .completed {
            todo.setProperty(ICalendarProperty(name: "COMPLETED", value: utcValue(fields.completed) ?? stamp))
        }
        if let percent = writtenPercent(fields, over: nil) {
            todo.setProperty(ICalendarProperty(name: "PERCENT-COMPLETE", value: String(percent)))
        }
        if !fields.priority.isNone {
            todo.setProperty(ICalendarProperty(name: "PRIORITY", value: String(fields.priority.rawValue)))
        }
        if !fields.tags.isEmpty { todo.setProperty(categoriesProperty(fields.tags, keeping: [])) }
        if let project = fields.project {
            todo.setProperty(ICalendarProperty(name: projectProperty, text: project.path))
        }
        if let note = fields.note { todo.setProperty(ICalendarProperty(name: "DESCRIPTION", text: note)) }
        return todo
    }

    /// `YYYYMMDDTHHMMSSZ` for a time, `nil` for none.
    static func utcValue(_ time: UTCTimestamp?) -> String? {
        time?.basic
    }

    /// The object's text: unchanged lines as read, changed and new ones fresh (CRLF, folded).
    public var text: String { ICalendar.serialize(components) }

    /// The master VTODO.
    public var todo: ICalendarComponent { Self.todo(in: components, at: location) }

    /// Writes `fields` into the master VTODO, changing only the properties of the fields that
    /// differ from ``fields``; when any did, DTSTAMP and LAST-MODIFIED become `now` and SEQUENCE
    /// goes up by one (absent counts as 0), so other clients see a new revision. When nothing
    /// differs, the text stays byte-identical.
    ///
    /// - name: SUMMARY gets the new text (its parameters, such as LANGUAGE, kept).
    /// - deadline, due time, start: DUE and DTSTART (`writeDates(_:in:)`).
    /// - status (done included): STATUS (NEEDS-ACTION, IN-PROCESS, COMPLETED, CANCELLED);
    ///   completed: COMPLETED at the todo's completed time (else `now`); any other state:
    ///   COMPLETED removed. A new completed time of a todo still completed rewrites COMPLETED.
    /// - percent: PERCENT-COMPLETE as `writtenPercent(_:over:)` says (100 on completion, as
    ///   every app that completes a task writes it), rewritten only when that changes; none
    ///   removes it. ``fields`` then holds the percent written.
    /// - priority: PRIORITY, removed for none. tags: the CATEGORIES values that are tags are
    ///   replaced by the tags (`+work` as `work`, `@phone` as `@phone`), in one CATEGORIES
    ///   property, after the values that are no tags (one over 100 bytes: they stay). note:
    ///   DESCRIPTION, removed for none. project: `X-TODO-PROJECT`, removed for none. created: CREATED.
    public mutating func update(to fields: TodoFields, now: Int64) {
        guard !fields.means(theSameAs: self.fields) else { return }
        var todo = self.todo
        let stamp = UTCTimestamp(secondsSince1970: now).basic
        if fields.name != self.fields.name {
            var summary = todo.property(named: "SUMMARY") ?? ICalendarProperty(name: "SUMMARY", value: "")
            summary.value = ICalendar.escapeText(fields.name)
            todo.setProperty(summary)
        }
        if fields.deadline != self.fields.deadline || fields.dueTime != self.fields.dueTime
            || fields.start != self.fields.start
        {
            // A repeating todo's series moves with its deadline (this and later occurrences):
            // KDE's marker by as many days as DUE (DTSTART follows the start, below).
            if todo.property(named: "RRULE") != nil, let old = self.fields.deadline, let new = fields.deadline {
                shiftKDEMarker(of: &todo, byDays: old.days(until: new))
            }
            writeDates(fields, in: &todo)
        }
        if fields.status != self.fields.status {
            todo.setProperty(ICalendarProperty(name: "STATUS", value: Self.statusValue(fields.status)))
            if fields.status == .completed {
                todo.setProperty(ICalendarProperty(name: "COMPLETED", value: Self.utcValue(fields.completed) ?? stamp))
            } else {
                todo.removeProperties(named: "COMPLETED")
            }
        } else if fields.status == .completed, fields.completed != self.fields.completed,
            let completed = Self.utcValue(fields.completed)
        {
            todo.setProperty(ICalendarProperty(name: "COMPLETED", value: completed))
        }
        if fields.status != self.fields.status || fields.percent != self.fields.percent {
            let percent = Self.writtenPercent(fields, over: self.fields.status)
            let written = todo.property(named: "PERCENT-COMPLETE")
            if let percent {
                if written.flatMap({ Int(ICalendar.trimmed($0.value)) }) != percent {
                    var property = written ?? ICalendarProperty(name: "PERCENT-COMPLETE", value: "")
                    property.value = String(percent)
                    todo.setProperty(property)
                }
            } else if written != nil {
                todo.removeProperties(named: "PERCENT-COMPLETE")
            }
        }
        if fields.priority != self.fields.priority {
            if fields.priority.isNone {
                todo.removeProperties(named: "PRIORITY")
            } else {
                todo.setProperty(ICalendarProperty(name: "PRIORITY", value: String(fields.priority.rawValue)))
            }
        }
        if !fields.tags.means(theSameAs: self.fields.tags) {
            let others = Self.categories(of: todo).filter { Self.tag(fromCategory: $0) == nil }
            todo.removeProperties(named: "CATEGORIES")
            if !fields.tags.isEmpty || !others.isEmpty {
                todo.setProperty(Self.categoriesProperty(fields.tags, keeping: others))
            }
        }
        if fields.project != self.fields.project {
            if let project = fields.project {
                todo.setProperty(ICalendarProperty(name: Self.projectProperty, text: project.path))
            } else {
                todo.removeProperties(named: Self.projectProperty)
            }
        }
        if fields.note != self.fields.note {
            if let note = fields.note {
                var description =
                    todo.property(named: "DESCRIPTION") ?? ICalendarProperty(name: "DESCRIPTION", value: "")
                description.value = ICalendar.escapeText(note)
                todo.setProperty(description)
            } else {
                todo.removeProperties(named: "DESCRIPTION")
            }
        }
        if fields.repeatRule != self.fields.repeatRule {
            if let rule = fields.repeatRule {
                todo.setProperty(ICalendarProperty(name: "RRULE", value: rule))
                // Our own objects get the DTSTART RFC 5545 asks for beside a rule; another app's
                // object is not given one (RECURRENCE.md T8): its anchor is then its DUE.
                if todo.property(named: "DTSTART") == nil, isOurs, let deadline = fields.deadline,
                    let due = dueValue(deadline, fields.dueTime), let start = Self.timeProperty("DTSTART", due)
                {
                    todo.setProperty(start)
                }
            } else {
                todo.removeProperties(named: "RRULE")
            }
        }
        if fields.repeatFrom != self.fields.repeatFrom {
            if fields.repeatFrom == .done {
                todo.setProperty(ICalendarProperty(name: Self.repeatFromProperty, value: "COMPLETION"))
            } else {
                todo.removeProperties(named: Self.repeatFromProperty)
            }
        }
        if fields.created != self.fields.created {
            if let created = Self.utcValue(fields.created) {
                todo.setProperty(ICalendarProperty(name: "CREATED", value: created))
            } else {
                todo.removeProperties(named: "CREATED")
            }
        }
        todo.setProperty(ICalendarProperty(name: "DTSTAMP", value: stamp))
        todo.setProperty(ICalendarProperty(name: "LAST-MODIFIED", value: stamp))
        let sequence = todo.property(named: "SEQUENCE").flatMap { Int(ICalendar.trimmed($0.value)) } ?? 0
        todo.setProperty(ICalendarProperty(name: "SEQUENCE", value: String(max(sequence, 0) + 1)))
        replaceTodo(with: todo)
        self.fields = fields
        // What the object says now, where it says more than the todo (100 on completion).
        self.fields.percent = Self.percent(todo)
    }

    /// Whether `todo` made this object (its PRODID is ours).
    var isOurs: Bool {
        location.child != nil
            && components[location.component].property(named: "PRODID").map { ICalendar.trimmed($0.value) }
                == Self.productID
    }

    /// Moves KDE's marker of a repeating master's current occurrence by `days` (its form kept).
    private func shiftKDEMarker(of todo: inout ICalendarComponent, byDays days: Int) {
        guard days != 0 else { return }
        for name in [Self.kdeMarker] {
            guard var property = todo.property(named: name), let time = ICalendarTime(property) else { continue }
            let moved: ICalendarTime
            if case .date(let date) = time {
                guard let shifted = date.adding(days: days) else { continue }
                moved = .date(shifted)
            } else {
                moved = time.withSeconds(time.seconds + Int64(days) * 86_400)
            }
            guard let value = moved.value else { continue }
            property.value = value
            todo.setProperty(property)
        }
    }

    mutating func replaceTodo(with todo: ICalendarComponent) {
        if let child = location.child {
            components[location.component].children[child] = .component(todo)
        } else {
            components[location.component] = todo
        }
    }

    // MARK: Writing the dates

    /// Writes DUE and DTSTART for the deadline, due time and start of `fields` into `todo`,
    /// keeping the VTODO valid (RFC 5545 3.8.2.3, 3.6.2: DUE and DTSTART of one value type, DUE
    /// not before DTSTART, DUE or DURATION but never both).
    ///
    /// - DUE: a DATE without a due time; with one, a DATE-TIME as the time was read (floating,
    ///   on its TZID's clock, or UTC).
    /// - DTSTART: a start is written as that day at DUE's time of day, in DUE's form. Without a
    ///   start, a DTSTART the todo has (on the deadline's day, as Apple Reminders writes it)
    ///   becomes DUE's value, and so does the DTSTART RFC 5545 asks for beside our own objects'
    ///   rule; no deadline and no start removes it.
    /// - Absolute alarms (`TRIGGER;VALUE=DATE-TIME`) move by as much as DUE did, so a phone rings
    ///   for the new deadline; relative ones follow DUE by themselves. A DURATION goes.
    ///
    /// Every other property is left as it was.
    func writeDates(_ fields: TodoFields, in todo: inout ICalendarComponent) {
        let oldDue = todo.property(named: "DUE").flatMap(ICalendarTime.init)
        let oldStart = todo.property(named: "DTSTART").flatMap(ICalendarTime.init)
        guard let deadline = fields.deadline else {
            todo.removeProperties(named: "DUE")
            if fields.start == nil {
                todo.removeProperties(named: "DTSTART")
            } else if let start = fields.start, start != self.fields.start || oldStart == nil {
                setTime("DTSTART", startValue(start, like: oldStart) ?? .date(start), in: &todo)
            }
            return
        }
        // A time that cannot be written (past the year 9999 in its form) leaves the date.
        let due = dueValue(deadline, fields.dueTime).flatMap { $0.value == nil ? nil : $0 } ?? .date(deadline)
        setTime("DUE", due, in: &todo)
        todo.removeProperties(named: "DURATION")
        if let start = fields.start, start < deadline {
            let days = Int64(start.days(until: deadline))
            let value =
                startValue(start, like: oldStart).flatMap {
                    $0.hasSameForm(as: due) && $0.seconds <= due.seconds ? $0 : nil
                }
                ?? due.withSeconds(due.seconds - days * 86_400)
            setTime("DTSTART", value, in: &todo)
        } else if oldStart != nil || (fields.repeatRule != nil && isOurs) {
            setTime("DTSTART", due, in: &todo)
        }
        guard let oldDue, oldDue != due else { return }
        let delta =
            oldDue.hasSameForm(as: due)
            ? due.seconds - oldDue.seconds
            : Int64(Self.wallDate(oldDue.seconds).map { $0.days(until: deadline) } ?? 0) * 86_400
        Self.moveAbsoluteAlarms(of: &todo, by: delta)
    }

    /// A start on `date` in the form of the DTSTART the todo had (`old`), at its time of day:
    /// `nil` without one.
    private func startValue(_ date: CalendarDate, like old: ICalendarTime?) -> ICalendarTime? {
        guard let old, let was = Self.time(of: old, timeZone: timeZone)?.date else { return nil }
        if case .date = old { return .date(date) }
        let moved = old.withSeconds(old.seconds + Int64(was.days(until: date)) * 86_400)
        return moved.value == nil ? nil : moved
    }

    /// Sets the property `name` to `time`, its VALUE and TZID as the form needs and its other
    /// parameters kept.
    private func setTime(_ name: String, _ time: ICalendarTime, in todo: inout ICalendarComponent) {
        guard var property = Self.timeProperty(name, time) else { return }
        if let old = todo.property(named: name) {
            property.parameters =
                old.parameters.filter { $0.name != "VALUE" && $0.name != "TZID" } + property.parameters
        }
        todo.setProperty(property)
    }

    /// DUE's value for a deadline and its due time; `nil` outside the years 1...9999. An instant
    /// whose date here is not the deadline (the deadline was set without it) moves to it by as
    /// many days.
    func dueValue(_ deadline: CalendarDate, _ time: TodoDueTime?) -> ICalendarTime? {
        Self.dueValue(deadline, time, timeZone: timeZone)
    }

    /// ``dueValue(_:_:)`` with an instant's date read in `timeZone`.
    static func dueValue(_ deadline: CalendarDate, _ time: TodoDueTime?, timeZone: LocalTimeZone) -> ICalendarTime? {
        let midnight = Int64(deadline.daysSinceEpoch) * 86_400
        switch time {
        case nil:
            return .date(deadline)
        case .wall(let second, let zone)?:
            return .local(wallSeconds: midnight + Int64(second), tzid: zone)
        case .instant(let seconds)?:
            timeZone.prepare()
            guard let date = timeZone.calendarDate(atEpochSeconds: seconds) else { return nil }
            return .utc(epochSeconds: seconds + Int64(date.days(until: deadline)) * 86_400)
        }
    }

    /// Moves every absolute alarm trigger (`TRIGGER;VALUE=DATE-TIME:...Z`) of `todo` by `delta`
    /// seconds.
    static func moveAbsoluteAlarms(of todo: inout ICalendarComponent, by delta: Int64) {
        guard delta != 0 else { return }
        for (index, child) in todo.children.enumerated() {
            guard case .component(var alarm) = child, alarm.name == "VALARM",
                var trigger = alarm.property(named: "TRIGGER"), case .utc(let seconds)? = ICalendarTime(trigger)
            else { continue }
            trigger.value = UTCTimestamp(secondsSince1970: seconds + delta).basic
            alarm.setProperty(trigger)
            todo.children[index] = .component(alarm)
        }
    }

    /// The property `name` holding `time`: `VALUE=DATE` for a date, `TZID` for a zone's wall
    /// clock; `nil` outside the years 1...9999.
    static func timeProperty(_ name: String, _ time: ICalendarTime) -> ICalendarProperty? {
        guard let value = time.value else { return nil }
        let parameters: [ICalendarParameter] =
            switch time {
            case .date: [ICalendarParameter(name: "VALUE", values: ["DATE"])]
            case .utc, .local(_, nil): []
            case .local(_, let tzid?): [ICalendarParameter(name: "TZID", values: [tzid])]
            }
        return ICalendarProperty(name: name, parameters: parameters, value: value)
    }

    // MARK: The mapping

    /// The fields of a VTODO. The caller calls `timeZone.prepare()` first.
    static func fields(of todo: ICalendarComponent, timeZone: LocalTimeZone) -> TodoFields {
        let status = Self.status(todo)
        let due = todo.property(named: "DUE").flatMap { Self.due($0, timeZone: timeZone) }
        let start = time(of: todo.property(named: "DTSTART").flatMap(ICalendarTime.init), timeZone: timeZone)?.date
        return TodoFields(
            name: todo.property(named: "SUMMARY")?.text ?? "",
            deadline: due?.date,
            priority: todo.property(named: "PRIORITY").flatMap { Int(ICalendar.trimmed($0.value)) }
                .flatMap { TodoPriority(rawValue: $0) } ?? .none,
            tags: TodoTags(categories(of: todo).compactMap(tag(fromCategory:))),
            note: todo.property(named: "DESCRIPTION")?.text,
            created: utcTime(todo.property(named: "CREATED")),
            completed: status == .completed ? utcTime(todo.property(named: "COMPLETED")) : nil,
            dueTime: due?.time,
            // A start on the deadline's day (or after it: invalid) is no separate start.
            start: start.flatMap { start in due.map { start < $0.date ? start : nil } ?? start },
            status: status, percent: percent(todo),
            project: (todo.property(named: projectProperty)?.text).flatMap { TodoProject(ICalendar.trimmed($0)) })
    }

    /// The property that holds a todo's project (``TodoProject``): iCalendar has no projects, and
    /// none of the apps on an account shows one; they keep the property as it is, as RFC 5545
    /// 3.8.8.2 asks of an experimental property. Not a category: a project is no tag.
    static let projectProperty = "X-TODO-PROJECT"

    /// A VTODO's PERCENT-COMPLETE (RFC 5545 3.8.1.8): a whole number 0 to 100; anything else
    /// is none, and stays as written until the percent changes here.
    static func percent(_ todo: ICalendarComponent) -> Int? {
        guard let value = todo.property(named: "PERCENT-COMPLETE").flatMap({ Int(ICalendar.trimmed($0.value)) }),
            (0...100).contains(value)
        else { return nil }
        return value
    }

    /// The PERCENT-COMPLETE written for `fields` over an object whose state was `old` (`nil`: a
    /// new object): 100 for a todo completed since (`todo done` sets it so, and so do Tasks.org,
    /// Thunderbird, Nextcloud Tasks, Evolution and todoman beside STATUS:COMPLETED, while
    /// Thunderbird and Nextcloud Tasks show it as the task's progress: another program's
    /// `UPDATE todos SET done = 1` gets it too); none for a 100 left from the completion of a todo
    /// no longer completed (`todo undone` takes it away, another program's `SET done = 0` leaves
    /// it); otherwise its percent.
    static func writtenPercent(_ fields: TodoFields, over old: TodoStatus?) -> Int? {
        if let old, old != .completed, fields.status == .completed { return 100 }
        if old == .completed, fields.status != .completed, fields.percent == 100 { return nil }
        return fields.percent
    }

    /// The STATUS value of a state.
    static func statusValue(_ status: TodoStatus) -> String {
        switch status {
        case .needsAction: "NEEDS-ACTION"
        case .inProcess: "IN-PROCESS"
        case .completed: "COMPLETED"
        case .cancelled: "CANCELLED"
        }
    }

    /// A CREATED or COMPLETED value: a UTC DATE-TIME, as RFC 5545 requires; anything else is none.
    private static func utcTime(_ property: ICalendarProperty?) -> UTCTimestamp? {
        guard let property, case .utc(let seconds)? = ICalendarTime(property) else { return nil }
        return UTCTimestamp(secondsSince1970: seconds)
    }

    /// The values of every CATEGORIES property, in order: each property's comma-separated TEXT
    /// list (RFC 5545 3.8.1.2), split at the commas that are not escaped, then unescaped.
    static func categories(of todo: ICalendarComponent) -> [String] {
        var values: [String] = []
        for property in todo.properties(named: "CATEGORIES") {
            var current = ""
            var escaped = false
            for character in property.value {
                if escaped {
                    current.append(character)
                    escaped = false
                } else if character == "\\" {
                    current.append(character)
                    escaped = true
                } else if character == "," {
                    values.append(ICalendar.unescapeText(current))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            values.append(ICalendar.unescapeText(current))
        }
        return values.map { ICalendar.trimmed($0) }.filter { !$0.isEmpty }
    }

    /// The tag a category is: `@word` an `@` tag, any other a `+` tag, its words as they are
    /// (`Home Improvement` is the tag `+"Home Improvement"`, and is written back as it was: no
    /// quotes are taken off a category, nor put on one); `nil` for a category that is no tag
    /// (``TodoTag``'s rule: a tab or another control character in it, a `"` or a `+` or `@`
    /// after a space in one with spaces, over 100 bytes), which stays on the object as it is.
    static func tag(fromCategory category: String) -> TodoTag? {
        category.first == "@"
            ? TodoTag(word: String(category.dropFirst()), sigil: .at) : TodoTag(word: category, sigil: .plus)
    }

    /// One CATEGORIES property: the values that are no tags, then the tags (`work`, `@phone`,
    /// `Home Improvement`: each one value, whatever its spaces).
    static func categoriesProperty(_ tags: TodoTags, keeping others: [String]) -> ICalendarProperty {
        let values = others + tags.map { $0.sigil == .at ? "@" + $0.word : $0.word }
        return ICalendarProperty(name: "CATEGORIES", value: values.map(ICalendar.escapeText).joined(separator: ","))
    }

    /// A VTODO's state, by its STATUS:
    ///
    /// | STATUS                           | state        | done |
    /// |----------------------------------|--------------|------|
    /// | COMPLETED                        | completed    | yes  |
    /// | CANCELLED                        | cancelled    | yes  |
    /// | IN-PROCESS                       | in process   | no   |
    /// | NEEDS-ACTION                     | needs action | no   |
    /// | none (or unknown), COMPLETED set | completed    | yes  |
    /// | none (or unknown), no COMPLETED  | needs action | no   |
    ///
    /// A cancelled todo counts as done: it is no longer pending, and a todo that is not done
    /// is one still to do. Apps that write no STATUS mark completion by COMPLETED alone.
    public static func status(_ todo: ICalendarComponent) -> TodoStatus {
        switch todo.property(named: "STATUS").map({ ICalendar.trimmed($0.value).uppercased() }) {
        case "COMPLETED": .completed
        case "CANCELLED": .cancelled
        case "IN-PROCESS": .inProcess
        case "NEEDS-ACTION": .needsAction
        default: todo.property(named: "COMPLETED") != nil ? .completed : .needsAction
        }
    }

    /// Whether a VTODO is done: completed or cancelled (``status(_:)``).
    public static func isDone(_ todo: ICalendarComponent) -> Bool { status(todo).isDone }

    /// The deadline and due time of a DUE property (see the type's documentation), or `nil`
    /// when it is not a date. A date-time keeps its own clock: the deadline is its date there
    /// (for UTC, in `timeZone`), never converted to the zone of the device that reads it.
    static func due(_ due: ICalendarProperty, timeZone: LocalTimeZone) -> (date: CalendarDate, time: TodoDueTime?)? {
        time(of: ICalendarTime(due), timeZone: timeZone)
    }

    /// The date and time of day of a DUE or DTSTART value (see ``due(_:timeZone:)``).
    static func time(of value: ICalendarTime?, timeZone: LocalTimeZone) -> (date: CalendarDate, time: TodoDueTime?)? {
        switch value {
        case nil:
            return nil
        case .date(let date)?:
            return (date, nil)
        case .utc(let seconds)?:
            return timeZone.calendarDate(atEpochSeconds: seconds).map { ($0, .instant(epochSeconds: seconds)) }
        case .local(let wall, let tzid)?:
            guard let date = wallDate(wall) else { return nil }
            // A TZID that cannot be kept as a zone (too long, with blanks) is read on the reader's clock.
            let zone = tzid.flatMap { TodoDueTime.isZoneName($0) ? $0 : nil }
            return (date, .wall(secondOfDay: UTCTimestamp.split(wall).second, zone: zone))
        }
    }

    /// The date on the wall clock that reads `wall` seconds since its 1970-01-01T00:00:00.
    static func wallDate(_ wall: Int64) -> CalendarDate? {
        CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(wall).days))
    }

    /// The offset of the VTIMEZONE `tzid` when all its observances have one and the same
    /// TZOFFSETTO (a zone without daylight saving); `nil` otherwise. Recurrences read zones the
    /// same way (``RecurrenceZones``).
    static func fixedOffset(of tzid: String, in timeZones: [ICalendarComponent]) -> Int? {
        guard
            let zone = timeZones.first(where: { $0.property(named: "TZID").map { ICalendar.trimmed($0.value) } == tzid }
            )
        else { return nil }
        let offsets = (zone.components(named: "STANDARD") + zone.components(named: "DAYLIGHT"))
            .map { $0.property(named: "TZOFFSETTO").flatMap { ICalendarTime.offsetSeconds($0.value) } }
        guard let first = offsets.first, let offset = first, offsets.allSatisfy({ $0 == offset }) else { return nil }
        return offset
    }

    /// The master VTODO's place: the first VTODO without RECURRENCE-ID, else the first VTODO
    /// (an object holding only overridden occurrences).
    private static func masterLocation(in components: [ICalendarComponent]) -> (component: Int, child: Int?)? {
        var candidates: [(component: Int, child: Int?)] = []
        for (index, component) in components.enumerated() {
            if component.name == "VTODO" { candidates.append((index, nil)) }
            for (childIndex, child) in component.children.enumerated() {
                if case .component(let nested) = child, nested.name == "VTODO" {
                    candidates.append((index, childIndex))
                }
            }
        }
        return candidates.first { todo(in: components, at: $0).property(named: "RECURRENCE-ID") == nil }
            ?? candidates.first
    }

    static func todo(in components: [ICalendarComponent], at location: (component: Int, child: Int?))
        -> ICalendarComponent
    {
        guard let child = location.child else { return components[location.component] }
        if case .component(let todo) = components[location.component].children[child] { return todo }
        return components[location.component]
    }

    public static func == (lhs: VTodoObject, rhs: VTodoObject) -> Bool {
        lhs.components == rhs.components && lhs.uid == rhs.uid && lhs.fields == rhs.fields
    }
}
