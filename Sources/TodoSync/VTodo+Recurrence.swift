import TodoInterop
import TodoStore

/// Repeating todos on the VTODO (RECURRENCE.md §5): read in every style other apps write, and
/// finished in the style every recurrence-aware app reads.
///
/// Reading folds the object into one current occurrence (§5.3): the master's RRULE is the
/// todo's rule, as written; its deadline is the first occurrence, from the master's anchor
/// (DTSTART, else DUE) or from KDE's `X-KDE-LIBKCAL-DTRECURRENCE`, that no RECURRENCE-ID
/// component marks done (Thunderbird, eM Client, jtx Board write those), its name that
/// component's SUMMARY when an open one has its own. A master marked COMPLETED or CANCELLED ends
/// the series: the todo is done. `X-TODO-REPEAT-FROM:COMPLETION` says it repeats from the day it
/// was done.
///
/// Finishing an occurrence here (§5.4) advances the master of a one-VTODO object (style A:
/// DTSTART and DUE move together to the next occurrence in their own form and zone, COUNT is
/// counted down, RDATEs passed are dropped, absolute alarms and KDE's marker move along), or,
/// on an object that already has RECURRENCE-ID components, adds one for the occurrence, marked
/// COMPLETED (style B: moving that master would orphan them). It never adds a RECURRENCE-ID
/// component to a one-VTODO object (Tasks.org stops syncing a list at one), never writes an RRULE
/// into one, never makes a second object.
extension VTodoObject {
    /// The property that says a todo repeats from the day it was done (RRULE cannot say it).
    static let repeatFromProperty = "X-TODO-REPEAT-FROM"
    /// KDE's current occurrence of a todo whose DTSTART stays at the series' start.
    static let kdeMarker = "X-KDE-LIBKCAL-DTRECURRENCE"
    /// The most occurrences a fold looks through for the first open one.
    static let foldLimit = 1_000

    // MARK: Reading

    /// Sets `fields`' rule and, for a series other apps follow with RECURRENCE-ID components or
    /// KDE's marker, its current occurrence (deadline, name) and whether it is over.
    static func foldRecurrence(
        into fields: inout TodoFields, master: ICalendarComponent, overrides: [ICalendarComponent],
        timeZones: [ICalendarComponent], timeZone: LocalTimeZone
    ) {
        fields.repeatRule = master.property(named: "RRULE").map { ICalendar.trimmed($0.value) }
        fields.repeatFrom =
            master.property(named: repeatFromProperty).map { ICalendar.trimmed($0.value).uppercased() } == "COMPLETION"
            ? .done : .due
        guard fields.repeatRule != nil, !isDone(master), !overrides.isEmpty || master.property(named: kdeMarker) != nil,
            let current = currentOccurrence(master: master, overrides: overrides, timeZones: timeZones)
        else { return }
        switch current {
        case .over:
            fields.isDone = true
        case .at(let occurrence, let due, let override):
            // Without a DUE (only a DTSTART) the occurrence has a start but no deadline.
            let current = time(of: due, timeZone: timeZone)
            fields.deadline = current?.date
            fields.dueTime = current?.time
            // A start before its due day is a separate start.
            let start = startTime(of: occurrence, master: master).flatMap { time(of: $0, timeZone: timeZone)?.date }
            fields.start = start.flatMap { start in current.map { start < $0.date ? start : nil } ?? start }
            if let name = override?.property(named: "SUMMARY")?.text { fields.name = name }
        }
    }

    /// A series' current occurrence.
    enum CurrentOccurrence {
        /// The occurrence (in the anchor's form), its due time (none without a DUE), and the
        /// RECURRENCE-ID component that changes it, if one does (not done).
        case at(ICalendarTime, due: ICalendarTime?, override: ICalendarComponent?)
        /// Every occurrence is done: the series is over.
        case over
    }

