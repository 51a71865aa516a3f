import TestSupport
import Testing
import TodoStore

@testable import todo

/// The date forms added for daily use, against fixed days (no clock involved).
@Suite(.timed) struct DueDateFormsTests {
    private func parse(_ text: String, on today: String) throws -> String {
        try DueDateParser.parse(text, today: #require(CalendarDate(today))).description
    }

    @Test func monthsAheadKeepTheDayOrClampToTheMonthsLast() throws {
        #expect(try parse("+1m", on: "2024-01-15") == "2024-02-15")
        #expect(try parse("+1m", on: "2024-01-31") == "2024-02-29")  // leap year
        #expect(try parse("+1m", on: "2023-01-31") == "2023-02-28")
        #expect(try parse("+2m", on: "2024-12-31") == "2025-02-28")
        #expect(try parse("+12m", on: "2024-02-29") == "2025-02-28")
        #expect(try parse("+0m", on: "2024-05-01") == "2024-05-01")
        #expect(throws: CLIError.self) { try parse("+120000m", on: "2024-05-01") }
    }

    @Test func weekdaysByAnyAbbreviationOfThreeLettersOrMore() throws {
        // 2024-05-01 is a Wednesday.
        for text in ["fri", "frid", "friday", "FRI", "next friday", "Next Fri"] {
            #expect(try parse(text, on: "2024-05-01") == "2024-05-03", "\(text)")
        }
        for text in ["tue", "tues", "tuesday"] { #expect(try parse(text, on: "2024-05-01") == "2024-05-07", "\(text)") }
        for text in ["thu", "thur", "thurs"] { #expect(try parse(text, on: "2024-05-01") == "2024-05-02", "\(text)") }
        #expect(try parse("wed", on: "2024-05-01") == "2024-05-08")  // a week away, never today
        #expect(throws: CLIError.self) { try parse("th", on: "2024-05-01") }
        #expect(throws: CLIError.self) { try parse("next", on: "2024-05-01") }
    }

    @Test func helpAndCompletionsListTheForms() {
        #expect(DueDateParser.examples.contains("+1m") && DueDateParser.examples.contains("next friday"))
        #expect(DueDateParser.completionWords.contains("+1m"))
    }
}
