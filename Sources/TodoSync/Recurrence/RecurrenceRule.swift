import TodoStore

/// An RRULE value (RFC 5545 3.3.10), `FREQ=MONTHLY;BYDAY=-1FR`, read and checked once.
///
/// Reading is lenient where other apps differ harmlessly: part names and values in any case,
/// blanks around them, the parts in any order (RFC 2445 readers want FREQ first; RFC 5545
/// readers take any order), an empty part (a trailing `;`), COUNT beside UNTIL (each ends the
/// rule where it would alone). It is strict where a guess could change the dates: an unknown
/// FREQ, a value out of its range, a part given twice, and the combinations RFC 5545 forbids
/// (an ordinal BYDAY outside MONTHLY and YEARLY or beside BYWEEKNO, BYMONTHDAY in a WEEKLY rule,
/// BYYEARDAY in a DAILY, WEEKLY or MONTHLY one, BYWEEKNO outside YEARLY) throw
/// ``RecurrenceRuleError``: such a rule is shown as not supported, never expanded by a guess.
///
/// Parts the engine does not know (`X-NAME=...`, RFC 7529's `RSCALE` and `SKIP`) are kept in
/// ``unknownParts`` and in ``text``; a rule with any is never completed here
/// (``isCompletable``), and one whose RSCALE or SKIP changes the dates is not expanded either
/// (``isExpandable``).
///
/// The value keeps its text exactly as written: ``settingCount(_:)`` rewrites the COUNT part
/// alone, so a rule another app wrote goes back to it unchanged but for its count.
public struct RecurrenceRule: Sendable, Equatable {
    /// The FREQ part: how long one period of the rule is.
    public enum Frequency: Int, Sendable, Comparable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        /// The value as RFC 5545 writes it, `WEEKLY`.
        public var name: String {
            switch self {
            case .secondly: "SECONDLY"
            case .minutely: "MINUTELY"
            case .hourly: "HOURLY"
            case .daily: "DAILY"
            case .weekly: "WEEKLY"
            case .monthly: "MONTHLY"
            case .yearly: "YEARLY"
            }
        }

        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
    }

    /// A day of the week, numbered as `CalendarDate.weekday` numbers them (0 is Sunday).
    public enum Weekday: Int, Sendable, CaseIterable {
        case sunday, monday, tuesday, wednesday, thursday, friday, saturday

        /// The two letters RFC 5545 writes, `MO`.
        public var code: String { ["SU", "MO", "TU", "WE", "TH", "FR", "SA"][rawValue] }
        /// The short English name, `Mon`.
        public var shortName: String { ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][rawValue] }

        /// The weekday of `code` (`MO`, any case), or `nil`.
        public init?(code: some StringProtocol) {
            guard let index = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"].firstIndex(of: code.uppercased()) else {
                return nil
            }
            self.init(rawValue: index)
        }
    }

    /// One BYDAY value: a weekday, with an ordinal in MONTHLY and YEARLY rules (`-1FR`, the last
    /// Friday; `2TU`, the second Tuesday); `ordinal` is `nil` for every such weekday.
    public struct WeekdayNumber: Sendable, Hashable {
        public var ordinal: Int?
        public var weekday: Weekday

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// The value exactly as written.
    public let text: String
    public let frequency: Frequency
    /// INTERVAL, 1 when absent.
    public let interval: Int
    /// COUNT: how many occurrences the rule makes, the anchor (DTSTART) counted first.
    public let count: Int?
    /// UNTIL, inclusive: a DATE, a UTC DATE-TIME, or (against RFC 5545, read leniently) a
    /// floating one.
    public let until: ICalendarTime?
    public let byDay: [WeekdayNumber]
    /// BYMONTHDAY: 1...31 from the month's start, -1...-31 from its end.
    public let byMonthDay: [Int]
    public let byMonth: [Int]
    /// BYSETPOS: positions in each period's set, 1...366 from its start, -1...-366 from its end.
    public let bySetPos: [Int]
    public let byYearDay: [Int]
    public let byWeekNo: [Int]
    public let byHour: [Int]
    public let byMinute: [Int]
    public let bySecond: [Int]
    /// WKST, Monday when absent.
    public let weekStart: Weekday
    /// The parts this engine does not know, as written (`X-FOO=1`, `RSCALE=GREGORIAN`).
    public let unknownParts: [String]

    /// Reads an RRULE value.
    ///
    /// - Throws: ``RecurrenceRuleError`` for a value that is not a valid rule (see the type).
    public init(parsing text: String) throws(RecurrenceRuleError) {
        self.text = text
        var seen: Set<String> = []
        var frequency: Frequency?
        var interval = 1
        var count: Int?
        var until: ICalendarTime?
        var lists: [String: [Int]] = [:]
        var byDay: [WeekdayNumber] = []
        var weekStart = Weekday.monday
        var unknown: [String] = []
        for rawPart in text.split(separator: ";", omittingEmptySubsequences: false) {
            let part = ICalendar.trimmed(String(rawPart))
            if part.isEmpty { continue }
            guard let equals = part.firstIndex(of: "=") else {
                throw RecurrenceRuleError("'\(Self.shown(part))' is no NAME=VALUE part")
            }
            let name = ICalendar.trimmed(String(part[..<equals])).uppercased()
            let value = ICalendar.trimmed(String(part[part.index(after: equals)...]))
            guard seen.insert(name).inserted else { throw RecurrenceRuleError("\(Self.shown(name)) is given twice") }
            switch name {
            case "FREQ":
                guard let known = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else {
                    throw RecurrenceRuleError("FREQ=\(Self.shown(value)) is no frequency")
                }
                frequency = known
            case "INTERVAL":
                interval = try Self.number(value, name, in: 1...Self.maxNumber)
            case "COUNT":
                count = try Self.number(value, name, in: 1...Self.maxNumber)
            case "UNTIL":
                guard let time = ICalendarTime(ICalendarProperty(name: "UNTIL", value: value)) else {
                    throw RecurrenceRuleError("UNTIL=\(Self.shown(value)) is no DATE or DATE-TIME")
                }
                until = time
            case "WKST":
                guard let day = Weekday(code: value) else {
                    throw RecurrenceRuleError("WKST=\(Self.shown(value)) is no weekday")
                }
                weekStart = day
            case "BYDAY":
                byDay = try Self.weekdays(value)
            default:
                if let range = Self.listRanges[name] {
                    lists[name] = try Self.numbers(value, name, in: range.range, zero: range.zero)
                } else {
                    unknown.append(part)
                }
            }
        }
        guard let frequency else { throw RecurrenceRuleError("the rule has no FREQ") }
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.byDay = byDay
        self.weekStart = weekStart
        self.unknownParts = unknown
        byMonthDay = lists["BYMONTHDAY"] ?? []
        byMonth = lists["BYMONTH"] ?? []
        bySetPos = lists["BYSETPOS"] ?? []
        byYearDay = lists["BYYEARDAY"] ?? []
        byWeekNo = lists["BYWEEKNO"] ?? []
        byHour = lists["BYHOUR"] ?? []
        byMinute = lists["BYMINUTE"] ?? []
        bySecond = lists["BYSECOND"] ?? []
        // The combinations RFC 5545 3.3.10 forbids: their meaning is undefined.
        if byDay.contains(where: { $0.ordinal != nil }) {
            guard frequency >= .monthly else {
                throw RecurrenceRuleError("a BYDAY with a number needs FREQ=MONTHLY or YEARLY")
            }
            guard byWeekNo.isEmpty else { throw RecurrenceRuleError("a BYDAY with a number cannot go with BYWEEKNO") }
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            throw RecurrenceRuleError("BYMONTHDAY cannot go with FREQ=WEEKLY")
        }
        if [.daily, .weekly, .monthly].contains(frequency), !byYearDay.isEmpty {
            throw RecurrenceRuleError("BYYEARDAY cannot go with FREQ=\(frequency.name)")
        }
        if frequency != .yearly, !byWeekNo.isEmpty {
            throw RecurrenceRuleError("BYWEEKNO needs FREQ=YEARLY")
        }
    }

    /// A rule made here (``daily(every:end:)`` and the other forms), its parts valid.
    init(
        text: String, frequency: Frequency, interval: Int, count: Int?, until: ICalendarTime?, byDay: [WeekdayNumber],
        byMonthDay: [Int], byMonth: [Int], bySetPos: [Int]
    ) {
        self.text = text
        self.frequency = frequency
        self.interval = interval
        self.count = count
        self.until = until
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        (byYearDay, byWeekNo, byHour, byMinute, bySecond) = ([], [], [], [], [])
        weekStart = .monday
        unknownParts = []
    }

    /// Whether the engine can list this rule's occurrences: every rule it reads, but for one
    /// whose RFC 7529 RSCALE or SKIP part changes the dates (another calendar scale, invalid dates
    /// moved instead of skipped). A DATE anchor also needs a rule of whole days
    /// (``RecurrenceSet/isExpandable``).
    public var isExpandable: Bool {
        for part in unknownParts {
            let pair = part.split(separator: "=", maxSplits: 1).map { ICalendar.trimmed(String($0)).uppercased() }
            guard pair.count == 2 else { continue }
            if pair[0] == "RSCALE", pair[1] != "GREGORIAN" { return false }
            if pair[0] == "SKIP", pair[1] != "OMIT" { return false }
        }
        return true
    }

    /// Whether the day `date` passes the rule's BYMONTH, BYMONTHDAY and BYDAY filters (a BYDAY
    /// ordinal counted in the month for a MONTHLY rule, or a YEARLY one with BYMONTH): whether
    /// the rule itself could make that day, as opposed to a DTSTART off the rule, which RFC 5545
    /// counts as an occurrence all the same. Filters it does not check (BYYEARDAY, BYWEEKNO,
    /// BYSETPOS) are taken as passed.
    public func admits(_ date: CalendarDate) -> Bool {
        if !byMonth.isEmpty, !byMonth.contains(date.month) { return false }
        let length = CalendarDate.daysInMonth(date.month, of: date.year)
        if !byMonthDay.isEmpty,
            !byMonthDay.contains(where: { $0 > 0 ? $0 == date.day : length + 1 + $0 == date.day })
        {
            return false
        }
        guard !byDay.isEmpty else { return true }
        let inMonth = frequency == .monthly || (frequency == .yearly && !byMonth.isEmpty)
        return byDay.contains { day in
            guard day.weekday.rawValue == date.weekday else { return false }
            guard let ordinal = day.ordinal, inMonth else { return true }
            return ordinal > 0 ? (date.day - 1) / 7 + 1 == ordinal : (length - date.day) / 7 + 1 == -ordinal
        }
    }

    /// Whether `todo` may complete an occurrence of this rule (advance a series along it):
    /// FREQ DAILY, WEEKLY, MONTHLY or YEARLY with INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS,
    /// WKST, COUNT and UNTIL only, and no part it does not know (RECURRENCE.md §5.4's scope).
    /// Other rules are still expanded to show the current occurrence.
    public var isCompletable: Bool {
        frequency >= .daily && unknownParts.isEmpty && byYearDay.isEmpty && byWeekNo.isEmpty && byHour.isEmpty
            && byMinute.isEmpty && bySecond.isEmpty
    }

    /// The rule's text with its COUNT part set to `count` (at least 1: a series with no
    /// occurrence left is completed, not given COUNT=0), every other part, its order, case and
    /// blanks kept as written; a COUNT part is appended to a rule that has none. The part's name
    /// keeps its case (`count=3` becomes `count=2`).
    public func settingCount(_ count: Int) -> String {
        let value = String(max(1, count))
        var parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        for (index, part) in parts.enumerated() {
            guard let equals = part.firstIndex(of: "="),
                ICalendar.trimmed(String(part[..<equals])).uppercased() == "COUNT"
            else { continue }
            parts[index] = String(part[...equals]) + value
            return parts.joined(separator: ";")
        }
        let separator = text.hasSuffix(";") || text.isEmpty ? "" : ";"
        return text + separator + "COUNT=" + value
    }

    // MARK: Reading

    /// The largest INTERVAL or COUNT read: far past any bound the engine expands to, and small
    /// enough that no arithmetic on it overflows.
    static let maxNumber = 1_000_000_000

    private static let listRanges: [String: (range: ClosedRange<Int>, zero: Bool)] = [
        "BYMONTHDAY": (-31...31, false), "BYMONTH": (1...12, false), "BYSETPOS": (-366...366, false),
        "BYYEARDAY": (-366...366, false), "BYWEEKNO": (-53...53, false), "BYHOUR": (0...23, true),
        "BYMINUTE": (0...59, true), "BYSECOND": (0...60, true)
    ]

    /// A part's text in a message: at most 40 characters.
    private static func shown(_ text: String) -> String { ICalendar.shown(text) }

    private static func number(_ text: String, _ name: String, in range: ClosedRange<Int>) throws(RecurrenceRuleError)
        -> Int
    {
        let body = text.first == "+" ? String(text.dropFirst()) : text
        guard body.utf8.count <= 11, !body.isEmpty, body.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }),
            let value = Int(body), range.contains(value)
        else { throw RecurrenceRuleError("\(name)=\(shown(text)) is not a number in \(range)") }
        return value
    }

    /// A comma-separated list of numbers in `range`, none of them 0 unless `zero`, in order
    /// without repeats.
    private static func numbers(_ text: String, _ name: String, in range: ClosedRange<Int>, zero: Bool)
        throws(RecurrenceRuleError) -> [Int]
    {
        var values: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let value = try number(ICalendar.trimmed(String(item)), name, in: range)
            guard zero || value != 0 else { throw RecurrenceRuleError("\(name) cannot be 0") }
            if !values.contains(value) { values.append(value) }
        }
        return values
    }

    /// BYDAY's list: `MO`, `-1FR`, `+2TU`.
    private static func weekdays(_ text: String) throws(RecurrenceRuleError) -> [WeekdayNumber] {
        var values: [WeekdayNumber] = []
        for rawItem in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = ICalendar.trimmed(String(rawItem))
            guard item.utf8.count >= 2, let weekday = Weekday(code: item.suffix(2)) else {
                throw RecurrenceRuleError("BYDAY=\(shown(text)) holds '\(shown(item))', no weekday")
            }
            let prefix = String(item.dropLast(2))
            var ordinal: Int?
            if !prefix.isEmpty {
                let value = try number(prefix, "BYDAY", in: -53...53)
                guard value != 0 else { throw RecurrenceRuleError("a BYDAY number cannot be 0") }
                ordinal = value
            }
            let entry = WeekdayNumber(weekday, ordinal: ordinal)
            if !values.contains(entry) { values.append(entry) }
        }
        return values
    }
}

/// Why an RRULE value is not a rule the engine reads: a sentence for a message.
public struct RecurrenceRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