    /// The first occurrence from the anchor, or KDE's marker, that no RECURRENCE-ID component
    /// marks done; `nil` when that cannot be told (no anchor, a rule not expanded here, nothing
    /// open within ``foldLimit`` occurrences).
    static func currentOccurrence(
        master: ICalendarComponent, overrides: [ICalendarComponent], timeZones: [ICalendarComponent]
    ) -> CurrentOccurrence? {
        guard let set = try? RecurrenceSet(master: master, timeZones: timeZones), set.isExpandable else { return nil }
        var finished: Set<OccurrenceKey> = []
        var open: [OccurrenceKey: ICalendarComponent] = [:]
        for override in overrides {
            guard let id = override.property(named: "RECURRENCE-ID").flatMap(ICalendarTime.init),
                let occurrence = set.occurrence(identifiedBy: id)
            else { continue }
            if isDone(override) {
                finished.insert(set.key(of: occurrence))
            } else {
                open[set.key(of: occurrence)] = override
            }
        }
        var start = set.anchor
        if let marker = master.property(named: kdeMarker).flatMap(ICalendarTime.init),
            marker.hasSameForm(as: set.anchor),
            marker.seconds >= set.anchor.seconds, set.contains(marker) == true
        {
            start = marker
        }
        let listing = set.occurrences(onOrAfter: start, limit: foldLimit)
        for occurrence in listing.occurrences where !finished.contains(set.key(of: occurrence)) {
            let override = open[set.key(of: occurrence)]
            let due =
                override?.property(named: "DUE").flatMap(ICalendarTime.init) ?? dueTime(of: occurrence, master: master)
            return .at(occurrence, due: due, override: override)
        }
        return listing.then == .end ? .over : nil
    }

    /// An occurrence's due time: the occurrence plus the master's DUE − DTSTART, on the wall
    /// clock (RFC 5545 3.8.5.3; Tasks.org and Evolution keep the wall time), in DUE's form; the
    /// occurrence itself when DUE is the anchor (no DTSTART) or in another form; `nil` when the
    /// master has no DUE.
    static func dueTime(of occurrence: ICalendarTime, master: ICalendarComponent) -> ICalendarTime? {
        guard let due = master.property(named: "DUE").flatMap(ICalendarTime.init) else { return nil }
        guard RecurrenceSet.anchorName(of: master) == "DTSTART",
            let start = master.property(named: "DTSTART").flatMap(ICalendarTime.init), due.hasSameForm(as: start)
        else { return occurrence }
        return occurrence.withSeconds(occurrence.seconds + (due.seconds - start.seconds))
    }

    /// An occurrence's start: the occurrence itself when the series counts from DTSTART; when it
    /// counts from DUE, the occurrence less the master's DUE − DTSTART (Tasks.org's "hide until"
    /// keeps its distance); `nil` when the master has no DTSTART, or one in another form.
    static func startTime(of occurrence: ICalendarTime, master: ICalendarComponent) -> ICalendarTime? {
        guard let start = master.property(named: "DTSTART").flatMap(ICalendarTime.init) else { return nil }
        guard RecurrenceSet.anchorName(of: master) == "DUE" else { return occurrence }
        guard let due = master.property(named: "DUE").flatMap(ICalendarTime.init), due.hasSameForm(as: start) else {
            return nil
        }
        return occurrence.withSeconds(occurrence.seconds - (due.seconds - start.seconds))
    }

    /// The VTODOs of the object that change one occurrence of the master (same UID, with a
    /// RECURRENCE-ID).
    var overrides: [ICalendarComponent] {
        Self.todos(withUID: uid, in: components, at: location).filter { $0.property(named: "RECURRENCE-ID") != nil }
    }

    /// The VTODOs beside the master at `location` (the master itself included) whose UID is `uid`:
    /// its overrides, and any other master.
    static func todos(
        withUID uid: String?, in components: [ICalendarComponent], at location: (component: Int, child: Int?)
    ) -> [ICalendarComponent] {
        let container = location.child == nil ? components : components[location.component].components(named: "VTODO")
        return container.filter { $0.name == "VTODO" && Self.uid(of: $0) == uid }
    }

    var timeZones: [ICalendarComponent] {
        location.child == nil ? [] : components[location.component].components(named: "VTIMEZONE")
    }

