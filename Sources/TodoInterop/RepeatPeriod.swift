import TodoStore

/// A repeat as taskwarrior's `recur:` and todo.txt's `rec:` say it (every N days, weeks, months
/// or years, or every weekday), and the RRULE value a todo keeps for it.
///
/// The recurrence engine (TodoSync's `RecurrenceRule`) sits above this module, so the few rules
/// these periods make are written here, in the shapes the engine's builders write for the same
/// forms typed at the command line (`RecurrenceRule.daily`, `.weekly`, `.monthly(onDayOf:)`,
/// `.yearly(onDayOf:)`): FREQ first, then INTERVAL when it is not 1, then the parts that keep a
/// month's last day or Feb 29, then UNTIL. TodoSyncTests checks every unit against those builders
/// and parses every rule with the engine, so the two cannot drift apart.
public struct RepeatPeriod: Sendable, Hashable {
    /// The length of one step.
    public enum Unit: Sendable, Hashable, CaseIterable {
        case day
        /// Every weekday, Monday to Friday (taskwarrior's `weekdays`, todo.txt's `1b`).
        case weekday
        case week, month, year
    }

    public let unit: Unit
    /// How many units apart occurrences are: 1 to ``maxInterval``, always 1 for weekdays.
    public let interval: Int

    /// The largest interval read: far beyond any real repeat, and small enough that no
    /// arithmetic on it (quarters are three months) overflows.
    public static let maxInterval = 1_000_000

    /// `nil` for an interval out of 1...``maxInterval``, or other than 1 for weekdays (every
    /// second weekday has no RRULE).
    public init?(_ unit: Unit, every interval: Int = 1) {
        guard (1...Self.maxInterval).contains(interval), unit != .weekday || interval == 1 else { return nil }
        self.unit = unit
        self.interval = interval
    }

    // MARK: The rule

    /// The RRULE value: `FREQ=DAILY;INTERVAL=3`, `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR`. A monthly
    /// rule keeps the day of `anchor` (the deadline) in every month: `BYMONTHDAY=-1` when it is its
    /// month's last day (taskwarrior's `due:eom recur:monthly`), `BYMONTHDAY=d,-1;BYSETPOS=1` for
    /// another 29th or 30th; a yearly one on Feb 29 keeps Feb 28 in other years. `until` (the last
    /// day it may fall on) is `UNTIL=YYYYMMDD`.
    public func rule(anchor: CalendarDate?, until: CalendarDate? = nil) -> String {
        var parts: [String]
        switch unit {
        case .day: parts = ["FREQ=DAILY"]
        case .weekday, .week: parts = ["FREQ=WEEKLY"]
        case .month: parts = ["FREQ=MONTHLY"]
        case .year: parts = ["FREQ=YEARLY"]
        }
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch unit {
        case .weekday:
            parts.append("BYDAY=MO,TU,WE,TH,FR")
        case .month:
            guard let anchor else { break }
            if anchor.day == CalendarDate.daysInMonth(anchor.month, of: anchor.year) {
                parts.append("BYMONTHDAY=-1")
            } else if anchor.day > 28 {
                parts += ["BYMONTHDAY=\(anchor.day),-1", "BYSETPOS=1"]
            }
        case .year:
            guard let anchor, anchor.month == 2, anchor.day == 29 else { break }
            parts += ["BYMONTH=2", "BYMONTHDAY=29,-1", "BYSETPOS=1"]
        case .day, .week:
            break
        }
        if let until { parts.append("UNTIL=" + BasicTime.write(until)) }
        return parts.joined(separator: ";")
    }

