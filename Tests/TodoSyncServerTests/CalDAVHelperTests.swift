import Foundation
import TestSupport
import Testing

/// The built `todo-sync` driven over its stdin and stdout, one JSON line each way.
final class HelperSession: @unchecked Sendable {
    static let binary: String = {
        if let path = ProcessInfo.processInfo.environment["TODO_SYNC_BIN"] { return path }
        return URL(fileURLWithPath: ProcessRunner.todoBinary).deletingLastPathComponent().appendingPathComponent(
            "todo-sync"
        ).path
    }()

    private let process: RunningProcess
    /// Every line the helper printed, for the password checks.
    var transcript: [String] { process.transcript }

    init(environment: [String: String] = [:], home: String) throws {
        var env = ["PATH": "/usr/bin:/bin", "HOME": home]
        env.merge(environment) { $1 }
        process = try RunningProcess(Self.binary, [], environment: env, input: true)
    }

    deinit {
        process.closeInput()
        if process.waitForExit(timeout: 1) == nil { kill(process.pid, SIGKILL) }
    }

    /// Sends one raw line and returns the one response line (bounded by `timeout`).
    func sendLine(_ line: String, timeout: TimeInterval = 40) throws -> String {
        process.send(line)
        guard let answer = process.nextLine(timeout: timeout) else {
            throw UnexpectedOutput("no answer to \(line.prefix(200)) within \(Int(timeout)) s")
        }
        return answer
    }

    /// Sends one request and returns the response object.
    @discardableResult
    func send(_ request: [String: Any], timeout: TimeInterval = 40) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: request)
        return try parseJSON(
            try sendLine(String(decoding: data, as: UTF8.self), timeout: timeout), as: [String: Any].self,
            "the helper's answer")
    }

    /// Closes stdin; the exit status (nil if still running after 5 s), stderr, and any lines
    /// printed that were not answers.
    func finish() -> (status: Int32?, stderr: String, extraLines: [String]) {
        process.closeInput()
        guard let status = process.waitForExit(timeout: 20) else { return (nil, "", []) }
        return (status, process.errorOutput, process.remainingLines())
    }
}

/// Errors as the helper reports them.
func errorKind(_ response: [String: Any]) -> String? { (response["error"] as? [String: Any])?["kind"] as? String }
func errorStatus(_ response: [String: Any]) -> Int? { (response["error"] as? [String: Any])?["status"] as? Int }

/// A small VTODO, CR LF lines.
func vtodo(_ uid: String, _ summary: String) -> String {
    [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo tests//EN", "BEGIN:VTODO", "UID:\(uid)",
        "DTSTAMP:20240501T120000Z", "SUMMARY:\(summary)", "END:VTODO", "END:VCALENDAR", ""
    ].joined(separator: "\r\n")
}

func vevent(_ uid: String) -> String {
    [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo tests//EN", "BEGIN:VEVENT", "UID:\(uid)",
        "DTSTAMP:20240501T120000Z", "DTSTART:20240502T100000Z", "SUMMARY:an event", "END:VEVENT", "END:VCALENDAR", ""
    ].joined(separator: "\r\n")
}

/// A server, a fresh VTODO collection on it, a home folder and an open helper session.
struct Fixture {
    static let password = "s3cret-Pw-7781"

    let server: CalDAVServer
    let home = TemporaryFolder()
    let collection: String
    let session: HelperSession

    init(_ kind: CalDAVServer.Kind, collectionName: String = "todos") throws {
        server =
            kind == .radicale
            ? try CalDAVServer.radicale(users: ["alice": Fixture.password]) : try CalDAVServer.xandikos()
        collection = try server.makeCollection(name: collectionName, components: ["VTODO"])
        // Xandikos asks for no password and gets none: a password with no user is an error.
        session = try HelperSession(
            environment: kind == .radicale ? ["TODO_SYNC_PASSWORD": Fixture.password] : [:], home: home.path)
        let opened = try session.send(open(collection))
        #expect(opened["ok"] as? Bool == true, "\(opened)")
    }

    func open(_ url: String, user: String? = "alice", passwordCommand: String? = nil) -> [String: Any] {
        [
            "op": "open", "url": url,
            "user": server.kind == .radicale ? (user as Any? ?? NSNull()) : NSNull(),
            "password_command": passwordCommand as Any? ?? NSNull()
        ]
    }

    /// The collection path, as servers write hrefs.
    var path: String { String(collection.dropFirst(server.base.count)) }

    /// Creates objects through the helper; their etags.
    func create(_ objects: [(name: String, text: String)]) throws -> [String] {
        let writes = objects.map { ["method": "create", "href": path + $0.name, "text": $0.text] }
        let outcomes = try field(
            try session.send(["op": "write", "writes": writes]), "outcomes", as: [[String: Any]].self)
        return try outcomes.map { outcome in
            #expect(outcome["outcome"] as? String == "written", "\(outcome)")
            return try field(outcome, "etag", as: String.self)
        }
    }

