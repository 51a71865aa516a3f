import TodoStore

/// The rules `todo` writes for the CLI's forms (RECURRENCE.md §5.6), and a rule in words.
extension RecurrenceRule {
    /// How a series written here ends: after `count` occurrences (COUNT), or on a date (UNTIL, a
    /// DATE, as beside the DATE anchors `todo` writes).
    public enum End: Sendable, Equatable {
        case count(Int)
        case until(CalendarDate)
    }

    /// `FREQ=DAILY[;INTERVAL=n]`.
    public static func daily(every interval: Int = 1, end: End? = nil) -> RecurrenceRule {
        made(.daily, interval: interval, end: end)
    }

    /// `FREQ=WEEKLY[;INTERVAL=n][;BYDAY=MO,TH]`, the weekdays from Monday on, each once.
    public static func weekly(
        every interval: Int = 1, on weekdays: [Weekday] = [], end: End? = nil
    ) -> RecurrenceRule {
        var days: [Weekday] = []
        for day in weekdays.sorted(by: { ($0.rawValue + 6) % 7 < ($1.rawValue + 6) % 7 }) where !days.contains(day) {
            days.append(day)
        }
        return made(.weekly, interval: interval, byDay: days.map { WeekdayNumber($0) }, end: end)
    }

    /// A monthly rule on `date`'s day that never skips a month: `FREQ=MONTHLY;BYMONTHDAY=-1` when
    /// `date` is its month's last day, `FREQ=MONTHLY;BYMONTHDAY=d,-1;BYSETPOS=1` for another
    /// 29th or 30th (the day, or the month's last when it has none), plain `FREQ=MONTHLY` for
    /// days 1 to 28 (every month has them).
    public static func monthly(onDayOf date: CalendarDate, every interval: Int = 1, end: End? = nil) -> RecurrenceRule {
        let isLast = date.day == CalendarDate.daysInMonth(date.month, of: date.year)
        return date.day <= 28 && !isLast
            ? made(.monthly, interval: interval, end: end)
            : monthly(onDay: isLast ? 31 : date.day, every: interval, end: end)
    }

    /// A monthly rule on day `day` (clamped to 1...31) that never skips a month:
    /// `BYMONTHDAY=d` up to the 28th, `BYMONTHDAY=d,-1;BYSETPOS=1` for the 29th and 30th,
    /// `BYMONTHDAY=-1` for the 31st.
    public static func monthly(onDay day: Int, every interval: Int = 1, end: End? = nil) -> RecurrenceRule {
        let day = min(max(day, 1), 31)
        return switch day {
        case 31: made(.monthly, interval: interval, byMonthDay: [-1], end: end)
        case 29, 30: made(.monthly, interval: interval, byMonthDay: [day, -1], bySetPos: [1], end: end)
        default: made(.monthly, interval: interval, byMonthDay: [day], end: end)
        }
    }

    /// `FREQ=MONTHLY;BYDAY=-1FR`: the `ordinal`-th `weekday` of each month (-1 the last),
    /// `ordinal` clamped to -5...5 and never 0 (0 is taken as 1).
    public static func monthly(
        onThe ordinal: Int, _ weekday: Weekday, every interval: Int = 1, end: End? = nil
    ) -> RecurrenceRule {
        let ordinal = ordinal == 0 ? 1 : min(max(ordinal, -5), 5)
        return made(.monthly, interval: interval, byDay: [WeekdayNumber(weekday, ordinal: ordinal)], end: end)
    }

    /// `FREQ=YEARLY`, and for Feb 29 `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1` (Feb 28
    /// in other years).
    public static func yearly(onDayOf date: CalendarDate, every interval: Int = 1, end: End? = nil) -> RecurrenceRule {
        date.month == 2 && date.day == 29
            ? made(.yearly, interval: interval, byMonthDay: [29, -1], byMonth: [2], bySetPos: [1], end: end)
            : made(.yearly, interval: interval, end: end)
    }

