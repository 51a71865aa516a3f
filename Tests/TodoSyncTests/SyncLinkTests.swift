import Foundation
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// ``SyncState/link(_:relinking:listNamed:)``: the rule `todo sync setup` follows on a database that
/// already syncs (issue 35, point 1).
@Suite(.timed) struct SyncLinkTests {
    let folder = TemporaryFolder()
    static let household = SyncRemote(url: "http://127.0.0.1/alice/household/", user: "alice", passwordCommand: nil)

    @Test func theSameCollectionIsLinkedAgainAndAnotherOnlyWhenAskedFor() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        let state = SyncState(repository: laptop.repository)
        try state.setRemote(Self.household)
        try laptop.repository.add(name: "Buy milk")
        let gone = try laptop.repository.add(name: "Pay rent")
        try laptop.sync()
        _ = try laptop.repository.delete(ids: [gone.id])
        try laptop.sync()

        // The same URL and user, another password command: linked, its sync state kept as a
        // setup keeps it.
        var again = Self.household
        again.passwordCommand = "pass show caldav"
        #expect(try state.link(again, relinking: false) == .linked)
        #expect(try state.remote() == again)

        // Another user at the same URL, or another URL: refused, nothing changed, and the count
        // of what would be sent.
        var otherUser = again
        otherUser.user = "bob"
        var personal = again
        personal.url = "http://127.0.0.1/alice/personal/"
        for other in [otherUser, personal] {
            let before = (try state.items(), try state.progress())
            #expect(try state.link(other, relinking: false) == .refused(current: again, todos: 1))
            #expect(try state.remote() == again)
            #expect(try state.items() == before.0 && state.progress() == before.1, "nothing changed")
        }

        // Asked for: forgotten as `forget()` forgets, then linked.
        #expect(try state.link(personal, relinking: true) == .relinked(previous: again))
        #expect(try state.remote() == personal)
        #expect(try state.items().isEmpty)
        #expect(try state.progress() == SyncProgress(syncToken: nil, lastSync: nil, feedSeq: 0))
        #expect(try state.pendingCount() == 1)
        #expect(
            try laptop.repository.connection.prepare("SELECT count(*) FROM todo_uids").scalarInt64() == 1,
            "the UID of the todo deleted here is forgotten, as forget() does")
    }
}

/// Another collection of the same account, for a list that does not sync yet, is one more list.
@Suite(.timed) struct SyncAddedLinkTests {
    let folder = TemporaryFolder()

    @Test func anotherCollectionOfTheAccountIsOneMoreList() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        let state = SyncState(repository: laptop.repository)
        let household = SyncRemote(url: "http://127.0.0.1/alice/household/", user: "alice", passwordCommand: nil)
        try state.setRemote(household)
        var personal = household
        personal.url = "http://127.0.0.1/alice/personal/"
        let outcome = try state.link(personal, relinking: false, listNamed: "Personal")
        let list = try #require(try laptop.repository.list(named: "Personal"))
        #expect(outcome == .added(list: list.id))
        #expect(
            try state.links() == [SyncLink(list: 1, url: household.url), SyncLink(list: list.id, url: personal.url)])
        #expect(try state.remote() == household, "the remote is as it was")
        // Again: as it is. Another server, or another user: refused.
        #expect(try state.link(personal, relinking: false, listNamed: "Personal") == .linked)
        var elsewhere = personal
        elsewhere.url = "http://127.0.0.2/alice/work/"
        #expect(
            try state.link(elsewhere, relinking: false, listNamed: "Work") == .refused(current: household, todos: 0))
        #expect(try laptop.repository.list(named: "Work") == nil, "nothing made for a refusal")
        #expect(try state.links().count == 2)
    }
}
