import Foundation
import TestSupport
import Testing

/// `make_collection`, `set_collection` and `delete_collection` through the misbehaving proxy in
/// front of Radicale: answers that lie, break, bloat or redirect. The helper never crashes, never
/// sends anything to another origin, believes nothing the PROPFIND after does not confirm, and
/// keeps serving.
@Suite("todo-sync collections against a misbehaving server", .timed, .hangLimit)
struct CollectionHostileTests {
    /// Radicale, the proxy in front of it, a helper opened through the proxy on alice's collection.
    final class Stage {
        let server: CalDAVServer
        let proxy: MisbehavingProxy
        let home = TemporaryFolder()
        let session: HelperSession
        static let user = (name: "alice", password: Fixture.password)

        init() throws {
            server = try CalDAVServer.radicale(users: ["alice": Fixture.password])
            proxy = try MisbehavingProxy(server)
            session = try HelperSession(environment: ["TODO_SYNC_PASSWORD": Fixture.password], home: home.path)
            let opened = try session.send([
                "op": "open", "url": proxy.todoCollectionURL, "user": "alice", "password_command": NSNull()
            ])
            #expect(opened["ok"] as? Bool == true, "\(opened)")
        }

        deinit {
            proxy.stop()
            server.stop()
        }

        /// Alice's calendar home, through the proxy.
        var calendarHome: String { proxy.base + "/alice/" }

        /// `make_collection` of a new segment (its URL through the proxy and the answer).
        func make(_ name: String = "Work", color: String? = "#FF8800", segment: String = UUID().uuidString) throws -> (
            url: String, answer: [String: Any]
        ) {
            var request: [String: Any] = [
                "op": "make_collection", "home": calendarHome, "segment": segment, "name": name
            ]
            if let color { request["color"] = color }
            return (calendarHome + segment + "/", try session.send(request))
        }

        /// What Radicale itself holds at `url` (given through the proxy), read by python.
        func raw(_ url: String) throws -> [String: Any] {
            try CollectionStage.raw(server.base + String(url.dropFirst(proxy.base.count)), user: Self.user)
        }

        /// The kinds of the requests `body` made through the proxy.
        func kinds(_ body: () throws -> Void) rethrows -> [String] {
            try proxy.recording(body).requests.map(\.kind)
        }

