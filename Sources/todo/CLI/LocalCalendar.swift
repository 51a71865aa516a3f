import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// Today's date in the local calendar (the `TZ` the user runs under), read once per run.
///
/// Deadlines are calendar dates; only "today" depends on where the user is, so relative
/// dates (`tomorrow`, `+3d`) and hints ("in 2 days") are computed from the local day.
enum LocalCalendar {
    static func today() -> CalendarDate {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        // localtime_r always gives a real day; 1970-01-01 is only a formal fallback.
        return CalendarDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CalendarDate(daysSinceEpoch: 0)!
    }
}
