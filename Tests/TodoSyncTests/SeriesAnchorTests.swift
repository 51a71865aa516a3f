import Testing
import TodoStore

@testable import TodoSync

/// Which date a series with a start and a deadline counts from (issue 34): RFC 5545 counts from
/// DTSTART, and Evolution's "starts Monday, due Wednesday, weekly on Monday" is due each
/// Wednesday; Tasks.org counts from DUE and writes its "hide until" as DTSTART, off the rule, so
/// a Friday chore hidden until Wednesday stays a Friday chore. The store (`RepeatingTodo`) and
/// the VTODO agree.
@Suite(.timed) struct SeriesAnchorTests {
    let utc = LocalTimeZone.offset(seconds: 0)

    @Test func aRuleAdmitsTheDaysItCouldMake() throws {
        func admits(_ rule: String, _ day: String) throws -> Bool {
            try RecurrenceRule(parsing: rule).admits(try #require(CalendarDate(day)))
        }
        #expect(try admits("FREQ=WEEKLY;BYDAY=FR", "2026-11-27") && !admits("FREQ=WEEKLY;BYDAY=FR", "2026-11-25"))
        #expect(try admits("FREQ=WEEKLY", "2026-11-25"), "no filter: every day")
        #expect(
            try admits("FREQ=MONTHLY;BYMONTHDAY=-1", "2027-02-28")
                && !admits("FREQ=MONTHLY;BYMONTHDAY=-1", "2027-02-27"))
        #expect(try admits("FREQ=MONTHLY;BYDAY=-1FR", "2026-11-27") && !admits("FREQ=MONTHLY;BYDAY=-1FR", "2026-11-20"))
        #expect(try admits("FREQ=MONTHLY;BYDAY=2TU", "2026-12-08") && !admits("FREQ=MONTHLY;BYDAY=2TU", "2026-12-01"))
        #expect(try admits("FREQ=YEARLY;BYMONTH=3", "2027-03-14") && !admits("FREQ=YEARLY;BYMONTH=3", "2027-04-14"))
    }

    /// Tasks.org: DUE on the rule's Friday, "hide until" Wednesday. Finishing moves both a week.
    @Test func aStartOffTheRuleCountsTheSeriesFromItsDueDate() throws {
        var object = try VTodoObject(
            parsing: Fixtures.todoObject([
                "SUMMARY:Bins", "DTSTART;VALUE=DATE:20261125", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=WEEKLY;BYDAY=FR"
            ]), timeZone: utc)
        #expect(
            object.fields.deadline == CalendarDate("2026-11-27") && object.fields.start == CalendarDate("2026-11-25"))
        let day = try #require(CalendarDate("2026-11-27"))
        #expect(object.finishOccurrence(on: day, .done, completedAt: 0, completedOn: day, now: 0) == .finished)
        #expect(object.text.contains("DUE;VALUE=DATE:20261204") && object.text.contains("DTSTART;VALUE=DATE:20261202"))

        let local = try #require(
            RepeatingTodo(
                TodoFields(
                    name: "Bins", deadline: CalendarDate("2026-11-27"), repeatRule: "FREQ=WEEKLY;BYDAY=FR",
                    start: CalendarDate("2026-11-25"))))
        guard case .next(let next, _) = local.finish(.done, today: day, now: UTCTimestamp(secondsSince1970: 0)) else {
            Issue.record("not finished")
            return
        }
        #expect(next.deadline == CalendarDate("2026-12-04") && next.start == CalendarDate("2026-12-02"))
        #expect(local.following == CalendarDate("2026-12-04"))
    }

    /// Evolution: starts Monday (on the rule), due Wednesday: the series counts from the start.
    @Test func aStartOnTheRuleCountsTheSeriesFromTheStart() throws {
        var object = try VTodoObject(
            parsing: Fixtures.todoObject([
                "SUMMARY:Report", "DTSTART;VALUE=DATE:20261123", "DUE;VALUE=DATE:20261125", "RRULE:FREQ=WEEKLY;BYDAY=MO"
            ]), timeZone: utc)
        let day = try #require(CalendarDate("2026-11-25"))
        #expect(object.finishOccurrence(on: day, .done, completedAt: 0, completedOn: day, now: 0) == .finished)
        #expect(object.text.contains("DUE;VALUE=DATE:20261202") && object.text.contains("DTSTART;VALUE=DATE:20261130"))

        let local = try #require(
            RepeatingTodo(
                TodoFields(
                    name: "Report", deadline: CalendarDate("2026-11-25"), repeatRule: "FREQ=WEEKLY;BYDAY=MO",
                    start: CalendarDate("2026-11-23"))))
        guard case .next(let next, _) = local.finish(.done, today: day, now: UTCTimestamp(secondsSince1970: 0)) else {
            Issue.record("not finished")
            return
        }
        #expect(next.deadline == CalendarDate("2026-12-02") && next.start == CalendarDate("2026-11-30"))
    }
}
