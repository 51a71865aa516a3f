import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// The time zone in which an instant (taskwarrior's `due`) becomes a calendar date.
///
/// Todos have calendar dates, other tools sometimes store instants: taskwarrior saves
/// `due:2024-05-01` entered in Tokyo as `20240430T150000Z`. The date meant is the one on the
/// user's wall calendar at that instant, so it depends on the zone, including its daylight
/// saving rules at that instant.
public enum LocalTimeZone: Sendable, Equatable {
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
            let local = epochSeconds + Int64(seconds)
            // Floor division: an instant before 1970 belongs to the day that contains it.
            let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
            return CalendarDate(daysSinceEpoch: Int(days))
        case .system:
            var time = time_t(epochSeconds)
            var parts = tm()
            guard localtime_r(&time, &parts) != nil else { return nil }
            return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        }
    }

    /// Loads the current `TZ` rules for ``system`` (calls `tzset()`); does nothing for an offset.
    public func prepare() {
        if case .system = self { tzset() }
    }
}
