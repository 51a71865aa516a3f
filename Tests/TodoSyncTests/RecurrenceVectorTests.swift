import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// RECURRENCE.md §6's test vectors on the VTODO: what finishing an occurrence writes, in each
/// style other apps read, and what reading every style gives. Texts as the study writes them.
@Suite(.timed) struct RecurrenceVectorTests {
    let berlin = LocalTimeZone.offset(seconds: 3600)
    let utc = LocalTimeZone.offset(seconds: 0)

    /// `lines` joined with CRLF, the last one ended too.
    static func text(_ lines: String) -> String {
        lines.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }

    /// Seconds since 1970 of a UTC stamp `YYYYMMDDTHHMMSSZ`.
    static func at(_ stamp: String) -> Int64 { UTCTimestamp(basic: stamp)?.secondsSince1970 ?? 0 }

    static let tv1 = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//todo//todo//EN
        BEGIN:VTODO
        UID:3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90
        DTSTAMP:20261127T100000Z
        CREATED:20261127T100000Z
        LAST-MODIFIED:20261127T100000Z
        SUMMARY:Pay rent
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        RRULE:FREQ=MONTHLY
        STATUS:NEEDS-ACTION
        END:VTODO
        END:VCALENDAR

        """)

    @Test func tv1ANewMonthlyTodoGetsDtstartEqualToDueAndItsRule() throws {
        var fields = TodoFields(name: "Pay rent", deadline: CalendarDate("2026-12-01"), repeatRule: "FREQ=MONTHLY")
        fields.created = UTCTimestamp(basic: "20261127T100000Z")
        let object = VTodoObject.new(
            uid: "3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90", fields: fields, now: Self.at("20261127T100000Z"))
        #expect(object.text == Self.tv1)
        #expect(try VTodoObject(parsing: object.text, timeZone: utc).fields == fields)
    }

    @Test func tv2FinishingItAdvancesTheMasterAndWritesNoCompleted() throws {
        var object = try VTodoObject(parsing: Self.tv1, timeZone: berlin)
        let now = Self.at("20261201T183000Z")
        let result = object.finishOccurrence(
            on: try #require(CalendarDate("2026-12-01")), .done, completedAt: now,
            completedOn: try #require(CalendarDate("2026-12-01")), now: now)
        #expect(result == .finished)
        #expect(
            object.text
                == Self.text(
                    """
                    BEGIN:VCALENDAR
                    VERSION:2.0
                    PRODID:-//todo//todo//EN
                    BEGIN:VTODO
                    UID:3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90
                    DTSTAMP:20261201T183000Z
                    CREATED:20261127T100000Z
                    LAST-MODIFIED:20261201T183000Z
                    SUMMARY:Pay rent
                    DTSTART;VALUE=DATE:20270101
                    DUE;VALUE=DATE:20270101
                    RRULE:FREQ=MONTHLY
                    STATUS:NEEDS-ACTION
                    SEQUENCE:1
                    END:VTODO
                    END:VCALENDAR

