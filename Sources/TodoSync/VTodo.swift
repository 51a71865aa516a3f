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
/// STATUS, COMPLETED and PERCENT-COMPLETE, PRIORITY, CATEGORIES, DESCRIPTION, CREATED) and
/// the revision stamps (DTSTAMP, LAST-MODIFIED, SEQUENCE), and no others, but for what a new
/// deadline makes invalid: a DTSTART after it, moved back, and a DURATION, removed.
///
/// The mapping, read from the master VTODO (the one without RECURRENCE-ID, else the first):
/// - name: SUMMARY as TEXT, unescaped; none is `""`.
/// - deadline: DUE as a date. `DUE;VALUE=DATE:20240501` is that date. A DATE-TIME is the
///   calendar date, in the given `LocalTimeZone`, of the instant it names: `...Z` is UTC;
///   with `TZID=Name` it is that zone's wall clock (the system's tz database, else the
///   object's own VTIMEZONE when it has a single offset, else the wall date as written);
///   floating (neither) is its own wall date. A DUE that is not a date at all is no deadline
///   (and stays as it is until the deadline is set here).
/// - done: see ``isDone(_:)``.
/// - priority: PRIORITY when it is 0-9; anything else is none.
/// - tags: the CATEGORIES values that are tags (`@word`, or any other single word); the
///   others are no field, and stay on the object.
/// - note: DESCRIPTION as TEXT, unescaped; none is `nil`.
/// - created: CREATED; completed: COMPLETED while done. Each only as a UTC DATE-TIME, as RFC
///   5545 requires; anything else is none.
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
    /// The zone the fields were read in: an update writes a date-time DUE that reads back, in
    /// this zone, as the deadline it was given.
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

    /// A new object has no DTSTART, so its DUE is always a DATE and `timeZone` is never used.
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
    /// SUMMARY, DUE (a DATE, when there is a deadline), STATUS, COMPLETED when done (the todo's
    /// time, else `now`), and PRIORITY, CATEGORIES and DESCRIPTION when it has them.
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
        if let deadline = fields.deadline {
            // A repeating todo's DTSTART is its DUE (RFC 5545 3.8.2.4 requires one beside RRULE;
            // jtx Board needs it, Apple Reminders writes the same).
            if fields.repeatRule != nil {
                var start = dueProperty(deadline)
                start.name = "DTSTART"
                todo.setProperty(start)
            }
            todo.setProperty(dueProperty(deadline))
        }
        if let rule = fields.repeatRule { todo.setProperty(ICalendarProperty(name: "RRULE", value: rule)) }
        if fields.repeatFrom == .done {
            todo.setProperty(ICalendarProperty(name: repeatFromProperty, value: "COMPLETION"))
        }
        todo.setProperty(ICalendarProperty(name: "STATUS", value: fields.isDone ? "COMPLETED" : "NEEDS-ACTION"))
        if fields.isDone {
            todo.setProperty(ICalendarProperty(name: "COMPLETED", value: utcValue(fields.completed) ?? stamp))
        }
        if !fields.priority.isNone {
            todo.setProperty(ICalendarProperty(name: "PRIORITY", value: String(fields.priority.rawValue)))
        }
        if !fields.tags.isEmpty { todo.setProperty(categoriesProperty(fields.tags, keeping: [])) }
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
    /// - deadline: DUE takes DTSTART's value type (RFC 5545 3.8.2.3), other parameters dropped:
    ///   `DUE;VALUE=DATE:YYYYMMDD` without DTSTART or beside a DATE one; beside a DATE-TIME one,
    ///   a DATE-TIME in DTSTART's form that reads back as the deadline, at the previous DUE's
    ///   time of day or else noon. A DTSTART after the new DUE moves back to the deadline's day,
    ///   and a DURATION goes (RFC 5545 allows DUE or DURATION, never both). No deadline removes
    ///   DUE and leaves DTSTART and DURATION as they are.
    /// - done: STATUS:COMPLETED, COMPLETED at the todo's completed time (else `now`), and
    ///   PERCENT-COMPLETE:100 when the object has one; not done: STATUS:NEEDS-ACTION, COMPLETED
    ///   removed, and PERCENT-COMPLETE removed when it said 100. A new completed time of a todo
    ///   still done rewrites COMPLETED.
    /// - priority: PRIORITY, removed for none. tags: the CATEGORIES values that are tags are
    ///   replaced by the tags (`+work` as `work`, `@phone` as `@phone`), in one CATEGORIES
    ///   property, after the values that are no tags (`Home Office`: they stay). note:
    ///   DESCRIPTION, removed for none. created: CREATED.
    public mutating func update(to fields: TodoFields, now: Int64) {
        guard !fields.means(theSameAs: self.fields) else { return }
        var todo = self.todo
        let stamp = UTCTimestamp(secondsSince1970: now).basic
        if fields.name != self.fields.name {
            var summary = todo.property(named: "SUMMARY") ?? ICalendarProperty(name: "SUMMARY", value: "")
            summary.value = ICalendar.escapeText(fields.name)
            todo.setProperty(summary)
        }
        if fields.deadline != self.fields.deadline {
            if let deadline = fields.deadline {
                // A repeating todo's series moves with its deadline (this and later occurrences):
                // DTSTART (and KDE's marker) by as many days as DUE.
                if todo.property(named: "RRULE") != nil, let old = self.fields.deadline {
                    shiftSeriesStart(of: &todo, byDays: old.days(until: deadline))
                }
                setDeadline(deadline, in: &todo)
            } else {
                todo.removeProperties(named: "DUE")
            }
        }
        if fields.isDone != self.fields.isDone {
            if fields.isDone {
                todo.setProperty(ICalendarProperty(name: "STATUS", value: "COMPLETED"))
                todo.setProperty(ICalendarProperty(name: "COMPLETED", value: Self.utcValue(fields.completed) ?? stamp))
                if todo.property(named: "PERCENT-COMPLETE") != nil {
                    todo.setProperty(ICalendarProperty(name: "PERCENT-COMPLETE", value: "100"))
                }
            } else {
                todo.setProperty(ICalendarProperty(name: "STATUS", value: "NEEDS-ACTION"))
                todo.removeProperties(named: "COMPLETED")
                if let percent = todo.property(named: "PERCENT-COMPLETE"), Int(ICalendar.trimmed(percent.value)) == 100
                {
                    todo.removeProperties(named: "PERCENT-COMPLETE")
                }
            }
        }
        if fields.isDone, fields.isDone == self.fields.isDone, fields.completed != self.fields.completed,
            let completed = Self.utcValue(fields.completed)
        {
            todo.setProperty(ICalendarProperty(name: "COMPLETED", value: completed))
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
                if todo.property(named: "DTSTART") == nil, isOurs, let deadline = fields.deadline {
                    var start = Self.dueProperty(deadline)
                    start.name = "DTSTART"
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
    }

    /// Whether `todo` made this object (its PRODID is ours).
    var isOurs: Bool {
        location.child != nil
            && components[location.component].property(named: "PRODID").map { ICalendar.trimmed($0.value) }
                == Self.productID
    }

    /// Moves a repeating master's DTSTART and KDE's marker by `days` (their own form kept).
    private func shiftSeriesStart(of todo: inout ICalendarComponent, byDays days: Int) {
        guard days != 0 else { return }
        for name in ["DTSTART", Self.kdeMarker] {
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

    // MARK: Writing a deadline

    /// Writes DUE for `deadline` into `todo`, keeping the VTODO valid beside its DTSTART
    /// (RFC 5545 3.8.2.3: DUE has DTSTART's value type and is not before it).
    ///
    /// - Without DTSTART, or beside a DATE one: `DUE;VALUE=DATE:YYYYMMDD`.
    /// - Beside a DATE-TIME DTSTART: a DATE-TIME in the same form (UTC, floating, or DTSTART's
    ///   TZID) that reads back (``deadline(_:timeZones:timeZone:)`` in the zone it was read in)
    ///   as exactly `deadline`. The time is the previous DUE's time of day when that DUE was in
    ///   the same form, so an app's "due at 17:00" stays 17:00; otherwise noon on the deadline
    ///   in the sync's zone, written in DTSTART's form. Noon, because it is twelve hours from
    ///   either end of the day: no daylight saving change (they happen at night) and no
    ///   rounding moves it to another date on read-back, and a reader in a zone up to eleven
    ///   hours away still sees the same date. Each choice is checked by reading it back; a
    ///   floating noon on the deadline (its own wall date in any zone) is the last resort, for
    ///   dates at the ends of the years 1...9999 that the other forms cannot write. When that
    ///   time is before a DTSTART on the deadline itself, DUE is DTSTART's time instead.
    /// - A DTSTART later than the new DUE (on a later day) moves back to the start of the
    ///   deadline's day: a DATE to the deadline, a DATE-TIME to midnight in the sync's zone in
    ///   its own form (its parameters kept), never past DUE.
    /// - A DURATION is removed: RFC 5545 allows DUE or DURATION, never both.
    ///
    /// Every other property is left as it was.
    private func setDeadline(_ deadline: CalendarDate, in todo: inout ICalendarComponent) {
        let timeZones = location.child == nil ? [] : components[location.component].components(named: "VTIMEZONE")
        let startProperty = todo.property(named: "DTSTART")
        let start = startProperty.flatMap(ICalendarTime.init)
        let due: ICalendarProperty
        if let start, !start.hasSameForm(as: .date(deadline)) {
            due = dueProperty(
                for: deadline, like: start, previous: todo.property(named: "DUE").flatMap(ICalendarTime.init),
                timeZones: timeZones)
        } else {
            due = Self.dueProperty(deadline)
        }
        todo.setProperty(due)
        // RFC 5545 allows DUE or DURATION, never both: a deadline set here replaces the duration.
        todo.removeProperties(named: "DURATION")
        guard var startProperty, let start, let dueTime = ICalendarTime(due), dueTime.seconds < start.seconds else {
            return
        }
        var moved = time(atSecond: 0, of: deadline, like: start, timeZones: timeZones) ?? dueTime
        if moved.value == nil || !moved.hasSameForm(as: dueTime) || moved.seconds > dueTime.seconds { moved = dueTime }
        guard let value = moved.value else { return }
        startProperty.value = value
        if case .local(_, let tzid) = moved, tzid == nil {
            // The last-resort floating DUE: DTSTART follows it into the floating form.
            startProperty.parameters.removeAll { $0.name == "TZID" }
        }
        todo.setProperty(startProperty)
    }

    /// A DATE-TIME DUE in `start`'s form that reads back as `deadline` (see ``setDeadline(_:in:)``).
    private func dueProperty(
        for deadline: CalendarDate, like start: ICalendarTime, previous: ICalendarTime?,
        timeZones: [ICalendarComponent]
    ) -> ICalendarProperty {
        let day = Int64(deadline.daysSinceEpoch) * 86_400
        var candidates: [ICalendarTime] = []
        if let previous, previous.hasSameForm(as: start) {
            let second = Int64(UTCTimestamp.split(previous.seconds).second)
            // The same time of day on the deadline, or a day either side of it: in UTC or
            // another zone's clock the deadline may begin the day before or after.
            candidates += [0, -1, 1].map { start.withSeconds(day + $0 * 86_400 + second) }
        }
        if let noon = time(atSecond: 43_200, of: deadline, like: start, timeZones: timeZones) {
            candidates.append(noon)
        }
        candidates.append(.local(wallSeconds: day + 43_200, tzid: nil))
        func readsBack(_ time: ICalendarTime) -> ICalendarProperty? {
            guard let property = Self.timeProperty("DUE", time),
                Self.deadline(property, timeZones: timeZones, timeZone: timeZone) == deadline
            else { return nil }
            return property
        }
        for candidate in candidates {
            guard let property = readsBack(candidate) else { continue }
            // A DTSTART later on the deadline itself: DUE at DTSTART, which then stays.
            if candidate.hasSameForm(as: start), candidate.seconds < start.seconds, let atStart = readsBack(start) {
                return atStart
            }
            return property
        }
        // Not reached: a floating noon on the deadline reads back as the deadline.
        return Self.dueProperty(deadline)
    }

    /// The instant `second` seconds into `date` on the sync zone's clock, written in `form`'s
    /// way: as it is in UTC; on the TZID's clock (the tz database's zone, else the VTIMEZONE's
    /// single offset). A floating time, and one in a zone known by neither, is read back as
    /// its wall date, so it is that second of `date` on its own clock. `nil` when the zone has
    /// no such instant.
    private func time(
        atSecond second: Int, of date: CalendarDate, like form: ICalendarTime,
        timeZones: [ICalendarComponent]
    ) -> ICalendarTime? {
        let wall = Int64(date.daysSinceEpoch) * 86_400 + Int64(second)
        switch form {
        case .date:
            return .date(date)
        case .local(_, nil):
            return .local(wallSeconds: wall, tzid: nil)
        case .utc:
            return timeZone.epochSeconds(atSecond: second, of: date).map { .utc(epochSeconds: $0) }
        case .local(_, let tzid?):
            guard let instant = timeZone.epochSeconds(atSecond: second, of: date) else { return nil }
            if let zone = ZoneInfo.load(named: tzid) {
                return .local(wallSeconds: instant + Int64(zone.offset(atUTC: instant)), tzid: tzid)
            }
            if let offset = Self.fixedOffset(of: tzid, in: timeZones) {
                return .local(wallSeconds: instant + Int64(offset), tzid: tzid)
            }
            return .local(wallSeconds: wall, tzid: tzid)
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

    /// `DUE;VALUE=DATE:YYYYMMDD`.
    static func dueProperty(_ deadline: CalendarDate) -> ICalendarProperty {
        ICalendarProperty(
            name: "DUE", parameters: [ICalendarParameter(name: "VALUE", values: ["DATE"])],
            value: ICalendarTime.dateValue(deadline))
    }

    /// The fields of a VTODO; `timeZones` are the VTIMEZONEs of its VCALENDAR. The caller
    /// calls `timeZone.prepare()` first.
    static func fields(of todo: ICalendarComponent, timeZones: [ICalendarComponent], timeZone: LocalTimeZone)
        -> TodoFields
    {
        let done = isDone(todo)
        return TodoFields(
            name: todo.property(named: "SUMMARY")?.text ?? "",
            deadline: todo.property(named: "DUE").flatMap { deadline($0, timeZones: timeZones, timeZone: timeZone) },
            isDone: done,
            priority: todo.property(named: "PRIORITY").flatMap { Int(ICalendar.trimmed($0.value)) }
                .flatMap { TodoPriority(rawValue: $0) } ?? .none,
            tags: TodoTags(categories(of: todo).compactMap(tag(fromCategory:))),
            note: todo.property(named: "DESCRIPTION")?.text,
            created: utcTime(todo.property(named: "CREATED")),
            completed: done ? utcTime(todo.property(named: "COMPLETED")) : nil)
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

    /// The tag a category is: `@word` an `@` tag, another single word a `+` tag; `nil` for a
    /// category that is no tag (one with a space, say), which stays on the object as it is.
    static func tag(fromCategory category: String) -> TodoTag? {
        category.first == "@" ? TodoTag(category) : TodoTag(word: category, sigil: .plus)
    }

    /// One CATEGORIES property: the values that are no tags, then the tags (`work`, `@phone`).
    static func categoriesProperty(_ tags: TodoTags, keeping others: [String]) -> ICalendarProperty {
        let values = others + tags.map { $0.sigil == .at ? "@" + $0.word : $0.word }
        return ICalendarProperty(name: "CATEGORIES", value: values.map(ICalendar.escapeText).joined(separator: ","))
    }

    /// Whether a VTODO is done, by its STATUS:
    ///
    /// | STATUS                          | done |
    /// |---------------------------------|------|
    /// | COMPLETED                       | yes  |
    /// | CANCELLED                       | yes  |
    /// | NEEDS-ACTION, IN-PROCESS        | no   |
    /// | none (or unknown), COMPLETED set| yes  |
    /// | none (or unknown), no COMPLETED | no   |
    ///
    /// A cancelled todo counts as done: it is no longer pending, and a todo that is not done
    /// is one still to do. Apps that write no STATUS mark completion by COMPLETED alone.
    public static func isDone(_ todo: ICalendarComponent) -> Bool {
        switch todo.property(named: "STATUS").map({ ICalendar.trimmed($0.value).uppercased() }) {
        case "COMPLETED", "CANCELLED": true
        case "NEEDS-ACTION", "IN-PROCESS": false
        default: todo.property(named: "COMPLETED") != nil
        }
    }

    /// The calendar date of a DUE property (see the type's documentation), or `nil` when it is
    /// not a date.
    static func deadline(_ due: ICalendarProperty, timeZones: [ICalendarComponent], timeZone: LocalTimeZone)
        -> CalendarDate?
    {
        switch ICalendarTime(due) {
        case nil:
            return nil
        case .date(let date)?:
            return date
        case .utc(let seconds)?:
            return timeZone.calendarDate(atEpochSeconds: seconds)
        case .local(let wall, nil)?:
            return wallDate(wall)
        case .local(let wall, let tzid?)?:
            if let zone = ZoneInfo.load(named: tzid) {
                return timeZone.calendarDate(atEpochSeconds: zone.utc(fromWall: wall))
            }
            if let offset = fixedOffset(of: tzid, in: timeZones) {
                return timeZone.calendarDate(atEpochSeconds: wall - Int64(offset))
            }
            return wallDate(wall)
        }
    }

    /// The date on the wall clock that reads `wall` seconds since its 1970-01-01T00:00:00.
    private static func wallDate(_ wall: Int64) -> CalendarDate? {
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
