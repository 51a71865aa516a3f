#if canImport(Glibc)
    import Glibc
#endif

/// The time zone in which an instant becomes a calendar date, and a calendar date's time of day
/// an instant: the one home of local-time rules (today's date, taskwarrior's `due`, another
/// app's date-time DUE).
///
/// Todos have calendar dates, other tools sometimes store instants: taskwarrior saves
/// `due:2024-05-01` entered in Tokyo as `20240430T150000Z`. The date meant is the one on the
/// user's wall calendar at that instant, so it depends on the zone, including its daylight
/// saving rules at that instant.
public enum LocalTimeZone: Sendable, Hashable {
    /// The process's zone, as `localtime_r` sees it (`TZ`, else `/etc/localtime`), with its
    /// daylight saving rules. What `todo import` uses.
    case system
    /// A fixed offset east of UTC, in seconds (`32400` is UTC+9), with no daylight saving.
    /// Deterministic, whatever `TZ` is: for tests and for callers that know the offset.
    case offset(seconds: Int)

    /// The calendar date at `epochSeconds` (seconds since 1970-01-01T00:00:00Z) in this zone,
    /// or `nil` when it falls outside the years 1...9999.
    ///
    /// For ``system`` the caller should call ``prepare()`` once first: glibc's `localtime_r`
    /// does not re-read `TZ` by itself.
    public func calendarDate(atEpochSeconds epochSeconds: Int64) -> CalendarDate? {
        switch self {
        case .offset(let seconds):
            return CalendarDate(daysSinceEpoch: Int(clamping: UTCTimestamp.split(epochSeconds + Int64(seconds)).days))
        case .system:
            var time = time_t(epochSeconds)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return nil }
            return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        }
    }

    /// The date and the time of day (seconds after midnight) on this zone's clock at
    /// `epochSeconds`, or `nil` outside the years 1...9999. For ``system``, call ``prepare()``
    /// first.
    public func wallTime(atEpochSeconds epochSeconds: Int64) -> (date: CalendarDate, secondOfDay: Int)? {
        switch self {
        case .offset(let seconds):
            let (days, second) = UTCTimestamp.split(epochSeconds + Int64(seconds))
            return CalendarDate(daysSinceEpoch: Int(clamping: days)).map { ($0, second) }
        case .system:
            var time = time_t(epochSeconds)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil,
                let date = CalendarDate(
                    year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            else { return nil }
            // A leap second (tm_sec 60) is the last second of its minute.
            return (date, Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + min(Int(parts.tm_sec), 59))
        }
    }

    /// Loads the current `TZ` rules for ``system`` (calls `tzset()`); does nothing for an offset.
    public func prepare() {
        if case .system = self { tzset() }
    }

    /// Today's date in this zone (for ``system``, the `TZ` the user runs under): what relative
    /// dates (`tomorrow`, `+3d`) and hints ("in 2 days") count from.
    public func today() -> CalendarDate {
        prepare()
        // Every instant of these years has a date; 1970-01-01 is only a formal fallback.
        return calendarDate(atEpochSeconds: UTCTimestamp.now().secondsSince1970) ?? .unixEpoch
    }

    /// The instant (seconds since 1970, UTC) that is `second` seconds into `date` on this
    /// zone's clock, or `nil` when it cannot be found. On a day a daylight saving change
    /// skips that time, a moment next to it. For ``system``, call ``prepare()`` first.
    public func epochSeconds(atSecond second: Int, of date: CalendarDate) -> Int64? {
        switch self {
        case .offset(let offset):
            return Int64(date.daysSinceEpoch) * 86_400 + Int64(second) - Int64(offset)
        case .system:
            var parts = tm()
            parts.tm_year = Int32(date.year - 1900)
            parts.tm_mon = Int32(date.month - 1)
            parts.tm_mday = Int32(date.day)
            parts.tm_hour = Int32(second / 3600)
            parts.tm_min = Int32(second % 3600 / 60)
            parts.tm_sec = Int32(second % 60)
            // Whether daylight saving is in effect then is for mktime to find out.
            parts.tm_isdst = -1
            let instant = mktime(&parts)
            return instant == -1 ? nil : Int64(instant)
        }
    }
}
