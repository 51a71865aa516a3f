import Foundation
import TestSupport
import Testing

/// What `todo` sends is what other CalDAV tools read: vdirsyncer copies the collection into a
/// folder of .ics files, and todoman lists them with the same names, due dates and states; a
/// todo that todoman completes comes back to `todo` done.
@Suite(.timed) struct VdirsyncerInteropTests {
    @Test func vdirsyncerAndTodomanSeeWhatTodoSentAndTodoSeesWhatTheyChange() throws {
        let server = try CalDAVServer.radicale()
        defer { server.stop() }
        let laptop = SyncDevice(server)
        try laptop.ok("add", "Buy milk", "--due", "2024-05-01")
        try laptop.ok("add", "Pay rent")
        try laptop.ok("add", "Café, crème; brûlée")
        try laptop.ok("done", "2")
        // Issue 26's fields, written as another program would: todoman must see them.
        let shell = try ProcessRunner.run(
            "sqlite3",
            [
                laptop.database,
                "UPDATE todos SET priority = 1, tags = '+errands @shop', note = 'semi-skimmed' WHERE id = 1"
            ])
        #expect(shell.status == 0, "\(shell.stderr)")
        let completed = try ProcessRunner.run("sqlite3", [laptop.database, "SELECT completed FROM todos WHERE id = 2"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try laptop.setUp()
        #expect(try laptop.sync()["sent"] as? Int == 3)

        let todoman = try Todoman(url: server.todoCollectionURL, user: "alice", password: "secret")
        let listed = try todoman.list()
        let byName = Dictionary(
            listed.map { ($0["summary"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byName.keys) == ["Buy milk", "Pay rent", "Café, crème; brûlée"])
        #expect(byName["Buy milk"]?["due"] as? Int == 1_714_521_600, "2024-05-01 at midnight UTC")
        #expect(byName["Pay rent"]?["completed"] as? Bool == true)
        #expect(byName["Buy milk"]?["completed"] as? Bool == false)
        #expect(
            byName["Buy milk"]?["priority"] as? Int == 1
                && byName["Buy milk"]?["description"] as? String == "semi-skimmed")
        let paid = try #require(byName["Pay rent"]?["completed_at"] as? Int)
        #expect(paid == Int(ISO8601DateFormatter().date(from: completed)?.timeIntervalSince1970 ?? -1), "\(completed)")
        let errands = try parseJSON(
            try todoman.run(["/usr/bin/todoman", "--porcelain", "list", "--status", "ANY", "--category", "errands"]),
            as: [[String: Any]].self)
        #expect(errands.map { $0["summary"] as? String } == ["Buy milk"], "categories are the tags")

        // todoman completes "Buy milk"; vdirsyncer takes it to the server; todo receives it.
        let milk = try #require(byName["Buy milk"]?["id"] as? Int)
        try todoman.run(["/usr/bin/todoman", "edit", "\(milk)", "--priority", "low"])
        try todoman.run(["/usr/bin/todoman", "done", "\(milk)"])
        try todoman.vdirsyncer("sync")
        #expect(try laptop.sync()["received"] as? Int == 1)
        #expect(try laptop.summary().contains("Buy milk|2024-05-01|1"))
        let milkHere = try ProcessRunner.run(
            "sqlite3", [laptop.database, "SELECT priority, tags, note, completed IS NOT NULL FROM todos WHERE id = 1"])
        // todoman (4.1) writes the todo back without its CATEGORIES when it edits it: a removal
        // made there, which the set merge of tags applies here too.
        #expect(milkHere.stdout == "9||semi-skimmed|1\n", "todoman's priority, completion and removal came back")
    }
}