    /// A plain PUT, as another client would make it; the new etag.
    @discardableResult
    func put(_ name: String, _ text: String) throws -> String? {
        let answer = try server.request(
            "PUT", collection + name, body: Data(text.utf8), headers: ["Content-Type": "text/calendar; charset=utf-8"])
        #expect((200..<300).contains(answer.status), "PUT \(name): \(answer.status)")
        return answer.headers["etag"]
    }

    /// Runs python3-caldav (the server's Python) with `script`; url, user, password in argv.
    func caldav(_ script: String) throws {
        let result = try ProcessRunner.run(
            CalDAVServer.python, ["-c", script, collection, "alice", Fixture.password], timeout: 30)
        #expect(result.status == 0, "python3-caldav: \(result.stderr)")
    }

    /// Ends the session: exit 0, nothing on stderr, no password anywhere.
    func finish() {
        let (status, stderr, extra) = session.finish()
        #expect(status == 0)
        #expect(stderr.isEmpty, "stderr: \(stderr)")
        #expect(extra.isEmpty, "unanswered lines: \(extra)")
        #expect(!session.transcript.contains { $0.contains(Fixture.password) }, "the password was printed")
    }
}

@Suite("todo-sync against Radicale and Xandikos", .timed, .hangLimit)
struct CalDAVHelperTests {
    @Test(
        "open and probe: a good collection, then each error kind, and the helper keeps serving",
        arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func probe(_ kind: CalDAVServer.Kind) throws {
        let fixture = try Fixture(kind)
        let session = fixture.session
        let probe = try session.send(["op": "probe"])
        #expect(probe["ok"] as? Bool == true, "\(probe)")
        #expect(probe["sync_token"] as? Bool == true)
        #expect((probe["components"] as? [String])?.contains("VTODO") == true, "\(probe)")

        // A bad request line, then a request before open is fine again.
        #expect(errorKind(try parseJSON(try session.sendLine("not json"))) == "protocol")
        #expect(errorKind(try session.send(["op": "dance"])) == "protocol")

        // Missing collection.
        try session.send(
            fixture.open(fixture.server.base + (kind == .radicale ? "/alice/missing/" : "/user/calendars/missing/")))
        let missing = try session.send(["op": "probe"])
        #expect(errorKind(missing) == "not_found", "\(missing)")

        // A collection that is not a calendar (the user's home).
        try session.send(fixture.open(fixture.server.base + (kind == .radicale ? "/alice/" : "/user/")))
        #expect(errorKind(try session.send(["op": "probe"])) == "not_found")

        if kind == .radicale {
            // A VEVENT-only calendar (Xandikos ignores the component set of MKCOL).
            let events = try fixture.server.makeCollection(name: "events", components: ["VEVENT"])
            try session.send(fixture.open(events))
            let noTodo = try session.send(["op": "probe"])
            #expect(errorKind(noTodo) == "no_todo_support", "\(noTodo)")

            // A wrong password (Xandikos has no authentication).
            try session.send(fixture.open(fixture.collection, passwordCommand: "echo wrong-password"))
            let auth = try session.send(["op": "probe"])
            #expect(errorKind(auth) == "auth" && errorStatus(auth) == 401, "\(auth)")
        }

        // Nothing listening.
        let port = try CalDAVServer.freePort()
        try session.send(fixture.open("http://127.0.0.1:\(port)/alice/tasks/"))
        let unreachable = try session.send(["op": "probe"])
        #expect(errorKind(unreachable) == "unreachable", "\(unreachable)")
        #expect(
            ((unreachable["error"] as? [String: Any])?["message"] as? String)?.contains("127.0.0.1:\(port)") == true)

        // And it still serves the good collection.
        try session.send(fixture.open(fixture.collection))
        #expect(try session.send(["op": "probe"])["ok"] as? Bool == true)
        fixture.finish()
    }

    @Test(
        "write: create, update and delete, with 412 for a stale etag and a create over an existing href",
        arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func writes(_ kind: CalDAVServer.Kind) throws {
        let fixture = try Fixture(kind)
        let path = fixture.path
        let etags = try fixture.create([
            ("a.ics", vtodo("a", "A")), ("b.ics", vtodo("b", "B")), ("c.ics", vtodo("c", "C"))
        ])
        #expect(Set(etags).count == 3)

        let writes: [[String: Any]] = [
            ["method": "create", "href": path + "a.ics", "text": vtodo("a", "again")],  // exists
            ["method": "update", "href": path + "a.ics", "text": vtodo("a", "A2"), "etag": etags[0]],  // right etag
            ["method": "update", "href": path + "b.ics", "text": vtodo("b", "B2"), "etag": "\"stale\""],
            ["method": "delete", "href": path + "c.ics", "etag": "\"stale\""],
            ["method": "delete", "href": path + "b.ics", "etag": etags[1]],
            ["method": "delete", "href": path + "gone.ics", "etag": "\"whatever\""]  // 404: deleted
        ]
        let outcomes = try field(
            try fixture.session.send(["op": "write", "writes": writes]), "outcomes", as: [[String: Any]].self)
        #expect(
            outcomes.map { $0["outcome"] as? String } == [
                "precondition_failed", "written", "precondition_failed", "precondition_failed", "deleted", "deleted"
            ], "\(outcomes)")
        let newTag = outcomes[1]["etag"] as? String
        #expect(newTag != nil && newTag != etags[0])

        // The server holds A2 under the new etag; b is gone, c is still there.
        let a = try fixture.server.request("GET", fixture.collection + "a.ics")
        #expect(String(decoding: a.body, as: UTF8.self).contains("SUMMARY:A2"))
        #expect(a.headers["etag"] == newTag)
        #expect(try fixture.server.request("GET", fixture.collection + "b.ics").status == 404)
        #expect(try fixture.server.request("GET", fixture.collection + "c.ics").status == 200)

        // Deleting with the old etag of an updated object fails; with the new one it works. (Two
        // requests: the writes of one request run concurrently, so one href appears once in each.)
        for (etag, expected) in [(etags[0], "precondition_failed"), (newTag ?? "", "deleted")] {
            let outcome = try field(
                try fixture.session.send([
                    "op": "write",
                    "writes": [
                        ["method": "delete", "href": path + "a.ics", "etag": etag]
                    ]
                ]), "outcomes", as: [[String: Any]].self)
            #expect(outcome.first?["outcome"] as? String == expected, "\(outcome)")
        }
        fixture.finish()
    }

