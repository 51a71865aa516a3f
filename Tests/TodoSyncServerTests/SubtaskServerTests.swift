import Foundation
import TestSupport
import Testing

/// Subtasks on real servers (issue 36, points 1 and 2): tasks PUT by plain HTTP with their links
/// as the apps write them (Tasks.org and Nextcloud Tasks a bare `RELATED-TO:<parent>`, Apple
/// Reminders `RELTYPE=PARENT`, a parent listing its subtask with `RELTYPE=CHILD`) come in as a
/// tree, on Radicale, Xandikos and Cyrus. What is done here goes out the apps' way: a subtask
/// added here names its parent, one moved to the top loses its link and nothing else, a parent
/// deleted with its subtasks leaves none behind on the server. A subtask whose parent comes later
/// waits at the top and goes under it when it arrives; two objects naming each other never loop.
@Suite(.timed, .hangLimit) struct SubtaskServerTests {
    typealias Server = TagsWithSpacesServerTests.Server

    /// `object` with `lines` after its SUMMARY.
    static func with(_ object: String, _ lines: String...) -> String {
        object.split(separator: "\r\n", omittingEmptySubsequences: false).flatMap {
            $0.hasPrefix("SUMMARY:") ? [String($0)] + lines : [String($0)]
        }.joined(separator: "\r\n")
    }