    /// The fields of the object as a whole: the master's, with its series folded in.
    static func foldedFields(
        components: [ICalendarComponent], location: (component: Int, child: Int?), timeZone: LocalTimeZone
    ) -> TodoFields {
        let master = todo(in: components, at: location)
        let timeZones = location.child == nil ? [] : components[location.component].components(named: "VTIMEZONE")
        var fields = Self.fields(of: master, timeZone: timeZone)
        let overrides = todos(withUID: Self.uid(of: master), in: components, at: location).filter {
            $0.property(named: "RECURRENCE-ID") != nil
        }
        foldRecurrence(into: &fields, master: master, overrides: overrides, timeZones: timeZones, timeZone: timeZone)
        return fields
    }

    /// The occurrences the RECURRENCE-ID components of a repeating master finish, as the todo's
    /// history: marked done (`.override`, at its COMPLETED time) or cancelled (`.skip`), on the
    /// local date of the occurrence's DUE, oldest first, one per date. `changed` counts the
    /// components that change an occurrence but finish none, other than the `current` one, whose
    /// name and due the todo takes, and those whose date cannot be told.
    static func finishedOccurrences(
        master: ICalendarComponent, overrides: [ICalendarComponent], current: CalendarDate?,
        timeZones: [ICalendarComponent], timeZone: LocalTimeZone
    ) -> (history: [ImportedCompletion], changed: Int) {
        guard master.property(named: "RRULE") != nil || master.property(named: "RDATE") != nil else {
            return ([], overrides.count)
        }
        var history: [ImportedCompletion] = []
        var changed = 0
        for override in overrides {
            guard let id = override.property(named: "RECURRENCE-ID").flatMap(ICalendarTime.init) else {
                changed += 1
                continue
            }
            let due =
                override.property(named: "DUE")
                ?? dueTime(of: id, master: master).flatMap { timeProperty("DUE", $0) }
                ?? timeProperty("DUE", id)
            let date = due.flatMap { Self.due($0, timeZone: timeZone)?.date }
            guard let date, isDone(override) else {
                if date == nil || date != current { changed += 1 }
                continue
            }
            // The same occurrence finished twice is one finished occurrence.
            guard !history.contains(where: { $0.occurrence == date }) else { continue }
            let cancelled = override.property(named: "STATUS").map { ICalendar.trimmed($0.value).uppercased() }
            var completedAt: UTCTimestamp?
            if let property = override.property(named: "COMPLETED"), case .utc(let seconds)? = ICalendarTime(property) {
                completedAt = UTCTimestamp(secondsSince1970: seconds)
            }
            history.append(
                cancelled == "CANCELLED"
                    ? ImportedCompletion(occurrence: date, completedAt: nil, source: .skip)
                    : ImportedCompletion(occurrence: date, completedAt: completedAt, source: .override))
        }
        history.sort { $0.occurrence < $1.occurrence }
        return (history, changed)
    }

    /// The occurrences this object's RECURRENCE-ID components finish (Thunderbird's, eM
    /// Client's, jtx Board's way of completing one), oldest first: see
    /// ``finishedOccurrences(master:overrides:current:timeZones:timeZone:)``.
    func finishedOccurrences(timeZone: LocalTimeZone) -> [ImportedCompletion] {
        let overrides = overrides
        guard !overrides.isEmpty else { return [] }
        return Self.finishedOccurrences(
            master: todo, overrides: overrides, current: nil, timeZones: timeZones, timeZone: timeZone
        ).history
    }

    // MARK: Finishing an occurrence

    /// What finishing an occurrence did to the object.
    public enum OccurrenceFinish: Sendable, Equatable {
        /// Finished it: the object moved on (or its series ended).
        case finished
        /// The object is past that occurrence already (another device or app finished it): the
        /// same completion, nothing to write.
        case alreadyPast
        /// The object does not repeat, its series is over, or its rule cannot be followed here.
        case notApplicable
    }

