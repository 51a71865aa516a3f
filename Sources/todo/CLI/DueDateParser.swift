import TodoStore

/// Reads the `--due` value people type into a calendar date.
enum DueDateParser {
    /// Parses `YYYY-MM-DD` or `YYYY/MM/DD` (the sample app's display form).
    ///
    /// - Throws: a usage error naming the value, for text that is not a date or a day that does
    ///   not exist (2023-02-29).
    static func parse(_ text: String) throws(CLIError) -> CalendarDate {
        let normalized = String(text.map { $0 == "/" ? "-" : $0 })
        if let date = CalendarDate(normalized) { return date }
        let looksLikeDate = normalized.count == 10 && normalized.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") }
        throw .usage(looksLikeDate ? "'\(text)' is not a day in the calendar" : "'\(text)' is not a date",
                     hint: "Use YYYY-MM-DD, for example 2024-05-01.")
    }
}
