import SQLite

/// A day in the proleptic Gregorian calendar, with no time and no time zone.
///
/// A deadline is a calendar date, never an instant: "2024-05-01" is the same day in Tokyo and
/// in Lisbon, so it is stored and compared as year, month and day, never through `Date`.
/// Years run from 1 to 9999 so the ISO form always has four digits.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, 1...9999.
    public let year: Int
    /// The month, 1...12.
    public let month: Int
    /// The day of the month, 1...28/29/30/31.
    public let day: Int

    /// Creates the date, or returns `nil` when it does not exist (2023-02-29, 2024-04-31).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CalendarDate.daysInMonth(month, of: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// 1970-01-01, day 0 of ``daysSinceEpoch``.
    public static let unixEpoch = CalendarDate(validYear: 1970, month: 1, day: 1)

    private init(validYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses the ISO form `YYYY-MM-DD` exactly (the stored form); `nil` for anything else.
    public init?(_ text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard let date = utf8.withUnsafeBufferPointer({ CalendarDate(iso: $0) })
        else { return nil }
        self = date
    }

    /// Parses `YYYY-MM-DD` from raw UTF-8 (a column read without building a String first).
    public init?(iso bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = Self.number(bytes, 0..<4), let month = Self.number(bytes, 5..<7),
            let day = Self.number(bytes, 8..<10)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The decimal number written in `bytes[range]` (ASCII digits only), or nil. Shared with the
    /// iCalendar reader's dates and times.
    package static func number<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ range: Range<Int>) -> Int?
    where Bytes.Index == Int {
        var value = 0
        for index in range {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// The number of days in `month` of `year`.
    public static func daysInMonth(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Whether `year` has a February 29th.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// `YYYY-MM-DD`, the form stored in the database and shown to people.
    public var description: String {
        String(unsafeUninitializedCapacity: 10) { self.writeISO(to: $0) }
    }

    /// Writes the 10 bytes of `YYYY-MM-DD` to `buffer` and returns 10.
    ///
    /// Formatting without intermediate Strings keeps bulk inserts and listings allocation-free.
    @discardableResult
    public func writeISO(to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        func put(_ value: Int, digits: Int, at offset: Int) {
            var value = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                buffer[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
                value /= 10
            }
        }
        put(year, digits: 4, at: 0)
        buffer[4] = UInt8(ascii: "-")
        put(month, digits: 2, at: 5)
        buffer[7] = UInt8(ascii: "-")
        put(day, digits: 2, at: 8)
        return 10
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    // MARK: Day arithmetic

    /// Days since 1970-01-01 (negative before it).
    ///
    /// Howard Hinnant's `days_from_civil`: exact for every proleptic Gregorian date, no tables.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` days after 1970-01-01, or `nil` outside years 1...9999.
    public init?(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }

    /// The date `days` days later (earlier when negative), or `nil` past the supported years.
    public func adding(days: Int) -> CalendarDate? {
        CalendarDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// The same day `months` months later (earlier when negative), or that month's last day when
    /// it is shorter: Jan 31 plus a month is Feb 28, as `todo`'s `+1m` and a series repeating
    /// monthly from completion count. `nil` past the supported years.
    public func adding(months: Int) -> CalendarDate? {
        // Past 120 000 months every result is outside the years 1...9999; no overflow before.
        guard (-120_000...120_000).contains(months) else { return nil }
        let index = year * 12 + (month - 1) + months
        guard index >= 12 else { return nil }
        let month = index % 12 + 1
        return CalendarDate(year: index / 12, month: month, day: min(day, Self.daysInMonth(month, of: index / 12)))
    }

    /// Whole days from `self` to `other`: positive when `other` is later.
    public func days(until other: CalendarDate) -> Int {
        other.daysSinceEpoch - daysSinceEpoch
    }

    /// The day of the week: 0 is Sunday, 6 is Saturday.
    public var weekday: Int {
        let days = daysSinceEpoch
        // 1970-01-01 was a Thursday (4).
        return ((days % 7) + 7 + 4) % 7
    }
}

extension CalendarDate: SQLiteBindable {
    /// Binds the stored form, `YYYY-MM-DD`, as TEXT, without building a String.
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { (buffer) throws(SQLiteError) in
            let count = writeISO(to: buffer)
            try statement.bindText(UnsafeBufferPointer(rebasing: buffer[..<count]), at: index)
        }
    }
}
