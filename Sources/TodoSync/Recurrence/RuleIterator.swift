import TodoStore

/// One RRULE's occurrences, in order, on the anchor's own clock: seconds since 1970-01-01T00:00:00
/// on that clock (a DATE anchor's occurrences are midnights). The engine under ``RecurrenceSet``.
///
/// The rule is expanded period by period (a year, month, week, day, hour, minute or second of
/// FREQ, every INTERVAL-th one from the anchor's): the period's days are those its BY parts
/// let through (BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY, with the anchor's month, day or
/// weekday where RFC 5545 3.3.10 takes them from DTSTART), each at the times BYHOUR, BYMINUTE and
/// BYSECOND give (else the anchor's), and BYSETPOS picks among them. An invalid date (Feb 30) is
/// never a day of a month, so it is skipped and not counted. The anchor is always the first
/// occurrence and counts as the first toward COUNT (RFC 5545 3.3.10, 3.8.5.3), whether or not
/// the rule would make it; occurrences the rule makes before it are not in the set. Periods are
/// whole: a WEEKLY period is the week from WKST, even the anchor's, so BYSETPOS picks among the
/// whole week's days.
///
/// A wall time a clock change skips is kept as written: RFC 5545 3.3.5 reads it with the offset
/// before the gap (``WallClockZone/instant(ofWall:)``). 3.3.10 says such instances are ignored;
/// RECURRENCE.md chose 3.3.5, so a daily 02:30 does not lose a day each spring (dateutil keeps it
/// too).
///
/// Bounded: ``maxSteps`` steps at most, a step being an occurrence made, a period that makes
/// none, or a day, hour or minute a rule shorter than a day skips; and nothing past 9999-12-31. A rule without COUNT starts at the period that holds the
/// first time asked for (its periods do not depend on each other); one with COUNT starts at
/// the anchor, as it must count every occurrence from there.
struct RuleIterator {
    enum Item: Equatable {
        case occurrence(Int64)
        /// The rule has no more occurrences (COUNT used, UNTIL passed).
        case end
        /// Stopped at the bound; the rule may go on.
        case bound
    }

    /// The most steps one expansion takes (Radicale's bound on a rule's occurrences).
    static let maxSteps = 10_000
    /// 9999-12-31, the last day of the years dates are written in.
    static let lastDay = Int64(CalendarDate(year: 9999, month: 12, day: 31)?.daysSinceEpoch ?? 2_932_896)

    private let rule: RecurrenceRule
    private let anchor: Int64
    private let isBeyondUntil: (Int64) -> Bool
    /// The seconds of the day occurrences are at, for rules of whole days or longer.
    private let times: [Int]
    /// The anchor's second of its day.
    private let anchorSecond: Int
    private let monthDays: [Int]
    private let months: [Int]
    private let weekdays: [RecurrenceRule.WeekdayNumber]
    /// The length of a step from one period to the next, in periods (weeks count in days).
    private let stride: Int64
    private let skipBefore: Int64

    private var period: Int64
    private var pending: [Int64] = []
    private var pendingIndex = 0
    /// The grid of a period without BYSETPOS: each day at each time, made as it is read.
    private var gridDays: [Int64] = []
    private var gridTimes: [Int] = []
    private var gridPosition = (day: 0, time: 0)
    private var anchorDue: Bool
    /// Occurrences made so far, the anchor first, for COUNT.
    private var made = 0
    private var steps = 0
    private var madeInPeriod = 0
    private var finished: Item?