    @Test(
        "changes: everything (VTODO only) with a token, then a delta with exactly the changes made meanwhile",
        arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func changes(_ kind: CalDAVServer.Kind) throws {
        // Xandikos calendars take any component: one VEVENT must stay out of the list.
        let fixture = try Fixture(kind)
        let session = fixture.session
        let path = fixture.path
        let etags = try fixture.create([
            ("a.ics", vtodo("a", "A")), ("b.ics", vtodo("b", "B")), ("c.ics", vtodo("c", "C"))
        ])
        if kind == .xandikos { try fixture.put("event.ics", vevent("event")) }

        let first = try session.send(["op": "changes", "token": NSNull()])
        #expect(first["kind"] as? String == "everything", "\(first)")
        let items = try field(first, "items", as: [[String: Any]].self)
        let listed = Dictionary(
            uniqueKeysWithValues: items.map { ($0["href"] as? String ?? "", $0["etag"] as? String) })
        #expect(listed == [path + "a.ics": etags[0], path + "b.ics": etags[1], path + "c.ics": etags[2]], "\(items)")
        let token = try field(first, "token", as: String.self)

        // Nothing happened: an empty delta.
        let quiet = try session.send(["op": "changes", "token": token])
        #expect(quiet["kind"] as? String == "delta")
        #expect(
            (quiet["changed"] as? [Any])?.isEmpty == true && (quiet["removed"] as? [Any])?.isEmpty == true, "\(quiet)")

        // Another client edits a (python3-caldav), a plain PUT adds d, a plain DELETE removes b.
        try fixture.caldav(
            """
            import sys, caldav
            url, user, password = sys.argv[1:4]
            client = caldav.DAVClient(url=url, username=user, password=password)
            todo = client.calendar(url=url).todo_by_uid("a")
            todo.data = todo.data.replace("SUMMARY:A", "SUMMARY:A edited by python3-caldav")
            todo.save()
            """)
        let dTag = try fixture.put("d.ics", vtodo("d", "D"))
        #expect((200..<300).contains(try fixture.server.request("DELETE", fixture.collection + "b.ics").status))

        let delta = try session.send(["op": "changes", "token": token])
        #expect(delta["kind"] as? String == "delta", "\(delta)")
        let changed = try field(delta, "changed", as: [[String: Any]].self)
        let changedTags = Dictionary(
            uniqueKeysWithValues: changed.map { ($0["href"] as? String ?? "", $0["etag"] as? String) })
        #expect(Set(changedTags.keys) == [path + "a.ics", path + "d.ics"], "\(changed)")
        #expect(changedTags[path + "a.ics"] != etags[0])
        if let dTag { #expect(changedTags[path + "d.ics"] == dTag) }
        #expect(try field(delta, "removed", as: [String].self) == [path + "b.ics"])
        let newToken = try field(delta, "token", as: String.self)
        #expect(newToken != token)

        // The new token: quiet again.
        let after = try session.send(["op": "changes", "token": newToken])
        #expect(
            (after["changed"] as? [Any])?.isEmpty == true && (after["removed"] as? [Any])?.isEmpty == true, "\(after)")

        if kind == .radicale {
            // A token the server does not know: everything again (Radicale answers 403 valid-sync-token).
            let rejected = try session.send(["op": "changes", "token": "http://radicale.org/ns/sync/unknown"])
            #expect(rejected["kind"] as? String == "everything", "\(rejected)")
            #expect((rejected["items"] as? [Any])?.count == 3)
        }
        fixture.finish()
    }

