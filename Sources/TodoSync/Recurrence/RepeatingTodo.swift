import TodoStore

/// A repeating todo's fields and its rule: what finishing its current occurrence makes of it.
///
/// The todo's deadline is its current occurrence (RECURRENCE.md §5.1); finishing it moves the
/// deadline to the next occurrence and counts the rule's COUNT down, as apps that complete one
/// occurrence of a one-VTODO object do (style A: Tasks.org, Evolution, Nextcloud Tasks). A
/// series whose rule has no occurrence left is over: the todo is then done. Pure: the store,
/// the VTODO and the clock are the caller's.
public struct RepeatingTodo: Sendable {
    public let fields: TodoFields
    public let rule: RecurrenceRule

    /// `nil` when the todo does not repeat, or its rule is no valid RRULE (it is then kept as
    /// written, and nothing here completes it).
    public init?(_ fields: TodoFields) {
        guard let text = fields.repeatRule, let rule = try? RecurrenceRule(parsing: text) else { return nil }
        self.fields = fields
        self.rule = rule
    }

    /// How to finish the current occurrence.
    public enum Finish: Sendable, Equatable {
        /// Done (`todo done`): the next occurrence after this one, counted as the todo says
        /// (from its date, or from the day it was done).
        case done
        /// Done, and the occurrences missed up to today passed too (`todo done --catch-up`): the
        /// first occurrence on or after today.
        case catchUp
        /// Passed without being done (`todo skip`): the next occurrence after this one.
        case skip
        /// Done, and the series ends with it (`todo done --series`): the todo is done.
        case endSeries
    }

    /// What finishing the current occurrence gives.
    public enum Outcome: Sendable, Equatable {
        /// The todo moves on: its new fields (the next occurrence as deadline, COUNT counted
        /// down); `occurrence` is the one finished (nil for a dateless todo).
        case next(TodoFields, occurrence: CalendarDate?)
        /// No occurrence is left (COUNT used up, UNTIL passed): the todo is done, series over.
        case seriesOver(TodoFields, occurrence: CalendarDate?)
        /// The rule cannot be followed here (a rule the engine does not complete, one whose next
        /// occurrence lies beyond what it expands): nothing changes, and `reason` says why.
        case notCompletable(reason: String)
    }

    /// Finishes the current occurrence on `today` (the local date), at `now`.
    public func finish(_ how: Finish, today: CalendarDate, now: UTCTimestamp) -> Outcome {
        if how == .endSeries {
            var fields = fields
            fields.setStatus(.completed, now: now)
            return .seriesOver(fields, occurrence: fields.deadline)
        }
        guard rule.isCompletable else {
            return .notCompletable(reason: "its repeat rule (\(rule.text)) is not one todo can follow")
        }
        // A dateless repeating todo counts from today (Tasks.org's rule, RECURRENCE.md T15).
        let current = fields.deadline
        let lead = leadDays
        let anchor = ICalendarTime.date((current ?? today).adding(days: -lead) ?? current ?? today)
        let set = RecurrenceSet(anchor: anchor, rules: [rule])
        let lookup: RecurrenceSet.Lookup
        switch how {
        case .catchUp:
            let earliest = max(today, (current ?? today).adding(days: 1) ?? today)
            lookup = set.first(onOrAfter: .date(earliest.adding(days: -lead) ?? earliest))
        case .done where fields.repeatFrom == .done:
            lookup = set.nextCountedFromCompletion(on: today) ?? set.first(after: anchor)
        case .done, .skip, .endSeries:
            lookup = set.first(after: anchor)
        }
        switch lookup {
        case .occurrence(let next):
            guard case .date(let occurrence) = next, let date = occurrence.adding(days: lead) else {
                return .notCompletable(reason: "its repeat rule gives a time, not a date")
            }
            var fields = fields
            fields.moveDeadline(to: date)
            // The next occurrence is not started (as Evolution, KDE and Tasks.org reset a task
            // they move on): needs action, and a percent 0 where there was one, but for the 100
            // of a series completed as a whole (resumed), which goes as `todo undone` takes it.
            fields.status = .needsAction
            fields.percent = fields.percent.flatMap { $0 == 100 ? nil : 0 }
            if rule.count != nil, let consumed = set.generatedCounts(from: anchor, to: next)?.first,
                let count = rule.count
            {
                fields.repeatRule = rule.settingCount(max(1, count - consumed))
            }
            return .next(fields, occurrence: current)
        case .end:
            var fields = fields
            fields.setStatus(.completed, now: now)
            return .seriesOver(fields, occurrence: current)
        case .beyondBound:
            return .notCompletable(reason: "its next occurrence is too far ahead to find here")
        case .notExpandable:
            return .notCompletable(reason: "its repeat rule (\(rule.text)) is not one todo can follow")
        }
    }

