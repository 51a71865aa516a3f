import SQLite
import TextSafety

/// The time of day a todo is due, beside its deadline (which is then the date of that time).
///
/// Kept as the app that set it wrote it, so that it reads the same on every device and writes
/// back unchanged: a time on a zone's wall clock (`DUE;TZID=Europe/Berlin:20261127T190000`, or
/// floating, `DUE:20261127T190000`, 19:00 wherever the reader is), or an instant
/// (`DUE:20261127T180000Z`). Where it is shown, it is converted to the zone in force then
/// (``LocalDueTimes``), never to the zone of the device that synced it.
public enum TodoDueTime: Sendable, Hashable {
    /// `secondOfDay` seconds (0..<86,400) after midnight on the deadline, on the wall clock of
    /// `zone` (an iCalendar TZID, usually a tz database name), or floating when `zone` is
    /// `nil`: on the clock of whoever reads it.
    case wall(secondOfDay: Int, zone: String?)
    /// An instant, in seconds since 1970-01-01T00:00:00Z. The deadline is its date in the zone
    /// that read it.
    case instant(epochSeconds: Int64)

    /// The longest zone name kept: tz database names are at most 30 bytes, and Outlook's
    /// Windows names some 40.
    public static let zoneNameLimit = 128

    /// A time of day given as hours, minutes and seconds on a wall clock; `nil` out of range.
    public init?(hour: Int, minute: Int, second: Int = 0, zone: String? = nil) {
        guard (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        if let zone, !Self.isZoneName(zone) { return nil }
        self = .wall(secondOfDay: hour * 3600 + minute * 60 + second, zone: zone)
    }

    /// Whether `name` can be kept as a zone: not empty or blank at either end, not too long, no
    /// control character. (Outlook's names have blanks inside: `W. Europe Standard Time`.)
    public static func isZoneName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= zoneNameLimit && name.utf8.first != UInt8(ascii: " ")
            && name.utf8.last != UInt8(ascii: " ") && !name.unicodeScalars.contains(where: ControlCharacters.contains)
    }

    /// The stored text, which is also its JSON: `19:00`, `19:00:01`, `19:00 Europe/Berlin`, or
    /// an instant as ISO 8601 in UTC, `2026-11-27T18:00:00Z`.
    public var text: String {
        switch self {
        case .wall(let second, let zone):
            let clock = Self.clock(second)
            return zone.map { clock + " " + $0 } ?? clock
        case .instant(let seconds):
            return UTCTimestamp(secondsSince1970: seconds).description
        }
    }

    /// Reads ``text``; `nil` for anything else.
    public init?(text: String) {
        if let second = Self.floatingClock(text) {
            self = .wall(secondOfDay: second, zone: nil)
            return
        }
        if text.hasSuffix("Z"), let instant = UTCTimestamp(iso: text) {
            self = .instant(epochSeconds: instant.secondsSince1970)
            return
        }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard let clock = parts.first else { return nil }
        let numbers = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard numbers.count == 2 || numbers.count == 3,
            numbers.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(numbers[0]), let minute = Int(numbers[1])
        else { return nil }
        let second = numbers.count == 3 ? Int(numbers[2]) ?? 60 : 0
        self.init(hour: hour, minute: minute, second: second, zone: parts.count == 2 ? String(parts[1]) : nil)
    }

    /// The second of the day of `HH:MM` or `HH:MM:SS` (a floating time, the form `todo` writes),
    /// read on the bytes: a list reads one per row that has a time. `nil` for any other text,
    /// which the general reading of ``init(text:)`` takes.
    private static func floatingClock(_ text: String) -> Int? {
        let bytes = text.utf8
        guard bytes.count == 5 || bytes.count == 8 else { return nil }
        var values = (hour: 0, minute: 0, second: 0)
        for (offset, byte) in bytes.enumerated() {
            if offset % 3 == 2 {
                guard byte == UInt8(ascii: ":") else { return nil }
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int(byte - UInt8(ascii: "0"))
            switch offset {
            case 0, 1: values.hour = values.hour * 10 + digit
            case 3, 4: values.minute = values.minute * 10 + digit
            default: values.second = values.second * 10 + digit
            }
        }
        guard values.hour < 24, values.minute < 60, values.second < 60 else { return nil }
        return values.hour * 3600 + values.minute * 60 + values.second
    }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    public static func clock(_ secondOfDay: Int) -> String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let hours = two(secondOfDay / 3600)
        let minutes = two(secondOfDay % 3600 / 60)
        let seconds = secondOfDay % 60
        return seconds == 0 ? hours + ":" + minutes : hours + ":" + minutes + ":" + two(seconds)
    }

    /// The same time moved by `days` days: a wall time stays at its time of day (the deadline
    /// carries the date), an instant moves by as many 24-hour days.
    public func moved(byDays days: Int) -> TodoDueTime {
        switch self {
        case .wall: self
        case .instant(let seconds): .instant(epochSeconds: seconds + Int64(days) * 86_400)
        }
    }
}

extension TodoDueTime: TodoOptionalFieldValue {
    public init?(nonNullColumn index: Int32, of row: Row) { self.init(text: row.string(index)) }
    public init?(fieldValue: TodoField.Value) {
        guard case .clock(let time) = fieldValue else { return nil }
        self = time
    }
    public var fieldValue: TodoField.Value { .clock(self) }
    public static var kind: TodoField.Kind { .clock }
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try text.bind(to: statement, at: index)
    }
}

/// A todo's deadline as it is shown in one zone: its date, and its time of day there when it
/// has one. Holds the zones it has read from the tz database, so a list of thousands of todos
/// reads each zone once; one value per thread (it is not shared).
public struct LocalDueTimes: Sendable {
    /// The zone things are shown in.
    public let zone: LocalTimeZone
    private var zones: [String: ZoneInfo?] = [:]

    public init(zone: LocalTimeZone) {
        self.zone = zone
        zone.prepare()
    }

    /// The date and time of day (seconds after midnight, `nil` for none) at which `fields` are
    /// due, as a clock in ``zone`` reads them; `nil` without a deadline. A time on a zone's wall
    /// clock is converted when the tz database knows the zone, and kept as written when it does
    /// not (a zone only the object's VTIMEZONE describes); a floating time is the reader's own.
    public mutating func due(of fields: TodoFields) -> (date: CalendarDate, secondOfDay: Int?)? {
        guard let deadline = fields.deadline else { return nil }
        switch fields.dueTime {
        case nil:
            return (deadline, nil)
        case .wall(let second, nil)?:
            return (deadline, second)
        case .wall(let second, let name?)?:
            let info: ZoneInfo?
            if let known = zones[name] {
                info = known
            } else {
                info = ZoneInfo.load(named: name)
                zones[name] = info
            }
            guard let info else { return (deadline, second) }
            let instant = info.utc(fromWall: Int64(deadline.daysSinceEpoch) * 86_400 + Int64(second))
            return local(instant) ?? (deadline, second)
        case .instant(let seconds)?:
            return local(seconds) ?? (deadline, nil)
        }
    }

    private func local(_ instant: Int64) -> (date: CalendarDate, secondOfDay: Int?)? {
        guard let (date, second) = zone.wallTime(atEpochSeconds: instant) else { return nil }
        return (date, second)
    }
}