    @Test(
        "fetch: the text byte for byte as the server stores it, in batches, gone hrefs left out",
        arguments: [CalDAVServer.Kind.radicale, .xandikos])
    func fetch(_ kind: CalDAVServer.Kind) throws {
        let fixture = try Fixture(kind)
        let path = fixture.path
        // Markup characters, non-ASCII text, a folded line, an empty-ish escaped value.
        let tricky = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//todo tests//EN", "BEGIN:VTODO", "UID:tricky",
            "DTSTAMP:20240501T120000Z", "SUMMARY:Milk & <bread> \"quoted\" ]]> café 日本 🥛",
            "DESCRIPTION:a long line that is folded here and continues on the next",
            "  line\\, with an escaped comma\\nand a newline", "END:VTODO", "END:VCALENDAR", ""
        ].joined(separator: "\r\n")
        try fixture.put("tricky.ics", tricky)
        // 105 more, so multiget runs in two batches.
        _ = try fixture.create((0..<105).map { ("n\($0).ics", vtodo("n\($0)", "number \($0)")) })

        let hrefs = [path + "tricky.ics", path + "missing.ics"] + (0..<105).map { path + "n\($0).ics" }
        let answer = try fixture.session.send(["op": "fetch", "hrefs": hrefs])
        let objects = try field(answer, "objects", as: [[String: Any]].self)
        #expect(objects.count == 106, "\(objects.count) objects")
        #expect(!objects.contains { $0["href"] as? String == path + "missing.ics" })

        // Each text is exactly what GET returns.
        for object in objects.prefix(3) + objects.suffix(2) {
            let href = try field(object, "href", as: String.self)
            let stored = try fixture.server.request("GET", fixture.server.base + href)
            #expect(Data(try field(object, "text", as: String.self).utf8) == stored.body, "\(href) differs")
            #expect(object["etag"] as? String == stored.headers["etag"])
        }
        let first = try field(objects[0], "text", as: String.self)
        #expect(first.contains("café 日本 🥛") && first.contains("\r\n"))

