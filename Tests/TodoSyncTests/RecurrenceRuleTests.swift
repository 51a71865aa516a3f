import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// Reading RRULE values (RFC 5545 3.3.10): lenient where apps differ harmlessly, strict where a
/// guess would change the dates; the text kept as written; the CLI's forms and the rule in words.
@Suite(.timed) struct RecurrenceRuleTests {
    @Test func readsEveryPart() throws {
        let rule = try RecurrenceRule(
            parsing: "FREQ=YEARLY;INTERVAL=2;COUNT=5;BYDAY=-1FR,+2TU,MO;BYMONTHDAY=1,-1;BYMONTH=2,12;BYSETPOS=-1;"
                + "BYYEARDAY=100,-5;BYHOUR=9,17;BYMINUTE=0,30;BYSECOND=0,60;WKST=SU")
        #expect(rule.frequency == .yearly)
        #expect(rule.interval == 2)
        #expect(rule.count == 5)
        #expect(
            rule.byDay == [
                .init(.friday, ordinal: -1), .init(.tuesday, ordinal: 2), .init(.monday)
            ])
        #expect(rule.byMonthDay == [1, -1])
        #expect(rule.byMonth == [2, 12])
        #expect(rule.bySetPos == [-1])
        #expect(rule.byYearDay == [100, -5])
        #expect(rule.byHour == [9, 17])
        #expect(rule.byMinute == [0, 30])
        #expect(rule.bySecond == [0, 60])
        #expect(rule.weekStart == .sunday)
        #expect(rule.unknownParts.isEmpty)
        #expect(rule.isExpandable)
        #expect(!rule.isCompletable)
        let weekly = try RecurrenceRule(parsing: "FREQ=YEARLY;BYWEEKNO=20,-1;BYDAY=MO")
        #expect(weekly.byWeekNo == [20, -1])
    }

    @Test func readsLeniently() throws {
        // Case, blanks, order, an empty part: other apps write all of these.
        let rule = try RecurrenceRule(parsing: " count = 3 ; freq=weekly;byday=mo,th;;")
        #expect(rule.frequency == .weekly)
        #expect(rule.count == 3)
        #expect(rule.byDay.map(\.weekday) == [.monday, .thursday])
        #expect(rule.text == " count = 3 ; freq=weekly;byday=mo,th;;")
        // UNTIL as a DATE, a UTC DATE-TIME, and (against the RFC) a floating one.
        #expect(try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261215").until == .date(date("20261215")))
        #expect(
            try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261215T235959Z").until
                == .utc(epochSeconds: try #require(UTCTimestamp(basic: "20261215T235959Z")).secondsSince1970))
        if case .local(_, nil)? = try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20261215T100000").until {
        } else {
            Issue.record("a floating UNTIL is read as written")
        }
        // COUNT beside UNTIL: RFC 5545 forbids it; both are kept and each ends the rule.
        let both = try RecurrenceRule(parsing: "FREQ=DAILY;COUNT=2;UNTIL=20261215")
        #expect(both.count == 2 && both.until != nil)
    }

    @Test func refusesWhatItCannotReadWithoutGuessing() {
        let invalid = [
            "", "BYDAY=MO", "FREQ=FORTNIGHTLY", "FREQ=DAILY;FREQ=WEEKLY", "FREQ=DAILY;INTERVAL=0",
            "FREQ=DAILY;INTERVAL=-1", "FREQ=DAILY;COUNT=0", "FREQ=DAILY;COUNT=x", "FREQ=DAILY;UNTIL=2026",
            "FREQ=MONTHLY;BYMONTHDAY=0", "FREQ=MONTHLY;BYMONTHDAY=32", "FREQ=YEARLY;BYMONTH=13",
            "FREQ=WEEKLY;BYDAY=XX", "FREQ=WEEKLY;BYDAY=1MO", "FREQ=MONTHLY;BYDAY=0MO", "FREQ=MONTHLY;BYDAY=54MO",
            "FREQ=WEEKLY;BYMONTHDAY=1", "FREQ=MONTHLY;BYYEARDAY=1", "FREQ=MONTHLY;BYWEEKNO=1",
            "FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO", "FREQ=DAILY;BYHOUR=24", "FREQ=DAILY;BYSETPOS=367", "FREQ=DAILY;WKST=XX",
            "FREQ=DAILY;NOEQUALS", "FREQ=DAILY;COUNT=99999999999999999999"
        ]
        for text in invalid {
            #expect(throws: RecurrenceRuleError.self, "\(text)") { try RecurrenceRule(parsing: text) }
        }
    }

    @Test func keepsUnknownPartsAndSaysWhatItCanDoWithThem() throws {
        let extended = try RecurrenceRule(parsing: "FREQ=MONTHLY;X-TODO-FROM=COMPLETION;BYMONTHDAY=31")
        #expect(extended.unknownParts == ["X-TODO-FROM=COMPLETION"])
        #expect(extended.isExpandable)
        #expect(!extended.isCompletable)
        // RFC 7529: SKIP=BACKWARD moves Jan 31 monthly to Feb 28, which is not expanded here.
        let skip = try RecurrenceRule(parsing: "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD")
        #expect(!skip.isExpandable)
        #expect(try RecurrenceRule(parsing: "RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=OMIT").isExpandable)
        #expect(!(try RecurrenceRule(parsing: "RSCALE=HEBREW;FREQ=MONTHLY")).isExpandable)
        // Completion: DAILY to YEARLY with RECURRENCE.md §5.4's parts only.
        for text in [
            "FREQ=DAILY;INTERVAL=3", "FREQ=WEEKLY;BYDAY=MO,TH;WKST=SU", "FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270101",
            "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1;COUNT=4", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1"
        ] {
            #expect(try RecurrenceRule(parsing: text).isCompletable, "\(text)")
        }
        for text in ["FREQ=HOURLY", "FREQ=YEARLY;BYYEARDAY=100", "FREQ=YEARLY;BYWEEKNO=1", "FREQ=DAILY;BYHOUR=9"] {
            let rule = try RecurrenceRule(parsing: text)
            #expect(rule.isExpandable && !rule.isCompletable, "\(text)")
        }
    }

    @Test func settingTheCountRewritesOnlyThatPart() throws {
        let cases: [(text: String, count: Int, expected: String)] = [
            ("FREQ=WEEKLY;COUNT=3", 2, "FREQ=WEEKLY;COUNT=2"),
            // Tasks.org and other apps' order, case and blanks stay as written.
            ("freq=weekly;count=3;byday=MO,th;x-foo=Bar", 2, "freq=weekly;count=2;byday=MO,th;x-foo=Bar"),
            ("COUNT=10;FREQ=DAILY;INTERVAL=2", 9, "COUNT=9;FREQ=DAILY;INTERVAL=2"),
            ("FREQ=DAILY; Count =5 ;BYHOUR=9", 4, "FREQ=DAILY; Count =4;BYHOUR=9"),
            ("FREQ=DAILY", 3, "FREQ=DAILY;COUNT=3"),
            ("FREQ=DAILY;", 3, "FREQ=DAILY;COUNT=3"),
            ("FREQ=DAILY;COUNT=2", 0, "FREQ=DAILY;COUNT=1")
        ]
        for (text, count, expected) in cases {
            #expect(try RecurrenceRule(parsing: text).settingCount(count) == expected)
            #expect(try RecurrenceRule(parsing: expected).count == max(1, count))
        }
    }

    /// RECURRENCE.md §5.6's table: the forms `--every` writes.
    @Test func writesTheCLIsForms() throws {
        let cases: [(RecurrenceRule, String)] = [
            (.daily(), "FREQ=DAILY"),
            (.daily(every: 3), "FREQ=DAILY;INTERVAL=3"),
            (.weekly(), "FREQ=WEEKLY"),
            (.weekly(on: [.thursday, .monday]), "FREQ=WEEKLY;BYDAY=MO,TH"),
            (.weekly(every: 2, on: [.monday, .thursday]), "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
            (.weekly(on: [.friday, .thursday, .wednesday, .tuesday, .monday]), "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            (.weekly(on: [.sunday, .monday]), "FREQ=WEEKLY;BYDAY=MO,SU"),
            (.monthly(onDayOf: date("20261201")), "FREQ=MONTHLY"),
            (.monthly(onDayOf: date("20261201"), every: 3), "FREQ=MONTHLY;INTERVAL=3"),
            (.monthly(onDayOf: date("20270131")), "FREQ=MONTHLY;BYMONTHDAY=-1"),
            (.monthly(onDayOf: date("20261130")), "FREQ=MONTHLY;BYMONTHDAY=-1"),
            (.monthly(onDayOf: date("20270130")), "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1"),
            (.monthly(onDayOf: date("20270129")), "FREQ=MONTHLY;BYMONTHDAY=29,-1;BYSETPOS=1"),
            (.monthly(onDayOf: date("20270228")), "FREQ=MONTHLY;BYMONTHDAY=-1"),
            (.monthly(onDay: 30), "FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1"),
            (.monthly(onDay: 12), "FREQ=MONTHLY;BYMONTHDAY=12"),
            (.monthly(onThe: -1, .friday), "FREQ=MONTHLY;BYDAY=-1FR"),
            (.monthly(onThe: 2, .tuesday), "FREQ=MONTHLY;BYDAY=2TU"),
            (.yearly(onDayOf: date("20261201")), "FREQ=YEARLY"),
            (.yearly(onDayOf: date("20261201"), every: 2), "FREQ=YEARLY;INTERVAL=2"),
            (.yearly(onDayOf: date("20280229")), "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1"),
            (.weekly(on: [.monday], end: .until(date("20270630"))), "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270630"),
            (.weekly(every: 2, end: .count(10)), "FREQ=WEEKLY;INTERVAL=2;COUNT=10")
        ]
        for (rule, text) in cases {
            #expect(rule.text == text)
            // Each reads back as the same rule.
            #expect(try RecurrenceRule(parsing: text) == rule, "\(text)")
        }
    }

    @Test func saysTheRuleInWords() throws {
        let cases: [(String, ICalendarTime?, String)] = [
            ("FREQ=MONTHLY", .date(date("20261201")), "every month"),
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", nil, "every 2 weeks on Mon, Thu"),
            ("FREQ=MONTHLY", .date(date("20270131")), "every month on the 31st (months without one are skipped)"),
            ("FREQ=DAILY", nil, "every day"),
            ("FREQ=DAILY;INTERVAL=3", nil, "every 3 days"),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", nil, "every weekday"),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;INTERVAL=2", nil, "every 2 weeks on Mon, Tue, Wed, Thu, Fri"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", nil, "every month on its last day"),
            ("FREQ=MONTHLY;BYMONTHDAY=30,-1;BYSETPOS=1", nil, "every month on the 30th or its last day"),
            ("FREQ=MONTHLY;BYMONTHDAY=22", nil, "every month on the 22nd"),
            ("FREQ=MONTHLY;BYDAY=-1FR", nil, "every month on the last Fri"),
            ("FREQ=MONTHLY;BYDAY=2TU,-2TH", nil, "every month on the 2nd Tue and the 2nd to last Thu"),
            ("FREQ=YEARLY", .date(date("20280229")), "every year on Feb 29 (years without one are skipped)"),
            ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,-1;BYSETPOS=1", nil, "every year on Feb 29 (Feb 28 in other years)"),
            ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1", nil, "every year on Mar 1"),
            ("FREQ=WEEKLY;COUNT=3", nil, "every week, 3 times"),
            ("FREQ=WEEKLY;UNTIL=20261215", nil, "every week, until 2026-12-15"),
            ("FREQ=HOURLY;INTERVAL=6", nil, "every 6 hours"),
            ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2", nil, "every month (FREQ=MONTHLY;BYDAY=MO;BYSETPOS=2)")
        ]
        for (text, anchor, words) in cases {
            #expect(try RecurrenceRule(parsing: text).summary(anchor: anchor) == words)
        }
    }
}

/// A DATE from `YYYYMMDD`; a test's own literal, so a wrong one is a test bug.
func date(_ text: String) -> CalendarDate {
    guard case .date(let date)? = ICalendarTime(ICalendarProperty(name: "DTSTART", value: text)) else {
        Issue.record("\(text) is no date")
        return .unixEpoch
    }
    return date
}
