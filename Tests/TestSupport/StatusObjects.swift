/// Tasks as the phone and desktop apps write their statuses (issue 36, point 3), for the mapping
/// tests and for the server tests, whose phones PUT them by plain HTTP. Shapes from
/// `../shared/research/` and the apps' code: Tasks.org (ical4android) writes no STATUS on an
/// open task and `STATUS:COMPLETED`, `COMPLETED`, `PERCENT-COMPLETE:100` on a completed one,
/// with `X-APPLE-SORT-ORDER`; Apple Reminders writes `STATUS:NEEDS-ACTION`, `DTSTART` equal to
/// `DUE`, an absolute alarm with `X-WR-ALARMUID`; Nextcloud Tasks writes `PERCENT-COMPLETE`
/// beside `STATUS:IN-PROCESS` (its progress slider) and `STATUS:CANCELLED`, with `CATEGORIES`
/// and a relative alarm. CRLF line breaks, as the apps send them.
public enum StatusObjects {
    /// Tasks.org, an open task (no STATUS), then the same task completed there.
    public static func tasksOrg(uid: String, name: String, completed: Bool = false) -> String {
        let state =
            completed
            ? ["STATUS:COMPLETED", "COMPLETED:20261120T081500Z", "PERCENT-COMPLETE:100"]
            : []
        return crlf(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-130804//EN", "BEGIN:VTODO",
                "DTSTAMP:20261120T081500Z", "UID:\(uid)", "CREATED:20261118T190000Z",
                "LAST-MODIFIED:20261120T081500Z", "SUMMARY:\(name)", "PRIORITY:9"
            ] + state + ["X-APPLE-SORT-ORDER:-1234", "DUE;VALUE=DATE:20261201", "END:VTODO", "END:VCALENDAR"])
    }

    /// Apple Reminders on a CalDAV account: a reminder that needs action, due at 18:00 in Berlin.
    public static func appleReminders(uid: String, name: String) -> String {
        crlf([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iOS 17.4//EN", "CALSCALE:GREGORIAN",
            "BEGIN:VTODO", "CREATED:20261118T190000Z", "DTSTAMP:20261119T070000Z",
            "DTSTART;TZID=Europe/Berlin:20261201T180000", "DUE;TZID=Europe/Berlin:20261201T180000",
            "LAST-MODIFIED:20261119T070000Z", "PRIORITY:0", "SEQUENCE:0", "STATUS:NEEDS-ACTION", "SUMMARY:\(name)",
            "UID:\(uid)", "X-APPLE-SORT-ORDER:596480400", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder",
            "TRIGGER;VALUE=DATE-TIME:20261201T170000Z", "UID:\(uid)-alarm", "X-WR-ALARMUID:\(uid)-alarm",
            "END:VALARM", "END:VTODO", "END:VCALENDAR"
        ])
    }

    /// Nextcloud Tasks: in progress at `percent` (STATUS:IN-PROCESS), or cancelled.
    public static func nextcloud(uid: String, name: String, percent: Int? = 40, cancelled: Bool = false) -> String {
        let state = cancelled ? ["STATUS:CANCELLED"] : ["STATUS:IN-PROCESS"]
        return crlf(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Nextcloud Tasks v0.16.1", "BEGIN:VTODO",
                "UID:\(uid)", "CREATED:20261118T190000", "LAST-MODIFIED:20261120T081500", "DTSTAMP:20261120T081500",
                "SUMMARY:\(name)", "CATEGORIES:Home,Garden"
            ] + (percent.map { ["PERCENT-COMPLETE:\($0)"] } ?? []) + state + [
                "DUE;VALUE=DATE:20261203", "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(name)",
                "TRIGGER;RELATED=END:-PT1H", "END:VALARM", "END:VTODO", "END:VCALENDAR"
            ])
    }

    private static func crlf(_ lines: [String]) -> String { lines.map { $0 + "\r\n" }.joined() }
}
