/// Objects as other apps write them, for the byte-for-byte and mapping tests. Written with LF
/// here and given CRLF line breaks unless the app is one that writes LF.
enum Fixtures {
    /// A one-VTODO object (UID t1) with the given extra property lines.
    static func todoObject(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VTODO", "UID:t1", "DTSTAMP:20240101T000000Z"]
            + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    static func crlf(_ text: String) -> String { text.replacing("\n", with: "\r\n") }

    /// Thunderbird (Lightning): a VTIMEZONE, DUE with TZID, DESCRIPTION, a VALARM, X-MOZ props.
    static let thunderbird = crlf(
        """
        BEGIN:VCALENDAR
        PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
        VERSION:2.0
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        END:VTIMEZONE
        BEGIN:VTODO
        CREATED:20240410T081512Z
        LAST-MODIFIED:20240410T081633Z
        DTSTAMP:20240410T081633Z
        UID:1f4e3c1a-8f7b-4a0e-9d51-2a6c4b1e7f30
        SUMMARY:Steuererklärung abgeben\\, endlich
        STATUS:NEEDS-ACTION
        DUE;TZID=Europe/Berlin:20240501T003000
        DESCRIPTION:Belege im Ordner "Steuer 2023"\\nAnlage N nicht vergessen\\; and a
          long description that Thunderbird folded at seventy-five octets exactly.
        X-MOZ-GENERATION:2
        BEGIN:VALARM
        ACTION:DISPLAY
        TRIGGER;VALUE=DURATION:-PT15M
        DESCRIPTION:Default Mozilla Description
        END:VALARM
        END:VTODO
        END:VCALENDAR

        """)

    /// Apple Reminders: X-APPLE properties, a UTC DUE, DTSTART, folded at odd places.
    static let appleReminders = crlf(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Apple Inc.//iOS 17.4//EN
        CALSCALE:GREGORIAN
        BEGIN:VTODO
        COMPLETED:20240402T101010Z
        CREATED:20240401T090000Z
        DTSTAMP:20240402T101011Z
        DUE;VALUE=DATE:20240405
        LAST-MODIFIED:20240402T101011Z
        PERCENT-COMPLETE:100
        PRIORITY:1
        SEQUENCE:3
        STATUS:COMPLETED
        SUMMARY:Rückruf Zahnarzt 🦷 wegen Termin am Dienstag um 10:30\\, bitte bestät
         igen
        UID:D7A5B0C2-3E1F-4B6A-9C8D-7E6F5A4B3C2D
        X-APPLE-SORT-ORDER:734260411
        X-APPLE-STRUCTURED-LOCATION;VALUE=URI;X-ADDRESS="1 Infinite Loop, Cupertino";X-TITLE=Office:geo:37.331741,-122.030333
        END:VTODO
        END:VCALENDAR

        """)

    /// Nextcloud Tasks: CATEGORIES, RRULE, VALARM, PERCENT-COMPLETE, RELATED-TO, a fold with a tab.
    static let nextcloud = crlf(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Nextcloud Tasks v0.15.0
        BEGIN:VTODO
        UID:e3c5d1b2-6a7f-4e8d-9b0c-1a2b3c4d5e6f
        CREATED:20240301T120000
        LAST-MODIFIED:20240301T120500
        DTSTAMP:20240301T120500
        SUMMARY:Water the plants
        CATEGORIES:Home,Garden
        PRIORITY:5
        PERCENT-COMPLETE:40
        STATUS:IN-PROCESS
        DTSTART;VALUE=DATE:20240302
        DUE;VALUE=DATE:20240303
        RRULE:FREQ=WEEKLY;INTERVAL=1
        RELATED-TO;RELTYPE=PARENT:a9b8c7d6-e5f4-4a3b-2c1d-0e9f8a7b6c5d
        DESCRIPTION:Ficus\\, cactus and the big monstera by the window in the living
        \troom.
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Water the plants
        TRIGGER;RELATED=END:-PT1H
        END:VALARM
        END:VTODO
        END:VCALENDAR

        """)

    /// A New York DUE with its VTIMEZONE, written by a tool that uses LF only, lower-case
    /// names, no final line break, and a blank line.
    static let lfOnlyNewYork = """
        BEGIN:VCALENDAR
        version:2.0
        prodid:-//Example Corp.//CalDAV Client//EN
        BEGIN:VTIMEZONE
        TZID:America/New_York
        BEGIN:STANDARD
        DTSTART:19701101T020000
        TZOFFSETFROM:-0400
        TZOFFSETTO:-0500
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:19700308T020000
        TZOFFSETFROM:-0500
        TZOFFSETTO:-0400
        END:DAYLIGHT
        END:VTIMEZONE

        BEGIN:VTODO
        uid:ny-1@example.com
        dtstamp:20240110T100000Z
        summary:Call the bank before closing
        due;tzid=America/New_York:20240115T230000
        END:VTODO
        END:VCALENDAR
        """

    /// A recurring todo with an overridden occurrence (same UID, RECURRENCE-ID), master second.
    static let recurring = crlf(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example//Recurring//EN
        BEGIN:VTODO
        UID:weekly-report
        DTSTAMP:20240105T080000Z
        RECURRENCE-ID;VALUE=DATE:20240112
        SUMMARY:Weekly report (short week)
        DUE;VALUE=DATE:20240111
        END:VTODO
        BEGIN:VTODO
        UID:weekly-report
        DTSTAMP:20240101T080000Z
        SUMMARY:Weekly report
        DTSTART;VALUE=DATE:20240105
        DUE;VALUE=DATE:20240105
        RRULE:FREQ=WEEKLY
        END:VTODO
        END:VCALENDAR

        """)

    /// A calendar event: no todo in it.
    static let event = crlf(
        """
        BEGIN:VCALENDAR
        VERSION:2.0
        PRODID:-//Example//Events//EN
        BEGIN:VEVENT
        UID:event-1
        DTSTAMP:20240101T000000Z
        DTSTART:20240102T100000Z
        SUMMARY:Meeting
        END:VEVENT
        END:VCALENDAR

        """)

    static let all: [(name: String, text: String)] = [
        ("thunderbird", thunderbird), ("apple reminders", appleReminders), ("nextcloud", nextcloud),
        ("LF-only New York", lfOnlyNewYork), ("recurring", recurring), ("event", event)
    ]
}
