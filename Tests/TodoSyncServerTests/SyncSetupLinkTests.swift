import Foundation
import TestSupport
import Testing

/// `todo sync setup` on a database that already syncs (issue 35, point 1): another collection is
/// never linked in silence, since the next sync would send it every todo here; the same one again
/// is fine; `--relink` says it is meant. Against real Radicale and Xandikos servers.
@Suite(.timed) struct SyncSetupLinkTests {
    static let kinds: [CalDAVServer.Kind] = [.radicale, .xandikos]

    static func start(_ kind: CalDAVServer.Kind) throws -> CalDAVServer {
        kind == .radicale ? try CalDAVServer.radicale() : try CalDAVServer.xandikos()
    }

    /// The lines of `text` that start with `error:`.
    static func errorLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix("error:") }
    }

    @Test(arguments: kinds) func setupNeverRetargetsALinkedDatabaseUnlessAskedTo(kind: CalDAVServer.Kind) throws {
        let server = try Self.start(kind)
        defer { server.stop() }
        let household = server.todoCollectionURL
        let personal = try server.makeCollection(name: "Personal", components: ["VTODO"])
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Buy milk")
        try laptop.ok("add", "Pay rent")
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 2)

        // The same collection again, from its URL: allowed, and nothing is sent twice.
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 0)

        // Another collection of the account, picked by name from the server's root, for the list
        // that syncs already: refused, and the error says what would go where and what allows it.
        // (For a list that does not sync yet, it is one more list: SyncListsTests.)
        let user = laptop.user.map { ["--user", $0] } ?? []
        let another = ["sync", "setup", server.base + "/"] + user + ["--name", "Personal", "--to", "Todos"]
        let refused = try laptop.todo(another)
        #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
        let errors = Self.errorLines(refused.stderr)
        #expect(errors.count == 1, "\(refused.stderr)")
        let error = String(errors.first ?? "")
        for part in [
            "all 2 todos here to \"Personal\" \(personal) at the next sync", "this database syncs with \(household)",
            "--relink"
        ] {
            #expect(error.contains(part), "\(part) is not in: \(error)")
        }
        let status = try parseJSON(laptop.ok("sync", "status", "--json"), as: [String: Any].self)
        #expect(status["url"] as? String == household, "the link is as it was")
        #expect(status["pending"] as? Int == 0, "the sync state is as it was")
        #expect(try laptop.sync()["sent"] as? Int == 0)
        #expect(try server.todosSeenByPython(personal).isEmpty, "nothing went to Personal")
        #expect(try server.todosSeenByPython(household).count == 2)

        // Asked for: the old link's state is forgotten as 'todo sync forget' does, and the todos go
        // to the new collection.
        let relinked = try laptop.todo(another + ["--relink"])
        #expect(relinked.status == 0, "\(relinked.stderr)")
        #expect(relinked.stdout.contains(personal) && relinked.stdout.contains(household), "\(relinked.stdout)")
        let after = try parseJSON(laptop.ok("sync", "status", "--json"), as: [String: Any].self)
        #expect(after["url"] as? String == personal)
        #expect(after["last_sync"] is NSNull && after["pending"] as? Int == 2)
        #expect(try laptop.dump("sync_items").contains("INSERT") == false)
        #expect(try laptop.sync()["sent"] as? Int == 2)
        #expect(try server.listSeenByPython(personal) == ["Buy milk|null|0", "Pay rent|null|0"])
        #expect(try server.todosSeenByPython(household).count == 2, "the old collection is left as it was")
    }

    /// `--to` links one collection to a list: with several found and no `--name`, nothing is
    /// stored, and the hint gives the command that picks one.
    @Test func severalCollectionsForOneListSayHowToSetUpEachOne() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        try server.makeCollection(name: "Personal", components: ["VTODO"])
        let laptop = SyncDevice(server)
        let result = try laptop.todo([
            "sync", "setup", server.base + "/", "--user", "alice", "--password-command", "echo 'secret'", "--to",
            "Todos"
        ])
        #expect(result.status == 1)
        #expect(Self.errorLines(result.stderr).count == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "todo sync setup \(server.base)/ --user alice --password-command 'echo '\\''secret'\\''' --name Personal --to Todos"
            ),
            "\(result.stderr)")
        #expect(result.stderr.contains("run setup again with another --name"), "\(result.stderr)")
    }
}