    /// The occurrences of `rule` from `anchor` (seconds on its clock; `wholeDays` for a DATE
    /// anchor), the first at or after `from`. `isBeyondUntil` says whether a time is past UNTIL.
    init(rule: RecurrenceRule, anchor: Int64, from: Int64, isBeyondUntil: @escaping (Int64) -> Bool) {
        self.rule = rule
        self.anchor = anchor
        self.isBeyondUntil = isBeyondUntil
        let (anchorDay, anchorSecond) = UTCTimestamp.split(anchor)
        let anchorDate = CalendarDate(daysSinceEpoch: Int(clamping: anchorDay)) ?? .unixEpoch
        let takesDefaults =
            rule.byWeekNo.isEmpty && rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty
        var monthDays = rule.byMonthDay
        var months = rule.byMonth
        var weekdays = rule.byDay
        if takesDefaults {
            switch rule.frequency {
            case .yearly:
                if months.isEmpty { months = [anchorDate.month] }
                monthDays = [anchorDate.day]
            case .monthly:
                monthDays = [anchorDate.day]
            case .weekly:
                weekdays = [.init(RecurrenceRule.Weekday(rawValue: anchorDate.weekday) ?? .monday)]
            default:
                break
            }
        }
        self.monthDays = monthDays
        self.months = months
        self.weekdays = weekdays
        var times: [Int] = []
        for hour in rule.byHour.isEmpty ? [anchorSecond / 3600] : rule.byHour {
            for minute in rule.byMinute.isEmpty ? [anchorSecond / 60 % 60] : rule.byMinute {
                for second in rule.bySecond.isEmpty ? [anchorSecond % 60] : rule.bySecond {
                    times.append(hour * 3600 + minute * 60 + second)
                }
            }
        }
        self.times = Array(Set(times)).sorted()
        self.anchorSecond = anchorSecond
        stride = Int64(rule.interval) * (rule.frequency == .weekly ? 7 : 1)
        skipBefore = max(from, anchor)
        anchorDue = from <= anchor
        if !anchorDue { made = 1 }
        let first = Self.period(of: anchor, rule.frequency, weekStart: rule.weekStart.rawValue)
        period = first
        if rule.count == nil, from > anchor {
            // Periods without COUNT stand alone: start at the one that holds `from`.
            let target = Self.period(of: from, rule.frequency, weekStart: rule.weekStart.rawValue)
            period = first + Self.floorDivide(target - first, stride) * stride
        }
        loadPeriod()
    }

    /// The next occurrence, or why there is none.
    mutating func next() -> Item {
        if let finished { return finished }
        if anchorDue {
            anchorDue = false
            made = 1
            return .occurrence(anchor)
        }
        while true {
            guard let candidate = nextInPeriod() else {
                if madeInPeriod == 0, let stop = spend() { return stop }
                guard advancePeriod() else { return finish(.bound) }
                continue
            }
            // The anchor is the first occurrence; the rule's own before it are not in the set.
            guard candidate > anchor else { continue }
            // A leap second at the end of 9999-12-31 would be the first second past the bound.
            guard UTCTimestamp.split(candidate).days <= Self.lastDay else { return finish(.bound) }
            if let count = rule.count, made >= count { return finish(.end) }
            if isBeyondUntil(candidate) { return finish(.end) }
            made += 1
            madeInPeriod += 1
            if let stop = spend() { return stop }
            if candidate < skipBefore { continue }
            return .occurrence(candidate)
        }
    }

    private mutating func finish(_ item: Item) -> Item {
        finished = item
        return item
    }

    /// Counts a step; `.bound` once there are none left.
    private mutating func spend() -> Item? {
        steps += 1
        return steps > Self.maxSteps ? finish(.bound) : nil
    }

    // MARK: Periods

