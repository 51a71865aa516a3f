import Foundation
import TestSupport
import Testing

/// A calendar home on a real server, a helper session opened on the server's collection for
/// todos, and a way to read a collection without the helper (python's urllib and ElementTree), so
/// that what the helper says it made is checked against what the server holds.
final class CollectionStage: @unchecked Sendable {
    enum Server: String, CaseIterable, CustomStringConvertible, Sendable {
        case radicale, xandikos, cyrus
        var description: String { rawValue }
    }

    let server: Server
    /// The server (Radicale and Xandikos); Cyrus is `cyrus`.
    let calDAV: CalDAVServer?
    let cyrus: CyrusServer?
    let homeFolder = TemporaryFolder()
    let session: HelperSession
    /// The user's calendar home, ending with `/`.
    let home: String
    /// The collection opened (the one each server starts with).
    let opened: String
    /// Basic credentials for the raw reads (`nil`: Xandikos asks for none).
    let user: (name: String, password: String)?

    init(_ server: Server) throws {
        self.server = server
        switch server {
        case .radicale:
            let radicale = try CalDAVServer.radicale(users: ["alice": Fixture.password])
            (calDAV, cyrus) = (radicale, nil)
            home = radicale.base + "/alice/"
            opened = radicale.todoCollectionURL
            user = ("alice", Fixture.password)
        case .xandikos:
            let xandikos = try CalDAVServer.xandikos()
            (calDAV, cyrus) = (xandikos, nil)
            home = xandikos.base + "/user/calendars/"
            opened = xandikos.todoCollectionURL
            user = nil
        case .cyrus:
            let started = try CyrusServer.start(users: ["alice": Fixture.password])
            (calDAV, cyrus) = (nil, started)
            home = started.base + "/dav/calendars/user/alice/"
            opened = started.defaultCalendarURL("alice")
            user = ("alice", Fixture.password)
        }
        session = try HelperSession(
            environment: user == nil ? [:] : ["TODO_SYNC_PASSWORD": Fixture.password], home: homeFolder.path)
        let answer = try session.send(open(opened))
        #expect(answer["ok"] as? Bool == true, "\(answer)")
    }

    deinit {
        calDAV?.stop()
        cyrus?.stop()
    }

    /// The `open` request for `url`, with the user when the server asks for one.
    func open(_ url: String) -> [String: Any] {
        ["op": "open", "url": url, "user": user?.name as Any? ?? NSNull(), "password_command": NSNull()]
    }

    /// What the server holds at `url`, read by python (a Depth-0 PROPFIND, its 2xx propstats):
    /// `status` (404 when nothing is there), `calendar`, `name`, `color` as stored, `components`.
    func raw(_ url: String) throws -> [String: Any] { try Self.raw(url, user: user) }

    /// ``raw(_:)`` as `user` (`nil`: no credentials).
    static func raw(_ url: String, user: (name: String, password: String)?) throws -> [String: Any] {
        let result = try ProcessRunner.run(
            CalDAVServer.python, ["-c", Self.reader, url, user?.name ?? "-", user?.password ?? "-"], timeout: 30)
        #expect(result.status == 0, "python: \(result.stderr)")
        return try parseJSON(result.stdout, as: [String: Any].self, "the raw PROPFIND of \(url)")
    }

