import Foundation
import TestSupport
import Testing

/// `--due` in words, always in the local calendar, and the relative hints of the list.
@Suite(.timed) struct HumanDatesTests {
    let sandbox = CLISandbox()

    /// Today plus `days` in time zone `zone`, as YYYY-MM-DD, computed by Foundation
    /// independently of todo's own calendar code.
    private func day(_ days: Int, in zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    private func due(_ text: String, zone: String = "UTC") throws -> String? {
        let output = try sandbox.ok("add", "x", "--due", text, "--json", environment: ["TZ": zone])
        let object = try parseJSON(output, as: [String: Any].self, "todo add --due \(text) --json")
        return object["deadline"] as? String
    }

    @Test func relativeWordsFollowTheLocalCalendar() throws {
        // Kiritimati (UTC+14) and UTC-12 are always on different days: "today" must differ.
        for zone in ["Pacific/Kiritimati", "Etc/GMT+12", "Asia/Tokyo", "America/New_York"] {
            #expect(try due("today", zone: zone) == day(0, in: zone), "today in \(zone)")
            #expect(try due("Tomorrow", zone: zone) == day(1, in: zone), "tomorrow in \(zone)")
            #expect(try due("+3d", zone: zone) == day(3, in: zone))
            #expect(try due("+2w", zone: zone) == day(14, in: zone))
            #expect(try due("+0d", zone: zone) == day(0, in: zone))
        }
        #expect(try due("2024/05/01") == "2024-05-01")
    }

    @Test func weekdayNamesMeanTheirNextOccurrenceAfterToday() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let todayWeekday = calendar.component(.weekday, from: Date()) - 1  // 0 = Sunday
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for (index, name) in names.enumerated() {
            let ahead = (index - todayWeekday + 7) % 7
            let expected = day(ahead == 0 ? 7 : ahead, in: "UTC")
            #expect(try due(name) == expected, "\(name)")
            #expect(try due(String(name.prefix(3)).uppercased()) == expected, "\(name.prefix(3))")
            #expect(try due(String(name.prefix(4))) == expected, "\(name.prefix(4))")
            #expect(try due("next " + name) == expected, "next \(name)")
        }
    }

    @Test func listShowsHowFarAwayEachDeadlineIs() throws {
        let env = ["TZ": "UTC"]
        _ = try sandbox.ok("add", "late", "--due", day(-2, in: "UTC"), environment: env)
        _ = try sandbox.ok("add", "now", "--due", "today", environment: env)
        _ = try sandbox.ok("add", "soon", "--due", "tomorrow", environment: env)
        _ = try sandbox.ok("add", "later", "--due", "+5d", environment: env)
        _ = try sandbox.ok("add", "finished", "--due", day(-9, in: "UTC"), environment: env)
        _ = try sandbox.ok("done", "5")
        // Hints are for people: on a terminal only (a pipe's text must not change daily).
        #expect(!(try sandbox.ok("list", environment: env)).contains("overdue"))
        let screen = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "list", "--color", "never"],
            environment: env.merging(["TODO_DB": sandbox.database, "COLUMNS": "100"]) { $1 }
        ).screen
        let lines = screen.replacingOccurrences(of: "\r", with: "").split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasSuffix("finished") && !lines[0].contains("overdue"), "done todos are never overdue")
        #expect(lines[1].contains("overdue") && lines[1].hasSuffix("late"))
        #expect(lines[2].contains("today") && lines[2].hasSuffix("now"))
        #expect(lines[3].contains("tomorrow") && lines[3].hasSuffix("soon"))
        #expect(lines[4].contains("in 5 days") && lines[4].hasSuffix("later"))
        // Every name starts in the same column.
        #expect(Set(lines.map { $0.count - ($0.split(separator: " ").last?.count ?? 0) }).count == 1)
    }

    @Test func impossibleAndMeaninglessDatesAreUsageErrors() throws {
        for text in [
            "2023-02-29", "2024-13-01", "someday", "+3x", "+d", "-3d", "next", "12/24", "Feb 30", "fr", "+99999999d",
            "+1y"
        ] {
            let result = try sandbox.todo("add", "x", "--due", text)
            #expect(result.status == 2, "\(text)")
            #expect(result.stderr.hasPrefix("error: "), "\(text)")
        }
        #expect(try sandbox.listJSON().isEmpty)
    }
}
