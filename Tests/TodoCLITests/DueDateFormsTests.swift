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

    @Test func formsPeopleType() throws {
        // 2026-11-25 is a Wednesday.
        let today = "2026-11-25"
        let expected = [
            "yesterday": "2026-11-24", "3d": "2026-11-28", "1w": "2026-12-02", "2m": "2027-01-25",
            "in 3 days": "2026-11-28", "in 1 day": "2026-11-26", "in 2 weeks": "2026-12-09",
            "In  1  Month": "2026-12-25", "2026-1-5": "2026-01-05", "2026/1/5": "2026-01-05",
            "eow": "2026-11-29", "next week": "2026-11-30", "eom": "2026-11-30", "next month": "2026-12-01",
            "Dec 24": "2026-12-24", "24 Dec": "2026-12-24", "December 24": "2026-12-24", "24 december": "2026-12-24",
            "sept 3": "2027-09-03", "Nov 25": "2026-11-25", "Nov 24": "2027-11-24", "Feb 29": "2028-02-29"
        ]
        for (text, day) in expected { #expect(try parse(text, on: today) == day, "\(text)") }
        // On a Sunday, eow is today and next week tomorrow; on a month's last day, eom is today.
        #expect(try parse("eow", on: "2026-11-29") == "2026-11-29")
        #expect(try parse("next week", on: "2026-11-29") == "2026-11-30")
        #expect(try parse("eom", on: "2026-12-31") == "2026-12-31")
        #expect(try parse("next month", on: "2026-12-31") == "2027-01-01")
        for text in [
            "", "   ", "next", "in 3", "in -3 days", "in 3 years", "Feb 30", "Dec 32", "Dec", "2026-1-", "+-3d",
            "12/24", "24.12."
        ] {
            #expect(throws: CLIError.self, "\(text)") { try parse(text, on: today) }
        }
    }

    @Test func refusedDatesSuggestTheWordOrShowTheForms() throws {
        let today = try #require(CalendarDate("2026-11-25"))
        func hint(_ text: String) -> String? {
            do {
                _ = try DueDateParser.parse(text, today: today)
                return nil
            } catch { return error.hint }
        }
        #expect(hint("tomorow")?.hasPrefix("Did you mean 'tomorrow'?") == true)
        #expect(hint("nxt week")?.hasPrefix("Did you mean 'next week'?") == true)
        #expect(hint("Decmber 24")?.hasPrefix("Did you mean 'december 24'?") == true)
        for text in ["12/24", "24.12."] {
            #expect(hint(text) == "Use \(DueDateParser.examples).", "\(text)")
        }
    }

    @Test func helpAndCompletionsListTheForms() {
        #expect(DueDateParser.examples.contains("+1m") && DueDateParser.examples.contains("next friday"))
        #expect(DueDateParser.completionWords.contains("+1m"))
        #expect(HelpFormatter.help(for: Command.add.spec).contains("next such date on or after today"))
        #expect(ManPage.page(for: Command.edit.spec).contains("Weeks run Monday to Sunday"))
    }
}