    static let reader = #"""
        import sys, base64, json, urllib.request, urllib.error, xml.etree.ElementTree as ET
        url, user, password = sys.argv[1:4]
        body = (b'<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" '
                b'xmlns:A="http://apple.com/ns/ical/"><D:prop><D:resourcetype/><D:displayname/>'
                b'<C:supported-calendar-component-set/><A:calendar-color/></D:prop></D:propfind>')
        request = urllib.request.Request(url, data=body, method="PROPFIND",
                                         headers={"Depth": "0", "Content-Type": "application/xml"})
        if user != "-":
            request.add_header("Authorization", "Basic " + base64.b64encode(("%s:%s" % (user, password)).encode()).decode())
        try:
            answer = urllib.request.urlopen(request, timeout=10)
            status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            print(json.dumps({"status": error.code}))
            sys.exit(0)
        D, C, A = "{DAV:}", "{urn:ietf:params:xml:ns:caldav}", "{http://apple.com/ns/ical/}"
        out = {"status": status}
        for response in ET.fromstring(data).iter(D + "response"):
            own = response.find(D + "status")
            if own is not None and " 404 " in own.text:
                out["status"] = 404
            for propstat in response.iter(D + "propstat"):
                if " 200 " not in propstat.find(D + "status").text:
                    continue
                prop = propstat.find(D + "prop")
                kind = prop.find(D + "resourcetype")
                if kind is not None:
                    out["calendar"] = kind.find(C + "calendar") is not None
                name = prop.find(D + "displayname")
                if name is not None and name.text:
                    out["name"] = name.text
                comps = prop.find(C + "supported-calendar-component-set")
                if comps is not None:
                    out["components"] = [comp.get("name") for comp in comps.findall(C + "comp")]
                color = prop.find(A + "calendar-color")
                if color is not None and color.text:
                    out["color"] = color.text
            break
        print(json.dumps(out))
        """#

    /// Ends the session: exit 0, nothing on stderr, no unanswered line, no password printed.
    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        let (status, stderr, extra) = session.finish()
        #expect(status == 0 && stderr.isEmpty && extra.isEmpty, "\(stderr) \(extra)", sourceLocation: sourceLocation)
        #expect(
            !session.transcript.contains { $0.contains(Fixture.password) }, "the password was printed",
            sourceLocation: sourceLocation)
    }
}

/// Each property's outcome in a `make_collection` or `set_collection` answer: `set`, and the
/// status (nil when the server gave none).
func outcomes(_ answer: [String: Any]) -> [String: (set: Bool, status: Int?)] {
    var found: [String: (set: Bool, status: Int?)] = [:]
    for outcome in answer["properties"] as? [[String: Any]] ?? [] {
        found[outcome["property"] as? String ?? ""] = (outcome["set"] as? Bool ?? false, outcome["status"] as? Int)
    }
    return found
}

@Suite(
    "todo-sync makes, renames, recolours and deletes collections on Radicale, Xandikos and Cyrus", .timed, .hangLimit)
struct CollectionOpsTests {
    typealias Server = CollectionStage.Server

    /// A display name with markup characters and text of three scripts.
    static let name = "Härmä & <Work> 日本 ✓"

    @Test(
        "a VTODO list made with its name and colour, read back as the server made it, renamed, recoloured, read, its segment taken, deleted with a todo in it",
        arguments: Server.allCases)
    func aListsLife(_ server: Server) throws {
        let stage = try CollectionStage(server)
        let session = stage.session
        let segment = UUID().uuidString
        let url = stage.home + segment + "/"

        // Made: the alpha of an Apple colour dropped, #RRGGBB written.
        let made = try session.send([
            "op": "make_collection", "home": stage.home, "segment": segment, "name": Self.name, "color": "#1e90ffcc"
        ])
        let collection = try field(made, "collection", as: [String: Any].self)
        #expect(collection["url"] as? String == url, "\(made)")
        #expect(collection["calendar"] as? Bool == true && collection["todos"] as? Bool == true, "\(made)")
        #expect(collection["name"] as? String == Self.name, "\(made)")
        #expect(collection["color"] as? String == "#1E90FF", "\(made)")
        let components = collection["components"] as? [String] ?? []
        let said = outcomes(made)
        #expect(said["name"]?.set == true && said["color"]?.set == true, "\(made)")
        switch server {
        case .radicale, .cyrus:
            // Every property stored as given; the 201 has no body, so no status of its own.
            #expect(components == ["VTODO"])
            #expect(said["components"]?.set == true && said["components"]?.status == nil, "\(made)")
            #expect(said["name"]?.status == nil && said["color"]?.status == nil, "\(made)")
        case .xandikos:
            // Every calendar holds every component: the component set and the colour 404 in the
            // 201's body; the colour set after by PROPPATCH (200).
            #expect(components == ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY"], "\(made)")
            #expect(said["components"]?.set == false && said["components"]?.status == 404, "\(made)")
            #expect(said["name"]?.status == 200 && said["color"]?.status == 200, "\(made)")
        }
        // What the server holds, read without the helper.
        var raw = try stage.raw(url)
        #expect(raw["calendar"] as? Bool == true && raw["name"] as? String == Self.name, "\(raw)")
        #expect((raw["color"] as? String)?.uppercased().hasPrefix("#1E90FF") == true, "\(raw)")
        if let rawComponents = raw["components"] as? [String] { #expect(rawComponents == components) }

        // Renamed and recoloured at once, then recoloured alone.
        let renamed = try session.send([
            "op": "set_collection", "url": url, "name": "Renamed ✓ «quoted»", "color": "#00aa11"
        ])
        #expect(outcomes(renamed)["name"]?.set == true && outcomes(renamed)["color"]?.set == true, "\(renamed)")
        #expect(outcomes(renamed)["name"]?.status == 200, "\(renamed)")
        let state = try field(renamed, "collection", as: [String: Any].self)
        #expect(state["name"] as? String == "Renamed ✓ «quoted»" && state["color"] as? String == "#00AA11")
        let recoloured = try session.send(["op": "set_collection", "url": url, "color": "#ABCDEF"])
        #expect(outcomes(recoloured).keys.sorted() == ["color"] && outcomes(recoloured)["color"]?.set == true)
        raw = try stage.raw(url)
        #expect(raw["name"] as? String == "Renamed ✓ «quoted»", "\(raw)")
        #expect((raw["color"] as? String)?.uppercased().hasPrefix("#ABCDEF") == true, "\(raw)")
        // Neither given: read alone, nothing asked.
        let read = try session.send(["op": "set_collection", "url": url])
        #expect((read["properties"] as? [Any])?.isEmpty == true, "\(read)")
        #expect(try field(read, "collection", as: [String: Any].self)["color"] as? String == "#ABCDEF")

        // The segment again: taken, and the collection as it was.
        let again = try session.send([
            "op": "make_collection", "home": stage.home, "segment": segment, "name": "Another"
        ])
        // Radicale: 409 and a DAV:error; Xandikos: a 207 whose response is 403 with the error;
        // Cyrus: 403 and the error.
        #expect(errorKind(again) == "taken", "\(again)")
        #expect(errorStatus(again) == (server == .radicale ? 409 : 403), "\(again)")
        #expect(try stage.raw(url)["name"] as? String == "Renamed ✓ «quoted»")

        // A todo in it (written through the helper, opened on the new collection), then deleted
        // with it. The home is no calendar collection: refused, and still there.
        try session.send(stage.open(url))
        let path = try #require(URLComponents(string: url)).percentEncodedPath
        let written = try session.send([
            "op": "write", "writes": [["method": "create", "href": path + "a.ics", "text": vtodo("a", "In the list")]]
        ])
        #expect((written["outcomes"] as? [[String: Any]])?.first?["outcome"] as? String == "written", "\(written)")
        let refused = try session.send(["op": "delete_collection", "url": stage.home])
        #expect(errorKind(refused) == "not_found", "\(refused)")
        #expect(try stage.raw(stage.home)["status"] as? Int == 207)
        #expect(try session.send(["op": "delete_collection", "url": url])["outcome"] as? String == "deleted")
        #expect(try stage.raw(url)["status"] as? Int == 404)
        #expect(try session.send(["op": "delete_collection", "url": url])["outcome"] as? String == "absent")
        stage.finish()
    }
}