    /// Finishes the occurrence whose due date (in this object's zone) is `date`, as
    /// ``RepeatingTodo`` finished it here: idempotent by occurrence, so that a completion two
    /// devices made, or one the server already has, advances the series once. Occurrences before
    /// `date` still open on the object are finished first (another device finished fewer).
    ///
    /// - Parameters:
    ///   - date: the finished occurrence's due date, as the todo had it then.
    ///   - how: done, skipped, caught up or the series ended.
    ///   - completedAt: when it was done (seconds since 1970, UTC).
    ///   - completedOn: the local date it was done on, for a series that repeats from done.
    ///   - now: the revision's stamp (DTSTAMP, LAST-MODIFIED), seconds since 1970.
    public mutating func finishOccurrence(
        on date: CalendarDate, _ how: RepeatingTodo.Finish, completedAt: Int64, completedOn: CalendarDate,
        now: Int64
    ) -> OccurrenceFinish {
        var result = OccurrenceFinish.notApplicable
        for _ in 0..<400 {
            let master = todo
            guard master.property(named: "RRULE") != nil || !master.properties(named: "RDATE").isEmpty,
                !Self.isDone(master),
                let current = Self.currentOccurrence(master: master, overrides: overrides, timeZones: timeZones)
                    ?? currentAnchorOccurrence(master)
            else { return result }
            guard case .at(let occurrence, let due, _) = current,
                let dueDate = Self.time(of: due ?? occurrence, timeZone: timeZone)?.date
            else { return result == .notApplicable ? .notApplicable : result }
            if dueDate > date { return result == .finished ? .finished : .alreadyPast }
            guard finish(occurrence, how, completedAt: completedAt, completedOn: completedOn, now: now) else {
                return result
            }
            result = .finished
            if dueDate == date { break }
        }
        fields = Self.foldedFields(components: components, location: location, timeZone: timeZone)
        return result
    }

    /// The anchor as the current occurrence of a one-VTODO object (style A: the master is moved
    /// along, so its anchor is where the series stands).
    private func currentAnchorOccurrence(_ master: ICalendarComponent) -> CurrentOccurrence? {
        guard
            let anchor = master.property(named: RecurrenceSet.anchorName(of: master)).flatMap(
                ICalendarTime.init)
        else { return nil }
        return .at(anchor, due: Self.dueTime(of: anchor, master: master), override: nil)
    }

    /// Finishes `occurrence`, the current one: style B on an object with RECURRENCE-ID
    /// components, style A otherwise; the series ends when it has no occurrence after it (or
    /// `how` ends it). False when the rule cannot be followed.
    private mutating func finish(
        _ occurrence: ICalendarTime, _ how: RepeatingTodo.Finish, completedAt: Int64, completedOn: CalendarDate,
        now: Int64
    ) -> Bool {
        var master = todo
        guard let set = try? RecurrenceSet(master: master, timeZones: timeZones), set.isCompletable else {
            return false
        }
        let next: RecurrenceSet.Lookup
        switch how {
        case .endSeries:
            next = .end
        case .catchUp:
            let today = ICalendarTime.date(completedOn)
            next = set.first(onOrAfter: today.seconds > occurrence.seconds ? today : occurrence).occurrenceAfter(
                occurrence, in: set)
        case .done
        where master.property(named: Self.repeatFromProperty).map({ ICalendar.trimmed($0.value).uppercased() })
            == "COMPLETION":
            next = set.nextCountedFromCompletion(on: completedOn) ?? set.first(after: occurrence)
        case .done, .skip:
            next = set.first(after: occurrence)
        }
        let stamp = UTCTimestamp(secondsSince1970: now).basic
        if !overrides.isEmpty, how != .endSeries {
            guard case .occurrence = next else { return endSeries(&master, completedAt: completedAt, stamp: stamp) }
            appendOverride(for: occurrence, master: master, how: how, completedAt: completedAt, stamp: stamp)
            return true
        }
        guard case .occurrence(let target) = next else {
            if case .end = next { return endSeries(&master, completedAt: completedAt, stamp: stamp) }
            return false
        }
        advance(&master, from: occurrence, to: target, set: set)
        Self.stamp(&master, stamp)
        replaceTodo(with: master)
        return true
    }