                    """))
        #expect(object.fields.deadline == CalendarDate("2027-01-01") && !object.fields.isDone)
        // The same completion again (another device finished it too): past already, nothing written.
        let before = object.text
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-01")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-01")), now: now + 60) == .alreadyPast)
        #expect(object.text == before)
    }

    static let tasksOrgZone = """
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:STANDARD
        TZNAME:CET
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        DTSTART:19961027T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        BEGIN:DAYLIGHT
        TZNAME:CEST
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        DTSTART:19810329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        END:VTIMEZONE
        """

    static func tasksOrg(_ todo: String) -> String {
        text(
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:+//IDN tasks.org//android-140509//EN
            \(todo)
            \(tasksOrgZone)
            END:VCALENDAR

            """)
    }

    static let tv3Alarm = """
        BEGIN:VALARM
        TRIGGER;RELATED=END:PT0S
        ACTION:DISPLAY
        DESCRIPTION:Default Tasks.org description
        END:VALARM
        """

    @Test func tv3ATasksOrgWeeklyTodoKeepsItsWallTimeAcrossTheEndOfDst() throws {
        let input = Self.tasksOrg(
            """
            BEGIN:VTODO
            DTSTAMP:20261015T064500Z
            UID:6311422465357396291
            CREATED:20261015T064455Z
            LAST-MODIFIED:20261015T064500Z
            SUMMARY:Take out the bins
            PRIORITY:5
            RRULE:FREQ=WEEKLY;COUNT=3
            X-APPLE-SORT-ORDER:783334495
            DUE;TZID=Europe/Berlin:20261020T090000
            \(Self.tv3Alarm)
            END:VTODO
            """)
        var object = try VTodoObject(parsing: input, timeZone: .system)
        #expect(object.fields.repeatRule == "FREQ=WEEKLY;COUNT=3")
        let now = Self.at("20261021T070000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(object.fields.deadline), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-10-21")), now: now) == .finished)
        #expect(
            object.text
                == Self.tasksOrg(
                    """
                    BEGIN:VTODO
                    DTSTAMP:20261021T070000Z
                    UID:6311422465357396291
                    CREATED:20261015T064455Z
                    LAST-MODIFIED:20261021T070000Z
                    SUMMARY:Take out the bins
                    PRIORITY:5
                    RRULE:FREQ=WEEKLY;COUNT=2
                    X-APPLE-SORT-ORDER:783334495
                    DUE;TZID=Europe/Berlin:20261027T090000
                    SEQUENCE:1
                    \(Self.tv3Alarm)
                    END:VTODO
                    """))
    }

    @Test func tv4TheLastOccurrenceEndsTheSeries() throws {
        let input = Self.tasksOrg(
            """
            BEGIN:VTODO
            DTSTAMP:20261028T070000Z
            UID:6311422465357396291
            CREATED:20261015T064455Z
            LAST-MODIFIED:20261028T070000Z
            SUMMARY:Take out the bins
            PRIORITY:5
            RRULE:FREQ=WEEKLY;COUNT=1
            X-APPLE-SORT-ORDER:783334495
            DUE;TZID=Europe/Berlin:20261103T090000
            SEQUENCE:2
            \(Self.tv3Alarm)
            END:VTODO
            """)
        var object = try VTodoObject(parsing: input, timeZone: .system)
        let now = Self.at("20261103T100000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(object.fields.deadline), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-11-03")), now: now) == .finished)
        #expect(
            object.text
                == Self.tasksOrg(
                    """
                    BEGIN:VTODO
                    DTSTAMP:20261103T100000Z
                    UID:6311422465357396291
                    CREATED:20261015T064455Z
                    LAST-MODIFIED:20261103T100000Z
                    SUMMARY:Take out the bins
                    PRIORITY:5
                    RRULE:FREQ=WEEKLY;COUNT=1
                    X-APPLE-SORT-ORDER:783334495
                    DUE;TZID=Europe/Berlin:20261103T090000
                    SEQUENCE:3
                    STATUS:COMPLETED
                    COMPLETED:20261103T100000Z
                    \(Self.tv3Alarm)
                    END:VTODO
                    """))
        #expect(object.fields.isDone)
    }

    @Test func tv5UntilReachedEndsTheSeriesWithoutMovingDtstartPastIt() throws {
        let input = Self.text(
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//todo//todo//EN
            BEGIN:VTODO
            UID:b71e4c0d-2f6a-4e8b-9c3d-5a1f7e9b2c64
            DTSTAMP:20261208T190000Z
            CREATED:20261120T090000Z
            LAST-MODIFIED:20261208T190000Z
            SUMMARY:Water the tree
            DTSTART;VALUE=DATE:20261215
            DUE;VALUE=DATE:20261215
            RRULE:FREQ=WEEKLY;UNTIL=20261215
            STATUS:NEEDS-ACTION
            SEQUENCE:2
            END:VTODO
            END:VCALENDAR

            """)
        var object = try VTodoObject(parsing: input, timeZone: utc)
        let now = Self.at("20261215T080000Z")
        _ = object.finishOccurrence(
            on: try #require(CalendarDate("2026-12-15")), .done, completedAt: now,
            completedOn: try #require(CalendarDate("2026-12-15")), now: now)
        let lines = object.text.split(separator: "\r\n").map(String.init)
        #expect(lines.contains("DTSTART;VALUE=DATE:20261215") && lines.contains("STATUS:COMPLETED"), "\(lines)")
        #expect(lines.contains("COMPLETED:20261215T080000Z") && lines.contains("SEQUENCE:3"))
    }

    static let thunderbird = text(
        """
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        BEGIN:VTIMEZONE
        TZID:America/Chicago
        BEGIN:DAYLIGHT
        TZOFFSETFROM:-0600
        TZOFFSETTO:-0500
        TZNAME:CDT
        DTSTART:19700308T020000
        RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0600
        TZNAME:CST
        DTSTART:19701101T020000
        RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VTODO
        CREATED:20261130T220126Z
        LAST-MODIFIED:20261201T230139Z
        DTSTAMP:20261201T230139Z
        UID:e0600bbe-b9d0-ba48-80b0-998409625d03
        SUMMARY:Recurring
        RRULE:FREQ=DAILY
        DTSTART;TZID=America/Chicago:20261201T170000
        DUE;TZID=America/Chicago:20261201T170000
        X-MOZ-GENERATION:1
        END:VTODO
        BEGIN:VTODO
        CREATED:20261201T230135Z
        LAST-MODIFIED:20261201T230139Z
        DTSTAMP:20261201T230139Z
        UID:e0600bbe-b9d0-ba48-80b0-998409625d03
        SUMMARY:Recurring
        STATUS:COMPLETED
        RECURRENCE-ID;TZID=America/Chicago:20261201T170000
        DTSTART;TZID=America/Chicago:20261201T170000
        DUE;TZID=America/Chicago:20261201T170000
        COMPLETED:20261201T230139Z
        PERCENT-COMPLETE:100
        SEQUENCE:1
        END:VTODO
        END:VCALENDAR

        """)

    @Test func tv7AThunderbirdObjectGetsAnOverrideAndItsMasterIsNotTouched() throws {
        let chicago = LocalTimeZone.offset(seconds: -6 * 3600)
        var object = try VTodoObject(parsing: Self.thunderbird, timeZone: chicago)
        #expect(object.fields.deadline == CalendarDate("2026-12-02"), "the completed 12-01 is folded away")
        let now = Self.at("20261202T233000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-02")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-02")), now: now) == .finished)
        let expected = Self.thunderbird.replacingOccurrences(
            of: "END:VCALENDAR\r\n",
            with: Self.text(
                """
                BEGIN:VTODO
                UID:e0600bbe-b9d0-ba48-80b0-998409625d03
                DTSTAMP:20261202T233000Z
                CREATED:20261202T233000Z
                LAST-MODIFIED:20261202T233000Z
                RECURRENCE-ID;TZID=America/Chicago:20261202T170000
                DTSTART;TZID=America/Chicago:20261202T170000
                DUE;TZID=America/Chicago:20261202T170000
                SUMMARY:Recurring
                STATUS:COMPLETED
                COMPLETED:20261202T233000Z
                PERCENT-COMPLETE:100
                SEQUENCE:1
                END:VTODO
                END:VCALENDAR

                """))
        #expect(object.text == expected)
        #expect(object.fields.deadline == CalendarDate("2026-12-03"))
    }

    @Test func tv8AKdeObjectAdvancesWithItsMarker() throws {
        let input = Self.tasksOrg(
            """
            BEGIN:VTODO
            DTSTAMP:20261208T091500Z
            CREATED:20261130T120000Z
            UID:8d5c6e2f-5a1b-4f3e-8c7d-2b9a0e4f6d13
            SEQUENCE:1
            LAST-MODIFIED:20261208T091500Z
            SUMMARY:Backup the laptop
            RRULE:FREQ=WEEKLY
            DTSTART;TZID=Europe/Berlin:20261201T080000
            DUE;TZID=Europe/Berlin:20261201T090000
            PERCENT-COMPLETE:0
            X-KDE-LIBKCAL-DTRECURRENCE;TZID=Europe/Berlin:20261208T080000
            END:VTODO
            """)
        var object = try VTodoObject(parsing: input, timeZone: .system)
        #expect(object.fields.deadline == CalendarDate("2026-12-08"), "KDE's marker is where the series stands")
        let now = Self.at("20261208T100000Z")
        #expect(
            object.finishOccurrence(
                on: try #require(CalendarDate("2026-12-08")), .done, completedAt: now,
                completedOn: try #require(CalendarDate("2026-12-08")), now: now) == .finished)
        #expect(
            object.text
                == Self.tasksOrg(
                    """
                    BEGIN:VTODO
                    DTSTAMP:20261208T100000Z
                    CREATED:20261130T120000Z
                    UID:8d5c6e2f-5a1b-4f3e-8c7d-2b9a0e4f6d13
                    SEQUENCE:2
                    LAST-MODIFIED:20261208T100000Z
                    SUMMARY:Backup the laptop
                    RRULE:FREQ=WEEKLY
                    DTSTART;TZID=Europe/Berlin:20261215T080000
                    DUE;TZID=Europe/Berlin:20261215T090000
                    PERCENT-COMPLETE:0
                    X-KDE-LIBKCAL-DTRECURRENCE;TZID=Europe/Berlin:20261215T080000
                    END:VTODO
                    """))
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
