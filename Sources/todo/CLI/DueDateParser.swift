import TodoStore

/// Reads the `--due` value people type into a calendar date.
///
/// Accepted: `YYYY-MM-DD`, `YYYY/MM/DD` (the sample app's display form), `today`, `tomorrow`,
/// a weekday name or its three-letter abbreviation (its next occurrence after today, so
/// `friday` on a Friday is a week away), `+Nd` and `+Nw` (N days or weeks from today). Case
/// does not matter.
enum DueDateParser {
    static let examples = "YYYY-MM-DD, YYYY/MM/DD, today, tomorrow, a weekday (friday), +3d or +2w"

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
        let looksLikeDate = word.count == 10 && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "/") }
        throw .usage(looksLikeDate ? "'\(text)' is not a day in the calendar" : "'\(text)' is not a date",
                     hint: "Use \(examples).")
    }

    /// Days from today for the relative forms, or `nil` when `word` is none of them.
    private static func relativeDays(_ word: String, today: CalendarDate) -> Int? {
        switch word {
        case "today": return 0
        case "tomorrow": return 1
        default: break
        }
        if let index = weekdays.firstIndex(where: { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }) {
            let ahead = (index - today.weekday + 7) % 7
            return ahead == 0 ? 7 : ahead
        }
        guard word.hasPrefix("+"), let unit = word.last, unit == "d" || unit == "w",
              let count = Int(word.dropFirst().dropLast()), count >= 0, count <= 3_660_000 else { return nil }
        return unit == "w" ? count * 7 : count
    }
}
