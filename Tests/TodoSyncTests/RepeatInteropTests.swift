import TestSupport
import Testing
import TodoInterop
import TodoStore

@testable import TodoSync

/// TodoInterop writes the rules of taskwarrior's and todo.txt's periods itself (it sits below
/// the engine): they must be exactly the rules the engine's builders write for the same forms
/// typed at the command line, and rules the engine reads.
@Suite(.timed) struct RepeatPeriodEngineTests {
    /// Every day of a common and a leap year as the anchor (and none), each unit, intervals up
    /// to the largest, with and without an end.
    @Test func everyPeriodIsTheRuleTheEngineBuilds() throws {
        let first = try #require(CalendarDate("2027-01-01"))
        let anchors: [CalendarDate?] = [nil] + (0..<731).compactMap { first.adding(days: $0) }
        let ends: [CalendarDate?] = [nil, CalendarDate("2030-06-30")]
        let weekdays: [RecurrenceRule.Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
        var checked = 0
        for unit in RepeatPeriod.Unit.allCases {
            for interval in [1, 2, 3, 12, RepeatPeriod.maxInterval] {
                guard let period = RepeatPeriod(unit, every: interval) else {
                    #expect(unit == .weekday && interval > 1, "\(unit) every \(interval)")
                    continue
                }
                for anchor in anchors {
                    for until in ends {
                        let end = until.map(RecurrenceRule.End.until)
                        // The engine's month and year forms take a day; day 1 is the plain rule.
                        let day = anchor ?? first
                        let built: RecurrenceRule =
                            switch unit {
                            case .day: .daily(every: interval, end: end)
                            case .weekday: .weekly(on: weekdays, end: end)
                            case .week: .weekly(every: interval, end: end)
                            case .month: .monthly(onDayOf: day, every: interval, end: end)
                            case .year: .yearly(onDayOf: day, every: interval, end: end)
                            }
                        let text = period.rule(anchor: anchor, until: until)
                        guard text == built.text else {
                            Issue.record(
                                "\(unit) every \(interval) from \(anchor.map(String.init(describing:)) ?? "-"): \(text) is not \(built.text)"
                            )
                            return
                        }
                        let parsed = try RecurrenceRule(parsing: text)
                        #expect(parsed == built, "\(text)")
                        if until == nil { #expect(RepeatPeriod(rule: text, anchor: anchor) == period, "\(text)") }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 4 * 5 * 732 * 2 + 732 * 2)
    }

    /// What an import stands at when the tool it came from finished occurrences past the
    /// deadline it gives (taskwarrior's template with no pending instance).
    @Test func anImportedSeriesMovesPastItsHistory() throws {
        let fern = TodoFields(
            name: "Fern", deadline: CalendarDate("2099-01-05"), repeatRule: "FREQ=WEEKLY;UNTIL=20990301")
        let moved = RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-05"))], of: fern, completedAt: nil)
        #expect(moved.deadline == CalendarDate("2099-01-12") && !moved.isDone)
        // A start (taskwarrior's wait) keeps its distance, as todo done moves it.
        var waiting = fern
        waiting.start = CalendarDate("2099-01-03")
        waiting.dueTime = .wall(secondOfDay: 66_600, zone: nil)
        let movedWaiting = RepeatingTodo.movedPast(
            [try #require(CalendarDate("2099-01-05"))], of: waiting, completedAt: nil)
        #expect(movedWaiting.deadline == CalendarDate("2099-01-12") && movedWaiting.start == CalendarDate("2099-01-10"))
        #expect(movedWaiting.dueTime == waiting.dueTime)
        let rent = TodoFields(
            name: "Rent", deadline: CalendarDate("2099-01-31"), repeatRule: "FREQ=MONTHLY;BYMONTHDAY=-1")
        #expect(
            RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-31"))], of: rent, completedAt: nil).deadline
                == CalendarDate("2099-02-28"))
        // From the last one done: the deadline done, and a later one done ahead.
        let ahead = [CalendarDate("2099-01-05"), CalendarDate("2099-01-19")].compactMap { $0 }
        #expect(RepeatingTodo.movedPast(ahead, of: fern, completedAt: nil).deadline == CalendarDate("2099-01-26"))
        // The last occurrence before UNTIL done: the series is over.
        var last = fern
        last.deadline = CalendarDate("2099-02-23")
        let now = UTCTimestamp(iso: "2099-02-23T10:00:00Z")
        let over = RepeatingTodo.movedPast([try #require(CalendarDate("2099-02-23"))], of: last, completedAt: now)
        #expect(over.isDone && over.completed == now && over.deadline == last.deadline)
        // A deadline not done (one done before it, or ahead of it while it is still open), no
        // history, a COUNT, or no rule: unchanged.
        #expect(RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-04"))], of: fern, completedAt: nil) == fern)
        #expect(RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-12"))], of: fern, completedAt: nil) == fern)
        #expect(RepeatingTodo.movedPast([], of: fern, completedAt: nil) == fern)
        var counted = fern
        counted.repeatRule = "FREQ=WEEKLY;COUNT=3"
        #expect(
            RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-05"))], of: counted, completedAt: nil)
                == counted)
        let plain = TodoFields(name: "Once", deadline: CalendarDate("2099-01-05"))
        #expect(
            RepeatingTodo.movedPast([try #require(CalendarDate("2099-01-05"))], of: plain, completedAt: nil) == plain)
    }
}

/// `todo import --from ics` and `export --format ics` of repeating todos (RECURRENCE.md TV3,
/// TV7): the rule comes along, occurrences another app finished become the history, and what
/// the todo cannot keep of a series is counted.
@Suite(.timed) struct ICSRepeatTests {
    /// TV7's Thunderbird object (a daily master and a completed RECURRENCE-ID component), plus
    /// a cancelled one and one that moves a later occurrence.
    static let thunderbird = RecurrenceVectors.tv7.replacing(
        "END:VCALENDAR\r\n",
        with: """
            BEGIN:VTODO
            UID:e0600bbe-b9d0-ba48-80b0-998409625d03
            DTSTAMP:20261202T230139Z
            SUMMARY:Recurring
            STATUS:CANCELLED
            RECURRENCE-ID;TZID=America/Chicago:20261202T170000
            END:VTODO
            BEGIN:VTODO
            UID:e0600bbe-b9d0-ba48-80b0-998409625d03
            DTSTAMP:20261202T230139Z
            SUMMARY:Recurring, later this time
            RECURRENCE-ID;TZID=America/Chicago:20261210T170000
            DUE;TZID=America/Chicago:20261210T200000
            END:VTODO
            END:VCALENDAR

            """.replacing("\n", with: "\r\n"))

    @Test func completedOccurrencesOfAThunderbirdObjectAreTheHistory() throws {
        let reading = try ICSFile.read(Array(Self.thunderbird.utf8), timeZone: .offset(seconds: -6 * 3600))
        let entry = try #require(reading.entries.first)
        #expect(reading.entries.count == 1, "the RECURRENCE-ID components are the same todo")
        #expect(entry.fields.repeatRule == "FREQ=DAILY" && entry.fields.repeatFrom == .due)
        #expect(entry.fields.deadline == CalendarDate("2026-12-03"), "the first occurrence neither done nor cancelled")
        #expect(
            entry.history == [
                ImportedCompletion(
                    occurrence: try #require(CalendarDate("2026-12-01")),
                    completedAt: UTCTimestamp(iso: "2026-12-01T23:01:39Z"), source: .override),
                ImportedCompletion(
                    occurrence: try #require(CalendarDate("2026-12-02")), completedAt: nil, source: .skip)
            ])
        #expect(
            reading.notKept.map(\.description) == ["1 changed occurrence", "1 X-MOZ-GENERATION property"],
            "the 10th moved to 20:00")
    }

    /// TV3's Tasks.org object: one VTODO, its rule with COUNT, an alarm; no history.
    @Test func aTasksOrgObjectKeepsItsRule() throws {
        let text = RecurrenceVectors.tv3
        let reading = try ICSFile.read(Array(text.utf8), timeZone: .offset(seconds: 7200))
        let entry = try #require(reading.entries.first)
        #expect(entry.fields.repeatRule == "FREQ=WEEKLY;COUNT=3" && entry.fields.deadline == CalendarDate("2026-10-20"))
        #expect(
            entry.history.isEmpty
                && reading.notKept.map(\.description) == ["1 alarm", "1 X-APPLE-SORT-ORDER property"])
    }

    @Test func whatASeriesHoldsBeyondItsRuleIsCounted() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:a
            SUMMARY:Water
            DTSTART;VALUE=DATE:20261101
            DUE;VALUE=DATE:20261102
            RRULE:FREQ=WEEKLY
            RRULE:FREQ=MONTHLY
            EXRULE:FREQ=YEARLY
            RDATE;VALUE=DATE:20261105,20261106
            EXDATE;VALUE=DATE:20261109
            END:VTODO
            END:VCALENDAR

            """.replacing("\n", with: "\r\n")
        let reading = try ICSFile.read(Array(text.utf8), timeZone: .offset(seconds: 0))
        #expect(reading.entries.first?.fields.repeatRule == "FREQ=WEEKLY")
        #expect(
            reading.notKept.map(\.description) == [
                "1 repeat rule", "1 exception rule", "2 extra dates", "1 excluded date"
            ])
    }

    /// The export writes the rule (and where it counts from), DTSTART beside DUE; the import
    /// reads the same todo back.
    @Test func aRepeatingTodoGoesThroughAnICSFile() throws {
        let created = UTCTimestamp(iso: "2026-11-20T08:00:00Z")
        let entries = [
            ICSFile.Entry(
                uid: "fern",
                fields: TodoFields(
                    name: "Water the fern", deadline: CalendarDate("2026-11-27"), created: created,
                    repeatRule: "FREQ=DAILY;INTERVAL=3", repeatFrom: .done)),
            ICSFile.Entry(
                uid: "rent",
                fields: TodoFields(
                    name: "Pay rent", deadline: CalendarDate("2026-11-30"), created: created,
                    repeatRule: "FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231"))
        ]
        let text = ICSFile.write(entries, now: 0)
        for line in [
            "DTSTART;VALUE=DATE:20261127", "DUE;VALUE=DATE:20261127", "RRULE:FREQ=DAILY;INTERVAL=3",
            "X-TODO-REPEAT-FROM:COMPLETION", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;UNTIL=20271231"
        ] {
            #expect(text.contains(line + "\r\n"), "\(line)")
        }
        #expect(text.components(separatedBy: "X-TODO-REPEAT-FROM").count == 2, "only the todo counted from done")
        let reading = try ICSFile.read(Array(text.utf8), timeZone: .offset(seconds: -36_000))
        #expect(reading.entries == entries && reading.notKept.isEmpty && reading.parents.isEmpty)
    }
}