        // After a full listing, a fetch of most of what it listed is one calendar-query with the
        // objects, read as it streams in: the same texts and etags as the multigets gave.
        let listed = try fixture.session.send(["op": "changes", "token": NSNull()])
        #expect(listed["kind"] as? String == "everything" && (listed["items"] as? [Any])?.count == 106, "\(listed)")
        let again = try field(
            try fixture.session.send(["op": "fetch", "hrefs": hrefs]), "objects", as: [[String: Any]].self)
        #expect(again.count == objects.count)
        for (one, other) in zip(objects, again) {
            #expect(one["href"] as? String == other["href"] as? String)
            #expect(one["etag"] as? String == other["etag"] as? String)
            #expect(one["text"] as? String == other["text"] as? String, "\(one["href"] ?? "") differs")
        }
        fixture.finish()
    }

    @Test(
        "a connection cut mid-answer, in its head or its body, is a lost connection, never unreadable XML (Xandikos, through the proxy)"
    )
    func aCutConnectionIsReportedAsLost() throws {
        let fixture = try Fixture(.xandikos)
        let proxy = try MisbehavingProxy(fixture.server)
        defer { proxy.stop() }
        let session = fixture.session
        let path = fixture.path
        _ = try fixture.create([("a.ics", vtodo("a", "A")), ("b.ics", vtodo("b", "B"))])
        try session.send(fixture.open(proxy.url(fixture.collection)))
        let token = try field(try session.send(["op": "changes", "token": NSNull()]), "token", as: String.self)
        let requests: [(kind: String, request: [String: Any])] = [
            ("propfind", ["op": "probe"]), ("propfind", ["op": "discover"]),
            ("sync-collection", ["op": "changes", "token": token]),
            ("calendar-query", ["op": "changes", "token": NSNull()]),
            ("calendar-multiget", ["op": "fetch", "hrefs": [path + "a.ics", path + "b.ics"]])
        ]
        for at in MisbehavingProxy.CutPoint.allCases {
            for (kind, request) in requests {
                try proxy.set(.cut(kind: kind, at: at))
                let (answer, seen) = try proxy.recording { try session.send(request) }
                #expect(seen.contains { $0.mode == "cut" && $0.kind == kind }, "nothing was cut: \(seen)")
                let message = (answer["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(
                    errorKind(answer) == "unreachable" && message.contains("connection lost"),
                    "\(request["op"] ?? "") cut in its \(kind) answer's \(at): \(answer)")
            }
        }
        try proxy.set(.pass)
        #expect(try session.send(["op": "probe"])["ok"] as? Bool == true)
        fixture.finish()

        // What `todo sync` says of it.
        let device = SyncDevice(proxy)
        try device.ok("add", "Buy milk")
        try device.setUp()
        try device.sync()
        try device.sync()
        // The first request of a sync: the listing of the account's home.
        try proxy.set(.cut(kind: "propfind", at: .head))
        let cut = try device.todo("sync")
        #expect(
            cut.status == 1 && cut.stderr.contains("connection lost") && !cut.stderr.contains("could not be parsed"),
            "\(cut.stderr)")
    }

    @Test("passwords: from a command, TODO_SYNC_PASSWORD and a netrc; never printed")
    func passwords() throws {
        let server = try CalDAVServer.radicale(users: ["alice": Fixture.password])
        let home = TemporaryFolder()
        func probe(_ open: [String: Any], environment: [String: String] = [:]) throws -> [String: Any] {
            let session = try HelperSession(environment: environment, home: home.path)
            let opened = try session.send(open)
            let result = opened["ok"] as? Bool == true ? try session.send(["op": "probe"]) : opened
            let (status, stderr, _) = session.finish()
            #expect(status == 0 && stderr.isEmpty, "stderr: \(stderr)")
            #expect(!session.transcript.contains { $0.contains(Fixture.password) }, "the password was printed")
            return result
        }
        let url = server.todoCollectionURL
        let secretFile = home.file("secret")
        try Data((Fixture.password + "\nsecond line\n").utf8).write(to: URL(fileURLWithPath: secretFile))

        // A password command: its first line.
        #expect(
            try probe(["op": "open", "url": url, "user": "alice", "password_command": "cat '\(secretFile)'"])["ok"]
                as? Bool == true)
        // A failing one, and one that prints nothing: kind "password", output not quoted.
        let failing = try probe([
            "op": "open", "url": url, "user": "alice", "password_command": "echo \(Fixture.password); exit 3"
        ])
        #expect(errorKind(failing) == "password", "\(failing)")
        #expect(
            errorKind(try probe(["op": "open", "url": url, "user": "alice", "password_command": "true"])) == "password")
        // The environment.
        #expect(
            try probe(
                ["op": "open", "url": url, "user": "alice", "password_command": NSNull()],
                environment: ["TODO_SYNC_PASSWORD": Fixture.password])["ok"] as? Bool == true)
        // No password at all: 401, kind auth.
        #expect(
            errorKind(try probe(["op": "open", "url": url, "user": "alice", "password_command": NSNull()])) == "auth")
        // The URL's own user info.
        let withUser = url.replacingOccurrences(of: "http://", with: "http://alice:\(Fixture.password)@")
        let own = try probe(["op": "open", "url": withUser, "user": NSNull(), "password_command": NSNull()])
        #expect(own["ok"] as? Bool == true, "\(own)")
        // A wrong password in the URL: the error message holds no user info.
        let wrongURL = url.replacingOccurrences(of: "http://", with: "http://alice:wrong-one@")
        let wrong = try probe(["op": "open", "url": wrongURL, "user": NSNull(), "password_command": NSNull()])
        #expect(errorKind(wrong) == "auth" && !"\(wrong)".contains("wrong-one"), "\(wrong)")

        // A netrc in $HOME: its login stands in for a null user.
        let netrc = """
            # another machine first
            machine example.org login bob password nope
            machine 127.0.0.1
                login alice
                password "\(Fixture.password)"
            default login nobody password nothing
            """
        try Data(netrc.utf8).write(to: URL(fileURLWithPath: home.file(".netrc")))
        #expect(
            try probe(["op": "open", "url": url, "user": NSNull(), "password_command": NSNull()])["ok"] as? Bool == true
        )
        #expect(
            try probe(["op": "open", "url": url, "user": "alice", "password_command": NSNull()])["ok"] as? Bool == true)
        server.stop()
    }

    @Test(
        "passwords: a netrc login is kept whatever gives the password; a password with no user and an unreadable netrc are password errors; the command never sees TODO_SYNC_PASSWORD"
    )
    func passwordSources() throws {
        let server = try CalDAVServer.radicale(users: ["alice": Fixture.password])
        defer { server.stop() }
        let home = TemporaryFolder()
        let netrcPath = home.file(".netrc")
        func probe(user: String? = nil, command: String? = nil, environment: [String: String] = [:]) throws -> [String:
            Any]
        {
            let session = try HelperSession(environment: environment, home: home.path)
            let opened = try session.send([
                "op": "open", "url": server.todoCollectionURL, "user": user as Any? ?? NSNull(),
                "password_command": command as Any? ?? NSNull()
            ])
            let result = opened["ok"] as? Bool == true ? try session.send(["op": "probe"]) : opened
            let (status, stderr, _) = session.finish()
            #expect(status == 0 && stderr.isEmpty, "stderr: \(stderr)")
            #expect(!session.transcript.contains { $0.contains(Fixture.password) }, "the password was printed")
            return result
        }
        func message(_ response: [String: Any]) -> String {
            (response["error"] as? [String: Any])?["message"] as? String ?? ""
        }
        let fromEnvironment = ["TODO_SYNC_PASSWORD": Fixture.password]

        // A netrc with the login and a stale password: the login is kept for TODO_SYNC_PASSWORD's
        // and the command's password (either goes before the netrc's); alone, the netrc's is sent.
        try Data("machine 127.0.0.1 login alice password stale-one\n".utf8).write(to: URL(fileURLWithPath: netrcPath))
        let kept = try probe(environment: fromEnvironment)
        #expect(kept["ok"] as? Bool == true, "\(kept)")
        #expect(try probe(command: "echo \(Fixture.password)")["ok"] as? Bool == true)
        #expect(errorKind(try probe()) == "auth")
        // A login-only entry gives the user too.
        try Data("machine 127.0.0.1 login alice\n".utf8).write(to: URL(fileURLWithPath: netrcPath))
        #expect(try probe(environment: fromEnvironment)["ok"] as? Bool == true)

        // A password with no user anywhere: an error saying so, nothing sent without credentials.
        try Data("machine example.org login bob password nope\n".utf8).write(to: URL(fileURLWithPath: netrcPath))
        let noUser = try probe(environment: fromEnvironment)
        #expect(
            errorKind(noUser) == "password" && message(noUser).contains("TODO_SYNC_PASSWORD")
                && message(noUser).contains("no user"), "\(noUser)")
        try FileManager.default.removeItem(atPath: netrcPath)
        #expect(errorKind(try probe(command: "echo \(Fixture.password)")) == "password")

        // An unreadable netrc: a password error naming it, when it is needed.
        try FileManager.default.createDirectory(atPath: netrcPath, withIntermediateDirectories: false)
        let folder = try probe(environment: fromEnvironment)
        #expect(errorKind(folder) == "password" && message(folder).contains(netrcPath), "\(folder)")
        #expect(errorKind(try probe(user: "alice")) == "password")
        #expect(try probe(user: "alice", environment: fromEnvironment)["ok"] as? Bool == true, "not needed, not read")
        try FileManager.default.removeItem(atPath: netrcPath)
        if geteuid() != 0 {  // root reads it anyway
            try Data("machine 127.0.0.1 login alice password \(Fixture.password)\n".utf8).write(
                to: URL(fileURLWithPath: netrcPath))
            chmod(netrcPath, 0)
            let denied = try probe(environment: fromEnvironment)
            #expect(errorKind(denied) == "password" && message(denied).contains(netrcPath), "\(denied)")
            try FileManager.default.removeItem(atPath: netrcPath)
        }

        // The password command's environment holds no TODO_SYNC_PASSWORD: what it prints from it is wrong.
        let blind = try probe(
            user: "alice", command: "echo \"${TODO_SYNC_PASSWORD:-not-seen}\"", environment: fromEnvironment)
        #expect(errorKind(blind) == "auth", "\(blind)")
    }

    @Test("the helper exits 0 when stdin closes, printing nothing else")
    func exitsOnEndOfInput() throws {
        let home = TemporaryFolder()
        let session = try HelperSession(home: home.path)
        #expect(errorKind(try session.send(["op": "probe"])) == "protocol")
        let (status, stderr, extra) = session.finish()
        #expect(status == 0 && stderr.isEmpty && extra.isEmpty)
    }
}

