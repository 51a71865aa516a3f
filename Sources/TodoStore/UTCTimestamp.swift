import SQLite

#if canImport(Glibc)
    import Glibc
#endif

/// An instant in UTC to the second, stored as `YYYY-MM-DDTHH:MM:SSZ` (the `created` and
/// `completed` columns; iCalendar's CREATED and COMPLETED are the same instant).
public struct UTCTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let secondsSince1970: Int64

    public init(secondsSince1970: Int64) { self.secondsSince1970 = secondsSince1970 }

    /// The current time, from the system clock.
    public static func now() -> UTCTimestamp {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UTCTimestamp(secondsSince1970: Int64(time.tv_sec))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` exactly; `nil` for anything else.
    public init?(iso text: some StringProtocol) {
        var text = String(text)
        guard let parsed = text.withUTF8({ UTCTimestamp(iso: $0) }) else { return nil }
        self = parsed
    }

    /// ``init(iso:)`` on the bytes as stored, without making a String (a list reads one per row).
    public init?(iso bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
            bytes[16] == 0x3A, bytes[19] == 0x5A,
            let date = CalendarDate(iso: UnsafeBufferPointer(rebasing: bytes[0..<10])),
            let hour = CalendarDate.number(bytes, 11..<13), let minute = CalendarDate.number(bytes, 14..<16),
            let second = CalendarDate.number(bytes, 17..<19), hour < 24, minute < 60, second < 60
        else { return nil }
        secondsSince1970 = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3_600 + minute * 60 + second)
    }

    /// The UTC calendar date; `nil` outside the years 1...9999.
    public var date: CalendarDate? {
        CalendarDate(daysSinceEpoch: Int(clamping: Self.split(secondsSince1970).days))
    }

    public var description: String {
        String(unsafeUninitializedCapacity: 20) { writeISO(to: $0) }
    }

    /// Writes `YYYY-MM-DDTHH:MM:SSZ` (20 bytes) into `buffer` and returns 20; without a String
    /// in between, as ``CalendarDate/writeISO(to:)`` (every `todo add` binds one).
    @discardableResult
    public func writeISO(to buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let seconds = Self.split(secondsSince1970).second
        if let date {
            date.writeISO(to: buffer)
        } else {
            for index in 0..<10 { buffer[index] = index == 4 || index == 7 ? 0x2D : 0x30 }
        }
        func two(_ value: Int, at offset: Int) {
            buffer[offset] = UInt8(truncatingIfNeeded: 48 + value / 10)
            buffer[offset + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
        }
        buffer[10] = UInt8(ascii: "T")
        two(seconds / 3_600, at: 11)
        buffer[13] = UInt8(ascii: ":")
        two(seconds / 60 % 60, at: 14)
        buffer[16] = UInt8(ascii: ":")
        two(seconds % 60, at: 17)
        buffer[19] = UInt8(ascii: "Z")
        return 20
    }

    public static func < (a: UTCTimestamp, b: UTCTimestamp) -> Bool { a.secondsSince1970 < b.secondsSince1970 }
}

extension UTCTimestamp {
    /// Seconds since 1970 (on any clock: UTC, or a zone's wall clock) as whole days since
    /// 1970-01-01 and the second of the last day: floor division, so a second before 1970 is in
    /// the day that holds it. The one split of a count of seconds into days, for every time
    /// written or read here (these stamps, iCalendar's DATE-TIMEs, taskwarrior's, time zones).
    public static func split(_ seconds: Int64) -> (days: Int64, second: Int) {
        // Quotient and remainder, not `seconds - 86_399`: no overflow at the ends of Int64.
        let (days, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        return second < 0 ? (days - 1, Int(second + 86_400)) : (days, Int(second))
    }

    /// ISO 8601's basic form, in UTC: `20240501T120000Z`, as iCalendar (a UTC DATE-TIME,
    /// DTSTAMP, CREATED, COMPLETED) and taskwarrior (`due`, `entry`, `end`) write instants;
    /// `nil` for anything else (``BasicTime/seconds(_:)`` reads the wall-clock part).
    public init?(basic text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z"),
            let seconds = BasicTime.seconds(bytes[0..<15])
        else { return nil }
        secondsSince1970 = seconds
    }

    /// `YYYYMMDDTHHMMSSZ`, ISO 8601's basic form (``init(basic:)``); an instant outside the
    /// years 1...9999 is written as the nearest end of them.
    public var basic: String { BasicTime.writeClamped(secondsSince1970) + "Z" }
}

/// The wall-clock time of ISO 8601's basic form, `YYYYMMDDTHHMMSS`, as seconds since
/// 1970-01-01T00:00:00 on the same clock: the one reading and writing of it, for UTC instants
/// (``UTCTimestamp/init(basic:)``), iCalendar's DATE-TIMEs in a zone or floating, and
/// taskwarrior's stamps.
public enum BasicTime {
    /// The seconds `YYYYMMDDTHHMMSS` (with `T` or `t`) stands for; `nil` when it is not that
    /// form or not a real day and time. A second of 60 (a leap second, RFC 5545 3.3.12) counts as
    /// the next minute's first.
    public static func seconds(_ bytes: ArraySlice<UInt8>) -> Int64? {
        guard bytes.count == 15 else { return nil }
        let start = bytes.startIndex
        guard bytes[start + 8] == UInt8(ascii: "T") || bytes[start + 8] == UInt8(ascii: "t") else { return nil }
        let digits = Array(bytes)
        func number(_ range: Range<Int>) -> Int? { CalendarDate.number(digits, range) }
        guard let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let date = CalendarDate(year: year, month: month, day: day),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        return Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Whether `text` has the shape of the UTC form, `20240501T120000Z` (8 digits, `T`, 6
    /// digits, `Z`), whether or not that day and time exist: to tell a wrong value from
    /// something else in an error.
    public static func hasUTCShape(_ text: some StringProtocol) -> Bool {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else { return false }
        return (0..<8).allSatisfy { isDigit(bytes[$0]) } && (9..<15).allSatisfy { isDigit(bytes[$0]) }
    }

    /// `YYYYMMDDTHHMMSS` for `seconds` since 1970 on its clock; `nil` outside the years 1...9999.
    public static func write(_ seconds: Int64) -> String? {
        let (days, second) = UTCTimestamp.split(seconds)
        guard let date = CalendarDate(daysSinceEpoch: Int(clamping: days)) else { return nil }
        return text(date, second)
    }

    /// ``write(_:)->String?``, an instant outside the years 1...9999 written as the nearest end of
    /// them.
    public static func writeClamped(_ seconds: Int64) -> String {
        let (days, second) = UTCTimestamp.split(seconds)
        let date =
            CalendarDate(daysSinceEpoch: Int(clamping: days))
            ?? (days < 0 ? CalendarDate(year: 1, month: 1, day: 1) : CalendarDate(year: 9999, month: 12, day: 31))
        guard let date else { return "00010101T000000" }
        return text(date, second)
    }

    /// `YYYYMMDD`: a date in the basic form (iCalendar's DATE).
    public static func write(_ date: CalendarDate) -> String {
        pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2)
    }

    private static func text(_ date: CalendarDate, _ second: Int) -> String {
        write(date) + "T" + pad(second / 3600, 2) + pad(second % 3600 / 60, 2) + pad(second % 60, 2)
    }

    private static func pad(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension UTCTimestamp: SQLiteBindable {
    /// Binds the stored form as TEXT, without building a String.
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { (buffer) throws(SQLiteError) in
            let count = writeISO(to: buffer)
            try statement.bindText(UnsafeBufferPointer(rebasing: buffer[..<count]), at: index)
        }
    }
}
