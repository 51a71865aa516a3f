import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tags with spaces on real servers (issue 36, point 4): tasks PUT by plain HTTP as Tasks.org,
/// Apple Reminders and Nextcloud Tasks write them, with `CATEGORIES:Home Improvement,Errands`,
/// come in with the tag `+"Home Improvement"` (in `todo tags`, `--tag`, `--search`, `show`), and
/// tags changed here go out as one category each, on Radicale, Xandikos and Cyrus. A category
/// that is still no tag (a line break in it, over 100 bytes) stays on the object as written.
@Suite(.timed, .hangLimit) struct TagsWithSpacesServerTests {
    enum Server: String, CaseIterable, CustomStringConvertible, Sendable {
        case radicale, xandikos, cyrus
        var description: String { rawValue }
    }

    /// A running server, its collection for todos, and raw HTTP on it as a phone makes it.
    final class Stage: @unchecked Sendable {
        let calDAV: CalDAVServer?
        let cyrus: CyrusServer?
        let collection: String
        let user: String?

        init(_ server: Server) throws {
            switch server {
            case .radicale:
                let radicale = try CalDAVServer.radicale(users: ["alice": "secret"])
                (calDAV, cyrus, collection, user) = (radicale, nil, radicale.todoCollectionURL, "alice")
            case .xandikos:
                let xandikos = try CalDAVServer.xandikos()
                (calDAV, cyrus, collection, user) = (xandikos, nil, xandikos.todoCollectionURL, nil)
            case .cyrus:
                let started = try CyrusServer.start(users: ["alice": "secret"])
                (calDAV, cyrus, collection, user) = (nil, started, started.defaultCalendarURL("alice"), "alice")
            }
        }

        func stop() {
            calDAV?.stop()
            cyrus?.stop()
        }

