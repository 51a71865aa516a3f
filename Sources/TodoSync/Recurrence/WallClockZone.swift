import TodoStore

/// The zone a TZID names, as a recurrence needs it: the offset at an instant, and the instant of
/// a wall-clock time.
public struct WallClockZone: Sendable {
    private enum Source: Sendable {
        case database(ZoneInfo)
        case fixed(Int)
    }

    private let source: Source

    /// The zone `name` of the system's tz database, or `nil` when it has none of that name.
    public static func named(_ name: String) -> WallClockZone? {
        ZoneInfo.load(named: name).map { WallClockZone(source: .database($0)) }
    }

    /// A zone always `seconds` east of UTC (a VTIMEZONE with one offset).
    public static func fixed(offsetSeconds seconds: Int) -> WallClockZone {
        WallClockZone(source: .fixed(seconds))
    }

    /// Seconds past this many from 1970, either way, are taken as this many: far outside the
    /// years 1...9999, and far enough inside Int64 that no sum here overflows.
    static let farthest: Int64 = 1 << 40

    /// `seconds` within ``farthest``.
    static func bounded(_ seconds: Int64) -> Int64 { min(max(seconds, -farthest), farthest) }

    /// The offset east of UTC, in seconds, at the instant `epochSeconds`.
    public func offset(atUTC epochSeconds: Int64) -> Int {
        switch source {
        case .database(let zone): zone.offset(atUTC: Self.bounded(epochSeconds))
        case .fixed(let seconds): seconds
        }
    }

    /// The wall-clock time (seconds since 1970-01-01T00:00:00 on this zone's clock) at an instant.
    public func wall(atUTC epochSeconds: Int64) -> Int64 {
        Self.bounded(epochSeconds) + Int64(offset(atUTC: epochSeconds))
    }

    /// The instant of a wall-clock time, as RFC 5545 3.3.5 reads one: a time a clock change
    /// skips (02:30 on the spring-forward day) uses the offset before the gap (so it is 03:30
    /// new time), and a time the clock passes twice is the first of the two.
    ///
    /// The offsets a day either side stand for "before" and "after" the change: zones change
    /// their offset at most once within two days.
    public func instant(ofWall time: Int64) -> Int64 {
        let time = Self.bounded(time)
        let before = offset(atUTC: time - 86_400)
        let after = offset(atUTC: time + 86_400)
        let early = time - Int64(max(before, after))
        let late = time - Int64(min(before, after))
        if wall(atUTC: early) == time { return early }
        if wall(atUTC: late) == time { return late }
        return time - Int64(before)
    }
}

/// How a recurrence finds the zone of a TZID: the system's tz database, else the object's own
/// VTIMEZONE when it has a single offset (a zone without daylight saving), as ``VTodoObject``
/// reads a deadline. A TZID neither knows is read as floating: its wall time as written.
public struct RecurrenceZones: Sendable {
    private let resolve: @Sendable (String) -> WallClockZone?

    /// Zones from `resolve`, which tests give fixed answers.
    public init(resolve: @escaping @Sendable (String) -> WallClockZone?) { self.resolve = resolve }

    /// The system's tz database, else the single-offset VTIMEZONEs among `timeZones` (the
    /// VCALENDAR's VTIMEZONE components).
    public init(timeZones: [ICalendarComponent] = []) {
        self.resolve = { name in
            WallClockZone.named(name)
                ?? VTodoObject.fixedOffset(of: name, in: timeZones).map { WallClockZone.fixed(offsetSeconds: $0) }
        }
    }

    /// The zone of `tzid`, or `nil` when none is known.
    public func zone(_ tzid: String) -> WallClockZone? { resolve(tzid) }

    /// Floating wall times only: every TZID unknown.
    public static let none = RecurrenceZones(resolve: { _ in nil })
}
