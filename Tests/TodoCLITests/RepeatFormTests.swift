import TestSupport
import Testing
import TodoStore
import TodoSync

@testable import todo

/// The repeat forms people type (RECURRENCE.md §5.6's table), each to the RRULE it writes, and
/// the forms refused; the first date of a series whose deadline is off its rule.
@Suite(.timed) struct RepeatFormTests {
    /// Tuesday 2026-12-01.
    static let tuesday = CalendarDate(year: 2026, month: 12, day: 1)!

    private func rule(_ text: String, on date: CalendarDate = tuesday, end: RecurrenceRule.End? = nil) throws
        -> String?
    {
        try RepeatForm.parse(text).rule(on: date, end: end)?.text
    }

    private func refusal(_ text: String) -> CLIError? {
        do {
            _ = try RepeatForm.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("day", "FREQ=DAILY"), ("daily", "FREQ=DAILY"), ("1d", "FREQ=DAILY"), ("3d", "FREQ=DAILY;INTERVAL=3"),
        ("3 days", "FREQ=DAILY;INTERVAL=3"), ("+3d", "FREQ=DAILY;INTERVAL=3"),
        ("every 2 days", "FREQ=DAILY;INTERVAL=2"),
        ("week", "FREQ=WEEKLY"), ("weekly", "FREQ=WEEKLY"), ("1w", "FREQ=WEEKLY"), ("2w", "FREQ=WEEKLY;INTERVAL=2"),
        ("biweekly", "FREQ=WEEKLY;INTERVAL=2"), ("fortnight", "FREQ=WEEKLY;INTERVAL=2"),
        ("mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH"), ("Thu, Mon", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("monday", "FREQ=WEEKLY;BYDAY=MO"), ("tues,thurs", "FREQ=WEEKLY;BYDAY=TU,TH"),
        ("mo,th", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("2w mon,thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"), ("2 weeks on mon", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("month", "FREQ=MONTHLY"), ("monthly", "FREQ=MONTHLY"),
        ("1m", "FREQ=MONTHLY"), ("2m", "FREQ=MONTHLY;INTERVAL=2"), ("bimonthly", "FREQ=MONTHLY;INTERVAL=2"),
        ("quarterly", "FREQ=MONTHLY;INTERVAL=3"), ("semiannual", "FREQ=MONTHLY;INTERVAL=6"),
        ("eom", "FREQ=MONTHLY;BYMONTHDAY=-1"), ("month-end", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("month on 30", "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1"),
        ("monthly on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("month on 31", "FREQ=MONTHLY;BYMONTHDAY=-1"), ("last fri", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("2nd tue", "FREQ=MONTHLY;BYDAY=2TU"), ("first monday", "FREQ=MONTHLY;BYDAY=1MO"),
        ("2nd last fri", "FREQ=MONTHLY;BYDAY=-2FR"), ("3m last fri", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR"),
        ("year", "FREQ=YEARLY"), ("yearly", "FREQ=YEARLY"), ("annual", "FREQ=YEARLY"), ("1y", "FREQ=YEARLY"),
        ("biannual", "FREQ=YEARLY;INTERVAL=2"), ("biyearly", "FREQ=YEARLY;INTERVAL=2"),
        ("2wks", "FREQ=WEEKLY;INTERVAL=2"), ("1mo", "FREQ=MONTHLY"), ("1q", "FREQ=MONTHLY;INTERVAL=3"),
        ("rrule:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2", "FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2"),
        ("RRULE:freq=weekly;byday=fr", "freq=weekly;byday=fr")
    ])
    func eachFormWritesItsRule(form: String, expected: String) throws {
        #expect(try rule(form) == expected, "\(form)")
    }

    @Test func monthlyAndYearlyRulesKeepTheFirstDatesDay() throws {
        #expect(try rule("month", on: CalendarDate("2027-01-31")!) == "FREQ=MONTHLY;BYMONTHDAY=-1")
        #expect(try rule("month", on: CalendarDate("2027-01-30")!) == "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1")
        #expect(try rule("month", on: CalendarDate("2027-02-28")!) == "FREQ=MONTHLY;BYMONTHDAY=-1", "a last day")
        #expect(try rule("month", on: CalendarDate("2027-01-28")!) == "FREQ=MONTHLY")
        #expect(
            try rule("year", on: CalendarDate("2028-02-29")!) == "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1")
    }

    @Test func anEndIsWrittenLast() throws {
        #expect(try rule("2w", end: .count(10)) == "FREQ=WEEKLY;INTERVAL=2;COUNT=10")
        #expect(
            try rule("weekdays", end: .until(CalendarDate("2027-06-30")!))
                == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20270630")
        // A typed RRULE's own end is replaced, every other part kept as written.
        #expect(try rule("rrule:FREQ=DAILY;COUNT=3;interval=2", end: .count(5)) == "FREQ=DAILY;interval=2;COUNT=5")
    }

    @Test func recAndRecurWordsSayWhereTheNextDateCounts() throws {
        func word(_ text: String) throws -> (String?, TodoRepeatFrom)? {
            try RepeatForm.word(text).map { ($0.form.rule(on: Self.tuesday, end: nil)?.text, $0.from) }
        }
        #expect(try word("rec:3d")! == ("FREQ=DAILY;INTERVAL=3", .done), "todo.txt: from the day done")
        #expect(try word("rec:+3d")! == ("FREQ=DAILY;INTERVAL=3", .due), "todo.txt: strict")
        #expect(try word("REC:+1W")! == ("FREQ=WEEKLY", .due))
        #expect(try word("rec:1b")! == ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .due), "business days: weekdays")
        #expect(try word("recur:monthly")! == ("FREQ=MONTHLY", .due), "taskwarrior: from the deadline")
        #expect(try word("recur:weekdays")! == ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .due))
        #expect(try word("record") == nil && word("recurring") == nil && word("+rec:3d") == nil)
        #expect(throws: CLIError.self) { try RepeatForm.word("rec:soon") }
    }

    @Test(arguments: [
        "", "sometimes", "fortnightlyish", "0d", "10001d", "99999999999999999999d", "2b", "mon,funday",
        "month on 32", "month on 0", "6th fri", "last", "2 mon", "week on the 3rd", "1x",
        "rrule:FREQ=SOMETIMES", "rrule:INTERVAL=2", "rrule:FREQ=WEEKLY;BYMONTHDAY=3", "rrule:FREQ=YEARLY;BYWEEKNO=3",
        "rrule:FREQ=DAILY;X-FOO=1"
    ])
    func otherTextIsAUsageErrorWithTheForms(text: String) {
        let error = refusal(text)
        #expect(error?.kind == .usage, "\(text)")
        // A typed RRULE's hint names the parts todo follows; the others list the forms.
        let hint = text.hasPrefix("rrule:") && error?.message.contains("can follow") == true ? "BYDAY" : "mon,thu"
        #expect(error?.hint?.contains(hint) == true, "\(text): \(String(describing: error))")
    }

    @Test(arguments: ["hourly", "2h", "3 hours", "30min", "rrule:FREQ=HOURLY", "rrule:FREQ=DAILY;BYHOUR=9"])
    func unitsShorterThanADayAreRefused(text: String) {
        let error = refusal(text)
        #expect(error?.kind == .usage && error?.message.contains("a deadline is a date") == true, "\(text)")
    }

    @Test func aDeadlineOffTheRuleMovesToItsFirstDateOnOrAfterIt() throws {
        func first(_ form: String, _ date: String) throws -> CalendarDate? {
            let rule = try #require(try RepeatForm.parse(form).rule(on: CalendarDate(date)!, end: nil))
            return RepeatSeries.firstDate(of: rule, onOrAfter: CalendarDate(date)!)
        }
        #expect(try first("mon,thu", "2026-12-01") == CalendarDate("2026-12-03"), "TV11: Tuesday to Thursday")
        #expect(try first("mon,thu", "2026-12-03") == CalendarDate("2026-12-03"), "on the rule: kept")
        #expect(try first("2w mon,thu", "2026-12-04") == CalendarDate("2026-12-07"), "Friday to Monday")
        #expect(try first("last fri", "2026-12-01") == CalendarDate("2026-12-25"))
        #expect(try first("eom", "2026-11-15") == CalendarDate("2026-11-30"))
        #expect(try first("month on 30", "2027-02-01") == CalendarDate("2027-02-28"))
        #expect(try first("weekdays", "2026-12-05") == CalendarDate("2026-12-07"), "Saturday to Monday")
        #expect(try first("month", "2026-12-01") == CalendarDate("2026-12-01"), "the day comes from the date")
    }

    @Test func aSeriesChecksItsEndAndWhatCountsFromTheDayDone() throws {
        let gym = try RepeatSeries(
            RepeatForm.parse("mon,thu"), from: .due, end: .count(4), deadline: Self.tuesday)
        #expect(gym.deadline == CalendarDate("2026-12-03") && gym.movedFrom == Self.tuesday)
        #expect(gym.rule.text == "FREQ=WEEKLY;BYDAY=MO,TH;COUNT=4")
        #expect(throws: CLIError.self) {
            try RepeatSeries(
                RepeatForm.parse("mon,thu"), from: .due, end: .until(CalendarDate("2026-12-02")!),
                deadline: Self.tuesday)
        }
        #expect(throws: CLIError.self) {
            try RepeatSeries(RepeatForm.parse("last fri"), from: .done, end: nil, deadline: Self.tuesday)
        }
        let fern = try RepeatSeries(RepeatForm.parse("3d"), from: .done, end: nil, deadline: Self.tuesday)
        #expect(fern.rule.text == "FREQ=DAILY;INTERVAL=3" && fern.movedFrom == nil)
    }
}
