import Foundation
import TestSupport
import Testing

/// Issue 34 on real servers: `todo done` on another app's repeating todo finishes one
/// occurrence, and the sync moves the object to the next one; it never writes a completed master
/// over a series that goes on. The phone's object is PUT by plain HTTP as Tasks.org writes it.
@Suite(.timed, .hangLimit) struct RepeatingSeriesServerTests {
    /// Tasks.org's weekly chore: a date-time DUE in Berlin, RRULE, no DTSTART, its VTIMEZONE after.
    static let chore = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:+//IDN tasks.org//android-140108//EN\r
        BEGIN:VTODO\r
        DTSTAMP:20261120T080000Z\r
        UID:7260432925093433771\r
        CREATED:20261101T080000Z\r
        LAST-MODIFIED:20261120T080000Z\r
        SUMMARY:Take out the bins\r
        PRIORITY:9\r
        STATUS:NEEDS-ACTION\r
        RRULE:FREQ=WEEKLY;BYDAY=FR\r
        X-APPLE-SORT-ORDER:-1\r
        DUE;TZID=Europe/Berlin:20261127T190001\r
        BEGIN:VALARM\r
        TRIGGER;RELATED=END:PT0S\r
        ACTION:DISPLAY\r
        DESCRIPTION:Default Tasks.org description\r
        END:VALARM\r
        END:VTODO\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        TZNAME:CET\r
        DTSTART:19701025T030000\r
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r
        END:STANDARD\r
        BEGIN:DAYLIGHT\r
        TZOFFSETFROM:+0100\r
        TZOFFSETTO:+0200\r
        TZNAME:CEST\r
        DTSTART:19700329T020000\r
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r
        END:DAYLIGHT\r
        END:VTIMEZONE\r
        END:VCALENDAR\r

        """

    @Test(arguments: ["radicale", "xandikos"])
    func todoDoneAdvancesTheSeriesAndNeverEndsIt(kind: String) throws {
        let server = try kind == "radicale" ? CalDAVServer.radicale() : CalDAVServer.xandikos()
        defer { server.stop() }
        #expect(try server.put("chore.ics", Self.chore) == 201)
        let laptop = SyncDevice(server)
        try laptop.setUp()
        #expect(try laptop.sync()["received"] as? Int == 1)
        let id = try laptop.id(named: "Take out the bins")

        // This Friday's bins are out: the todo moves to next Friday, and so does the phone's object.
        let done = try laptop.todo("done", "\(id)")
        #expect(done.status == 0 && done.stdout == "✓ \(id)  Take out the bins  next 2026-12-04\n", "\(done)")
        #expect(try laptop.summary() == ["Take out the bins|2026-12-04|0"])
        #expect(try laptop.sync()["sent"] as? Int == 1)
        let seen = try #require(try server.todosSeenByPython(server.todoCollectionURL).first)
        #expect(seen["status"] == "NEEDS-ACTION" && seen["due"] == "20261204T190001", "\(seen)")
        let text = seen["text"] ?? ""
        #expect(text.contains("DUE;TZID=Europe/Berlin:20261204T190001"), "\(text)")
        #expect(text.contains("RRULE:FREQ=WEEKLY;BYDAY=FR") && !text.contains("COMPLETED"), "\(text)")
        // (The VTIMEZONE's own DTSTARTs take no parameter.)
        #expect(!text.contains("DTSTART;"), "another app's object is not given a DTSTART: \(text)")
        #expect(try laptop.sync()["sent"] as? Int == 0, "the occurrence is applied once")
        #expect(try laptop.summary() == ["Take out the bins|2026-12-04|0"])

        // Marked done as a whole by another program sharing the file: the sync keeps the series going.
        let shell = try ProcessRunner.run(
            "sqlite3",
            [laptop.database, "UPDATE todos SET done = 1, completed = '2026-12-04T18:00:00Z' WHERE id = \(id)"])
        #expect(shell.status == 0)
        let sync = try laptop.todo("sync")
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stderr.contains("warning: todo \(id) \"Take out the bins\" repeats"), "\(sync.stderr)")
        #expect(try laptop.summary() == ["Take out the bins|2026-12-04|0"])
        let kept = try #require(try server.todosSeenByPython(server.todoCollectionURL).first)
        #expect(kept["status"] == "NEEDS-ACTION" && !(kept["text"] ?? "").contains("COMPLETED"), "\(kept)")
        #expect(try laptop.sync()["sent"] as? Int == 0)
    }
}