    /// How many days the series' occurrences come before the deadline: a series with a start
    /// counts from it, as RFC 5545 counts from DTSTART (an Evolution task starting Monday, due
    /// Wednesday, `BYDAY=MO`, is due each Wednesday), unless the start is off the rule and the
    /// deadline on it (Tasks.org's "hide until", ``RecurrenceSet/anchorsOnDue(start:due:rule:)``).
    /// Zero without a start, and for a todo repeating from the day it was done.
    var leadDays: Int {
        guard fields.repeatFrom == .due, let start = fields.start, let due = fields.deadline, start < due,
            !RecurrenceSet.anchorsOnDue(start: start, due: due, rule: rule)
        else { return 0 }
        return start.days(until: due)
    }

    /// The rule in words, from the todo's date: `every month`, `every 2 weeks on Mon, Thu`;
    /// with `(from done)` when it repeats from the day it was done.
    public var summary: String {
        let words = rule.summary(anchor: fields.deadline.map { .date($0) })
        return fields.repeatFrom == .done ? words + " (from done)" : words
    }

    /// The occurrence after the current one, if the series has one (for `todo show`).
    public var following: CalendarDate? {
        guard let current = fields.deadline, rule.isExpandable, let anchor = current.adding(days: -leadDays) else {
            return nil
        }
        let set = RecurrenceSet(anchor: .date(anchor), rules: [rule])
        guard case .occurrence(.date(let date)) = set.first(after: .date(anchor)) else { return nil }
        return date.adding(days: leadDays)
    }
}

extension TodoRepository {
    /// Finishes the current occurrence of the repeating todo `id` (``RepeatingTodo``): moves
    /// its deadline to the next occurrence, or marks it done when its series is over, and logs
    /// the occurrence as finished here, pending for the next sync (which applies it to the
    /// server's object once, whatever else happened meanwhile). Run it inside
    /// `recordingUndo` with the command's other writes: one undo step.
    ///
    /// - Returns: the outcome, and the todo as it is now (`nil` when it does not repeat).
    public func finishOccurrence(
        of id: Int64, _ how: RepeatingTodo.Finish, today: CalendarDate, now: UTCTimestamp = .now()
    ) throws(TodoStoreError) -> (outcome: RepeatingTodo.Outcome, todo: Todo)? {
        guard let todo = try todo(id: id), let repeating = RepeatingTodo(todo.fields) else { return nil }
        let outcome = repeating.finish(how, today: today, now: now)
        let fields: TodoFields
        let occurrence: CalendarDate?
        let source: TodoCompletion.Source
        switch outcome {
        case .notCompletable: return (outcome, todo)
        case .next(let next, let finished):
            (fields, occurrence, source) = (next, finished, how == .skip ? .skip : .here)
        case .seriesOver(let over, let finished):
            (fields, occurrence, source) = (over, finished, .series)
        }
        let updated = try replaceFields(id: id, with: fields)
        if let occurrence {
            try recordCompletion(
                TodoCompletion(
                    todoID: id, occurrence: occurrence, completedAt: how == .skip ? nil : now, source: source,
                    pending: true))
        }
        return (outcome, updated)
    }
}
