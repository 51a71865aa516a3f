import Foundation
import TestSupport
import Testing

/// One account, every list (issue 35): `todo sync setup` of an account links every collection
/// that holds todos (or those `--only` names), and each `todo sync` lists the account's calendar
/// home once to follow what the phone did to its collections (made, renamed, recoloured,
/// deleted) and to skip the lists with nothing to do. Against real servers, the phone's
/// collections and objects made by raw HTTP.
@Suite(.timed) struct SyncAccountTests {
    /// A VTODO the phone writes into the collection at `url` by a plain PUT.
    static func put(_ server: CalDAVServer, _ uid: String, _ summary: String, into url: String) throws {
        let text =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20240101T090000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let status = try server.request(
            "PUT", url + uid + ".ics", body: Data(text.utf8), headers: ["Content-Type": "text/calendar; charset=utf-8"]
        ).status
        #expect((200..<300).contains(status), "PUT \(uid): \(status)")
    }

    /// `todo lists --json` of `device`, by name.
    static func lists(_ device: SyncDevice) throws -> [String: [String: Any]] {
        let lists = try parseJSON(try device.ok("lists", "--json"), as: [[String: Any]].self)
        return Dictionary(lists.map { ($0["name"] as? String ?? "", $0) }) { first, _ in first }
    }

    /// The account's lists in a sync's JSON (`"lists"`).
    static func account(_ report: [String: Any]) -> [String: [[String: Any]]] {
        (report["lists"] as? [String: Any] ?? [:]).mapValues { $0 as? [[String: Any]] ?? [] }
    }

    /// A no-op `todo sync` of an account with five lists is one request (the home's PROPFIND),
    /// and no more companions than that; a change there, or here, costs that list's requests alone.
    /// On main, it was one REPORT per list.
    @Test func aSyncWithNothingToDoIsOneRequestWhateverTheLists() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let proxy = try MisbehavingProxy(server)
        var urls = [server.todoCollectionURL]
        for index in 2...5 {
            urls.append(
                try server.makeCollection(name: "List \(index)", components: ["VTODO"], segment: "list\(index)"))
        }
        for (index, url) in urls.enumerated() { try Self.put(server, "phone-\(index)", "Todo \(index)", into: url) }
        let laptop = SyncDevice(server, url: proxy.base + "/")
        let setup = try laptop.todo(["sync", "setup", proxy.base + "/", "--user", "alice"])
        #expect(
            setup.status == 0 && setup.stdout.hasPrefix("Set up sync of 5 lists"), "\(setup.stdout) \(setup.stderr)")
        #expect(try laptop.sync()["received"] as? Int == 5)
        try laptop.sync()

        let (idle, requests) = try proxy.recording { try laptop.sync() }
        #expect(idle["sent"] as? Int == 0 && idle["received"] as? Int == 0)
        #expect(requests.map { "\($0.method) \($0.path)" } == ["PROPFIND /alice/"], "\(requests.map(\.path))")

        // The phone changes one collection: its list alone is read.
        try Self.put(server, "phone-new", "New there", into: urls[2])
        let (changed, read) = try proxy.recording { try laptop.sync() }
        #expect(changed["received"] as? Int == 1)
        let paths = Set(read.map(\.path)).subtracting(["/alice/"])
        #expect(!paths.isEmpty && paths.allSatisfy { $0.hasPrefix("/alice/list3/") }, "\(read.map(\.path))")

        // A change here: that list's collection alone is written (and read back).
        try laptop.ok("add", "Here", "--list", "List 5")
        let (sent, written) = try proxy.recording { try laptop.sync() }
        #expect(sent["sent"] as? Int == 1)
        let touched = Set(written.map(\.path)).subtracting(["/alice/"])
        #expect(!touched.isEmpty && touched.allSatisfy { $0.hasPrefix("/alice/list5/") }, "\(written.map(\.path))")
        let (_, after) = try proxy.recording { try laptop.sync() }
        #expect(after.count <= 2, "our own write, listed once at most: \(after.map(\.path))")
        let (_, last) = try proxy.recording { try laptop.sync() }
        #expect(last.map(\.method) == ["PROPFIND"], "\(last.map(\.path))")
    }
}