        func finish(sourceLocation: SourceLocation = #_sourceLocation) {
            let (status, stderr, extra) = session.finish()
            #expect(status == 0 && stderr.isEmpty && extra.isEmpty, "\(stderr)", sourceLocation: sourceLocation)
            #expect(
                !session.transcript.contains { $0.contains(Fixture.password) }, "the password was printed",
                sourceLocation: sourceLocation)
        }
    }

    static let xml = ["Content-Type": "application/xml; charset=utf-8"]

    /// Whether `outcome` (from ``outcomes(_:)``) is there and is (`set`, `status`).
    static func same(_ outcome: (set: Bool, status: Int?)?, _ set: Bool, _ status: Int?) -> Bool {
        outcome.map { $0.set == set && $0.status == status } ?? false
    }

    /// A creation answer of propstats: each property (`D:displayname`…) with its status.
    static func creationAnswer(_ statuses: [(String, Int)]) -> String {
        #"<?xml version="1.0"?><C:mkcalendar-response xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" "#
            + #"xmlns:A="http://apple.com/ns/ical/">"#
            + statuses.map {
                "<D:propstat><D:prop><\($0.0)/></D:prop><D:status>HTTP/1.1 \($0.1) X</D:status></D:propstat>"
            }
            .joined() + "</C:mkcalendar-response>"
    }

    @Test(
        "201 with a broken, a huge or a lying body; an atomic refusal of the colour; 501 to MKCALENDAR: what was made is read back, never believed"
    )
    func creationAnswersThatLie() throws {
        let stage = try Stage()
        let proxy = stage.proxy

        // A 201 whose body is not XML: nothing said, the PROPFIND says all was set.
        try proxy.set(
            .answer(kind: "mkcalendar", code: 201, headers: Self.xml, body: "<D:multistatus><unclosed", forward: true))
        var (url, made) = try stage.make()
        #expect(outcomes(made).values.allSatisfy { $0.set && $0.status == nil }, "\(made)")
        #expect((made["collection"] as? [String: Any])?["color"] as? String == "#FF8800", "\(made)")
        #expect(try stage.raw(url)["name"] as? String == "Work")

        // A 201 of 2 MiB (over the 1 MiB bound), the collection made: read back as made.
        try proxy.set(
            .answer(kind: "mkcalendar", code: 201, headers: Self.xml, body: "<x>", repeat: 700_000, forward: true))
        (url, made) = try stage.make("Huge")
        #expect((made["collection"] as? [String: Any])?["name"] as? String == "Huge", "\(made)")
        #expect(try stage.raw(url)["calendar"] as? Bool == true)
        // The same, with nothing made, and a gzip bomb of 1 GiB: one error each, nothing made.
        try proxy.set(.answer(kind: "mkcalendar", code: 201, headers: Self.xml, body: "<x>", repeat: 700_000))
        (url, made) = try stage.make()
        #expect(errorKind(made) == "bad_response", "\(made)")
        #expect(try stage.raw(url)["status"] as? Int == 404)
        try proxy.set(.bomb(kind: "mkcalendar"))
        (url, made) = try stage.make()
        #expect(errorKind(made) == "bad_response", "\(made)")

        // A 201 that says the colour and the component set were refused (Radicale stored both):
        // the colour is PROPPATCHed after; the component set is said refused, and the collection
        // read back shows what it holds.
        try proxy.set(
            .answer(
                kind: "mkcalendar", code: 201, headers: Self.xml,
                body: Self.creationAnswer([
                    ("D:displayname", 200), ("A:calendar-color", 403), ("C:supported-calendar-component-set", 403)
                ]), forward: true))
        var kinds = try stage.kinds { (url, made) = try stage.make() }
        #expect(kinds == ["mkcalendar", "proppatch", "propfind"], "\(kinds)")
        var said = outcomes(made)
        #expect(Self.same(said["name"], true, 200) && Self.same(said["color"], true, 200), "\(made)")
        #expect(Self.same(said["components"], false, 403), "\(made)")
        #expect((made["collection"] as? [String: Any])?["components"] as? [String] == ["VTODO"], "\(made)")

        // An atomic refusal for the colour (403, the others 424: a Cyrus before 2026 given an
        // alpha): made again without it, then the colour by PROPPATCH.
        try proxy.set(
            .answer(
                kind: "mkcalendar", code: 403, headers: Self.xml,
                body: Self.creationAnswer([
                    ("A:calendar-color", 403), ("D:displayname", 424), ("C:supported-calendar-component-set", 424)
                ]), nth: 1))
        kinds = try stage.kinds { (url, made) = try stage.make("Atomic") }
        #expect(kinds == ["mkcalendar", "mkcalendar", "proppatch", "propfind"], "\(kinds)")
        said = outcomes(made)
        #expect(Self.same(said["color"], true, 200) && said["name"]?.set == true, "\(made)")
        #expect(try stage.raw(url)["color"] as? String == "#FF8800")

        // No MKCALENDAR (501): extended MKCOL, VTODO alone. And on a segment taken: MKCOL's 405,
        // something there, so taken.
        try proxy.set(.status(kind: "mkcalendar", code: 501))
        let segment = UUID().uuidString
        kinds = try stage.kinds { (url, made) = try stage.make("By MKCOL", segment: segment) }
        #expect(kinds == ["mkcalendar", "mkcol", "propfind"], "\(kinds)")
        #expect((made["collection"] as? [String: Any])?["components"] as? [String] == ["VTODO"], "\(made)")
        #expect(try stage.raw(url)["name"] as? String == "By MKCOL")
        (_, made) = try stage.make("Again", segment: segment)
        #expect(errorKind(made) == "taken" && errorStatus(made) == 405, "\(made)")

        // Refusals named as such.
        for (code, kind) in [(403, "auth"), (409, "not_found"), (404, "not_found"), (507, "server")] {
            try proxy.set(.answer(kind: "mkcalendar", code: code, body: "no"))
            (_, made) = try stage.make()
            #expect(errorKind(made) == kind && errorStatus(made) == code, "\(code): \(made)")
        }
        try proxy.set(.pass)
        #expect(try stage.session.send(["op": "hello"])["version"] as? Int == 1)
        stage.finish()
    }

    @Test(
        "PROPPATCH: a failed propstat fails its property only (the 424s sent again alone), a status alone, no body, a broken body"
    )
    func propertiesThatFail() throws {
        let stage = try Stage()
        let proxy = stage.proxy
        let (url, made) = try stage.make("Old", color: "#111111")
        #expect(made["collection"] != nil, "\(made)")
        func set(_ name: String, _ color: String) throws -> [String: Any] {
            try stage.session.send(["op": "set_collection", "url": url, "name": name, "color": color])
        }
        let path = String(url.dropFirst(proxy.base.count))

        // The colour refused, the name failed with it (424): the name alone again, and set.
        try proxy.set(
            .answer(
                kind: "proppatch", code: 207, headers: Self.xml,
                body:
                    #"<D:multistatus xmlns:D="DAV:" xmlns:A="http://apple.com/ns/ical/"><D:response><D:href>\#(path)</D:href>"#
                    + #"<D:propstat><D:prop><D:displayname/></D:prop><D:status>HTTP/1.1 424 Failed Dependency</D:status></D:propstat>"#
                    + #"<D:propstat><D:prop><A:calendar-color/></D:prop><D:status>HTTP/1.1 403 Forbidden</D:status></D:propstat>"#
                    + "</D:response></D:multistatus>", nth: 1))
        var kinds: [String] = []
        var answer: [String: Any] = [:]
        kinds = try stage.kinds { answer = try set("New", "#222222") }
        #expect(kinds == ["proppatch", "proppatch", "propfind"], "\(kinds)")
        #expect(
            Self.same(outcomes(answer)["name"], true, 200) && Self.same(outcomes(answer)["color"], false, 403),
            "\(answer)")
        var state = answer["collection"] as? [String: Any] ?? [:]
        #expect(state["name"] as? String == "New" && state["color"] as? String == "#111111", "\(answer)")

        // A response with a status alone (no propstat): both refused; nothing changed.
        try proxy.set(
            .answer(
                kind: "proppatch", code: 207, headers: Self.xml,
                body:
                    #"<multistatus xmlns="DAV:"><response><href>\#(path)</href><status>HTTP/1.1 403 Forbidden</status></response></multistatus>"#
            ))
        answer = try set("Newer", "#333333")
        #expect(
            Self.same(outcomes(answer)["name"], false, 403) && Self.same(outcomes(answer)["color"], false, 403),
            "\(answer)")
        // 200 without a body, nothing done: nothing said, and the collection does not hold it.
        try proxy.set(.answer(kind: "proppatch", code: 200))
        answer = try set("Newer", "#333333")
        #expect(
            Self.same(outcomes(answer)["name"], false, nil) && Self.same(outcomes(answer)["color"], false, nil),
            "\(answer)")
        // A 207 that is no XML, the change made: nothing said, the collection holds it.
        try proxy.set(.answer(kind: "proppatch", code: 207, headers: Self.xml, body: "<<<not xml", forward: true))
        answer = try set("Newest", "#444444")
        #expect(
            Self.same(outcomes(answer)["name"], true, nil) && Self.same(outcomes(answer)["color"], true, nil),
            "\(answer)")
        state = answer["collection"] as? [String: Any] ?? [:]
        #expect(state["name"] as? String == "Newest" && state["color"] as? String == "#444444", "\(answer)")
        // A server error is the request's.
        try proxy.set(.answer(kind: "proppatch", code: 500, body: "oops"))
        answer = try set("X", "#555555")
        #expect(errorKind(answer) == "server" && errorStatus(answer) == 500, "\(answer)")
        try proxy.set(.pass)
        #expect(try stage.raw(url)["name"] as? String == "Newest")
        stage.finish()
    }

    @Test(
        "redirects are never followed and the other origin hears nothing; URLs elsewhere are refused unsent; object deletes ask for no trash bin, a list's delete does not"
    )
    func redirectsAndOtherOrigins() throws {
        let stage = try Stage()
        let proxy = stage.proxy
        let other = try MisbehavingProxy(stage.server)
        defer { other.stop() }
        let (url, made) = try stage.make("Stays")
        #expect(made["collection"] != nil, "\(made)")
        let elsewhere = other.base + "/alice/elsewhere/"

        for (kind, code) in [("mkcalendar", 307), ("proppatch", 302), ("propfind", 308), ("delete", 301)] {
            try proxy.set(.answer(kind: kind, code: code, headers: ["Location": elsewhere]))
            let answer: [String: Any]
            switch kind {
            case "mkcalendar": answer = try stage.make().answer
            case "proppatch": answer = try stage.session.send(["op": "set_collection", "url": url, "name": "Moved"])
            case "propfind": answer = try stage.session.send(["op": "set_collection", "url": url])
            default: answer = try stage.session.send(["op": "delete_collection", "url": url])
            }
            let error = answer["error"] as? [String: Any] ?? [:]
            #expect(
                error["kind"] as? String == "redirect" && error["location"] as? String == elsewhere,
                "\(kind): \(answer)")
            #expect(!(error["message"] as? String ?? "").contains("todo sync setup"), "no setup advice: \(answer)")
        }
        try proxy.set(.pass)
        // Each request naming the other origin, or carrying user info: refused, never sent.
        let refused = [
            ["op": "make_collection", "home": other.base + "/alice/", "segment": "x", "name": "X"],
            ["op": "set_collection", "url": elsewhere, "name": "X"],
            ["op": "delete_collection", "url": elsewhere],
            [
                "op": "delete_collection",
                "url": proxy.base.replacingOccurrences(of: "//", with: "//alice:pw@") + "/alice/x/"
            ]
        ]
        for request in refused {
            let answer = try stage.session.send(request)
            #expect(errorKind(answer) == "protocol", "\(request): \(answer)")
        }
        #expect(other.requests.isEmpty, "the other origin heard from the helper: \(other.requests.map(\.path))")
        #expect(try stage.raw(url)["name"] as? String == "Stays", "nothing renamed or deleted")

        // An object's delete says X-NC-CalDAV-No-Trashbin (a move's delete is no deletion); the
        // collection's does not (Nextcloud's trash bin keeps a deleted list for the user).
        try stage.session.send([
            "op": "open", "url": url, "user": "alice", "password_command": NSNull()
        ])
        let path = String(url.dropFirst(proxy.base.count))
        let etag = try field(
            (try stage.session.send([
                "op": "write", "writes": [["method": "create", "href": path + "a.ics", "text": vtodo("a", "A")]]
            ])["outcomes"] as? [[String: Any]])?.first ?? [:], "etag", as: String.self)
        let (deleted, requests) = try proxy.recording {
            let outcome = try stage.session.send([
                "op": "write", "writes": [["method": "delete", "href": path + "a.ics", "etag": etag]]
            ])
            return (outcome, try stage.session.send(["op": "delete_collection", "url": url]))
        }
        #expect(deleted.1["outcome"] as? String == "deleted", "\(deleted)")
        let deletes = requests.filter { $0.kind == "delete" }
        #expect(deletes.map(\.noTrashbin) == ["1", nil], "\(deletes)")
        stage.finish()
    }

    @Test(
        "garbage in a PROPFIND: colours that are none, control characters in a name, bounds; a list that is no calendar is not deleted"
    )
    func garbageFromTheServer() throws {
        let stage = try Stage()
        let proxy = stage.proxy
        let (url, made) = try stage.make("Real")
        #expect(made["collection"] != nil, "\(made)")
        let path = String(url.dropFirst(proxy.base.count))
        func propfind(resourceType: String = "<D:collection/><C:calendar/>", name: String, color: String) -> String {
            #"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" "#
                + #"xmlns:A="http://apple.com/ns/ical/"><D:response><D:href>\#(path)</D:href><D:propstat><D:prop>"#
                + "<D:resourcetype>\(resourceType)</D:resourcetype><D:displayname>\(name)</D:displayname>"
                + "<A:calendar-color>\(color)</A:calendar-color></D:prop>"
                + "<D:status>HTTP/1.1 200 OK</D:status></D:propstat></D:response></D:multistatus>"
        }
        let colours: [(String, String?)] = [
            ("red", nil), ("#12345", nil), ("#GGGGGG", nil), ("#1234567", nil), ("&lt;script&gt;", nil),
            ("#ff8800&#x9b;31m", nil), ("#ff&#10;8800", nil), ("-1", nil), ("  #abcdef\n", "#ABCDEF"),
            ("#ABCDEF12", "#ABCDEF"),
            (String(repeating: "#", count: 1_500_000), nil)
        ]
        for (colour, expected) in colours {
            try proxy.set(
                .answer(
                    kind: "propfind", code: 207, headers: Self.xml,
                    body: propfind(name: "Evil&#13;&#10;x&#9;y&#8238;gnp.exe&#x9b;z", color: colour)))
            let line = try stage.session.sendLine(#"{"op":"set_collection","url":"\#(url)"}"#)
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202e}" || $0 == "\u{9b}" }, "raw")
            let answer = try parseJSON(line, as: [String: Any].self)
            let state = answer["collection"] as? [String: Any] ?? [:]
            #expect(state["color"] as? String == expected, "\(colour.prefix(30)): \(line.prefix(300))")
            #expect(state["name"] as? String == "Evil\r\nx\ty\u{202e}gnp.exe\u{9b}z", "\(line.prefix(300))")
        }
        // Beyond the bounds of a PROPFIND's answer: 3 MiB in one element, 100,000 nested,
        // 10 MB of elements, no multistatus, an ESC (no XML 1.0 character). One error each.
        for mode in [
            MisbehavingProxy.Mode.answer(
                kind: "propfind", code: 207, headers: Self.xml,
                body: propfind(name: "x", color: String(repeating: "#", count: 3 << 20))),
            .deep(kind: "propfind"), .elements(kind: "propfind", megabytes: 10),
            .answer(kind: "propfind", code: 207, headers: Self.xml, body: "<html>hello</html>"),
            .answer(kind: "propfind", code: 207, headers: Self.xml, body: propfind(name: "a&#27;[2J", color: "#FFFFFF"))
        ] {
            try proxy.set(mode)
            let answer = try stage.session.send(["op": "set_collection", "url": url], timeout: 60)
            #expect(errorKind(answer) == "bad_response", "\(mode): \(answer)")
        }

        // A collection that the server says is no calendar (a home, a principal): not deleted,
        // the DELETE never sent. A 207 or 500 to the DELETE: the server's error.
        try proxy.set(
            .answer(
                kind: "propfind", code: 207, headers: Self.xml,
                body: propfind(resourceType: "<D:collection/>", name: "x", color: "")))
        let (answer, requests) = try proxy.recording { try stage.session.send(["op": "delete_collection", "url": url]) }
        #expect(errorKind(answer) == "not_found", "\(answer)")
        #expect(!requests.contains { $0.kind == "delete" }, "\(requests.map(\.kind))")
        for code in [207, 500] {
            try proxy.set(
                .answer(kind: "delete", code: code, headers: Self.xml, body: "<D:multistatus xmlns:D=\"DAV:\"/>"))
            let failed = try stage.session.send(["op": "delete_collection", "url": url])
            #expect(errorKind(failed) == "server" && errorStatus(failed) == code, "\(failed)")
        }
        try proxy.set(.pass)
        #expect(try stage.raw(url)["name"] as? String == "Real")
        #expect(try stage.session.send(["op": "delete_collection", "url": url])["outcome"] as? String == "deleted")
        stage.finish()
    }
}
