import TodoStore

/// The clock a recurrence runs on: its anchor's (RFC 5545 3.3.10). A DATE anchor runs in days,
/// a TZID one on that zone's wall clock, a UTC one in UTC, a floating one on its own wall clock
/// as written; so a weekly 19:00 in Europe/Berlin stays 19:00 across a clock change.
///
/// Every time is placed on that clock as seconds since 1970-01-01T00:00:00 on it ("frame
/// seconds"). Times of another form are brought to it leniently, as other apps write them: a UTC
/// or other zone's time through the zones (as written, when a zone is unknown or the anchor is
/// floating), a floating time as written, a DATE at the start of its day (or, for a value that
/// stands for an occurrence, at the anchor's time of day).
struct RecurrenceFrame: Sendable {
    enum Clock: Sendable {
        case days
        case utc
        /// A zone's wall clock; `nil` for a floating anchor or an unknown TZID.
        case wall(WallClockZone?)
    }

    let anchor: ICalendarTime
    let clock: Clock
    let zones: RecurrenceZones
    /// The anchor on this clock.
    let anchorSeconds: Int64

    init(anchor: ICalendarTime, zones: RecurrenceZones) {
        self.anchor = anchor
        self.zones = zones
        switch anchor {
        case .date: clock = .days
        case .utc: clock = .utc
        case .local(_, let tzid): clock = .wall(tzid.flatMap { zones.zone($0) })
        }
        anchorSeconds = WallClockZone.bounded(anchor.seconds)
    }

    var isWholeDays: Bool {
        if case .days = clock { true } else { false }
    }

    /// The instant (UTC) a time names, when its zone is known; `nil` for a floating time, a DATE
    /// and a TZID no zone is known for.
    func instant(of time: ICalendarTime) -> Int64? {
        switch time {
        case .date: nil
        case .utc(let seconds): seconds
        case .local(let wall, let tzid): tzid.flatMap(zone(named:)).map { $0.instant(ofWall: wall) }
        }
    }

    /// The zone of `tzid`: the anchor's as loaded once, else the zones' answer (which may read
    /// the tz database's file).
    func zone(named tzid: String) -> WallClockZone? {
        if case .wall(let zone) = clock, tzid == anchorTZID { return zone }
        return zones.zone(tzid)
    }

    /// `time` on this clock. A DATE is its day's start, or with `dateAtAnchorTime` the anchor's
    /// time of day on it (an RDATE, EXDATE or RECURRENCE-ID of the other type); on a DATE clock a
    /// date-time is its date as written.
    func seconds(of time: ICalendarTime, dateAtAnchorTime: Bool = false) -> Int64 {
        WallClockZone.bounded(unbounded(of: time, dateAtAnchorTime: dateAtAnchorTime))
    }

    /// ``seconds(of:dateAtAnchorTime:)`` before the bound, from a value within it.
    private func unbounded(of time: ICalendarTime, dateAtAnchorTime: Bool) -> Int64 {
        let raw = WallClockZone.bounded(time.seconds)
        let dayStart = { (seconds: Int64) in UTCTimestamp.split(seconds).days * 86_400 }
        switch (clock, time) {
        case (.days, _):
            return dayStart(raw)
        case (_, .date(let date)):
            let day = Int64(date.daysSinceEpoch) * 86_400
            return dateAtAnchorTime ? day + Int64(UTCTimestamp.split(anchorSeconds).second) : day
        case (.utc, _):
            return instant(of: time) ?? raw
        case (.wall(let zone?), _):
            if case .local(_, let tzid) = time, tzid == nil || tzid == anchorTZID { return raw }
            return instant(of: time).map { zone.wall(atUTC: $0) } ?? raw
        case (.wall(nil), _):
            return raw
        }
    }

    private var anchorTZID: String? {
        if case .local(_, let tzid) = anchor { tzid } else { nil }
    }

    /// The time `seconds` on this clock stands for, in the anchor's form; `nil` outside the years
    /// 1...9999.
    func time(at seconds: Int64) -> ICalendarTime? {
        let (days, _) = UTCTimestamp.split(seconds)
        guard let date = CalendarDate(daysSinceEpoch: Int(clamping: days)) else { return nil }
        return isWholeDays ? .date(date) : anchor.withSeconds(seconds)
    }

    /// The day (since 1970) of a time on this clock.
    static func day(_ seconds: Int64) -> Int64 { UTCTimestamp.split(seconds).days }

    /// Whether an occurrence at `seconds` is past a rule's UNTIL (RFC 5545 3.3.10: UNTIL is
    /// inclusive). A DATE UNTIL ends with its day on this clock, also beside a date-time anchor
    /// (Tasks.org writes that, against the RFC); a UTC one is compared as an instant where this
    /// clock's zone is known, else as written; a floating one as written.
    func isBeyond(_ until: ICalendarTime, _ seconds: Int64) -> Bool {
        if case .date(let date) = until { return Self.day(seconds) > Int64(date.daysSinceEpoch) }
        if case .days = clock { return Self.day(seconds) > Self.day(until.seconds) }
        if case .wall(let zone?) = clock, case .utc(let instant) = until {
            return zone.instant(ofWall: seconds) > instant
        }
        return seconds > until.seconds
    }
}

extension ICalendarTime {
    /// The date as written: a DATE's own, a date-time's on its clock.
    var date: CalendarDate? {
        switch self {
        case .date(let date): date
        case .utc(let seconds), .local(let seconds, _):
            CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(seconds).days))
        }
    }
}