    /// Style A: the master's anchor moves to `target` (§5.4 steps 3 to 8).
    private func advance(
        _ master: inout ICalendarComponent, from occurrence: ICalendarTime, to target: ICalendarTime,
        set: RecurrenceSet
    ) {
        let anchor = set.anchor
        let delta = target.seconds - occurrence.seconds
        // COUNT: each rule loses what it made between the old anchor and the new one.
        if let counts = set.generatedCounts(from: anchor, to: target) {
            var rules = master.properties(named: "RRULE")
            for index in rules.indices where index < counts.count {
                guard let rule = try? RecurrenceRule(parsing: rules[index].value), let count = rule.count else {
                    continue
                }
                rules[index].value = rule.settingCount(max(1, count - counts[index]))
            }
            replaceProperties(named: "RRULE", with: rules, in: &master)
        }
        // The anchor moves to the next occurrence, and the other of DTSTART and DUE keeps its
        // distance from it (on the wall clock, in its own form).
        let anchorName = RecurrenceSet.anchorName(of: master)
        if var anchorProperty = master.property(named: anchorName), let value = target.value {
            let oldAnchor = ICalendarTime(anchorProperty)
            anchorProperty.value = value
            master.setProperty(anchorProperty)
            let otherName = anchorName == "DUE" ? "DTSTART" : "DUE"
            if var other = master.property(named: otherName), let oldOther = ICalendarTime(other), let oldAnchor,
                oldOther.hasSameForm(as: oldAnchor),
                let otherValue = oldOther.withSeconds(target.seconds + (oldOther.seconds - oldAnchor.seconds)).value
            {
                other.value = otherValue
                master.setProperty(other)
            }
        }
        // RDATEs passed would be the current occurrence again.
        let rdates = master.properties(named: "RDATE").compactMap { property -> ICalendarProperty? in
            var property = property
            let kept = property.value.split(separator: ",").filter { item in
                let start = item.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
                guard
                    let time = ICalendarTime(
                        ICalendarProperty(name: "RDATE", parameters: property.parameters, value: start))
                else { return true }
                return time.seconds > occurrence.seconds
            }
            guard !kept.isEmpty else { return nil }
            property.value = kept.joined(separator: ",")
            return property
        }
        replaceProperties(named: "RDATE", with: rdates, in: &master)
        if var marker = master.property(named: Self.kdeMarker), let value = target.value {
            marker.value = value
            master.setProperty(marker)
        }
        // Absolute alarms ring for the new occurrence; relative ones follow DUE by themselves.
        for (index, child) in master.children.enumerated() {
            guard case .component(var alarm) = child, alarm.name == "VALARM",
                var trigger = alarm.property(named: "TRIGGER"), case .utc(let seconds)? = ICalendarTime(trigger)
            else { continue }
            trigger.value = UTCTimestamp(secondsSince1970: seconds + delta).basic
            alarm.setProperty(trigger)
            master.children[index] = .component(alarm)
        }
        master.removeProperties(named: "COMPLETED")
        if let percent = master.property(named: "PERCENT-COMPLETE"), Int(ICalendar.trimmed(percent.value)) == 100 {
            master.removeProperties(named: "PERCENT-COMPLETE")
        }
    }

