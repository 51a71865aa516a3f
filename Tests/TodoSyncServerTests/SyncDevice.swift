import Foundation
import TestSupport
import Testing

/// One device for the sync tests: its own database, run through the built `todo`, syncing with
/// a real server's collection.
final class SyncDevice: @unchecked Sendable {
    let folder = TemporaryFolder()
    let server: CalDAVServer
    let url: String
    var database: String { folder.file("todo.sqlite") }
    /// The `todo` run by ``todo(_:environment:)``: the build's, or a copy beside another `todo-sync`.
    var todoBinary = ProcessRunner.todoBinary

    init(_ server: CalDAVServer, url: String? = nil) {
        self.server = server
        self.url = url ?? server.todoCollectionURL
    }

    /// A device that reaches the server's collection through a misbehaving proxy.
    convenience init(_ proxy: MisbehavingProxy) {
        self.init(proxy.upstream, url: proxy.todoCollectionURL)
    }

    /// The password of the server's first user (Radicale); Xandikos asks for none.
    var password: String? { server.users.keys.sorted().first.flatMap { server.users[$0] } }
    var user: String? { server.users.keys.sorted().first }

    @discardableResult
    func todo(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
        try todo(arguments, environment: environment)
    }

    /// The environment `todo` runs in on this device: its database, a home of its own, and the
    /// server's password in `TODO_SYNC_PASSWORD`.
    var environment: [String: String] {
        var env = ["TODO_DB": database, "HOME": folder.path, "XDG_DATA_HOME": folder.file("xdg")]
        if let password { env["TODO_SYNC_PASSWORD"] = password }
        return env
    }

    /// Runs the built `todo` on this device's database, in its ``environment`` (and
    /// `environment` over that).
    func todo(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            todoBinary, arguments, environment: self.environment.merging(environment) { $1 }, timeout: 60)
    }

    /// Runs `todo` and requires success; returns its stdout.
    @discardableResult
    func ok(_ arguments: String...) throws -> String {
        let result = try todo(arguments)
        #expect(result.status == 0, "todo \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        return result.stdout
    }

    func setUp() throws {
        var arguments = ["sync", "setup", url]
        if let user { arguments += ["--user", user] }
        let result = try todo(arguments)
        #expect(result.status == 0, "setup failed: \(result.stderr)")
    }

    /// Forgets the account's calendar home, as a database set up before `todo` remembered it: each
    /// sync then reads every linked collection (a sync-collection REPORT each) instead of skipping
    /// the collections the home's listing shows unchanged. The tests that spoil a collection's
    /// listing need that listing asked for.
    func forgetHome() throws {
        let result = try ProcessRunner.run("sqlite3", [database, "UPDATE sync_remote SET home = NULL"])
        guard result.status == 0 else { throw UnexpectedOutput("sqlite3 failed: \(result.stderr)") }
    }

    /// `todo sync --json`, parsed.
    @discardableResult
    func sync(environment: [String: String] = [:]) throws -> [String: Any] {
        let result = try todo(["sync", "--json"], environment: environment)
        #expect(result.status == 0, "sync failed: \(result.stderr)")
        return try parseJSON(result.stdout, as: [String: Any].self, "todo sync --json (stderr \(result.stderr))")
    }

    /// Every todo with every field (`todo list --json` without the ids, which are this
    /// device's own), each as one line of JSON with sorted keys, sorted: what two devices must
    /// agree on.
    func list() throws -> [String] {
        let result = try todo(["list", "--json"])
        let todos = try parseJSON(result.stdout, as: [[String: Any]].self, "todo list --json (stderr \(result.stderr))")
        return try todos.map { todo in
            var fields = todo
            fields["id"] = nil
            let line = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
            return String(decoding: line, as: UTF8.self)
        }.sorted()
    }

    /// The list as `name|deadline|done` (`Buy milk|2024-05-01|0`), sorted: to compare with a
    /// list written out in a test, or with what python3-caldav reads (``CalDAVServer/listSeenByPython(_:)``).
    func summary() throws -> [String] {
        let result = try todo(["list", "--json"])
        let todos = try parseJSON(result.stdout, as: [[String: Any]].self, "todo list --json (stderr \(result.stderr))")
        return todos.map {
            "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "null")|\(($0["done"] as? Bool ?? false) ? 1 : 0)"
        }.sorted()
    }

    /// The names of `todo list --json`, in its order.
    func names() throws -> [String] {
        try parseJSON(try todo(["list", "--json"]).stdout, as: [[String: Any]].self, "todo list --json").map {
            $0["name"] as? String ?? ""
        }
    }

    /// `sqlite3 DB .dump [table]`: the database's whole content, to compare before and after.
    func dump(_ table: String? = nil) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [database, table.map { ".dump \($0)" } ?? ".dump"])
        guard result.status == 0 else { throw UnexpectedOutput("sqlite3 .dump failed: \(result.stderr)") }
        return result.stdout
    }

    func id(named name: String) throws -> Int {
        let todos = try parseJSON(try todo(["list", "--json"]).stdout, as: [[String: Any]].self)
        guard let id = todos.first(where: { $0["name"] as? String == name })?["id"] as? Int else {
            throw UnexpectedOutput("no todo named \(name) in \(todos)")
        }
        return id
    }
}