    /// The period holding `seconds`: a year, a month (year × 12 + month - 1), the day its week
    /// starts on, a day, an hour, a minute or a second, each counted from 1970.
    private static func period(of seconds: Int64, _ frequency: RecurrenceRule.Frequency, weekStart: Int) -> Int64 {
        let (day, second) = UTCTimestamp.split(seconds)
        switch frequency {
        case .yearly, .monthly:
            let date = CalendarDate(daysSinceEpoch: Int(clamping: day)) ?? .unixEpoch
            return frequency == .yearly ? Int64(date.year) : Int64(date.year * 12 + date.month - 1)
        case .weekly:
            let weekday = Int((day % 7 + 7 + 4) % 7)
            return day - Int64((weekday - weekStart + 7) % 7)
        case .daily: return day
        case .hourly: return day * 24 + Int64(second / 3600)
        case .minutely: return day * 1440 + Int64(second / 60)
        case .secondly: return seconds
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return a % b != 0 && (a < 0) != (b < 0) ? quotient - 1 : quotient
    }

    /// Moves to the next period of the rule, skipping whole days (hours, minutes) a rule shorter
    /// than a day cannot match; `false` past 9999.
    private mutating func advancePeriod() -> Bool {
        madeInPeriod = 0
        period += stride
        while rule.frequency < .daily, firstDay() <= Self.lastDay {
            guard let skipTo = firstSecondWorthTrying() else { break }
            let unit: Int64 =
                switch rule.frequency {
                case .hourly: 3600
                case .minutely: 60
                default: 1
                }
            let target = Self.floorDivide(skipTo + unit - 1, unit)
            period += Self.floorDivide(target - period + stride - 1, stride) * stride
            if spend() != nil { return false }
        }
        guard firstDay() <= Self.lastDay else { return false }
        loadPeriod()
        return true
    }

    /// For a rule shorter than a day: `nil` when the current period may match, else the first
    /// second after the day, hour or minute that rules it out.
    private func firstSecondWorthTrying() -> Int64? {
        let seconds = periodStart()
        let (day, second) = UTCTimestamp.split(seconds)
        if !dayMatches(day) { return (day + 1) * 86_400 }
        let hour = second / 3600
        let minute = second / 60 % 60
        if !rule.byHour.isEmpty, !rule.byHour.contains(hour) { return day * 86_400 + Int64(hour + 1) * 3600 }
        if rule.frequency < .hourly, !rule.byMinute.isEmpty, !rule.byMinute.contains(minute) {
            return day * 86_400 + Int64(hour * 3600 + (minute + 1) * 60)
        }
        return nil
    }

    /// The first second of the current period, for rules shorter than a day.
    private func periodStart() -> Int64 {
        switch rule.frequency {
        case .hourly: period * 3600
        case .minutely: period * 60
        default: period
        }
    }

    /// The first day of the current period.
    private func firstDay() -> Int64 {
        switch rule.frequency {
        case .yearly:
            return CalendarDate(year: Int(clamping: period), month: 1, day: 1).map { Int64($0.daysSinceEpoch) }
                ?? Self.lastDay + 1
        case .monthly:
            let year = Int(clamping: Self.floorDivide(period, 12))
            return CalendarDate(year: year, month: Int(period - Int64(year) * 12) + 1, day: 1)
                .map { Int64($0.daysSinceEpoch) } ?? Self.lastDay + 1
        case .weekly, .daily: return period
        default: return UTCTimestamp.split(periodStart()).days
        }
    }

    /// Makes the current period's occurrences ready to read.
    private mutating func loadPeriod() {
        pending = []
        pendingIndex = 0
        gridDays = []
        gridTimes = []
        gridPosition = (0, 0)
        let days: [Int64]
        let dayTimes: [Int]
        switch rule.frequency {
        case .yearly, .monthly, .weekly, .daily:
            days = periodDays()
            dayTimes = times
        case .hourly, .minutely, .secondly:
            let (day, second) = UTCTimestamp.split(periodStart())
            guard firstSecondWorthTrying() == nil, day <= Self.lastDay else { return }
            days = [day]
            let hour = second / 3600
            let minute = second / 60 % 60
            // HOURLY expands BYMINUTE and BYSECOND, MINUTELY BYSECOND; SECONDLY limits by it.
            if rule.frequency == .secondly, !rule.bySecond.isEmpty, !rule.bySecond.contains(second % 60) { return }
            let minutes =
                rule.frequency != .hourly ? [minute] : rule.byMinute.isEmpty ? [anchorSecond / 60 % 60] : rule.byMinute
            let seconds =
                rule.frequency == .secondly
                ? [second % 60] : rule.bySecond.isEmpty ? [anchorSecond % 60] : rule.bySecond
            dayTimes = Array(Set(minutes.flatMap { m in seconds.map { hour * 3600 + m * 60 + $0 } })).sorted()
        }
        guard !days.isEmpty, !dayTimes.isEmpty else { return }
        if rule.bySetPos.isEmpty {
            gridDays = days
            gridTimes = dayTimes
            skipGrid()
            return
        }
        let total = days.count * dayTimes.count
        var picked: Set<Int64> = []
        for position in rule.bySetPos {
            let index = position > 0 ? position - 1 : total + position
            guard index >= 0, index < total else { continue }
            picked.insert(days[index / dayTimes.count] * 86_400 + Int64(dayTimes[index % dayTimes.count]))
        }
        pending = picked.sorted()
    }

    /// Without COUNT nothing before `skipBefore` needs making: start the grid at it.
    private mutating func skipGrid() {
        guard rule.count == nil, let lastDay = gridDays.last, skipBefore > gridDays[0] * 86_400 else { return }
        let (day, second) = UTCTimestamp.split(skipBefore)
        guard day <= lastDay else {
            gridPosition = (gridDays.count, 0)
            return
        }
        var low = 0
        var high = gridDays.count
        while low < high {
            let middle = (low + high) / 2
            if gridDays[middle] < day { low = middle + 1 } else { high = middle }
        }
        var time = 0
        if gridDays[low] == day {
            while time < gridTimes.count, gridTimes[time] < second { time += 1 }
        }
        gridPosition = time == gridTimes.count ? (low + 1, 0) : (low, time)
    }

    private mutating func nextInPeriod() -> Int64? {
        if pendingIndex < pending.count {
            pendingIndex += 1
            return pending[pendingIndex - 1]
        }
        guard gridPosition.day < gridDays.count, gridPosition.time < gridTimes.count else { return nil }
        let value = gridDays[gridPosition.day] * 86_400 + Int64(gridTimes[gridPosition.time])
        gridPosition.time += 1
        if gridPosition.time == gridTimes.count { gridPosition = (gridPosition.day + 1, 0) }
        return value
    }

    /// The days of the current period (a year, month, week or day) the BY parts let through.
    private func periodDays() -> [Int64] {
        var days: [Int64] = []
        switch rule.frequency {
        case .yearly:
            let year = Int(clamping: period)
            for month in 1...12 where months.isEmpty || months.contains(month) {
                guard let first = CalendarDate(year: year, month: month, day: 1) else { continue }
                let start = Int64(first.daysSinceEpoch)
                for offset in 0..<Int64(CalendarDate.daysInMonth(month, of: year)) where dayMatches(start + offset) {
                    days.append(start + offset)
                }
            }
        case .monthly:
            let start = firstDay()
            guard start <= Self.lastDay, let date = CalendarDate(daysSinceEpoch: Int(start)),
                months.isEmpty || months.contains(date.month)
            else { return [] }
            for offset in 0..<Int64(CalendarDate.daysInMonth(date.month, of: date.year))
            where dayMatches(start + offset) {
                days.append(start + offset)
            }
        case .weekly:
            for offset in 0..<Int64(7) where dayMatches(period + offset) { days.append(period + offset) }
        default:
            if dayMatches(period) { days.append(period) }
        }
        return days.filter { $0 <= Self.lastDay }
    }

    /// Whether the BY parts of whole days let `day` (days since 1970) through.
    private func dayMatches(_ day: Int64) -> Bool {
        guard let date = CalendarDate(daysSinceEpoch: Int(clamping: day)) else { return false }
        if !months.isEmpty, !months.contains(date.month) { return false }
        let monthLength = CalendarDate.daysInMonth(date.month, of: date.year)
        if !monthDays.isEmpty, !monthDays.contains(date.day), !monthDays.contains(date.day - monthLength - 1) {
            return false
        }
        let yearLength = CalendarDate.isLeapYear(date.year) ? 366 : 365
        let dayOfYear = Int(day) - ((CalendarDate(year: date.year, month: 1, day: 1)?.daysSinceEpoch) ?? Int(day)) + 1
        if !rule.byYearDay.isEmpty, !rule.byYearDay.contains(dayOfYear),
            !rule.byYearDay.contains(dayOfYear - yearLength - 1)
        {
            return false
        }
        if !rule.byWeekNo.isEmpty, !weekNumberMatches(day) { return false }
        guard !weekdays.isEmpty else { return true }
        // An ordinal counts within the month in MONTHLY rules and in YEARLY ones with BYMONTH
        // (RFC 5545 3.3.10's "special expand for MONTHLY"), else within the year.
        let inMonth = rule.frequency == .monthly || !rule.byMonth.isEmpty
        let index = inMonth ? date.day : dayOfYear
        let length = inMonth ? monthLength : yearLength
        return weekdays.contains { entry in
            guard entry.weekday.rawValue == date.weekday else { return false }
            guard let ordinal = entry.ordinal else { return true }
            return ordinal > 0 ? (index - 1) / 7 + 1 == ordinal : (length - index) / 7 + 1 == -ordinal
        }
    }

    /// Whether `day`'s week is one BYWEEKNO names. Weeks start on WKST; week 1 of a year is the
    /// first with at least four of its days in that year (RFC 5545 3.3.10), so a week belongs to
    /// the year of its fourth day; -1 is that year's last week.
    private func weekNumberMatches(_ day: Int64) -> Bool {
        func week(of day: Int64) -> (year: Int, number: Int)? {
            let weekday = Int((day % 7 + 7 + 4) % 7)
            let start = day - Int64((weekday - rule.weekStart.rawValue + 7) % 7)
            guard let fourth = CalendarDate(daysSinceEpoch: Int(clamping: start + 3)),
                let january = CalendarDate(year: fourth.year, month: 1, day: 1)
            else { return nil }
            return (fourth.year, (fourth.daysSinceEpoch - january.daysSinceEpoch) / 7 + 1)
        }
        guard let (year, number) = week(of: day),
            let december = CalendarDate(year: year, month: 12, day: 28),
            let last = week(of: Int64(december.daysSinceEpoch))?.number
        else { return false }
        return rule.byWeekNo.contains(number) || rule.byWeekNo.contains(number - last - 1)
    }
}