    @Test(arguments: Server.allCases) func phoneSubtasksAreATreeHereAndChangesGoOutTheAppsWay(server: Server) throws {
        let stage = try TagsWithSpacesServerTests.Stage(server)
        defer { stage.stop() }
        let laptop = DiscoveryTests.Device()
        let password = stage.user == nil ? nil : "secret"
        func run(_ device: DiscoveryTests.Device, _ arguments: [String]) throws -> ProcessResult {
            try device.todo(arguments, password: password)
        }
        func ok(_ arguments: String...) throws -> String {
            let result = try run(laptop, arguments)
            #expect(result.status == 0, "todo \(arguments) on \(server): \(result.stderr)")
            return result.stdout
        }
        func sync() throws -> [String: Any] {
            try parseJSON(try ok("sync", "--json"), as: [String: Any].self, "todo sync --json on \(server)")
        }
        func todos() throws -> [String: [String: Any]] {
            let list = try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
            return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }) { first, _ in first }
        }
        func id(_ name: String) throws -> Int { try #require(try todos()[name]?["id"] as? Int, "\(name)") }
        func parent(_ name: String) throws -> String? {
            let all = try todos()
            guard let parent = all[name]?["parent"] as? Int else { return nil }
            return all.first { $0.value["id"] as? Int == parent }?.key
        }
        #expect(
            try laptop.setUp([stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
                == stage.collection)

        let phone: [(file: String, text: String)] = [
            ("groceries.ics", StatusObjects.tasksOrg(uid: "groceries", name: "Weekend groceries")),
            ("milk.ics", Self.with(StatusObjects.tasksOrg(uid: "milk", name: "Milk"), "RELATED-TO:groceries")),
            (
                "oat.ics",
                Self.with(
                    StatusObjects.appleReminders(uid: "oat", name: "Oat milk"), "RELATED-TO;RELTYPE=PARENT:groceries")
            ),
            ("eggs.ics", Self.with(StatusObjects.nextcloud(uid: "eggs", name: "Eggs"), "RELATED-TO:groceries")),
            (
                "bake.ics",
                Self.with(StatusObjects.nextcloud(uid: "bake", name: "Bake bread"), "RELATED-TO;RELTYPE=CHILD:dough")
            ),
            ("dough.ics", StatusObjects.tasksOrg(uid: "dough", name: "Make the dough")),
            ("early.ics", Self.with(StatusObjects.tasksOrg(uid: "early", name: "Early bird"), "RELATED-TO:late")),
            ("loop-a.ics", Self.with(StatusObjects.tasksOrg(uid: "loop-a", name: "Loop A"), "RELATED-TO:loop-b")),
            ("loop-b.ics", Self.with(StatusObjects.tasksOrg(uid: "loop-b", name: "Loop B"), "RELATED-TO:loop-a"))
        ]
        var stored: [String: String] = [:]
        for (file, text) in phone {
            #expect((200..<300).contains(try stage.put(file, text)), "PUT \(file) on \(server)")
            stored[file] = try stage.get(file)
        }
        let first = try run(laptop, ["sync"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("is a subtask on the server of a todo that is under it here"), "\(first.stderr)")
        #expect(try parent("Milk") == "Weekend groceries")
        #expect(try parent("Oat milk") == "Weekend groceries")
        #expect(try parent("Eggs") == "Weekend groceries")
        #expect(try parent("Make the dough") == "Bake bread", "a parent's RELTYPE=CHILD link")
        #expect(try parent("Early bird") == nil, "its parent is not here yet")
        #expect(try [parent("Loop A"), parent("Loop B")].compactMap { $0 }.count == 1, "one link of the loop")
        let tree = try ok("list")
        // Milk's row: right after its parent's, its name two columns further in.
        let rows = tree.split(separator: "\n").map(String.init)
        func column(of name: String) -> Int? {
            rows.lazy.compactMap { row in
                row.range(of: name).map { row.distance(from: row.startIndex, to: $0.lowerBound) }
            }
            .first
        }
        let parentRow = try #require(rows.firstIndex { $0.hasSuffix("Weekend groceries") }, "\(tree)")
        #expect(rows[parentRow + 1].hasSuffix("Milk"), "\(tree)")
        #expect(try #require(column(of: "Milk")) == (try #require(column(of: "Weekend groceries"))) + 2, "\(tree)")
        let settled = try sync()
        #expect(settled["sent"] as? Int == 0 && settled["received"] as? Int == 0, "\(settled)")

        // Out: a subtask added here, one moved to the top.
        _ = try ok("add", "Butter", "--under", String(try id("Weekend groceries")))
        _ = try ok("edit", String(try id("Eggs")), "--top")
        #expect(try sync()["sent"] as? Int == 2)
        let eggs = try stage.get("eggs.ics")
        #expect(!eggs.contains("RELATED-TO"), "\(eggs)")
        let changed: Set<String> = ["RELATED-TO", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]
        let kept = StatusServerTests.lines(try #require(stored["eggs.ics"])).filter {
            !changed.contains(StatusServerTests.name($0))
        }
        #expect(kept.filter { !StatusServerTests.lines(eggs).contains($0) }.isEmpty, "\(eggs)")
        // A second device sees the tree as the phone writes it.
        let phone2 = DiscoveryTests.Device()
        #expect(
            try phone2.setUp([stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
                == stage.collection)
        #expect(try run(phone2, ["sync"]).status == 0)
        let seen = try parseJSON(try run(phone2, ["list", "--json"]).stdout, as: [[String: Any]].self)
        let butter = try #require(seen.first { $0["name"] as? String == "Butter" })
        let groceries = try #require(seen.first { $0["name"] as? String == "Weekend groceries" })
        #expect(butter["parent"] as? Int == groceries["id"] as? Int)
        #expect(seen.first { $0["name"] as? String == "Eggs" }?["parent"] is NSNull)

        // The late parent arrives: the subtask that waited goes under it.
        #expect(
            (200..<300).contains(try stage.put("late.ics", StatusObjects.tasksOrg(uid: "late", name: "Late parent"))))
        #expect(try sync()["received"] as? Int == 1)
        #expect(try parent("Early bird") == "Late parent")
        #expect(try sync()["sent"] as? Int == 0, "its object said so already")

        // Point 1: a parent deleted here with its subtasks leaves none on the server.
        _ = try ok("rm", String(try id("Weekend groceries")), "--with-subtasks")
        #expect(try sync()["sent"] as? Int == 4)
        for file in ["groceries.ics", "milk.ics", "oat.ics"] {
            #expect(try stage.request("GET", file).status == 404, "\(file) on \(server)")
        }
        #expect(try run(phone2, ["sync"]).status == 0)
        let left = try parseJSON(try run(phone2, ["list", "--json"]).stdout, as: [[String: Any]].self)
        #expect(!left.contains { ["Weekend groceries", "Milk", "Oat milk", "Butter"].contains($0["name"] as? String) })
    }

    /// Dependencies (RFC 9253's RELATED-TO;RELTYPE=DEPENDS-ON) as an app writes them come in as
    /// "waits for", a link made here goes out as one, a todo waited for that comes later is
    /// linked when it arrives, and two objects waiting for each other never loop.
    @Test(arguments: Server.allCases) func dependsOnLinksComeInAndGoOut(server: Server) throws {
        let stage = try TagsWithSpacesServerTests.Stage(server)
        defer { stage.stop() }
        let laptop = DiscoveryTests.Device()
        let password = stage.user == nil ? nil : "secret"
        func ok(_ arguments: String...) throws -> String {
            let result = try laptop.todo(arguments, password: password)
            #expect(result.status == 0, "todo \(arguments) on \(server): \(result.stderr)")
            return result.stdout
        }
        func waits() throws -> [String: [String]] {
            let list = try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
            let names = Dictionary(list.map { ($0["id"] as? Int ?? 0, $0["name"] as? String ?? "") }) { a, _ in a }
            return Dictionary(
                list.map {
                    ($0["name"] as? String ?? "", ($0["depends"] as? [Int] ?? []).compactMap { names[$0] }.sorted())
                }
            ) { a, _ in a }
        }
        func id(_ name: String) throws -> String {
            let list = try parseJSON(try ok("list", "--json"), as: [[String: Any]].self, "todo list --json")
            return String(try #require(list.first { $0["name"] as? String == name }?["id"] as? Int))
        }
        #expect(
            try laptop.setUp([stage.collection] + (stage.user.map { ["--user", $0] } ?? []), password: password)
                == stage.collection)
        let phone: [(file: String, text: String)] = [
            ("paint.ics", StatusObjects.tasksOrg(uid: "paint", name: "Buy paint")),
            (
                "fence.ics",
                Self.with(
                    StatusObjects.nextcloud(uid: "fence", name: "Paint the fence"),
                    "RELATED-TO;RELTYPE=DEPENDS-ON:paint")
            ),
            (
                "party.ics",
                Self.with(
                    StatusObjects.tasksOrg(uid: "party", name: "Garden party"), "RELATED-TO;RELTYPE=DEPENDS-ON:later")
            ),
            ("a.ics", Self.with(StatusObjects.tasksOrg(uid: "a", name: "A"), "RELATED-TO;RELTYPE=DEPENDS-ON:b")),
            ("b.ics", Self.with(StatusObjects.tasksOrg(uid: "b", name: "B"), "RELATED-TO;RELTYPE=DEPENDS-ON:a"))
        ]
        for (file, text) in phone { #expect((200..<300).contains(try stage.put(file, text)), "PUT \(file)") }
        let first = try laptop.todo(["sync"], password: password)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("waits on the server for todos that wait for it here"), "\(first.stderr)")
        var links = try waits()
        #expect(links["Paint the fence"] == ["Buy paint"])
        #expect(links["Garden party"] == [], "what it waits for is not here yet")
        #expect((links["A"] ?? []) + (links["B"] ?? []) == ["B"] || (links["A"] ?? []) + (links["B"] ?? []) == ["A"])
        #expect(
            try ok("list").split(separator: "\n").contains {
                $0.contains("Paint the fence") && $0.contains("waits for")
            })
        let settled = try parseJSON(try ok("sync", "--json"), as: [String: Any].self)
        #expect(settled["sent"] as? Int == 0 && settled["received"] as? Int == 0, "\(settled)")

        // Out: a link made here, and one taken away; the other lines stay.
        _ = try ok("edit", try id("Garden party"), "--waits-for", try id("Paint the fence"))
        _ = try ok("edit", try id("Paint the fence"), "--no-wait-for", try id("Buy paint"))
        #expect(try parseJSON(try ok("sync", "--json"), as: [String: Any].self)["sent"] as? Int == 2)
        let party = try stage.get("party.ics")
        #expect(party.contains("RELATED-TO;RELTYPE=DEPENDS-ON:fence") && party.contains("DEPENDS-ON:later"), "\(party)")
        #expect(!(try stage.get("fence.ics")).contains("DEPENDS-ON"))

        // The todo waited for arrives: the link is made.
        #expect(
            (200..<300).contains(try stage.put("later.ics", StatusObjects.tasksOrg(uid: "later", name: "Hire chairs"))))
        _ = try ok("sync")
        links = try waits()
        #expect(links["Garden party"] == ["Hire chairs", "Paint the fence"])
        let again = try parseJSON(try ok("sync", "--json"), as: [String: Any].self)
        #expect(again["sent"] as? Int == 0 && again["received"] as? Int == 0, "\(again)")
    }
}