extension CalDAVServer {
    /// The VTODO objects of `url` as python3-caldav reads them: `[uid: (summary, due, status)]`
    /// plus each object's raw text. What another client sees.
    func todosSeenByPython(_ url: String) throws -> [[String: String]] {
        let script = """
            import caldav, json, sys
            client = caldav.DAVClient(url=sys.argv[1], username=sys.argv[2] or None, password=sys.argv[3] or None)
            cal = caldav.Calendar(client=client, url=sys.argv[1])
            out = []
            for t in cal.todos(include_completed=True):
                c = t.icalendar_instance.walk('VTODO')[0]
                due = c.get('due')
                out.append({'uid': str(c.get('uid')), 'summary': str(c.get('summary', '')),
                            'due': due.to_ical().decode() if due is not None else '',
                            'status': str(c.get('status', '')), 'text': t.data})
            print(json.dumps(out))
            """
        let user = users.keys.sorted().first ?? ""
        let result = try ProcessRunner.run(
            CalDAVServer.python, ["-c", script, url, user, users[user] ?? ""], timeout: 60)
        guard result.status == 0 else { throw UnexpectedOutput("python3-caldav failed: \(result.stderr)") }
        return try parseJSON(result.stdout, as: [[String: String]].self, "python3-caldav's todos")
    }

    /// The list as python3-caldav reads it, in the form of ``SyncDevice/summary()``.
    func listSeenByPython(_ url: String) throws -> [String] {
        try todosSeenByPython(url).map { todo -> String in
            let due = todo["due"] ?? ""
            let deadline =
                due.isEmpty ? "null" : "\(due.prefix(4))-\(due.dropFirst(4).prefix(2))-\(due.dropFirst(6).prefix(2))"
            return "\(todo["summary"] ?? "")|\(deadline)|\(todo["status"] == "COMPLETED" ? 1 : 0)"
        }.sorted()
    }

    /// Runs a python3-caldav program with `cal` bound to the collection at `url`.
    @discardableResult
    func python(_ url: String, _ body: String) throws -> String {
        let script = """
            import caldav, sys, datetime
            client = caldav.DAVClient(url=sys.argv[1], username=sys.argv[2] or None, password=sys.argv[3] or None)
            cal = caldav.Calendar(client=client, url=sys.argv[1])
            """ + "\n" + body
        let user = users.keys.sorted().first ?? ""
        let result = try ProcessRunner.run(
            CalDAVServer.python, ["-c", script, url, user, users[user] ?? ""], timeout: 60)
        guard result.status == 0 else { throw UnexpectedOutput("python3-caldav failed: \(result.stderr)") }
        return result.stdout
    }
}
