import TodoStore

/// A DATE or DATE-TIME value (RFC 5545 3.3.4, 3.3.5), and the stamps `todo` writes.
enum ICalendarTime: Sendable, Equatable {
    /// `VALUE=DATE:20240501`: a calendar date, as our deadlines are.
    case date(CalendarDate)
    /// `20240501T120000Z`: an instant, in seconds since 1970-01-01T00:00:00Z.
    case utc(epochSeconds: Int64)
    /// `20240501T120000`, with a `TZID` or floating (`nil`): a wall-clock time, in seconds
    /// since 1970-01-01T00:00:00 on the same wall clock.
    case local(wallSeconds: Int64, tzid: String?)

    /// The value of a DUE, DTSTART... property; `nil` when it is neither a DATE nor a DATE-TIME.
    init?(_ property: ICalendarProperty) {
        let bytes = Array(ICalendar.trimmed(property.value).utf8)
        func number(_ range: Range<Int>) -> Int? { CalendarDate.number(bytes, range) }
        guard bytes.count >= 8, let year = number(0..<4), let month = number(4..<6), let day = number(6..<8),
            let date = CalendarDate(year: year, month: month, day: day)
        else { return nil }
        if bytes.count == 8 {
            self = .date(date)
            return
        }
        // A DATE-TIME even when a sloppy writer said VALUE=DATE: the time is there to read.
        guard
            bytes.count == 15
                || (bytes.count == 16 && (bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z"))),
            bytes[8] == UInt8(ascii: "T") || bytes[8] == UInt8(ascii: "t"),
            let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        if bytes.count == 16 {
            self = .utc(epochSeconds: seconds)
        } else {
            let tzid = property.parameter(named: "TZID")?.value
            self = .local(wallSeconds: seconds, tzid: tzid.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// `YYYYMMDDTHHMMSSZ` for an instant: DTSTAMP, LAST-MODIFIED, COMPLETED. Instants outside
    /// the years 1...9999 are clamped to them.
    static func utcStamp(epochSeconds: Int64) -> String {
        let (date, second) = utc(epochSeconds: epochSeconds)
        return (date.map(dateValue) ?? "19700101") + "T" + timeValue(second) + "Z"
    }

    /// The value as written (`20240501`, `20240501T120000Z`, `20240501T120000`), or `nil`
    /// outside the years 1...9999. A TZID is a parameter, not part of the value.
    var value: String? {
        switch self {
        case .date(let date):
            return Self.dateValue(date)
        case .utc(let seconds), .local(let seconds, _):
            let (days, second) = Self.split(seconds)
            guard let date = CalendarDate(daysSinceEpoch: Int(clamping: days)) else { return nil }
            let time = Self.dateValue(date) + "T" + Self.timeValue(second)
            if case .utc = self { return time + "Z" }
            return time
        }
    }

    /// Whether two values are written the same way: both dates, both UTC, or both wall-clock
    /// times with the same TZID (or both floating).
    func hasSameForm(as other: ICalendarTime) -> Bool {
        switch (self, other) {
        case (.date, .date), (.utc, .utc): true
        case (.local(_, let a), .local(_, let b)): a == b
        default: false
        }
    }

    /// The same form holding `seconds` (since 1970 on its clock); a date stays itself.
    func withSeconds(_ seconds: Int64) -> ICalendarTime {
        switch self {
        case .date: self
        case .utc: .utc(epochSeconds: seconds)
        case .local(_, let tzid): .local(wallSeconds: seconds, tzid: tzid)
        }
    }

    /// The seconds since 1970 on the value's own clock (a date: its midnight), which orders
    /// two values of the same form.
    var seconds: Int64 {
        switch self {
        case .date(let date): Int64(date.daysSinceEpoch) * 86_400
        case .utc(let seconds), .local(let seconds, _): seconds
        }
    }

    /// `HHMMSS` for a second of the day.
    private static func timeValue(_ second: Int) -> String {
        pad(second / 3600, 2) + pad(second % 3600 / 60, 2) + pad(second % 60, 2)
    }

    /// The UTC calendar date of an instant (clamped to the years 1...9999) and the second of
    /// that day: the one split of seconds since 1970 that both stamp forms (this one and the
    /// ISO 8601 `last_sync`) are written from.
    static func utc(epochSeconds: Int64) -> (date: CalendarDate?, second: Int) {
        let (days, second) = split(epochSeconds)
        let date =
            CalendarDate(daysSinceEpoch: Int(clamping: days))
            ?? (days < 0 ? CalendarDate(year: 1, month: 1, day: 1) : CalendarDate(year: 9999, month: 12, day: 31))
        return (date, second)
    }

    /// Seconds since 1970 (on any clock) as whole days since 1970-01-01 and the second of the
    /// last day: floor division, so a second before 1970 is in the day that holds it.
    static func split(_ seconds: Int64) -> (days: Int64, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        return (days, Int(seconds - days * 86_400))
    }

    /// `YYYYMMDD`, the DATE form.
    static func dateValue(_ date: CalendarDate) -> String {
        pad(date.year, 4) + pad(date.month, 2) + pad(date.day, 2)
    }

    private static func pad(_ value: Int, _ digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A UTC offset as VTIMEZONE writes it, `+0100`, `-0500`, `+053000`: seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(ICalendar.trimmed(text).utf8)
        guard bytes.count == 5 || bytes.count == 7, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-")
        else { return nil }
        var digits: [Int] = []
        for byte in bytes.dropFirst() {
            guard (48...57).contains(byte) else { return nil }
            digits.append(Int(byte) - 48)
        }
        let hours = digits[0] * 10 + digits[1]
        let minutes = digits[2] * 10 + digits[3]
        let seconds = digits.count == 6 ? digits[4] * 10 + digits[5] : 0
        let total = hours * 3600 + minutes * 60 + seconds
        return bytes[0] == UInt8(ascii: "-") ? -total : total
    }
}
