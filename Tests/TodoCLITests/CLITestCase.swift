import Foundation
import TestSupport
import Testing

/// A sandbox for one end-to-end test: its own database file, XDG folder and `todo` runner.
final class CLISandbox: @unchecked Sendable {
    let folder = TemporaryFolder()
    var database: String { folder.file("todo.sqlite") }

    /// Runs the built `todo` against this sandbox's database (through `TODO_DB`).
    @discardableResult
    func todo(_ arguments: String..., environment: [String: String] = [:], stdin: String? = nil) throws -> ProcessResult
    {
        try todo(arguments, environment: environment, stdin: stdin)
    }

    @discardableResult
    func todo(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> ProcessResult
    {
        var env = ["TODO_DB": database, "HOME": folder.path, "XDG_DATA_HOME": folder.file("xdg")]
        env.merge(environment) { $1 }
        return try ProcessRunner.run(ProcessRunner.todoBinary, arguments, environment: env, stdin: stdin)
    }

    /// Runs `todo` and requires success; returns its stdout.
    func ok(_ arguments: String..., environment: [String: String] = [:]) throws -> String {
        try ok(arguments, environment: environment)
    }

    func ok(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> String {
        let result = try todo(arguments, environment: environment, stdin: stdin)
        #expect(result.status == 0, "todo \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        // An empty list says "No todos." on stderr (a message, not a row): allowed only with
        // nothing on stdout; anything else on stderr is a failure.
        #expect(result.stderr.isEmpty || (result.stdout.isEmpty && result.stderr == "No todos.\n"), "\(result.stderr)")
        return result.stdout
    }

    /// `todo list --json --all` parsed into dictionaries: every todo, those not started yet
    /// too (which `todo list` leaves out), as tests read the file's state; throws, quoting the
    /// output, when it is not a JSON array of objects (never an empty list in its place).
    func listJSON(_ extra: String...) throws -> [[String: Any]] {
        try listJSON(extra)
    }

    func listJSON(_ extra: [String]) throws -> [[String: Any]] {
        let arguments = ["list", "--json", "--all"] + extra
        let result = try todo(arguments)
        return try parseJSON(
            result.stdout, as: [[String: Any]].self,
            "todo \(arguments.joined(separator: " ")) (exit \(result.status), stderr \(result.stderr.debugDescription))"
        )
    }

    /// Runs `todo --color never ARGUMENTS` on a pseudo-terminal `columns` wide, in UTC, on this
    /// sandbox's database, and returns its screen without carriage returns.
    func onTerminal(_ arguments: [String], columns: String = "100") throws -> String {
        try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "--color", "never"] + arguments,
            environment: ["TODO_DB": database, "TZ": "UTC", "COLUMNS": columns]
        ).screen.replacingOccurrences(of: "\r", with: "")
    }

    /// Today plus `days` in UTC, as YYYY-MM-DD, by Foundation rather than todo's own calendar.
    static func day(_ days: Int) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day], from: date(days))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The weekday of today plus `days` in UTC, as rows write it: `mon`.
    static func weekday(_ days: Int) -> String {
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][utcCalendar.component(.weekday, from: date(days)) - 1]
    }

    private static var utcCalendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private static func date(_ days: Int) -> Date { utcCalendar.date(byAdding: .day, value: days, to: Date())! }

    /// The database file's bytes and whether WAL/journal side files exist: "changes nothing" means equal.
    func fileState() -> [Data?] {
        [folder.contents(database), folder.contents(database + "-wal"), folder.contents(database + "-journal")]
    }
}
