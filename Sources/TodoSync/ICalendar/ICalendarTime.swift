import TodoStore

/// A DATE or DATE-TIME value (RFC 5545 3.3.4, 3.3.5), read and written in ISO 8601's basic form
/// by TodoStore's one reading of it (`BasicTime`, `UTCTimestamp.basic` for the stamps).
public enum ICalendarTime: Sendable, Hashable {
    /// `VALUE=DATE:20240501`: a calendar date, as our deadlines are.
    case date(CalendarDate)
    /// `20240501T120000Z`: an instant, in seconds since 1970-01-01T00:00:00Z.
    case utc(epochSeconds: Int64)
    /// `20240501T120000`, with a `TZID` or floating (`nil`): a wall-clock time, in seconds
    /// since 1970-01-01T00:00:00 on the same wall clock.
    case local(wallSeconds: Int64, tzid: String?)

    /// The value of a DUE, DTSTART... property; `nil` when it is neither a DATE nor a DATE-TIME.
    public init?(_ property: ICalendarProperty) {
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
        let isUTC = bytes.count == 16 && (bytes[15] == UInt8(ascii: "Z") || bytes[15] == UInt8(ascii: "z"))
        guard bytes.count == 15 || isUTC, let seconds = BasicTime.seconds(bytes[0..<15]) else { return nil }
        if isUTC {
            self = .utc(epochSeconds: seconds)
        } else {
            let tzid = property.parameter(named: "TZID")?.value
            self = .local(wallSeconds: seconds, tzid: tzid.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// The value as written (`20240501`, `20240501T120000Z`, `20240501T120000`), or `nil`
    /// outside the years 1...9999. A TZID is a parameter, not part of the value.
    public var value: String? {
        switch self {
        case .date(let date): Self.dateValue(date)
        case .utc(let seconds): BasicTime.write(seconds).map { $0 + "Z" }
        case .local(let seconds, _): BasicTime.write(seconds)
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

    /// The same form holding `seconds` (since 1970 on its clock); a date becomes the day that
    /// holds them (itself when they are outside the days `CalendarDate` can name).
    func withSeconds(_ seconds: Int64) -> ICalendarTime {
        switch self {
        case .date(let date):
            .date(CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(seconds).days)) ?? date)
        case .utc: .utc(epochSeconds: seconds)
        case .local(_, let tzid): .local(wallSeconds: seconds, tzid: tzid)
        }
    }

    /// The seconds since 1970 on the value's own clock (a date: its midnight), which orders
    /// two values of the same form.
    public var seconds: Int64 {
        switch self {
        case .date(let date): Int64(date.daysSinceEpoch) * 86_400
        case .utc(let seconds), .local(let seconds, _): seconds
        }
    }

    /// `YYYYMMDD`, the DATE form.
    static func dateValue(_ date: CalendarDate) -> String { BasicTime.write(date) }

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
