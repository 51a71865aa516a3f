import TestSupport
import Testing
import TodoStore

@testable import TodoSync

private typealias V = RecurrenceVectors

/// RECURRENCE.md §6's test vectors on the VTODO: what finishing an occurrence writes, in each
/// style other apps read, and what reading every style gives. The texts are the study's, in
/// ``RecurrenceVectors``, which the server tests run through `todo` on Radicale and Xandikos.
@Suite(.timed) struct RecurrenceVectorTests {
    let berlin = LocalTimeZone.offset(seconds: 3600)
    let utc = LocalTimeZone.offset(seconds: 0)

    /// Seconds since 1970 of a UTC stamp `YYYYMMDDTHHMMSSZ`.
    static func at(_ stamp: String) -> Int64 { UTCTimestamp(basic: stamp)?.secondsSince1970 ?? 0 }

    @Test func tv1ANewMonthlyTodoGetsDtstartEqualToDueAndItsRule() throws {
        var fields = TodoFields(name: "Pay rent", deadline: CalendarDate("2026-12-01"), repeatRule: "FREQ=MONTHLY")
        fields.created = UTCTimestamp(basic: "20261127T100000Z")
        let object = VTodoObject.new(
            uid: "3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90", fields: fields, now: Self.at("20261127T100000Z"))
        #expect(object.text == V.tv1)
        #expect(try VTodoObject(parsing: object.text, timeZone: utc).fields == fields)
    }

    @Test func tv2FinishingItAdvancesTheMasterAndWritesNoCompleted() throws {
        var object = try VTodoObject(parsing: V.tv1, timeZone: berlin)
        let now = Self.at("20261201T183000Z")
        let result = object.finishOccurrence(
            on: try #require(CalendarDate("2026-12-01")), .done, completedAt: now,
            completedOn: try #require(CalendarDate("2026-12-01")), now: now)
        #expect(result == .finished)
        #expect(
            object.text
                == V.tv2)
        #expect(object.fields.deadline == CalendarDate("2027-01-01") && !object.fields.isDone)
        // The same completion again (another device finished it too): past already, nothing written.
        let before = object.text
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-01")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-01")), now: now + 60) == .alreadyPast)
        #expect(object.text == before)
    }

    @Test func tv3ATasksOrgWeeklyTodoKeepsItsWallTimeAcrossTheEndOfDst() throws {
        let input = V.tv3
        var object = try VTodoObject(parsing: input, timeZone: .system)
        #expect(object.fields.repeatRule == "FREQ=WEEKLY;COUNT=3")
        let now = Self.at("20261021T070000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(object.fields.deadline), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-10-21")), now: now) == .finished)
        #expect(
            object.text
                == V.tv3Done)
    }

    @Test func tv4TheLastOccurrenceEndsTheSeries() throws {
        let input = V.tv4
        var object = try VTodoObject(parsing: input, timeZone: .system)
        let now = Self.at("20261103T100000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(object.fields.deadline), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-11-03")), now: now) == .finished)
        #expect(
            object.text
                == V.tv4Done)
        #expect(object.fields.isDone)
    }

    @Test func tv5UntilReachedEndsTheSeriesWithoutMovingDtstartPastIt() throws {
        let input = V.tv5
        var object = try VTodoObject(parsing: input, timeZone: utc)
        let now = Self.at("20261215T080000Z")
        _ = object.finishOccurrence(
            on: try #require(CalendarDate("2026-12-15")), .done, completedAt: now,
            completedOn: try #require(CalendarDate("2026-12-15")), now: now)
        #expect(object.text == V.tv5Done)
    }

    @Test func tv7AThunderbirdObjectGetsAnOverrideAndItsMasterIsNotTouched() throws {
        let chicago = LocalTimeZone.offset(seconds: -6 * 3600)
        var object = try VTodoObject(parsing: V.tv7, timeZone: chicago)
        #expect(object.fields.deadline == CalendarDate("2026-12-02"), "the completed 12-01 is folded away")
        let now = Self.at("20261202T233000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-02")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-02")), now: now) == .finished)
        #expect(object.text == V.tv7Done)
        #expect(object.fields.deadline == CalendarDate("2026-12-03"))
    }

    @Test func tv8AKdeObjectAdvancesWithItsMarker() throws {
        let input = V.tv8
        var object = try VTodoObject(parsing: input, timeZone: .system)
        #expect(object.fields.deadline == CalendarDate("2026-12-08"), "KDE's marker is where the series stands")
        let now = Self.at("20261208T100000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-08")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-08")), now: now) == .finished)
        #expect(
            object.text
                == V.tv8Done)
    }

    @Test func tv13HostileRulesAreReadWithoutHangingAndNeverFinished() throws {
        for rule in ["FREQ=SECONDLY;COUNT=1000000000", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "FREQ=NONSENSE"] {
            let text = Fixtures.todoObject([
                "SUMMARY:x", "DTSTART;VALUE=DATE:20261201", "DUE;VALUE=DATE:20261201", "RRULE:" + rule
            ])
            var object = try VTodoObject(parsing: text, timeZone: utc)
            #expect(object.fields.deadline == CalendarDate("2026-12-01"), "\(rule)")
            let result = object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-01")), .done, completedAt: 0,
                completedOn: try #require(CalendarDate("2026-12-01")), now: 0)
            #expect(result == .notApplicable, "\(rule)")
            #expect(object.text == text, "\(rule): nothing written")
        }
    }
}
