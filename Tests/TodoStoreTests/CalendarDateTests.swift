import TestSupport
import Testing

@testable import TodoStore

@Suite(.timed) struct CalendarDateTests {
    @Test func parsesOnlyRealDaysInISOForm() {
        #expect(CalendarDate("2024-05-01") == CalendarDate(year: 2024, month: 5, day: 1))
        #expect(CalendarDate("2024-02-29") != nil)
        for bad in [
            "2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "0000-01-01",
            "2024-5-1", "2024/05/01", "20240501", " 2024-05-01", "2024-05-01x", "", "２０２４-05-01"
        ] {
            #expect(CalendarDate(bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func printsTheStoredForm() {
        #expect(CalendarDate(year: 7, month: 3, day: 9)?.description == "0007-03-09")
        #expect(CalendarDate(year: 2024, month: 12, day: 31)?.description == "2024-12-31")
    }

    @Test func leapYearsFollowTheGregorianRules() {
        #expect(CalendarDate.isLeapYear(2024))
        #expect(!CalendarDate.isLeapYear(2023))
        #expect(!CalendarDate.isLeapYear(1900))
        #expect(CalendarDate.isLeapYear(2000))
    }

    @Test func dayArithmeticWalksEveryDayOfFiveCenturies() throws {
        // Every day from 1900 to 2400: each is exactly one after the previous and its text form
        // round-trips, so no month end, leap day or century rule is skipped.
        var date = try #require(CalendarDate(year: 1900, month: 1, day: 1))
        var days = date.daysSinceEpoch
        while date.year <= 2400 {
            let next = try #require(date.adding(days: 1))
            days += 1
            guard next.daysSinceEpoch == days, next > date, CalendarDate(next.description) == next else {
                Issue.record("day after \(date) is \(next)")
                return
            }
            date = next
        }
        #expect(CalendarDate(year: 1970, month: 1, day: 1)?.daysSinceEpoch == 0)
        #expect(
            CalendarDate(year: 2000, month: 3, day: 1)?.adding(days: -1) == CalendarDate(year: 2000, month: 2, day: 29))
        #expect(
            CalendarDate(year: 1900, month: 3, day: 1)?.adding(days: -1) == CalendarDate(year: 1900, month: 2, day: 28))
    }

    @Test func dayArithmeticStopsAtTheSupportedYears() throws {
        let first = try #require(CalendarDate(year: 1, month: 1, day: 1))
        let last = try #require(CalendarDate(year: 9999, month: 12, day: 31))
        #expect(first.adding(days: -1) == nil)
        #expect(last.adding(days: 1) == nil)
        #expect(first.adding(days: first.days(until: last)) == last)
        #expect(CalendarDate(daysSinceEpoch: last.daysSinceEpoch) == last)
    }

    @Test func weekdaysAreRight() {
        #expect(CalendarDate(year: 1970, month: 1, day: 1)?.weekday == 4)  // Thursday
        #expect(CalendarDate(year: 2024, month: 5, day: 1)?.weekday == 3)  // Wednesday
        #expect(CalendarDate(year: 1969, month: 12, day: 28)?.weekday == 0)  // Sunday
    }
}
