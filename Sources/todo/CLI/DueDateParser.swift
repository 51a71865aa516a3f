import TodoStore

/// Reads the `--due` value people type into a calendar date.
///
/// Accepted: `YYYY-MM-DD`, `YYYY/MM/DD` (the sample app's display form), `today`, `tomorrow`,
/// a weekday name or an abbreviation of three letters or more (`fri`, `tues`, `thur`: its next
/// occurrence after today, so `friday` on a Friday is a week away; `next friday` says the same),
/// `+Nd`, `+Nw` and `+Nm` (N days, weeks or months from today; a month ahead of January 31 is
/// the last day of February). Case does not matter.
enum DueDateParser {
    static let examples =
        "YYYY-MM-DD, YYYY/MM/DD, today, tomorrow, a weekday (friday, fri, next friday), +3d, +2w or +1m"

    /// Words to offer when completing `--due`.
    static let completionWords = [
        "today", "tomorrow", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday", "+1d", "+1w", "+1m"
    ]

    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// Parses `text` relative to `today`.
    ///
    /// - Throws: a usage error naming the value, for text that is not a date, a day that does
    ///   not exist (2023-02-29), or an offset past year 9999.
    static func parse(_ text: String, today: CalendarDate) throws(CLIError) -> CalendarDate {
        let word = text.lowercased()
        if let date = CalendarDate(String(word.map { $0 == "/" ? "-" : $0 })) { return date }
        if let days = relativeDays(word, today: today) {
            guard let date = today.adding(days: days) else {
                throw .usage("'\(text)' is too far away", hint: "Deadlines run up to 9999-12-31.")
            }
            return date
        }
        let looksLikeDate =
            word.count == 10 && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "/") }
        throw .usage(
            looksLikeDate ? "'\(text)' is not a day in the calendar" : "'\(text)' is not a date",
            hint: "Use \(examples).")
    }

    /// Days from today for the relative forms, or `nil` when `word` is none of them.
    private static func relativeDays(_ word: String, today: CalendarDate) -> Int? {
        switch word {
        case "today": return 0
        case "tomorrow": return 1
        default: break
        }
        // "next friday" is the next Friday after today, which is what "friday" means here.
        let day = word.hasPrefix("next ") ? String(word.dropFirst(5)).trimmingSpaces : word
        if day.count >= 3, let index = weekdays.firstIndex(where: { $0.hasPrefix(day) }) {
            let ahead = (index - today.weekday + 7) % 7
            return ahead == 0 ? 7 : ahead
        }
        guard word.hasPrefix("+"), let unit = word.last, unit == "d" || unit == "w" || unit == "m",
            let count = Int(word.dropFirst().dropLast()), count >= 0, count <= 3_660_000
        else { return nil }
        switch unit {
        case "w": return count * 7
        case "m": return monthsAhead(count, from: today).flatMap { today.days(until: $0) }
        default: return count
        }
    }

    /// The same day `months` later, or that month's last day when it is shorter.
    private static func monthsAhead(_ months: Int, from today: CalendarDate) -> CalendarDate? {
        let index = today.year * 12 + (today.month - 1) + months
        let year = index / 12
        let month = index % 12 + 1
        guard year <= 9999 else { return nil }
        return CalendarDate(year: year, month: month, day: min(today.day, CalendarDate.daysInMonth(month, of: year)))
    }
}

extension String {
    /// Without the spaces at either end.
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