@Suite("todo-sync against a server without calendar-multiget", .timed, .hangLimit)
struct MultigetFallbackTests {
    /// A bare HTTP server: REPORT answers 501, GET serves /c/a.ics and 404s the rest.
    static let server = #"""
        import http.server, sys
        TEXT = b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:a & <b>\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        class Handler(AnswerHandler):
            def do_REPORT(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.answer(501)
            def do_GET(self):
                if self.path == "/c/a.ics": self.answer(200, TEXT, {"ETag": '"v1"', "Content-Type": "text/calendar"})
                else: self.answer(404)
        server = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
        server.timeout = 1
        import time
        deadline = time.time() + 30   # bounded: the server ends by itself
        while time.time() < deadline: server.handle_request()
        """#

    @Test("fetch falls back to GET each href when multiget fails")
    func fetchByGet() throws {
        let port = try CalDAVServer.freePort()
        let folder = TemporaryFolder()
        let process = try PythonHTTPServer.start(Self.server, [String(port)], ports: [port])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        let session = try HelperSession(home: folder.path)
        #expect(
            try session.send([
                "op": "open", "url": "http://127.0.0.1:\(port)/c", "user": NSNull(), "password_command": NSNull()
            ])["ok"] as? Bool == true)
        let answer = try session.send(["op": "fetch", "hrefs": ["/c/a.ics", "gone.ics"]])
        let objects = try field(answer, "objects", as: [[String: Any]].self)
        #expect(objects.count == 1, "\(answer)")
        #expect(objects.first?["href"] as? String == "/c/a.ics")
        #expect(objects.first?["etag"] as? String == "\"v1\"")
        #expect(
            objects.first?["text"] as? String
                == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:a & <b>\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        )
        let (status, stderr, _) = session.finish()
        #expect(status == 0 && stderr.isEmpty)
    }
}

@Suite("todo-sync keeps credentials at the collection's origin", .timed, .hangLimit)
struct OriginTests {
    /// Two bare HTTP servers in one process, each logging `PORT METHOD PATH AUTHORIZATION` per
    /// request to argv[3]. The first asks for Basic credentials, then redirects everything to
    /// the second (argv[2]), which answers any request with a 207 that lists nothing.
    static let servers = #"""
        import http.server, sys, threading, time
        first, second, log = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        lock = threading.Lock()
        class Handler(AnswerHandler):
            def handle_any(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                port = self.server.server_address[1]
                with lock, open(log, "a") as f:
                    f.write("%d %s %s %s\n" % (port, self.command, self.path, self.headers.get("Authorization", "-")))
                if port == first:
                    if self.headers.get("Authorization") is None:
                        self.answer(401, b"", {"WWW-Authenticate": 'Basic realm="todo"'})
                    else:
                        self.answer(301, b"", {"Location": "http://127.0.0.1:%d%s" % (second, self.path)})
                else:
                    self.answer(207, b'<?xml version="1.0"?><multistatus xmlns="DAV:"/>', {"Content-Type": "application/xml"})
            do_GET = do_PUT = do_DELETE = do_REPORT = do_PROPFIND = handle_any
        for port in (first, second):
            server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
        time.sleep(30)   # bounded: the servers end by themselves
        """#

    @Test(
        "a redirect is an error naming the new URL; the server redirected to never hears from the helper; hrefs elsewhere are refused unsent"
    )
    func redirectAndForeignHrefs() throws {
        let first = try CalDAVServer.freePort()
        let second = try CalDAVServer.freePort()
        let folder = TemporaryFolder()
        let log = folder.file("requests.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let process = try PythonHTTPServer.start(
            Self.servers, [String(first), String(second), log], ports: [first, second])
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        func requests() throws -> [String] {
            try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        let home = TemporaryFolder()
        let session = try HelperSession(environment: ["TODO_SYNC_PASSWORD": Fixture.password], home: home.path)
        #expect(try session.send(["op": "hello"])["version"] as? Int == 1)
        let collection = "http://127.0.0.1:\(first)/c/"
        #expect(
            try session.send(["op": "open", "url": collection, "user": "alice", "password_command": NSNull()])["ok"]
                as? Bool == true)

        let probe = try session.send(["op": "probe"])
        let error = probe["error"] as? [String: Any]
        let target = "http://127.0.0.1:\(second)/c/"
        #expect(error?["kind"] as? String == "redirect", "\(probe)")
        #expect(error?["location"] as? String == target, "\(probe)")
        #expect((error?["message"] as? String)?.contains("todo sync setup \(target)") == true, "\(probe)")

        // Members elsewhere: another server, another path, dot segments. Refused, never requested.
        for href in [target + "x.ics", "/other/x.ics", "/c/../other/x.ics"] {
            let fetched = try session.send(["op": "fetch", "hrefs": ["/c/fine.ics", href]])
            #expect(errorKind(fetched) == "bad_response", "\(href): \(fetched)")
            #expect(((fetched["error"] as? [String: Any])?["message"] as? String)?.contains("refused") == true)
        }
        let outcomes = try field(
            try session.send([
                "op": "write",
                "writes": [
                    ["method": "delete", "href": target + "x.ics", "etag": "\"1\""],
                    ["method": "delete", "href": "/c/y.ics", "etag": "\"1\""]
                ]
            ]), "outcomes", as: [[String: Any]].self)
        #expect(outcomes.map { $0["outcome"] as? String } == ["failed", "not_sent"], "\(outcomes)")

        let seen = try requests()
        #expect(!seen.isEmpty && seen.allSatisfy { $0.hasPrefix("\(first) ") }, "\(seen)")
        #expect(!seen.contains { $0.contains("/other/") || $0.contains("fine.ics") }, "\(seen)")
        // The collection's own server (loopback) got Basic credentials with the first request;
        // the server redirected to got nothing at all (above).
        #expect(seen.first?.contains(" Basic") == true, "\(seen)")
        let (status, stderr, extra) = session.finish()
        #expect(status == 0 && stderr.isEmpty && extra.isEmpty)
        #expect(!session.transcript.contains { $0.contains(Fixture.password) })
    }
}

@Suite("todo-sync over TLS, with Digest, against answers too large", .timed, .hangLimit)
struct TransportTests {
    /// One HTTPS server (argv[2] the certificate, argv[3] its key; "-" for plain HTTP) asking
    /// for Digest (MD5, qop=auth) as alice / argv[4]. PROPFIND: a VTODO calendar; REPORT: 501;
    /// GET /c/bomb.ics: 65 MiB of zeros, gzip-compressed. Requests are logged to argv[5].
    static let server = #"""
        import http.server, sys, ssl, hashlib, gzip, os, threading, time
        port, cert, key, password, log = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
        realm, nonce = "todo", os.urandom(8).hex()
        md5 = lambda s: hashlib.md5(s.encode()).hexdigest()
        BOMB = gzip.compress(b"\0" * (65 << 20), 1)
        PROPFIND = calendar("/c/")
        class Handler(AnswerHandler):
            def authorized(self):
                header = self.headers.get("Authorization", "")
                with open(log, "a") as f: f.write("%s %s %s\n" % (self.command, self.path, header.split(" ")[0] or "-"))
                if not header.startswith("Digest "): return False
                fields = {}
                for part in header[7:].split(","):
                    k, _, v = part.strip().partition("=")
                    fields[k] = v.strip('"')
                ha1 = md5("alice:%s:%s" % (realm, password))
                ha2 = md5("%s:%s" % (self.command, fields.get("uri", "")))
                expected = md5(":".join([ha1, fields.get("nonce", ""), fields.get("nc", ""), fields.get("cnonce", ""), fields.get("qop", ""), ha2]))
                return fields.get("username") == "alice" and fields.get("response") == expected
            def handle_any(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if not self.authorized():
                    self.answer(401, b"", {"WWW-Authenticate": 'Digest realm="%s", nonce="%s", qop="auth", algorithm=MD5' % (realm, nonce)})
                elif self.command == "PROPFIND": self.answer(207, PROPFIND, {"Content-Type": "application/xml"})
                elif self.command == "GET" and self.path == "/c/bomb.ics":
                    self.answer(200, BOMB, {"Content-Encoding": "gzip", "Content-Type": "text/calendar"})
                else: self.answer(501)
            do_GET = do_REPORT = do_PROPFIND = handle_any
        serve(Handler, port, cert, key, 40)
        """#

    /// A self-signed certificate for `name` (`IP:127.0.0.1` or `DNS:localhost`): its files.
    static func certificate(_ folder: TemporaryFolder, _ stem: String, _ name: String) throws -> (
        cert: String, key: String
    ) {
        let cert = folder.file(stem + ".pem")
        let key = folder.file(stem + ".key")
        let result = try ProcessRunner.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                "-days", "1", "-subj", "/CN=todo test", "-addext", "subjectAltName=" + name
            ], timeout: 30)
        #expect(result.status == 0, "openssl: \(result.stderr)")
        return (cert, key)
    }

    /// Starts the server; its port and process (killed by the caller).
    static func start(_ folder: TemporaryFolder, cert: String, key: String, log: String) throws -> (Int, Process) {
        let port = try CalDAVServer.freePort()
        return (
            port, try PythonHTTPServer.start(server, [String(port), cert, key, Fixture.password, log], ports: [port])
        )
    }

    @Test(
        "TLS: an untrusted certificate and a name mismatch named as such; ca_file and SSL_CERT_FILE trusted; Digest answered; nothing written to HOME"
    )
    func tlsAndDigest() throws {
        let folder = TemporaryFolder()
        let home = TemporaryFolder()
        let good = try Self.certificate(folder, "good", "IP:127.0.0.1")
        let other = try Self.certificate(folder, "other", "DNS:localhost")
        let log = folder.file("requests.log")
        let (port, process) = try Self.start(folder, cert: good.cert, key: good.key, log: log)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let (otherPort, otherProcess) = try Self.start(folder, cert: other.cert, key: other.key, log: log)
        defer {
            kill(otherProcess.processIdentifier, SIGKILL)
            otherProcess.waitUntilExit()
        }
        func message(_ answer: [String: Any]) -> String {
            (answer["error"] as? [String: Any])?["message"] as? String ?? ""
        }

        let session = try HelperSession(environment: ["TODO_SYNC_PASSWORD": Fixture.password], home: home.path)
        let url = "https://127.0.0.1:\(port)/c/"
        try session.send(["op": "open", "url": url, "user": "alice", "password_command": NSNull()])
        let untrusted = try session.send(["op": "probe"])
        #expect(
            errorKind(untrusted) == "unreachable"
                && message(untrusted).contains("certificate not trusted (self-signed)"), "\(untrusted)")

        try session.send(["op": "open", "url": url, "user": "alice", "password_command": NSNull(), "ca_file": good.cert]
        )
        let trusted = try session.send(["op": "probe"])
        #expect(trusted["ok"] as? Bool == true, "\(trusted)")

        try session.send([
            "op": "open", "url": "https://127.0.0.1:\(otherPort)/c/", "user": "alice", "password_command": NSNull(),
            "ca_file": other.cert
        ])
        let mismatch = try session.send(["op": "probe"])
        #expect(message(mismatch).contains("certificate name mismatch"), "\(mismatch)")

        // A wrong Digest password: 401, kind auth.
        try session.send([
            "op": "open", "url": url, "user": "alice", "password_command": "echo wrong", "ca_file": good.cert
        ])
        #expect(errorKind(try session.send(["op": "probe"])) == "auth")

        // 65 MiB once decompressed: refused past 64 MiB, an object's bound (REPORT is 501 here, so fetch GETs).
        try session.send(["op": "open", "url": url, "user": "alice", "password_command": NSNull(), "ca_file": good.cert]
        )
        let bomb = try session.send(["op": "fetch", "hrefs": ["/c/bomb.ics"]], timeout: 60)
        #expect(
            errorKind(bomb) == "bad_response" && message(bomb).contains("larger than 64 MiB once decompressed"),
            "\(bomb)")
        let (status, stderr, _) = session.finish()
        #expect(status == 0 && stderr.isEmpty, "\(stderr)")

        // SSL_CERT_FILE, as the curl tool reads it.
        let viaEnvironment = try HelperSession(
            environment: ["TODO_SYNC_PASSWORD": Fixture.password, "SSL_CERT_FILE": good.cert], home: home.path)
        try viaEnvironment.send(["op": "open", "url": url, "user": "alice", "password_command": NSNull()])
        #expect(try viaEnvironment.send(["op": "probe"])["ok"] as? Bool == true)
        _ = viaEnvironment.finish()

        let requests = try String(contentsOfFile: log, encoding: .utf8)
        // Over https Basic goes with the first request (one round trip for a Basic server); a
        // Digest server's challenge switches to Digest, and the request goes again.
        #expect(requests.contains("PROPFIND /c/ Digest"), "\(requests)")
        let lines = requests.split(separator: "\n")
        let firstBasic = lines.firstIndex { $0.hasSuffix("Basic") }
        let lastDigest = lines.lastIndex { $0.hasSuffix("Digest") }
        #expect(firstBasic != nil && lastDigest != nil && firstBasic! < lastDigest!, "\(requests)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty, "the helper wrote to HOME")
    }
}
