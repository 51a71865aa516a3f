import Foundation
import TestSupport
import Testing

/// `todo sync` through the web servers people put in front of a CalDAV server: nginx (the usual
/// `/.well-known/caldav` redirect, moved collections, redirects to another origin or from https
/// to http) and Apache with Digest-only authentication, both started by the tests on 127.0.0.1
/// in front of a Radicale of their own.
@Suite(
    "nginx and Apache in front of Radicale: redirects, /.well-known/caldav, the password kept at its origin, Digest",
    .timed,
    .hangLimit)
struct ProxyServerTests {
    typealias Device = DiscoveryTests.Device

    /// nginx's reverse proxy for Radicale under `prefix` (as Radicale's documentation has it).
    static func radicale(under prefix: String, _ radicale: CalDAVServer) -> String {
        """
                location \(prefix)/ {
                    proxy_pass http://127.0.0.1:\(radicale.port)/;
                    proxy_set_header X-Script-Name \(prefix);
                    proxy_set_header Host $http_host;
                }
        """
    }

    @Test(
        "nginx: /.well-known/caldav's 301 and moved collections (307, 308: method and body kept) followed at setup and the final URL stored; a sync through it; a move after setup is an error naming the URL"
    )
    func nginxRedirectsAtSetup() throws {
        let radicale = try CalDAVServer.radicale(users: ["alice": "secret"])
        defer { radicale.stop() }
        let nginx = try WebServer.nginx(ports: 1) { folder, ports in
            """
                server {
                    listen 127.0.0.1:\(ports[0]);
                    location = /.well-known/caldav { return 301 /radicale/; }
            \(Self.radicale(under: "/radicale", radicale))
                    location = /moved-308/ { return 308 /radicale/alice/tasks/; }
                    location = /moved-307/ { return 307 /radicale/alice/; }
                    # Radicale under /old/ too, until the file "moved" exists: then moved to /radicale/.
                    location /old/ {
                        if (-f \(folder.file("moved"))) { rewrite ^/old/(.*)$ /radicale/$1 permanent; }
                        proxy_pass http://127.0.0.1:\(radicale.port)/;
                        proxy_set_header X-Script-Name /old;
                        proxy_set_header Host $http_host;
                    }
                }
            """
        }
        defer { nginx.stop() }
        let base = nginx.base()
        let tasks = base + "/radicale/alice/tasks/"
        let laptop = Device()
        let phone = Device()

        // The well-known URL as typed (no slash added): nginx's 301, then discovery under /radicale/.
        #expect(try laptop.setUp([base + "/.well-known/caldav", "--user", "alice"]) == tasks, "\(nginx.requests)")
        #expect(
            nginx.requests.first.map { "\($0.method) \($0.path) \($0.status)" } == "PROPFIND /.well-known/caldav 301",
            "\(nginx.requests)")
        let status = try laptop.todo(["sync", "status"])
        #expect(
            status.stdout.contains("url:        \(tasks)\n") && status.stdout.contains("user:       alice\n"),
            "\(status.stdout)")
        #expect(try laptop.todo(["add", "Through nginx"]).status == 0)
        let sent = try laptop.todo(["sync", "--json"])
        #expect(
            sent.status == 0 && (try? parseJSON(sent.stdout, as: [String: Any].self)["sent"] as? Int) == 1,
            "\(sent.stdout) \(sent.stderr)")
        #expect(try radicale.todosSeenByPython(radicale.todoCollectionURL).map { $0["summary"] } == ["Through nginx"])

        // A collection moved with 308 and a principal moved with 307: the PROPFIND goes again
        // to the new place, with its body (same Content-Length), and the final URL is stored.
        for (moved, to) in [("/moved-308/", "/radicale/alice/tasks/"), ("/moved-307/", "/radicale/alice/")] {
            let before = nginx.requests.count
            #expect(try laptop.setUp([base + moved, "--user", "alice"]) == tasks, "from \(moved)")
            let requests = Array(nginx.requests.dropFirst(before))
            let redirected = requests.firstIndex {
                $0.path == moved && $0.status == (moved == "/moved-308/" ? 308 : 307)
            }
            let next = redirected.map { requests[$0 + 1] }
            #expect(next?.method == "PROPFIND" && next?.path == to && next?.status == 207, "\(requests)")
            #expect(
                next?.length != nil && next?.length == redirected.map { requests[$0].length } ?? nil,
                "the body went again: \(requests)")
        }

        // Another device on the same collection under /old/: it gets the laptop's todo.
        let old = base + "/old/alice/tasks/"
        #expect(try phone.setUp([old, "--user", "alice"]) == old)
        let received = try phone.todo(["sync", "--json"])
        #expect(
            received.status == 0 && (try? parseJSON(received.stdout, as: [String: Any].self)["received"] as? Int) == 1,
            "\(received.stdout) \(received.stderr)")
        #expect(try phone.todo(["list"]).stdout.contains("Through nginx"))

        // The collection moves after setup: the sync follows nothing, changes nothing, and names
        // the URL to set up instead; once set up there, the sync goes on.
        #expect(FileManager.default.createFile(atPath: nginx.folder.file("moved"), contents: nil))
        #expect(try phone.todo(["add", "After the move"]).status == 0)
        let dump = try ProcessRunner.run("/usr/bin/sqlite3", [phone.database, ".dump"]).stdout
        let before = nginx.requests.count
        let refused = try phone.todo(["sync"])
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        // The sync's first request, the listing of the account's home, meets the move.
        let home = base + "/radicale/alice/"
        #expect(
            refused.stderr.contains("was redirected (HTTP 301) to \(home)")
                && refused.stderr.contains("todo sync setup \(home) --relink"), "stderr: \(refused.stderr)")
        #expect(!refused.stderr.contains("secret"))
        #expect(
            nginx.requests.dropFirst(before).allSatisfy { $0.path.hasPrefix("/old/") },
            "followed: \(nginx.requests.dropFirst(before))")
        #expect(try ProcessRunner.run("/usr/bin/sqlite3", [phone.database, ".dump"]).stdout == dump)
        #expect(try phone.setUp([tasks, "--user", "alice", "--relink"]) == tasks)
        let after = try phone.todo(["sync"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(
            Set(try radicale.todosSeenByPython(radicale.todoCollectionURL).compactMap { $0["summary"] }) == [
                "Through nginx", "After the move"
            ])
    }

    @Test(
        "nginx: a redirect to another origin (another port, http to https) or from https to http never carries the password; the other listener logs what it got"
    )
    func nginxRedirectsKeepThePassword() throws {
        let radicale = try CalDAVServer.radicale(users: ["alice": "secret"])
        defer { radicale.stop() }
        let certificates = TemporaryFolder()
        let certificate = try TransportTests.certificate(certificates, "nginx", "IP:127.0.0.1")
        // Three listeners of one nginx: the origin named at setup, another port (the second
        // listener, which Radicale is behind too), and https (with HTTP/2).
        let nginx = try WebServer.nginx(ports: 3) { _, ports in
            """
                server {
                    listen 127.0.0.1:\(ports[0]);
            \(Self.radicale(under: "/radicale", radicale))
                    location = /elsewhere/ { return 308 http://127.0.0.1:\(ports[1])/radicale/alice/tasks/; }
                    location = /secure/ { return 301 https://127.0.0.1:\(ports[2])/radicale/alice/tasks/; }
                }
                server {
                    listen 127.0.0.1:\(ports[1]);
            \(Self.radicale(under: "/radicale", radicale))
                }
                server {
                    listen 127.0.0.1:\(ports[2]) ssl http2;
                    ssl_certificate \(certificate.cert);
                    ssl_certificate_key \(certificate.key);
                    location = /downgrade/ { return 301 http://127.0.0.1:\(ports[1])/radicale/alice/tasks/; }
            \(Self.radicale(under: "/radicale", radicale))
                }
            """
        }
        defer { nginx.stop() }
        let (given, other, secure) = (nginx.ports[0], nginx.ports[1], nginx.ports[2])
        let device = Device()

        // 308 to another port: followed without the password; Radicale there asks for one, and
        // setup names the URL to set up instead. The origin given got the password (so the log
        // would show it); the other listener never did.
        let elsewhere = "http://127.0.0.1:\(other)/radicale/alice/tasks/"
        try device.refused(
            [nginx.base() + "/elsewhere/", "--user", "alice"], "redirected to http://127.0.0.1:\(other)",
            "todo sync setup \(elsewhere)")
        #expect(nginx.requests(to: given).first?.authorization?.hasPrefix("Basic ") == true, "\(nginx.requests)")
        #expect(
            !nginx.requests(to: other).isEmpty && nginx.requests(to: other).allSatisfy { $0.authorization == nil },
            "\(nginx.requests)")

        // https to http: refused before any request to the http listener.
        let toOther = nginx.requests(to: other).count
        try device.refused(
            [nginx.base(2, scheme: "https") + "/downgrade/", "--user", "alice", "--ca-file", certificate.cert],
            "from https to plain http")
        #expect(nginx.requests(to: secure).last?.status == 301, "\(nginx.requests)")
        #expect(nginx.requests(to: other).count == toOther, "the http listener was asked: \(nginx.requests)")

        // http to https is another origin too: followed without the password, then named.
        let https = nginx.base(2, scheme: "https") + "/radicale/alice/tasks/"
        let toSecure = nginx.requests(to: secure).count
        try device.refused(
            [nginx.base() + "/secure/", "--user", "alice", "--ca-file", certificate.cert], "todo sync setup \(https)")
        let upgraded = nginx.requests(to: secure).dropFirst(toSecure)
        #expect(!upgraded.isEmpty && upgraded.allSatisfy { $0.authorization == nil }, "\(nginx.requests)")
        // Set up there, the password goes to it, and a sync works over TLS through nginx, on
        // HTTP/2 (the writes as streams of one connection).
        #expect(try device.setUp([https, "--user", "alice", "--ca-file", certificate.cert]) == https)
        #expect(nginx.requests(to: secure).last?.authorization?.hasPrefix("Basic ") == true)
        for name in ["Over https", "Over HTTP/2", "Three at once"] {
            #expect(try device.todo(["add", name]).status == 0)
        }
        let beforeSync = nginx.requests(to: secure).count
        let sync = try device.todo(["sync", "--json"])
        #expect(
            sync.status == 0 && (try? parseJSON(sync.stdout, as: [String: Any].self)["sent"] as? Int) == 3,
            "\(sync.stdout) \(sync.stderr)")
        let synced = nginx.requests(to: secure).dropFirst(beforeSync)
        #expect(
            synced.filter { $0.method == "PUT" && $0.status == 201 }.count == 3
                && synced.allSatisfy { $0.protocol == "HTTP/2.0" }, "\(synced)")
        #expect(
            Set(try radicale.todosSeenByPython(radicale.todoCollectionURL).compactMap { $0["summary"] }) == [
                "Over https", "Over HTTP/2", "Three at once"
            ])
        // Nothing anywhere ever carried the password but to the origin set up with it.
        #expect(nginx.requests(to: other).allSatisfy { $0.authorization == nil }, "\(nginx.requests)")
    }

    @Test(
        "Apache with Digest only (mod_auth_digest) in front of Radicale: found from the root with the right password, a todo round-trips between two devices; a wrong password is an authentication error"
    )
    func apacheDigest() throws {
        let radicale = try CalDAVServer.radicale(users: ["alice": "secret"], userFromProxy: true)
        defer { radicale.stop() }
        // htdigest's line for alice in the realm "todo": user:realm:MD5(user:realm:password).
        let md5 = try ProcessRunner.run("/usr/bin/md5sum", [], stdin: "alice:todo:secret")
        let hash = try #require(md5.stdout.split(separator: " ").first.map(String.init))
        let apache = try WebServer.apache(
            ports: 1,
            modules: [
                "authn_core", "authn_file", "authz_core", "authz_user", "auth_digest",
                "headers", "proxy", "proxy_http"
            ]
        ) { folder, _ in
            try Data("alice:todo:\(hash)\n".utf8).write(to: URL(fileURLWithPath: folder.file("digest.users")))
            return """
                <Location />
                    AuthType Digest
                    AuthName "todo"
                    AuthDigestProvider file
                    AuthUserFile \(folder.file("digest.users"))
                    Require valid-user
                    RequestHeader set X-Remote-User expr=%{REMOTE_USER}
                </Location>
                ProxyPass / http://127.0.0.1:\(radicale.port)/
                ProxyPassReverse / http://127.0.0.1:\(radicale.port)/
                """
        }
        defer { apache.stop() }
        let base = apache.base()
        let tasks = base + "/alice/tasks/"
        // Digest only: Basic is refused even with the right password.
        let basic = try ProcessRunner.run(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "--basic", "-u", "alice:secret",
                "-X", "PROPFIND", "-H", "Depth: 0", tasks
            ], timeout: 30)
        #expect(basic.stdout == "401", "Basic: \(basic.stdout) \(basic.stderr)")

        let laptop = Device()
        let phone = Device()
        #expect(try laptop.setUp([base + "/", "--user", "alice"]) == tasks, "\(apache.requests) \(apache.log)")
        #expect(
            apache.requests.contains { $0.status == 207 && $0.authorization?.hasPrefix("Digest ") == true },
            "\(apache.requests)")
        #expect(try laptop.todo(["add", "Behind Digest", "--due", "2030-01-02"]).status == 0)
        let sent = try laptop.todo(["sync", "--json"])
        #expect(
            sent.status == 0 && (try? parseJSON(sent.stdout, as: [String: Any].self)["sent"] as? Int) == 1,
            "\(sent.stdout) \(sent.stderr)")
        #expect(try phone.setUp([tasks, "--user", "alice"]) == tasks)
        let received = try phone.todo(["sync", "--json"])
        #expect(
            received.status == 0 && (try? parseJSON(received.stdout, as: [String: Any].self)["received"] as? Int) == 1,
            "\(received.stdout) \(received.stderr)")
        let list = try parseJSON(try phone.todo(["list", "--json"]).stdout, as: [[String: Any]].self)
        #expect(
            list.map { "\($0["name"] as? String ?? "")|\($0["deadline"] as? String ?? "")" } == [
                "Behind Digest|2030-01-02"
            ], "\(list)")

        // A wrong password: the clear authentication error, at setup and at sync.
        let stranger = Device()
        try stranger.refused([base + "/", "--user", "alice"], password: "wrong", "authentication failed")
        let wrong = try phone.todo(["sync"], password: "wrong")
        #expect(wrong.status == 1 && wrong.stderr.contains("authentication failed"), "\(wrong.stderr)")
    }
}
