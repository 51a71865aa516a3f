import Foundation
import TestSupport
import Testing

/// `todo sync setup` finds the collection (RFC 6764, RFC 4791 section 6) from the server's root,
/// `/.well-known/caldav`, a principal, a calendar home or the collection itself; follows
/// redirects at setup only, with the password kept at the origin given; and trusts a
/// `--ca-file`, stored and used at every sync.
@Suite("todo sync setup: discovery, redirects, --ca-file", .timed, .hangLimit)
struct DiscoveryTests {
    /// One database, run through the built `todo`.
    final class Device: @unchecked Sendable {
        let folder = TemporaryFolder()
        var database: String { folder.file("todo.sqlite") }

        func todo(_ arguments: [String], password: String? = "secret") throws -> ProcessResult {
            var environment = ["TODO_DB": database, "HOME": folder.path, "XDG_DATA_HOME": folder.file("xdg")]
            if let password { environment["TODO_SYNC_PASSWORD"] = password }
            return try ProcessRunner.run(ProcessRunner.todoBinary, arguments, environment: environment, timeout: 60)
        }

        /// `todo sync setup ARGS` succeeds; the URL stored.
        func setUp(_ arguments: [String], password: String? = "secret") throws -> String? {
            let result = try todo(["sync", "setup"] + arguments, password: password)
            #expect(result.status == 0, "setup \(arguments): \(result.stdout) \(result.stderr)")
            return try stored()
        }

        /// `todo sync setup ARGS` fails with `words` in its error and stores nothing.
        @discardableResult
        func refused(_ arguments: [String], status: Int32 = 1, password: String? = "secret", _ words: String...) throws
            -> ProcessResult
        {
            let result = try todo(["sync", "setup"] + arguments, password: password)
            #expect(result.status == status, "setup \(arguments): \(result.stdout) \(result.stderr)")
            #expect(result.stderr.hasPrefix("error: "), "setup \(arguments): \(result.stderr)")
            for word in words {
                #expect(result.stderr.contains(word), "setup \(arguments): \(result.stderr) lacks \(word)")
            }
            #expect(!result.stderr.contains("secret") && !result.stdout.contains("secret"))
            #expect(try stored() == nil, "setup \(arguments) stored something")
            return result
        }

        /// The URL of the remote stored, or nil.
        func stored() throws -> String? {
            let result = try todo(["sync", "status", "--json"])
            guard result.status == 0 else { return nil }
            return try parseJSON(result.stdout, as: [String: Any].self)["url"] as? String
        }

        func forget() throws { _ = try todo(["sync", "forget"]) }
    }

    // MARK: Real servers