        /// A plain request on `file` in the collection, with alice's Basic credentials where
        /// the server asks for them.
        func request(_ method: String, _ file: String, body: String? = nil, headers: [String: String] = [:]) throws
            -> (status: Int, body: String)
        {
            var request = URLRequest(
                url: try #require(URL(string: collection + file)), cachePolicy: .reloadIgnoringLocalCacheData,
                timeoutInterval: 10)
            request.httpMethod = method
            request.httpBody = body.map { Data($0.utf8) }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if let user {
                request.setValue(
                    "Basic " + Data("\(user):secret".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
            }
            let answer = try CalDAVServer.perform(request)
            return (answer.status, String(decoding: answer.body, as: UTF8.self))
        }

        /// PUTs a new object as a phone does.
        func put(_ file: String, _ text: String) throws -> Int {
            try request(
                "PUT", file, body: text,
                headers: ["Content-Type": "text/calendar; charset=utf-8", "If-None-Match": "*"]
            ).status
        }

        func get(_ file: String) throws -> String {
            let answer = try request("GET", file)
            #expect(answer.status == 200, "GET \(file): \(answer.status)")
            return answer.body
        }
    }

    /// The categories as the phones write them: a name with a space, and a plain word.
    static let phoneCategories = "CATEGORIES:Home Improvement,Errands"
    /// Categories that are still no tag: a line break (an escaped `\n`) and 101 bytes.
    static let keptCategories = "CATEGORIES:Line\\nbreak," + String(repeating: "x", count: 101)

    /// `object` with `line` after its SUMMARY (and its own CATEGORIES, Nextcloud's, gone).
    static func withCategories(_ object: String, _ lines: String...) -> String {
        let kept = object.split(separator: "\r\n", omittingEmptySubsequences: false).filter {
            !$0.hasPrefix("CATEGORIES")
        }
        return kept.flatMap { $0.hasPrefix("SUMMARY:") ? [String($0)] + lines : [String($0)] }.joined(
            separator: "\r\n")
    }

    /// The values of every CATEGORIES line of the VTODO in `text`, unfolded, split at the commas
    /// that are not escaped (each value as written, escapes kept).
    static func categories(in text: String) -> [String] {
        StatusServerTests.lines(text).filter { StatusServerTests.name($0) == "CATEGORIES" }.flatMap { line in
            var values: [String] = []
            var current = ""
            var escaped = false
            for character in line.drop(while: { $0 != ":" }).dropFirst() {
                if !escaped && character == "," {
                    values.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
                escaped = !escaped && character == "\\"
            }
            return values + [current]
        }
    }

    @Test(arguments: Server.allCases) func phoneCategoriesWithSpacesAreTagsAndGoOutAsOneCategory(server: Server)
        throws
    {
        let stage = try Stage(server)
        defer { stage.stop() }
        let laptop = DiscoveryTests.Device()
        let password = stage.user == nil ? nil : "secret"  // Xandikos asks for none
        func ok(_ arguments: String...) throws -> String {
            let result = try laptop.todo(arguments, password: password)
            #expect(result.status == 0, "todo \(arguments) on \(server): \(result.stderr)")
            return result.stdout
        }
        func sync() throws -> [String: Any] {
            try parseJSON(try ok("sync", "--json"), as: [String: Any].self, "todo sync --json on \(server)")
        }
        func id(_ name: String) throws -> String {
            let todos = try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
            return String(try #require(todos.first { $0["name"] as? String == name }?["id"] as? Int))
        }
        #expect(
            try laptop.setUp([stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
                == stage.collection)

        let phone: [(file: String, text: String)] = [
            (
                "tasksorg.ics",
                Self.withCategories(
                    StatusObjects.tasksOrg(uid: "tasksorg-1", name: "Fix the sink"), Self.phoneCategories)
            ),
            (
                "reminders.ics",
                Self.withCategories(
                    StatusObjects.appleReminders(uid: "reminders-1", name: "Call the plumber"), Self.phoneCategories)
            ),
            (
                "nextcloud.ics",
                Self.withCategories(
                    StatusObjects.nextcloud(uid: "nextcloud-1", name: "Paint the shed"), Self.phoneCategories,
                    Self.keptCategories)
            )
        ]
        var stored: [String: String] = [:]
        for (file, text) in phone {
            #expect((200..<300).contains(try stage.put(file, text)), "PUT \(file) on \(server)")
            stored[file] = try stage.get(file)  // as the server keeps it
        }
        #expect(try sync()["received"] as? Int == 3)

        // In: the tag in every place a tag is.
        let tags = try parseJSON(try ok("tags", "--json"), as: [[String: Any]].self, "todo tags --json")
        #expect(
            tags.map { "\($0["tag"] as? String ?? "") \($0["undone"] as? Int ?? -1)" }.sorted() == [
                "+\"Home Improvement\" 3", "+Errands 3"
            ], "\(tags)")
        #expect(try ok("tags").contains("+\"Home Improvement\"  3 undone, 0 done"))
        let filtered = try parseJSON(
            try ok("list", "--tag", "home improvement", "--json"), as: [[String: Any]].self, "--tag")
        #expect(
            Set(filtered.map { $0["name"] as? String ?? "" }) == ["Fix the sink", "Call the plumber", "Paint the shed"])
        #expect(try ok("list", "--search", "HOME IMPROV").split(separator: "\n").count == 3)
        let sink = try id("Fix the sink")
        #expect(try ok("show", sink).contains("tags:      +\"Home Improvement\" +Errands\n"))
        #expect(try ok("list", "--outline", "--by", "tag").contains("+\"Home Improvement\" (3)"))

        // Settled: reading the objects changed nothing to send.
        let settled = try sync()
        #expect(settled["sent"] as? Int == 0 && settled["received"] as? Int == 0, "\(settled)")

        // Out: a tag with spaces added, one taken off, one added to a new todo; each one category.
        _ = try ok("edit", sink, "--tag", "Garden Shed")
        _ = try ok("edit", try id("Call the plumber"), "--untag", "Errands")
        _ = try ok("edit", try id("Paint the shed"), "--tag", "@Back Yard")
        _ = try ok("add", "Fix the fence", "+Home Improvement")
        #expect(try sync()["sent"] as? Int == 4)
        let expected: [String: [String]] = [
            "tasksorg.ics": ["Home Improvement", "Errands", "Garden Shed"],
            "reminders.ics": ["Home Improvement"],
            "nextcloud.ics": [
                "Line\\nbreak", String(repeating: "x", count: 101), "Home Improvement", "Errands", "@Back Yard"
            ]
        ]
        for (file, _) in phone {
            let now = try stage.get(file)
            #expect(Self.categories(in: now) == expected[file], "\(file) on \(server):\n\(now)")
            // Every other line of the phone's object, as the server stored it, is still there.
            let changed: Set<String> = ["CATEGORIES", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
            let kept = StatusServerTests.lines(try #require(stored[file])).filter {
                !changed.contains(StatusServerTests.name($0))
            }
            let lost = kept.filter { !StatusServerTests.lines(now).contains($0) }
            #expect(lost.isEmpty, "\(file) on \(server) lost \(lost):\n\(now)")
        }
        // The new todo's object, wherever the server put it: found by a second device.
        let phone2 = DiscoveryTests.Device()
        #expect(
            try phone2.setUp([stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
                == stage.collection)
        #expect(try phone2.todo(["sync"], password: password).status == 0)
        let fence = try parseJSON(
            try phone2.todo(["list", "--tag", "+\"Home Improvement\"", "--json"], password: password).stdout,
            as: [[String: Any]].self)
        #expect(fence.count == 4, "\(fence)")
        #expect(
            fence.first { $0["name"] as? String == "Fix the fence" }?["tags"] as? [String]
                == ["+\"Home Improvement\""])
        let again = try sync()
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0, "\(again)")
    }
}
