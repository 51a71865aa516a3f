import TodoStore

extension RecurrenceSet {
    /// The next occurrence of a series that repeats from completion (RECURRENCE.md §5.4 step 1,
    /// `X-TODO-REPEAT-FROM:COMPLETION`, todo.txt's `rec:3d`), which RRULE cannot say: the
    /// completion's local date `completed` plus one interval of the rule's FREQ, at the anchor's
    /// time of day and in its form (a DATE stays a DATE, a TZID time keeps its zone and wall time).
    /// Months and years are added as `todo`'s `+1m` adds them, clamped to the month's end (Jan 31
    /// plus a month is Feb 28); a weekly rule with BYDAY moves on to the first of its weekdays on
    /// or after that date.
    ///
    /// The date is counted from `completed` alone, so a todo done early may get a date before its
    /// current occurrence: that is what "from completion" asks.
    ///
    /// - Returns: ``Lookup/end`` when the rule's COUNT is 1 (this occurrence was its last) or the
    ///   date is past UNTIL; ``Lookup/beyondBound`` past 9999-12-31; `nil` when there is not one
    ///   rule of DAILY to YEARLY whose BY parts are at most a weekly BYDAY or the month-end shapes
    ///   ``RecurrenceRule/monthly(onDayOf:every:end:)`` and ``RecurrenceRule/yearly(onDayOf:every:end:)`` write (which say what
    ///   clamping says): the caller then counts from due, and says so.
    public func nextCountedFromCompletion(on completed: CalendarDate) -> Lookup? {
        guard rules.count == 1, let rule = rules.first, rule.frequency >= .daily, isExpandable,
            Self.countsFromCompletion(rule)
        else { return nil }
        if rule.count == 1 { return .end }
        let date: CalendarDate?
        switch rule.frequency {
        case .daily:
            date = completed.adding(days: rule.interval)
        case .weekly:
            let weekdays = Set(rule.byDay.map(\.weekday.rawValue))
            var day = completed.adding(days: 7 * rule.interval)
            while let current = day, !weekdays.isEmpty, !weekdays.contains(current.weekday) {
                day = current.adding(days: 1)
            }
            date = day
        case .monthly:
            date = completed.adding(months: rule.interval)
        default:
            date = completed.adding(months: 12 * min(rule.interval, 10_000))
        }
        guard let date else { return .beyondBound }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(UTCTimestamp.split(frame.anchorSeconds).second)
        if let until = rule.until, frame.isBeyond(until, seconds) { return .end }
        return frame.time(at: seconds).map(Lookup.occurrence) ?? .beyondBound
    }

    /// Whether "from completion" has a meaning for `rule`: it has no BY parts but a weekly BYDAY
    /// without ordinals, or the month-end shapes, whose meaning clamping already gives.
    private static func countsFromCompletion(_ rule: RecurrenceRule) -> Bool {
        guard rule.isCompletable else { return false }
        let monthEnd = rule.byMonthDay == [-1] && rule.bySetPos.isEmpty
        let dayOrMonthEnd =
            rule.byMonthDay.count == 2 && rule.byMonthDay[1] == -1 && rule.byMonthDay[0] > 0 && rule.bySetPos == [1]
        let clamps = rule.byMonthDay.isEmpty && rule.bySetPos.isEmpty || monthEnd || dayOrMonthEnd
        switch rule.frequency {
        case .weekly:
            return rule.byMonth.isEmpty && rule.bySetPos.isEmpty && rule.byDay.allSatisfy { $0.ordinal == nil }
        case .monthly: return rule.byDay.isEmpty && rule.byMonth.isEmpty && clamps
        case .yearly:
            return rule.byDay.isEmpty && (rule.byMonth.isEmpty || rule.byMonth == [2] && dayOrMonthEnd) && clamps
        default: return rule.byDay.isEmpty && rule.byMonth.isEmpty && rule.byMonthDay.isEmpty && rule.bySetPos.isEmpty
        }
    }

}
