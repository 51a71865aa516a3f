/// RECURRENCE.md §6's test vectors: each app's object as the study shows that app writes it, and
/// what `todo` is to make of it. Defined once, for the pure tests of the VTODO (TodoSyncTests)
/// and for the same vectors run on real servers through the `todo` CLI (TodoSyncServerTests).
/// Lines end in CRLF, the last one too; the time stamps are the study's action times.
public enum RecurrenceVectors {
    /// `lines` (one per line of the literal) joined with CRLF, the last one ended too when the
    /// literal ends with an empty line.
    public static func text(_ lines: String) -> String {
        lines.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
    }

    // MARK: TV1, TV2: todo's own monthly todo

    /// TV1: `todo add "Pay rent" --due 2026-12-01 --every month` at 2026-11-27T10:00:00Z.
    public static let tv1 = text(
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

    /// TV2: TV1 after `todo done 1` at 2026-12-01T18:30:00Z: the master advanced, no COMPLETED.
    public static let tv2 = text(
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

        """)

    // MARK: TV3, TV4: Tasks.org across the end of DST

    /// The VTIMEZONE Tasks.org writes for Europe/Berlin.
    public static let tasksOrgZone = """
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

    /// Tasks.org's VCALENDAR around `todo` (one VTODO, LF-separated), its VTIMEZONE after it.
    public static func tasksOrg(_ todo: String) -> String {
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

    /// Tasks.org's default alarm, at the due time.
    public static let tv3Alarm = """
        BEGIN:VALARM
        TRIGGER;RELATED=END:PT0S
        ACTION:DISPLAY
        DESCRIPTION:Default Tasks.org description
        END:VALARM
        """

    /// TV3's input: weekly, COUNT=3, DUE at 09:00 Berlin and no DTSTART, an alarm.
    public static let tv3 = tasksOrg(
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
        \(tv3Alarm)
        END:VTODO
        """)

    /// TV3 after `todo done` at 2026-10-21T07:00:00Z: 09:00 kept across the end of DST, COUNT
    /// down by one, no DTSTART added.
    public static let tv3Done = tasksOrg(
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
        \(tv3Alarm)
        END:VTODO
        """)

    /// TV4's input: TV3's result after one more `todo done` (at 2026-10-28T07:00:00Z).
    public static let tv4 = tasksOrg(
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
        \(tv3Alarm)
        END:VTODO
        """)

    /// TV4 after `todo done` at 2026-11-03T10:00:00Z: the last occurrence ends the series, with
    /// PERCENT-COMPLETE:100 as every completion here writes it (issue 36; the study wrote it only
    /// where the object had one).
    public static let tv4Done = tasksOrg(
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
        PERCENT-COMPLETE:100
        \(tv3Alarm)
        END:VTODO
        """)

    // MARK: TV5: UNTIL reached

    /// TV5's input: todo's own weekly todo whose UNTIL is its current occurrence.
    public static let tv5 = text(
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

    /// TV5 after `todo done` at 2026-12-15T08:00:00Z: completed as any todo (PERCENT-COMPLETE:100
    /// too), DTSTART not moved past UNTIL.
    public static let tv5Done = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//todo//todo//EN
        BEGIN:VTODO
        UID:b71e4c0d-2f6a-4e8b-9c3d-5a1f7e9b2c64
        DTSTAMP:20261215T080000Z
        CREATED:20261120T090000Z
        LAST-MODIFIED:20261215T080000Z
        SUMMARY:Water the tree
        DTSTART;VALUE=DATE:20261215
        DUE;VALUE=DATE:20261215
        RRULE:FREQ=WEEKLY;UNTIL=20261215
        STATUS:COMPLETED
        SEQUENCE:3
        COMPLETED:20261215T080000Z
        PERCENT-COMPLETE:100
        END:VTODO
        END:VCALENDAR

        """)

    // MARK: TV7: Thunderbird

    /// TV7's input: Thunderbird's daily series (America/Chicago) with its 12-01 occurrence done
    /// in a RECURRENCE-ID component.
    public static let tv7 = text(
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

    /// TV7 after `todo done` at 2026-12-02T23:30:00Z: everything byte-identical, and one more
    /// override, for 12-02, before `END:VCALENDAR`.
    public static let tv7Done = tv7.replacing(
        "END:VCALENDAR\r\n",
        with: text(
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

    // MARK: TV8: KDE

    /// TV8's input: KDE's weekly series with its X-KDE-LIBKCAL-DTRECURRENCE marker a week on
    /// from DTSTART (the VCALENDAR and VTIMEZONE as TV3's).
    public static let tv8 = tasksOrg(
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

    /// TV8 after `todo done` at 2026-12-08T10:00:00Z: advanced from the marker, which moves too.
    public static let tv8Done = tasksOrg(
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
        """)

    // MARK: TV9: a naive app ended the series

    /// Tasks.org's VCALENDAR around `todo`, without a VTIMEZONE.
    public static func tasksOrgWithoutZone(_ todo: String) -> String {
        text(
            """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:+//IDN tasks.org//android-140509//EN
            \(todo)
            END:VCALENDAR

            """)
    }

    /// TV9's input: a Tasks.org series completed as a whole (Nextcloud Tasks ≤ 0.17,
    /// python-caldav's default `complete()`).
    public static let tv9 = tasksOrgWithoutZone(
        """
        BEGIN:VTODO
        DTSTAMP:20261201T120000Z
        UID:4400912837466150021
        CREATED:20261101T080000Z
        LAST-MODIFIED:20261201T120000Z
        SUMMARY:Water plants
        RRULE:FREQ=WEEKLY
        DUE;VALUE=DATE:20261201
        STATUS:COMPLETED
        COMPLETED:20261201T120000Z
        PERCENT-COMPLETE:100
        SEQUENCE:3
        END:VTODO
        """)

    /// TV9 after `todo undone 7 --next` at 2026-12-01T13:00:00Z: resumed on the next occurrence.
    public static let tv9Resumed = tasksOrgWithoutZone(
        """
        BEGIN:VTODO
        DTSTAMP:20261201T130000Z
        UID:4400912837466150021
        CREATED:20261101T080000Z
        LAST-MODIFIED:20261201T130000Z
        SUMMARY:Water plants
        RRULE:FREQ=WEEKLY
        DUE;VALUE=DATE:20261208
        STATUS:NEEDS-ACTION
        SEQUENCE:4
        END:VTODO
        """)

    // MARK: TV12: other apps' splits

    /// TV12 (a): todoman's `done` on TV1's todo (code-derived): the object keeps its UID, loses
    /// its rule and is completed; `tv12aNext`, a new object, goes on.
    public static let tv12aDone = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//pimutils.org//todoman//EN
        BEGIN:VTODO
        UID:3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90
        DTSTAMP:20261201T120000Z
        CREATED:20261127T100000Z
        LAST-MODIFIED:20261201T120000Z
        SUMMARY:Pay rent
        DUE;VALUE=DATE:20261201
        STATUS:COMPLETED
        COMPLETED:20261201T120000Z
        PERCENT-COMPLETE:100
        SEQUENCE:1
        END:VTODO
        END:VCALENDAR

        """)

    /// TV12 (a): the clone todoman makes, with a new UID: the rule, and the next occurrence.
    public static let tv12aNext = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//pimutils.org//todoman//EN
        BEGIN:VTODO
        UID:9a41c7e2-todoman-clone
        DTSTAMP:20261201T120000Z
        SUMMARY:Pay rent
        DUE;VALUE=DATE:20270101
        DTSTART;VALUE=DATE:20270101
        RRULE:FREQ=MONTHLY
        STATUS:NEEDS-ACTION
        END:VTODO
        END:VCALENDAR

        """)

    /// TV12 (b): python-caldav's "safe" completion (Apple's, inferred) of TV1's todo: the
    /// series object moves to the next occurrence…
    public static let tv12bSeries = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//todo//todo//EN
        BEGIN:VTODO
        UID:3f9c2e1a-7b4d-4c8e-9a2f-1d6e5b7c8a90
        DTSTAMP:20261201T120000Z
        CREATED:20261127T100000Z
        LAST-MODIFIED:20261127T100000Z
        SUMMARY:Pay rent
        RRULE:FREQ=MONTHLY
        STATUS:NEEDS-ACTION
        DTSTART;VALUE=DATE:20270101
        DUE;VALUE=DATE:20270101
        END:VTODO
        END:VCALENDAR

        """)

    /// …and a copy with a new UID, without the rule, holds the finished occurrence.
    public static let tv12bCopy = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//todo//todo//EN
        BEGIN:VTODO
        UID:0c7d51f4-python-caldav-copy
        DTSTAMP:20261201T120000Z
        CREATED:20261127T100000Z
        LAST-MODIFIED:20261127T100000Z
        SUMMARY:Pay rent
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        STATUS:COMPLETED
        COMPLETED:20261201T120000Z
        END:VTODO
        END:VCALENDAR

        """)

    // MARK: TV13: hostile or odd objects

    /// TV13: python-caldav's `complete(handle_rrule=True, rrule_mode="thisandfuture")` on a
    /// weekly date series: the master as it was, the finished occurrence as an override, and the
    /// next as an override with `RANGE=THISANDFUTURE` (without RRULE, which Radicale refuses).
    public static let tv13ThisAndFuture = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//python-caldav//caldav//en_DK
        BEGIN:VTODO
        UID:tv13-this-and-future
        DTSTAMP:20261201T120000Z
        SUMMARY:Sweep the floor
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        RRULE:FREQ=WEEKLY
        STATUS:NEEDS-ACTION
        END:VTODO
        BEGIN:VTODO
        UID:tv13-this-and-future
        DTSTAMP:20261201T120000Z
        SUMMARY:Sweep the floor
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        STATUS:COMPLETED
        RECURRENCE-ID;VALUE=DATE:20261201
        SEQUENCE:1
        COMPLETED:20261201T120000Z
        END:VTODO
        BEGIN:VTODO
        UID:tv13-this-and-future
        DTSTAMP:20261201T120000Z
        SUMMARY:Sweep the floor
        STATUS:NEEDS-ACTION
        SEQUENCE:2
        RECURRENCE-ID;RANGE=THISANDFUTURE;VALUE=DATE:20261208
        DTSTART;VALUE=DATE:20261208
        DUE;VALUE=DATE:20261208
        END:VTODO
        END:VCALENDAR

        """)

    /// TV13: two VTODOs without RECURRENCE-ID of one UID, as todoman writes back an object
    /// Thunderbird had given an override.
    public static let tv13TwoMasters = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//pimutils.org//todoman//EN
        BEGIN:VTODO
        UID:tv13-two-masters
        DTSTAMP:20261201T120000Z
        SUMMARY:Stretch
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        RRULE:FREQ=DAILY
        END:VTODO
        BEGIN:VTODO
        UID:tv13-two-masters
        DTSTAMP:20261201T120000Z
        SUMMARY:Stretch
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        RRULE:FREQ=DAILY
        END:VTODO
        END:VCALENDAR

        """)