    /// A rule written here, FREQ first as RFC 5545 asks, then INTERVAL, the BY parts, and
    /// COUNT or UNTIL.
    private static func made(
        _ frequency: Frequency, interval: Int, byDay: [WeekdayNumber] = [], byMonthDay: [Int] = [],
        byMonth: [Int] = [], bySetPos: [Int] = [], end: End?
    ) -> RecurrenceRule {
        let interval = min(max(interval, 1), maxNumber)
        var parts = ["FREQ=" + frequency.name]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        func list(_ values: [Int]) -> String { values.map(String.init).joined(separator: ",") }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + list(byMonth)) }
        if !byDay.isEmpty {
            parts.append(
                "BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + $0.weekday.code }.joined(separator: ","))
        }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + list(byMonthDay)) }
        if !bySetPos.isEmpty { parts.append("BYSETPOS=" + list(bySetPos)) }
        var count: Int?
        var until: ICalendarTime?
        switch end {
        case .count(let n)?:
            count = min(max(n, 1), maxNumber)
            parts.append("COUNT=\(count ?? 1)")
        case .until(let date)?:
            until = .date(date)
            parts.append("UNTIL=" + BasicTime.write(date))
        case nil:
            break
        }
        return RecurrenceRule(
            text: parts.joined(separator: ";"), frequency: frequency, interval: interval, count: count, until: until,
            byDay: byDay, byMonthDay: byMonthDay, byMonth: byMonth, bySetPos: bySetPos)
    }

    // MARK: In words

    /// The rule in words, for `todo show` and `todo list`: `every month`, `every 2 weeks on Mon,
    /// Thu`, `every month on the 31st (months without one are skipped)`, `every month on the last
    /// Fri, 3 times`. `anchor` (DTSTART, else DUE) gives the day a plain MONTHLY or YEARLY rule
    /// repeats on. A rule with parts beyond these shapes is its frequency and its text,
    /// `every month (FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2)`; that text is another app's, so the caller
    /// makes it safe for a terminal as any other text from outside.
    public func summary(anchor: ICalendarTime? = nil) -> String {
        let unit: (one: String, many: String) =
            switch frequency {
            case .secondly: ("second", "seconds")
            case .minutely: ("minute", "minutes")
            case .hourly: ("hour", "hours")
            case .daily: ("day", "days")
            case .weekly: ("week", "weeks")
            case .monthly: ("month", "months")
            case .yearly: ("year", "years")
            }
        var text = interval == 1 ? "every " + unit.one : "every \(interval) \(unit.many)"
        let weekdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
        if frequency == .weekly, interval == 1, byDay.count == 5, Set(byDay.map(\.weekday)) == weekdays,
            byDay.allSatisfy({ $0.ordinal == nil }), detail(anchor: nil) != nil
        {
            text = "every weekday"
        } else if let detail = detail(anchor: anchor?.date) {
            text += detail
        } else {
            text += " (" + self.text + ")"
        }
        if let count { text += count == 1 ? ", once" : ", \(count) times" }
        if let until, let date = until.date { text += ", until \(date)" }
        return text
    }

    /// What follows "every N units": `" on Mon, Thu"`, `""`; `nil` for a shape not put in words.
    private func detail(anchor: CalendarDate?) -> String? {
        let plain =
            byDay.isEmpty && byMonthDay.isEmpty && byMonth.isEmpty && bySetPos.isEmpty && byYearDay.isEmpty
            && byWeekNo.isEmpty && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty
        let others = byYearDay.isEmpty && byWeekNo.isEmpty && byHour.isEmpty && byMinute.isEmpty && bySecond.isEmpty
        let monthName = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        switch frequency {
        case _ where plain && frequency == .monthly:
            guard let day = anchor?.day, day > 28 else { return "" }
            return " on the \(Self.ordinal(day)) (months without one are skipped)"
        case _ where plain && frequency == .yearly:
            guard let anchor, anchor.month == 2, anchor.day == 29 else { return "" }
            return " on Feb 29 (years without one are skipped)"
        case _ where plain:
            return ""
        case .weekly where others && byMonth.isEmpty && bySetPos.isEmpty && byDay.allSatisfy({ $0.ordinal == nil }):
            return " on " + byDay.map(\.weekday.shortName).joined(separator: ", ")
        case .monthly where others && byMonth.isEmpty:
            if byDay.isEmpty, bySetPos.isEmpty, byMonthDay == [-1] { return " on its last day" }
            if byDay.isEmpty, bySetPos == [1], byMonthDay.count == 2, byMonthDay[1] == -1, byMonthDay[0] > 0 {
                return " on the \(Self.ordinal(byMonthDay[0])) or its last day"
            }
            if byDay.isEmpty, bySetPos.isEmpty, byMonthDay.count == 1, let day = byMonthDay.first, day > 0 {
                return " on the \(Self.ordinal(day))" + (day > 28 ? " (months without one are skipped)" : "")
            }
            if byMonthDay.isEmpty, bySetPos.isEmpty, !byDay.isEmpty, byDay.allSatisfy({ $0.ordinal != nil }) {
                return " on the "
                    + byDay.map { Self.ordinal(from: $0.ordinal ?? 1) + " " + $0.weekday.shortName }
                    .joined(separator: " and the ")
            }
            return nil
        case .yearly where others && byDay.isEmpty && byMonth == [2] && byMonthDay == [29, -1] && bySetPos == [1]:
            return " on Feb 29 (Feb 28 in other years)"
        case .yearly where others && byDay.isEmpty && bySetPos.isEmpty && byMonth.count == 1 && byMonthDay.count == 1:
            guard let month = byMonth.first, let day = byMonthDay.first, day > 0 else { return nil }
            return " on \(monthName[month - 1]) \(day)"
        default:
            return nil
        }
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
    private static func ordinal(_ number: Int) -> String {
        let suffix =
            (11...13).contains(number % 100)
            ? "th" : number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th"
        return "\(number)\(suffix)"
    }

    /// A BYDAY ordinal in words: `2nd`, `last`, `2nd to last`.
    private static func ordinal(from value: Int) -> String {
        value == -1 ? "last" : value < 0 ? ordinal(-value) + " to last" : ordinal(value)
    }
}