    @Test(
        "Radicale: from the root, /.well-known/caldav, the principal (its calendar home) and the collection; several: listed, --list, --name"
    )
    func radicale() throws {
        let server = try CalDAVServer.radicale(users: ["alice": "secret"])
        defer { server.stop() }
        let device = Device()
        let tasks = server.todoCollectionURL
        for start in [
            server.base, server.base + "/", server.base + "/.well-known/caldav", server.base + "/alice/", tasks,
            String(tasks.dropLast())
        ] {
            #expect(try device.setUp([start, "--user", "alice"]) == tasks, "from \(start)")
            try device.forget()
        }
        // A sync works with what was found.
        #expect(try device.setUp([server.base + "/", "--user", "alice"]) == tasks)
        #expect(try device.todo(["add", "Found"]).status == 0)
        #expect(try device.todo(["sync"]).status == 0)
        #expect(try server.todosSeenByPython(tasks).count == 1)
        try device.forget()

        // An events calendar beside it is not listed; a second tasks collection is, and setup of
        // the account links both, each to the list of its name.
        try server.makeCollection(name: "events", components: ["VEVENT"])
        let work = try server.makeCollection(name: "Work", components: ["VTODO", "VEVENT"])
        let several = try device.todo(["sync", "setup", server.base + "/", "--user", "alice"])
        #expect(
            several.status == 0
                && several.stdout == """
                    Set up sync of 2 lists as alice:
                      tasks: \(tasks)
                      Work: \(work)
                    Collections made on the server later are synced too.
                    Run 'todo sync' to sync now.

                    """,
            "\(several.stdout) \(several.stderr)")
        try device.forget()
        let list = try device.todo(["sync", "setup", server.base + "/.well-known/caldav", "--user", "alice", "--list"])
        #expect(list.status == 0 && list.stdout == "tasks  \(tasks)\nWork  \(work)\n", "\(list.stdout) \(list.stderr)")
        let json = try device.todo(["sync", "setup", server.base + "/", "--user", "alice", "--list", "--json"])
        let collections = try field(
            try parseJSON(json.stdout, as: [String: Any].self), "collections", as: [[String: Any]].self)
        #expect(collections.map { $0["url"] as? String } == [tasks, work])
        #expect(collections.map { $0["name"] as? String } == ["tasks", "Work"])
        #expect(collections.map { $0["components"] as? [String] } == [["VTODO"], ["VTODO", "VEVENT"]])
        #expect(try device.stored() == nil, "--list stores nothing")
        #expect(try device.setUp([server.base + "/", "--user", "alice", "--name", "Work"]) == work)
        try device.forget()
        #expect(
            try device.setUp([server.base + "/alice/", "--user", "alice", "--name", "work"]) == work, "case-insensitive"
        )
        try device.forget()
        try device.refused([server.base + "/", "--user", "alice", "--name", "Home"], "named 'Home'", "tasks, Work")
        try device.refused([server.base + "/", "--user", "alice", "--list", "--name", "Work"], status: 2, "--list")
        // The collection's own URL picks it too.
        #expect(try device.setUp([work, "--user", "alice"]) == work)
        try device.forget()

        // Nothing there: says what it found, stores nothing.
        try device.refused(
            [server.base + "/alice/nothing-here/", "--user", "alice"], "\(server.base)/alice/nothing-here/ answered 404"
        )
        try device.refused([server.base + "/alice/events/", "--user", "alice"], "holds no tasks (VTODO)", "VEVENT")
        try device.refused([server.base + "/", "--user", "alice"], password: "wrong", "authentication failed")
    }

    @Test("Xandikos --defaults: from the root, /.well-known/caldav, the principal, the calendar home and the calendar")
    func xandikos() throws {
        let server = try CalDAVServer.xandikos()
        defer { server.stop() }
        let device = Device()
        let calendar = server.todoCollectionURL
        for start in [
            server.base + "/", server.base + "/.well-known/caldav", server.base + "/user/",
            server.base + "/user/calendars/", calendar
        ] {
            #expect(try device.setUp([start], password: nil) == calendar, "from \(start)")
            try device.forget()
        }
        let second = try server.makeCollection(name: "second", components: ["VTODO"])
        let list = try device.todo(["sync", "setup", server.base + "/", "--list"], password: nil)
        #expect(
            list.status == 0 && list.stdout.contains(calendar) && list.stdout.contains(second),
            "\(list.stdout) \(list.stderr)")
        #expect(try device.setUp([server.base + "/", "--name", "second"], password: nil) == second)
        try device.forget()
        try device.refused([server.base + "/nothing/"], password: nil, "\(server.base)/nothing/ answered 404")
    }

    @Test("the protocol: discover before open is an error; after it, collections with url, name and components")
    func protocolShape() throws {
        let server = try CalDAVServer.xandikos()
        defer { server.stop() }
        let home = TemporaryFolder()
        let session = try HelperSession(home: home.path)
        #expect(errorKind(try session.send(["op": "discover"])) == "protocol")
        #expect(
            try session.send([
                "op": "open", "url": server.base + "/.well-known/caldav", "user": NSNull(), "password_command": NSNull()
            ])["ok"] as? Bool == true)
        let answer = try session.send(["op": "discover"])
        let collections = try field(answer, "collections", as: [[String: Any]].self)
        #expect(collections.count == 1, "\(answer)")
        #expect(collections.first?["url"] as? String == server.todoCollectionURL)
        #expect(collections.first?["name"] as? String == "calendar")
        #expect((collections.first?["components"] as? [String])?.contains("VTODO") == true)
        try session.send([
            "op": "open", "url": server.base + "/nothing/", "user": NSNull(), "password_command": NSNull()
        ])
        let nothing = try session.send(["op": "discover"])
        #expect(errorKind(nothing) == "not_found" && errorStatus(nothing) == 404, "\(nothing)")
        let (status, stderr, extra) = session.finish()
        #expect(status == 0 && stderr.isEmpty && extra.isEmpty)
    }

    @Test("Radicale over TLS: found from the root with --ca-file, stored as https, and synced")
    func radicaleOverTLS() throws {
        let folder = TemporaryFolder()
        let device = Device()
        let certificate = try TransportTests.certificate(folder, "radicale", "IP:127.0.0.1")
        let port = try CalDAVServer.freePort()
        let arguments = try CalDAVServer.radicaleArguments(
            users: ["alice": "secret"], port: port, in: folder,
            server: ["ssl = True", "certificate = \(certificate.cert)", "key = \(certificate.key)"])
        let process = try CalDAVServer.runPython(arguments, in: folder, log: "server.log")
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let deadline = Date(timeIntervalSinceNow: 15)
        while process.isRunning && !CalDAVServer.portAnswers(port) && Date() < deadline { usleep(20_000) }
        let base = "https://127.0.0.1:\(port)"
        let mkcol = try ProcessRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", certificate.cert,
                "-u", "alice:secret", "-X", "MKCOL", "-H", "Content-Type: application/xml", "--data",
                #"<?xml version="1.0"?><D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:set><D:prop><D:resourcetype><D:collection/><C:calendar/></D:resourcetype><D:displayname>Tasks</D:displayname><C:supported-calendar-component-set><C:comp name="VTODO"/></C:supported-calendar-component-set></D:prop></D:set></D:mkcol>"#,
                base + "/alice/tasks/"
            ], timeout: 30)
        #expect(mkcol.stdout == "201", "MKCOL: \(mkcol.stdout) \(mkcol.stderr)")

        try device.refused([base + "/", "--user", "alice"], "certificate not trusted")
        #expect(
            try device.setUp([base + "/.well-known/caldav", "--user", "alice", "--ca-file", certificate.cert]) == base
                + "/alice/tasks/")
        #expect(try device.todo(["add", "Over TLS"]).status == 0)
        let sync = try device.todo(["sync", "--json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try parseJSON(sync.stdout, as: [String: Any].self)["sent"] as? Int == 1)
    }

    // MARK: Redirects and TLS

    /// A bare HTTP(S) server on 127.0.0.1:argv[1] (argv[2] a certificate and argv[3] its key, or
    /// "-" for plain HTTP), logging `METHOD PATH AUTHORIZATION-SCHEME` per request to argv[4];
    /// argv[5] is the base URL that /to/REST redirects to (308, to argv[5] + REST).
    ///   /to/…      308 to argv[5] + …         /moved/   301 to /c/ (same origin)
    ///   /loop/     302 to /loop/ (forever)    /plain/   a WebDAV collection: no calendar, no principal
    ///   /c/        PROPFIND: a VTODO calendar with a sync token; anything else 501
    ///   /locked/   401 (Basic) without an Authorization header, else a VTODO calendar
    /// It ends by itself after 60 s.
    static let server = #"""
        import http.server, sys, ssl, threading, time
        port, cert, key, log, other = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
        PLAIN = (b'<?xml version="1.0"?><d:multistatus xmlns:d="DAV:"><d:response><d:href>/plain/</d:href><d:propstat><d:prop>'
                 b'<d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat>'
                 b'</d:response></d:multistatus>')
        lock = threading.Lock()
        class Handler(AnswerHandler):
            def handle_any(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                auth = self.headers.get("Authorization")
                with lock, open(log, "a") as f: f.write("%s %s %s\n" % (self.command, self.path, auth.split(" ")[0] if auth else "-"))
                path = self.path
                xml = {"Content-Type": "application/xml"}
                if path.startswith("/to/"): self.answer(308, b"", {"Location": other + path[4:]})
                elif path == "/moved/": self.answer(301, b"", {"Location": "/c/"})
                elif path == "/loop/": self.answer(302, b"", {"Location": "/loop/"})
                elif path == "/plain/" and self.command == "PROPFIND": self.answer(207, PLAIN, xml)
                elif path == "/c/" and self.command == "PROPFIND": self.answer(207, calendar("/c/"), xml)
                elif path == "/locked/" and not auth: self.answer(401, b"", {"WWW-Authenticate": 'Basic realm="todo"'})
                elif path == "/locked/" and self.command == "PROPFIND": self.answer(207, calendar("/locked/"), xml)
                elif path in ("/c/", "/locked/"): self.answer(501)
                else: self.answer(404)
            do_GET = do_PUT = do_DELETE = do_REPORT = do_PROPFIND = handle_any
        serve(Handler, port, cert, key, 60)
        """#

    /// One running ``server``: its base URL and its request log; killed by pid when released.
    final class Listener: @unchecked Sendable {
        let port: Int
        let base: String
        let log: String
        private let process: Process

        init(_ folder: TemporaryFolder, redirectingTo other: String, tls: (cert: String, key: String)? = nil) throws {
            port = try CalDAVServer.freePort()
            base = "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)"
            log = folder.file("requests-\(port).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process = try PythonHTTPServer.start(
                DiscoveryTests.server, [String(port), tls?.cert ?? "-", tls?.key ?? "-", log, other], ports: [port])
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// `METHOD PATH SCHEME` (`-` for no Authorization header), one per request.
        var requests: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    @Test(
        "redirects at setup: 308 to another origin followed without credentials, 301 keeps PROPFIND, at most 5, a plain collection named as such"
    )
    func redirects() throws {
        let folder = TemporaryFolder()
        let device = Device()
        let xandikos = try CalDAVServer.xandikos()
        defer { xandikos.stop() }
        let radicale = try CalDAVServer.radicale(users: ["alice": "secret"])
        defer { radicale.stop() }

        // 308 to Xandikos's calendar (another origin, no password asked): its URL is stored.
        let toXandikos = try Listener(folder, redirectingTo: xandikos.base + "/")
        #expect(
            try device.setUp([toXandikos.base + "/to/user/calendars/calendar/"], password: nil)
                == xandikos.todoCollectionURL)
        try device.forget()

        // 308 to Radicale's collection with a user: Radicale is another origin, so the request
        // there goes without the password; it asks for one, and setup names the URL to set up.
        let toRadicale = try Listener(folder, redirectingTo: radicale.base + "/")
        let asked = try device.refused(
            [toRadicale.base + "/to/alice/tasks/", "--user", "alice"],
            "redirected to \(radicale.base)", "todo sync setup \(radicale.todoCollectionURL)")
        #expect(!asked.stderr.contains("authentication failed"), "\(asked.stderr)")
        #expect(
            toRadicale.requests.first?.hasSuffix(" Basic") == true,
            "the origin given gets the credentials: \(toRadicale.requests)")
        #expect(try device.setUp([radicale.todoCollectionURL, "--user", "alice"]) == radicale.todoCollectionURL)
        try device.forget()

        // To another listener that asks for a password: it never got one.
        let second = try Listener(folder, redirectingTo: "-")
        let toSecond = try Listener(folder, redirectingTo: second.base + "/")
        try device.refused(
            [toSecond.base + "/to/locked/", "--user", "alice"], "redirected to \(second.base)",
            "todo sync setup \(second.base)/locked/")
        #expect(second.requests == ["PROPFIND /locked/ -"], "\(second.requests)")
        // Without a user the same redirect stores the collection: nothing was sent anywhere.
        // With a user and a collection elsewhere that asks for nothing: refused all the same
        // (a sync would send the password there).
        try device.refused(
            [toXandikos.base + "/to/user/calendars/calendar/", "--user", "alice"],
            "todo sync setup \(xandikos.todoCollectionURL)")

        // 301 on the same origin: the PROPFIND is repeated as a PROPFIND, with the credentials.
        #expect(try device.setUp([second.base + "/moved/", "--user", "alice"]) == second.base + "/c/")
        try device.forget()
        #expect(second.requests.contains("PROPFIND /c/ Basic"), "\(second.requests)")

        try device.refused([second.base + "/loop/"], password: nil, "more than 5 redirects")
        #expect(second.requests.filter { $0.hasPrefix("PROPFIND /loop/") }.count == 6, "\(second.requests)")
        try device.refused(
            [second.base + "/plain/"], password: nil,
            "\(second.base)/plain/ is a WebDAV collection but not a calendar, and names no principal")
        try device.refused([second.base + "/elsewhere/"], password: nil, "answered 404")
        // During a sync, redirects stay an error (the stored URL now redirects).
        #expect(try device.setUp([second.base + "/c/"], password: nil) == second.base + "/c/")
        _ = try ProcessRunner.run(
            "/usr/bin/sqlite3",
            [
                device.database,
                // The collection's URL is its link's (migration 0014); the remote keeps the first's.
                "UPDATE sync_links SET url = '\(toXandikos.base)/to/user/calendars/calendar/'; "
                    + "UPDATE sync_remote SET url = '\(toXandikos.base)/to/user/calendars/calendar/'"
            ])
        let sync = try device.todo(["sync"], password: nil)
        #expect(sync.status == 1 && sync.stderr.contains("does not follow redirects"), "\(sync.stderr)")
    }

    @Test(
        "--ca-file: a self-signed server trusted, stored, shown and used at each sync; https to http refused; a missing file is a usage error"
    )
    func caFile() throws {
        let folder = TemporaryFolder()
        let device = Device()
        let certificate = try TransportTests.certificate(folder, "server", "IP:127.0.0.1")
        let plain = try Listener(folder, redirectingTo: "-")
        let tls = try Listener(folder, redirectingTo: plain.base + "/", tls: certificate)

        try device.refused([tls.base + "/c/"], password: nil, "certificate not trusted")
        try device.refused([tls.base + "/c/", "--ca-file", folder.file("missing.pem")], status: 2, "--ca-file")
        try device.refused([tls.base + "/c/", "--ca-file", folder.path], status: 2, "--ca-file")
        try device.refused(
            [tls.base + "/to/c/", "--ca-file", certificate.cert], password: nil, "from https to plain http")
        #expect(plain.requests.isEmpty, "the http server was asked: \(plain.requests)")

        #expect(try device.setUp([tls.base + "/c/", "--ca-file", certificate.cert], password: nil) == tls.base + "/c/")
        let status = try parseJSON(try device.todo(["sync", "status", "--json"]).stdout, as: [String: Any].self)
        #expect(status["ca_file"] as? String == certificate.cert)
        #expect(try device.todo(["sync", "status"]).stdout.contains("ca file:    \(certificate.cert)"))
        // The sync opens with the CA file: TLS passes, and the server's 501 to REPORT is the error.
        let sync = try device.todo(["sync"], password: nil)
        #expect(
            sync.status == 1 && sync.stderr.contains("501") && !sync.stderr.contains("certificate"), "\(sync.stderr)")
        // A relative --ca-file is stored as an absolute path.
        try device.forget()
        let relative = try ProcessRunner.run(
            ProcessRunner.todoBinary, ["sync", "setup", tls.base + "/c/", "--ca-file", "server.pem"],
            environment: ["TODO_DB": device.database, "HOME": device.folder.path], currentDirectory: folder.path)
        #expect(relative.status == 0, "\(relative.stderr)")
        #expect(
            try parseJSON(try device.todo(["sync", "status", "--json"]).stdout, as: [String: Any].self)["ca_file"]
                as? String
                == folder.path + "/server.pem")
    }
}