    /// Style B: a RECURRENCE-ID component for `occurrence`, marked done (RECURRENCE.md TV7): the
    /// master's SUMMARY (and DESCRIPTION, PRIORITY, CATEGORIES, CLASS) copied, never its alarms
    /// or rules. An open one for that occurrence is marked done instead.
    private mutating func appendOverride(
        for occurrence: ICalendarTime, master: ICalendarComponent, how: RepeatingTodo.Finish, completedAt: Int64,
        stamp: String
    ) {
        let done = how != .skip
        let sequence = (master.property(named: "SEQUENCE").flatMap { Int(ICalendar.trimmed($0.value)) } ?? 0) + 1
        var override = ICalendarComponent(name: "VTODO", children: [])
        for property in [
            ICalendarProperty(name: "UID", value: uid), ICalendarProperty(name: "DTSTAMP", value: stamp),
            ICalendarProperty(name: "CREATED", value: stamp), ICalendarProperty(name: "LAST-MODIFIED", value: stamp)
        ] {
            override.children.append(.property(property))
        }
        if let id = Self.timeProperty("RECURRENCE-ID", occurrence) { override.children.append(.property(id)) }
        if let start = Self.startTime(of: occurrence, master: master).flatMap({ Self.timeProperty("DTSTART", $0) }) {
            override.children.append(.property(start))
        }
        if let due = Self.dueTime(of: occurrence, master: master).flatMap({ Self.timeProperty("DUE", $0) }) {
            override.children.append(.property(due))
        }
        for name in ["SUMMARY", "DESCRIPTION", "PRIORITY", "CATEGORIES", "CLASS"] {
            for property in master.properties(named: name) { override.children.append(.property(property)) }
        }
        if done {
            override.children.append(.property(ICalendarProperty(name: "STATUS", value: "COMPLETED")))
            override.children.append(
                .property(
                    ICalendarProperty(name: "COMPLETED", value: UTCTimestamp(secondsSince1970: completedAt).basic)))
            override.children.append(.property(ICalendarProperty(name: "PERCENT-COMPLETE", value: "100")))
        } else {
            override.children.append(.property(ICalendarProperty(name: "STATUS", value: "CANCELLED")))
        }
        override.children.append(.property(ICalendarProperty(name: "SEQUENCE", value: String(sequence))))
        // TZIDs of the occurrence need their VTIMEZONE, which the master's object has already.
        guard let child = location.child else {
            components.append(override)
            return
        }
        components[location.component].children.insert(.component(override), at: child + 1 + overrides.count)
    }

    /// The series ends: the master is done (STATUS:COMPLETED, COMPLETED, and PERCENT-COMPLETE:100
    /// as every completion here writes it), its dates and rule kept.
    private mutating func endSeries(_ master: inout ICalendarComponent, completedAt: Int64, stamp: String) -> Bool {
        master.setProperty(ICalendarProperty(name: "STATUS", value: "COMPLETED"))
        master.setProperty(
            ICalendarProperty(name: "COMPLETED", value: UTCTimestamp(secondsSince1970: completedAt).basic))
        var percent =
            master.property(named: "PERCENT-COMPLETE") ?? ICalendarProperty(name: "PERCENT-COMPLETE", value: "")
        percent.value = "100"
        master.setProperty(percent)
        Self.stamp(&master, stamp)
        replaceTodo(with: master)
        return true
    }

    /// DTSTAMP and LAST-MODIFIED now, SEQUENCE up by one: a new revision for other clients.
    static func stamp(_ todo: inout ICalendarComponent, _ stamp: String) {
        todo.setProperty(ICalendarProperty(name: "DTSTAMP", value: stamp))
        todo.setProperty(ICalendarProperty(name: "LAST-MODIFIED", value: stamp))
        let sequence = todo.property(named: "SEQUENCE").flatMap { Int(ICalendar.trimmed($0.value)) } ?? 0
        todo.setProperty(ICalendarProperty(name: "SEQUENCE", value: String(max(sequence, 0) + 1)))
    }

    /// Replaces the properties called `name` by `properties`, each in its place (new ones after
    /// the last property), the others removed.
    private func replaceProperties(
        named name: String, with properties: [ICalendarProperty], in todo: inout ICalendarComponent
    ) {
        var remaining = properties[...]
        var children: [ICalendarComponent.Child] = []
        for child in todo.children {
            if case .property(let property) = child, property.name == name {
                if let next = remaining.popFirst() { children.append(.property(next)) }
            } else {
                children.append(child)
            }
        }
        let last = children.lastIndex { if case .property = $0 { true } else { false } }
        children.insert(contentsOf: remaining.map { .property($0) }, at: last.map { $0 + 1 } ?? 0)
        todo.children = children
    }
}

extension RecurrenceSet.Lookup {
    /// This answer, but never the occurrence `current` itself: the one after it then.
    fileprivate func occurrenceAfter(_ current: ICalendarTime, in set: RecurrenceSet) -> RecurrenceSet.Lookup {
        if case .occurrence(let found) = self, found == current { return set.first(after: current) }
        return self
    }
}
