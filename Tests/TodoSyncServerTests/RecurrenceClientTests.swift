import Foundation
import TestSupport
import Testing

/// RECURRENCE.md's vectors and scenarios with the other clients themselves instead of their
/// writes made by hand: todoman 4.1 (through vdirsyncer) and python3-caldav 0.11 finish one
/// occurrence of a series `todo` made, each in its own way (§2.8, §2.9), on Radicale and on
/// Xandikos; `todo sync` then shows what the study expects, and a second sync writes nothing.
@Suite(.timed, .hangLimit) struct RecurrenceClientTests {
    typealias Bench = RecurrenceVectorServerTests.Bench

    /// X6 and TV12 (a) with todoman: its `done` splits the series (the old UID completed
    /// without its rule, a clone with a new UID going on) while `todo` renames the todo: the
    /// rename stays with the old UID, the clone is a new repeating todo, and the sync says
    /// where the repeat went.
    @Test(arguments: RecurrenceVectorServerTests.kinds) func todomanDoneSplitsTheSeries(kind: String) throws {
        let bench = try Bench(kind)
        defer { bench.server.stop() }
        try bench.ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month")
        try bench.sync()
        let todoman = try Todoman(url: bench.laptop.url, user: bench.laptop.user, password: bench.laptop.password)
        let listed = try todoman.list()
        #expect(listed.map { $0["summary"] as? String } == ["Pay rent"], "\(listed)")
        let id = try #require(listed.first?["id"] as? Int)
        try todoman.run(["/usr/bin/todoman", "done", "\(id)"])
        try todoman.vdirsyncer("sync")

        try bench.ok("edit", "1", "--name", "Pay the rent")
        let (_, notes) = try bench.sync()
        #expect(try bench.laptop.summary() == ["Pay rent|2027-01-01|0", "Pay the rent|2026-12-01|1"])
        #expect(try bench.show(1)["repeat"] is NSNull, "todoman's done took the rule off")
        #expect(try bench.show(2)["repeat_rule"] as? String == "FREQ=MONTHLY")
        #expect(notes.contains("note: the repeat of \"Pay rent\" moved to a new todo (another app)"), "\(notes)")
        try bench.expectSettled([])
        // todoman reads back what todo wrote (the rename), and nothing more moves.
        try todoman.vdirsyncer("sync")
        let names = try todoman.list().compactMap { $0["summary"] as? String }.sorted()
        #expect(names == ["Pay rent", "Pay the rent"], "\(names)")
        try bench.expectSettled([])
    }