    /// TV13: an override dated before its master's DTSTART (Nextcloud Tasks moved the master of
    /// a Thunderbird object past it): an orphan, whose completion is history only.
    public static let tv13Orphan = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Nextcloud GmbH//Nextcloud Tasks v0.18.0
        BEGIN:VTODO
        UID:tv13-orphan
        DTSTAMP:20261208T120000Z
        SUMMARY:Clean the filter
        DTSTART;VALUE=DATE:20261208
        DUE;VALUE=DATE:20261208
        RRULE:FREQ=WEEKLY
        END:VTODO
        BEGIN:VTODO
        UID:tv13-orphan
        DTSTAMP:20261201T120000Z
        SUMMARY:Clean the filter
        RECURRENCE-ID;VALUE=DATE:20261201
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        STATUS:COMPLETED
        COMPLETED:20261201T120000Z
        END:VTODO
        END:VCALENDAR

        """)

    /// TV13: a date RECURRENCE-ID under a date-time DTSTART: it names the 12-01 occurrence.
    public static let tv13DateRecurrenceID = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//odd clients//EN
        BEGIN:VTODO
        UID:tv13-date-recurrence-id
        DTSTAMP:20261201T120000Z
        SUMMARY:Feed the cat
        DTSTART;TZID=Europe/Berlin:20261201T090000
        DUE;TZID=Europe/Berlin:20261201T090000
        RRULE:FREQ=DAILY
        END:VTODO
        BEGIN:VTODO
        UID:tv13-date-recurrence-id
        DTSTAMP:20261201T120000Z
        SUMMARY:Feed the cat
        RECURRENCE-ID;VALUE=DATE:20261201
        STATUS:COMPLETED
        COMPLETED:20261201T120000Z
        END:VTODO
        \(tasksOrgZone)
        END:VCALENDAR

        """)

    /// TV13: Tasks.org's date UNTIL beside a 09:00 Berlin DUE: the series ends with 12-15.
    public static let tv13Until = tasksOrg(
        """
        BEGIN:VTODO
        DTSTAMP:20261201T120000Z
        UID:tv13-until
        SUMMARY:Check the smoke alarm
        RRULE:FREQ=WEEKLY;UNTIL=20261215
        DUE;TZID=Europe/Berlin:20261208T090000
        END:VTODO
        """)

    /// TV13: a rule too large to follow (a billion seconds).
    public static let tv13Huge = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//odd clients//EN
        BEGIN:VTODO
        UID:tv13-huge
        DTSTAMP:20261201T120000Z
        SUMMARY:Blink
        DTSTART;VALUE=DATE:20261201
        DUE;VALUE=DATE:20261201
        RRULE:FREQ=SECONDLY;COUNT=1000000000
        END:VTODO
        END:VCALENDAR

        """)

    /// TV13: a rule with neither DTSTART nor DUE.
    public static let tv13NoAnchor = text(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//test//odd clients//EN
        BEGIN:VTODO
        UID:tv13-no-anchor
        DTSTAMP:20261201T120000Z
        SUMMARY:Call grandma
        RRULE:FREQ=WEEKLY
        END:VTODO
        END:VCALENDAR

        """)
}