    /// The period whose ``rule(anchor:until:)`` from `anchor` is `rule` (compared part by part:
    /// names and values in any case, parts in any order, `INTERVAL=1` as none); `nil` for a rule
    /// that says anything more (BYDAY beyond the weekdays, COUNT, UNTIL, WKST...), which no
    /// period says.
    public init?(rule: String, anchor: CalendarDate?) {
        guard let parts = Self.parts(rule), let frequency = parts["FREQ"] else { return nil }
        var interval = 1
        if let text = parts["INTERVAL"] {
            guard let value = Int(text) else { return nil }
            interval = value
        }
        let unit: Unit
        switch frequency {
        case "DAILY": unit = .day
        case "WEEKLY": unit = parts["BYDAY"] == nil ? .week : .weekday
        case "MONTHLY": unit = .month
        case "YEARLY": unit = .year
        default: return nil
        }
        guard let period = RepeatPeriod(unit, every: interval),
            Self.parts(period.rule(anchor: anchor)) == parts
        else { return nil }
        self = period
    }

    /// A rule's parts by name, upper-cased, blanks trimmed, lists sorted, `INTERVAL=1` left out;
    /// `nil` for a part without `=` or a name given twice.
    private static func parts(_ rule: String) -> [String: String]? {
        var parts: [String: String] = [:]
        for part in rule.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { trimmed($0).uppercased() }
            guard pair.count == 2, !pair[0].isEmpty, parts[pair[0]] == nil else { return nil }
            parts[pair[0]] = pair[1].split(separator: ",").map { trimmed($0) }.sorted().joined(separator: ",")
        }
        if parts["INTERVAL"] == "1" { parts["INTERVAL"] = nil }
        return parts
    }

    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }

    // MARK: todo.txt

    /// The value of a todo.txt `rec:` tag without its `+`: `3d`, `1b`, `2w`, `1m`, `1y`.
    public var todoTxt: String {
        switch unit {
        case .day: "\(interval)d"
        case .weekday: "1b"
        case .week: "\(interval)w"
        case .month: "\(interval)m"
        case .year: "\(interval)y"
        }
    }

    /// What a todo.txt `rec:` value says (Simpletask's grammar, `[+][N](d|b|w|m|y)`, the
    /// letter in either case and N 1 when left out).
    public enum TodoTxtRepeat: Sendable, Equatable {
        /// A period; `strict` (a `+`) counts from the due date, else from the day it was done.
        case period(RepeatPeriod, strict: Bool)
        /// Every N business days for N > 1, which no RRULE says.
        case businessDays(Int)
    }

    /// The repeat of a `rec:` value (the text after `rec:`); `nil` when it is not one.
    public static func todoTxt(_ value: some StringProtocol) -> TodoTxtRepeat? {
        var text = Substring(value)
        let strict = text.first == "+"
        if strict { text = text.dropFirst() }
        guard let letter = text.last?.lowercased() else { return nil }
        let digits = text.dropLast()
        guard digits.utf8.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        let unit: Unit
        switch letter {
        case "d": unit = .day
        case "b": unit = .weekday
        case "w": unit = .week
        case "m": unit = .month
        case "y": unit = .year
        default: return nil
        }
        if unit == .weekday, count > 1 { return .businessDays(count) }
        return RepeatPeriod(unit, every: count).map { .period($0, strict: strict) }
    }

    // MARK: taskwarrior

    /// What a taskwarrior `recur` value says.
    public enum TaskwarriorRecur: Sendable, Equatable {
        case period(RepeatPeriod)
        /// Hours, minutes or seconds: a todo's deadline is a day, so no rule of days says it.
        case shorterThanADay
        /// A value read as neither (`P1DT12H`, a word taskwarrior does not know).
        case other
    }

    /// The repeat of a taskwarrior `recur` value (taskwarrior.org/docs/durations): the named
    /// ones (`daily`, `weekdays`, `weekly`, `biweekly` and `fortnight`, `monthly`, `bimonthly`,
    /// `quarterly`, `semiannual`, `annual` and `yearly`, `biannual` and `biyearly`: every two
    /// years), a number and a unit (`3d`, `2w`, `2wks`, `1mo`, `6m`, `1q`, `2y`, `5days`), and ISO
    /// 8601 durations of one unit (`P2W`, `P1M`).
    public static func taskwarrior(_ value: String) -> TaskwarriorRecur {
        let text = String(value.lowercased().filter { $0 != " " && $0 != "\t" })
        if let (unit, interval) = namedDurations[text] {
            return RepeatPeriod(unit, every: interval).map(TaskwarriorRecur.period) ?? .other
        }
        if text.first == "p" { return isoDuration(text.dropFirst()) }
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let word = text.dropFirst(digits.count)
        guard digits.utf8.count <= 9, let number = digits.isEmpty ? 1 : Int(digits) else { return .other }
        if shortUnits.contains(String(word)) { return number > 0 ? .shorterThanADay : .other }
        guard let (unit, multiple) = durationUnits[String(word)] else { return .other }
        return RepeatPeriod(unit, every: number * multiple).map(TaskwarriorRecur.period) ?? .other
    }

    /// An ISO 8601 duration after its `P`, lower-cased: one date unit (`2w`, `1m`), or time units
    /// alone (`t2h`).
    private static func isoDuration(_ text: Substring) -> TaskwarriorRecur {
        var date: [(Int, Character)] = []
        var time: [(Int, Character)] = []
        var inTime = false
        var digits = ""
        for character in text {
            if character == "t", digits.isEmpty, !inTime {
                inTime = true
            } else if character.isASCII, character.isNumber {
                digits.append(character)
                guard digits.utf8.count <= 9 else { return .other }
            } else {
                guard let number = Int(digits) else { return .other }
                if inTime { time.append((number, character)) } else { date.append((number, character)) }
                digits = ""
            }
        }
        guard digits.isEmpty else { return .other }
        let dateUnits: [Character: (Unit, Int)] = ["d": (.day, 1), "w": (.week, 1), "m": (.month, 1), "y": (.year, 1)]
        let timeUnits: Set<Character> = ["h", "m", "s"]
        if date.isEmpty, !time.isEmpty, time.allSatisfy({ timeUnits.contains($0.1) }),
            time.contains(where: { $0.0 > 0 })
        {
            return .shorterThanADay
        }
        guard date.count == 1, time.allSatisfy({ $0.0 == 0 }), let (unit, multiple) = dateUnits[date[0].1] else {
            return .other
        }
        return RepeatPeriod(unit, every: date[0].0 * multiple).map(TaskwarriorRecur.period) ?? .other
    }

    /// taskwarrior's named durations that are a whole number of days or more.
    private static let namedDurations: [String: (Unit, Int)] = [
        "daily": (.day, 1), "day": (.day, 1), "weekdays": (.weekday, 1), "weekly": (.week, 1), "week": (.week, 1),
        "biweekly": (.week, 2), "fortnight": (.week, 2), "monthly": (.month, 1), "month": (.month, 1),
        "bimonthly": (.month, 2), "quarterly": (.month, 3), "quarter": (.month, 3), "semiannual": (.month, 6),
        "annual": (.year, 1), "yearly": (.year, 1), "year": (.year, 1), "biannual": (.year, 2),
        "biyearly": (.year, 2)
    ]

    /// The units after a number, as taskwarrior spells them, and how many of the period's unit
    /// each is (a quarter is three months).
    private static let durationUnits: [String: (Unit, Int)] = {
        var units: [String: (Unit, Int)] = [:]
        for word in ["d", "da", "day", "days"] { units[word] = (.day, 1) }
        for word in ["w", "wk", "wks", "week", "weeks"] { units[word] = (.week, 1) }
        for word in ["m", "mo", "mos", "mth", "mths", "mnth", "mnths", "month", "months"] { units[word] = (.month, 1) }
        for word in ["q", "qtr", "qtrs", "qrtr", "qrtrs", "quarter", "quarters"] { units[word] = (.month, 3) }
        for word in ["y", "yr", "yrs", "year", "years"] { units[word] = (.year, 1) }
        return units
    }()

    /// Units shorter than a day (taskwarrior's `h`, `min`, `s` and their spellings; `hourly`).
    private static let shortUnits: Set<String> = [
        "h", "hr", "hrs", "hour", "hours", "hourly", "min", "mins", "minute", "minutes", "s", "sec", "secs", "second",
        "seconds"
    ]
}