    /// python3-caldav's `complete()` (Home Assistant's): the master completed, the series over
    /// everywhere. X5: where `todo` finished the occurrence too, it is one completion and the
    /// series goes on (COMPLETED and PERCENT-COMPLETE taken off); TV9: where it did not, the
    /// todo is done here too, with a note saying how to resume it.
    @Test(arguments: RecurrenceVectorServerTests.kinds) func pythonCaldavNaiveCompletion(kind: String) throws {
        let bench = try Bench(kind)
        defer { bench.server.stop() }
        try bench.ok("add", "Water plants", "--due", "2026-12-01", "--every", "week")
        try bench.ok("add", "Water the lawn", "--due", "2026-12-01", "--every", "week")
        try bench.sync()
        let (plants, lawn) = (try bench.uid(1), try bench.uid(2))
        try bench.python("for uid in sys.argv[4:]: cal.todo_by_uid(uid).complete()", plants, lawn)
        try bench.ok("done", "1")
        let (_, notes) = try bench.sync()
        #expect(try bench.laptop.summary() == ["Water plants|2026-12-08|0", "Water the lawn|2026-12-01|1"])
        let kept = try bench.lines(of: "\(plants).ics")
        #expect(kept.contains("DUE;VALUE=DATE:20261208") && kept.contains("STATUS:NEEDS-ACTION"), "\(kept.sorted())")
        #expect(!kept.contains { $0.hasPrefix("COMPLETED") || $0.hasPrefix("PERCENT-COMPLETE") }, "\(kept.sorted())")
        #expect(
            notes.contains(
                "note: \"Water the lawn\" repeats every week, but another app marked the series done; 'todo undone 2 --next' continues it on 2026-12-08"
            ), "\(notes)")
        try bench.expectSettled(["\(plants).ics", "\(lawn).ics"])
    }

    /// TV12 (b) with python3-caldav's `complete(handle_rrule=True, rrule_mode="safe")`: the
    /// series object moves on (to a day a month after the completion: its interval counts from
    /// then) and a completed copy with a new UID holds the occurrence. `todo` keeps the todo at
    /// the new deadline, logs the occurrence as an advance, and shows the copy as one done todo.
    @Test(arguments: RecurrenceVectorServerTests.kinds) func pythonCaldavSafeCompletion(kind: String) throws {
        let bench = try Bench(kind)
        defer { bench.server.stop() }
        try bench.ok("add", "Pay rent", "--due", "2026-12-01", "--every", "month")
        try bench.sync()
        let uid = try bench.uid(1)
        try bench.python(
            "cal.todo_by_uid(sys.argv[4]).complete(handle_rrule=True, rrule_mode='safe')", uid)
        try bench.sync()
        let due = try #require(try bench.lines(of: "\(uid).ics").first { $0.hasPrefix("DUE") })
        // python-caldav writes DUE in UTC (a month after the completion, to the second); the
        // todo's deadline is that instant's date in the bench's zone (Europe/Berlin), the next
        // day when the test runs in the last hour or two of a UTC day.
        let stamp = try #require(due.split(separator: ":").last.map(String.init))
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_US_POSIX")
        // A UTC time as it says; a date or a local time read in the bench's zone (as its own).
        parser.timeZone = TimeZone(identifier: stamp.hasSuffix("Z") ? "UTC" : bench.zone)
        parser.dateFormat =
            stamp.hasSuffix("Z") ? "yyyyMMdd'T'HHmmss'Z'" : stamp.contains("T") ? "yyyyMMdd'T'HHmmss" : "yyyyMMdd"
        let instant = try #require(parser.date(from: stamp), "\(due)")
        let printer = DateFormatter()
        printer.locale = Locale(identifier: "en_US_POSIX")
        printer.timeZone = TimeZone(identifier: bench.zone)
        printer.dateFormat = "yyyy-MM-dd"
        let deadline = printer.string(from: instant)
        #expect(deadline > "2026-12-01", "\(due)")
        #expect(try bench.laptop.summary() == ["Pay rent|2026-12-01|1", "Pay rent|\(deadline)|0"])
        #expect(try bench.show(1)["repeat_rule"] as? String == "FREQ=MONTHLY")
        try bench.expectLog(1, ["2026-12-01|advance"])
        #expect(try bench.show(2)["repeat"] is NSNull)
        try bench.expectSettled(["\(uid).ics"])
    }

    /// TV13's first row with python3-caldav's `complete(handle_rrule=True,
    /// rrule_mode="thisandfuture")` (the mode its docstring calls "this_and_future"; 0.11 looks
    /// the method up as `thisandfuture`): the master stays, the finished occurrence and the next
    /// become overrides, the next with `RANGE=THISANDFUTURE` (dated a week after the completion,
    /// on no occurrence of the series: an orphan). `todo` reads the override of the 12-01
    /// occurrence as done, and its `todo done` adds a plain override for the next one, keeping
    /// python-caldav's components as they are.
    @Test(arguments: RecurrenceVectorServerTests.kinds) func pythonCaldavThisAndFutureCompletion(kind: String) throws {
        let bench = try Bench(kind)
        defer { bench.server.stop() }
        try bench.ok("add", "Sweep the floor", "--due", "2026-12-01", "--every", "week")
        try bench.sync()
        let uid = try bench.uid(1)
        try bench.python(
            "cal.todo_by_uid(sys.argv[4]).complete(handle_rrule=True, rrule_mode='thisandfuture')", uid)
        let python = try bench.text(of: "\(uid).ics")
        #expect(python.contains("RANGE=THISANDFUTURE"), "\(python)")
        try bench.sync()
        #expect(try bench.laptop.summary() == ["Sweep the floor|2026-12-08|0"])
        // python-caldav's override marks 12-01 done: logged as such, not as a mere advance.
        try bench.expectLog(1, ["2026-12-01|override"])
        try bench.expectSettled(["\(uid).ics"])
        try bench.ok("done", "1")
        try bench.sync()
        #expect(try bench.laptop.summary() == ["Sweep the floor|2026-12-15|0"])
        let written = try bench.text(of: "\(uid).ics")
        #expect(
            Set(Bench.unfolded(python)).isSubset(of: Bench.unfolded(written)),
            "python-caldav's components are kept: \(written)")
        #expect(
            Bench.unfolded(written).contains("RECURRENCE-ID;VALUE=DATE:20261208"),
            "a plain override for 12-08: \(written)")
        try bench.expectSettled(["\(uid).ics"])
    }
}

extension RecurrenceVectorServerTests.Bench {
    /// Runs a python3-caldav program with `cal` bound to the laptop's collection and
    /// `arguments` after the URL, user and password in `sys.argv`.
    @discardableResult
    func python(_ body: String, _ arguments: String...) throws -> String {
        let script = """
            import caldav, sys
            client = caldav.DAVClient(url=sys.argv[1], username=sys.argv[2] or None, password=sys.argv[3] or None)
            cal = caldav.Calendar(client=client, url=sys.argv[1])
            """ + "\n" + body
        let user = laptop.user ?? ""
        let result = try ProcessRunner.run(
            CalDAVServer.python, ["-c", script, laptop.url, user, laptop.password ?? ""] + arguments, timeout: 60)
        guard result.status == 0 else { throw UnexpectedOutput("python3-caldav failed: \(result.stderr)") }
        return result.stdout
    }
}
