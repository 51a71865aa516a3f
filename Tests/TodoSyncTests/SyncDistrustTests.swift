import Foundation
import SQLite
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// What the engine refuses to believe from a server (issue 22), on the in-memory collection;
/// TodoSyncServerTests runs the same cases through a misbehaving proxy in front of Radicale.
@Suite(.timed) struct SyncDistrustTests {
    let folder = TemporaryFolder()

    /// A device with three synced todos, synced once more: it holds a sync token (the first
    /// sync's listing of an empty collection gives none to keep), so changes come as deltas.
    func syncedDevice(_ server: InMemoryCollection, _ name: String = "laptop") throws -> Device {
        let device = try Device(folder, name, server)
        for todo in ["Buy milk", "Pay rent", "Call mum"] { try device.repository.add(name: todo) }
        try device.sync()
        try device.sync()
        return device
    }

    @Test func anEmptyCompleteListingDeletesNothingUnlessForced() throws {
        let server = InMemoryCollection()
        let laptop = try syncedDevice(server)
        server.listsNothing = true
        let before = try laptop.list()
        #expect(throws: SyncError.serverEmpty(syncedBefore: 3)) { try laptop.sync() }
        #expect(try laptop.list() == before)
        // Asked again, still refused; the user's explicit word deletes.
        #expect(throws: SyncError.serverEmpty(syncedBefore: 3)) { try laptop.sync() }
        let forced = try SyncEngine(
            repository: laptop.repository, collection: server, timeZone: .offset(seconds: 0),
            now: { 1_700_000_000 }, forceDelete: true
        ).sync()
        #expect(forced.deleted == 3)
        #expect(try laptop.list().isEmpty)
    }

    @Test func anEmptyListingIsBelievedWhenNothingWasSyncedBeforeButSkipsNothingForGood() throws {
        let server = InMemoryCollection()
        let phone = try Device(folder, "phone", server)
        try phone.repository.add(name: "Buy milk")
        try phone.sync()
        server.listsNothing = true
        let laptop = try Device(folder, "laptop", server)
        #expect(try laptop.sync() == SyncReport())
        server.listsNothing = false
        #expect(try laptop.sync().received == 1, "the lie's token was not kept: the next listing has the todo")
        #expect(try laptop.list() == phone.list())
    }

    @Test func aListingCutShortDeletesNothingKeepsNoTokenAndIsReported() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        for name in ["Buy milk", "Call mum", "Pay the rent", "Water the plants"] {
            try laptop.repository.add(name: name)
        }
        try laptop.sync()
        let before = try laptop.list()
        let tokenBefore = try SyncState(repository: laptop.repository).progress().syncToken
        server.cutsListings = true
        let report = try laptop.sync()
        #expect(report.listingCutShort && report.deleted == 0)
        #expect(try laptop.list() == before, "nothing the cut listing left out was deleted")
        #expect(try SyncState(repository: laptop.repository).progress().syncToken == tokenBefore)
        // A new device gets what is listed now, the rest once the listing is whole.
        let phone = try Device(folder, "phone", server)
        #expect(try phone.sync().received == 2)
        server.cutsListings = false
        #expect(try phone.sync().received == 2)
        #expect(try phone.list() == laptop.list())
    }

    @Test func anObjectLeftOutOfAFetchIsNotDeletedAndIsFetchedNextTime() throws {
        for tokens in [true, false] {
            let server = InMemoryCollection(offersTokens: tokens)
            let laptop = try syncedDevice(server, "laptop-\(tokens)")
            let phone = try Device(folder, "phone-\(tokens)", server)
            try phone.sync()
            _ = try phone.repository.rename(id: phone.id("Buy milk"), to: "Buy oat milk")
            _ = try phone.repository.rename(id: phone.id("Pay rent"), to: "Pay the rent")
            try phone.sync()
            let left = try #require(
                try SyncState(repository: laptop.repository).items().values.first { $0.base.name == "Buy milk" }?.href)
            server.leavesOut = [left]
            let report = try laptop.sync()
            #expect(report.notDelivered == [left])
            #expect(report.deleted == 0 && report.received == 1)
            #expect(try laptop.list().map(\.name) == ["Buy milk", "Call mum", "Pay the rent"], "tokens: \(tokens)")
            server.leavesOut = []
            let next = try laptop.sync()
            #expect(next.received == 1 && next.notDelivered.isEmpty)
            #expect(try laptop.list() == phone.list(), "tokens: \(tokens)")
        }
    }

    @Test func aFailedWriteKeepsTheWritesBeforeIt() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        for name in ["a", "b", "c", "d"] { try laptop.repository.add(name: name) }
        server.failsWrite = 2
        #expect(throws: SyncError.self) { try laptop.sync() }
        #expect(server.objects.count == 1)
        #expect(try SyncState(repository: laptop.repository).pendingCount() == 3)
        let report = try laptop.sync()
        #expect(report.sent == 3 && report.conflicts.isEmpty)
        #expect(server.objects.count == 4, "no duplicates")
        #expect(try laptop.sync() == SyncReport())
    }

    @Test func whatTheServerStoresIsWhatThisDeviceKeeps() throws {
        let server = InMemoryCollection()
        server.storing = { text in
            text.replacingOccurrences(
                of: #"SUMMARY:([^\r\n]*?) +\r\n"#, with: "SUMMARY:$1\r\n", options: .regularExpression)
        }
        let laptop = try Device(folder, "laptop", server)
        let phone = try Device(folder, "phone", server)
        try laptop.repository.add(name: "trailing  ")
        let report = try laptop.sync()
        #expect(report.sent == 1 && report.conflicts.isEmpty)
        #expect(try laptop.list().map(\.name) == ["trailing"])
        try phone.sync()
        #expect(try laptop.list() == phone.list())
        #expect(try laptop.sync() == SyncReport(), "converged: nothing to send")
    }

    @Test func anUnreadableObjectOfOursKeepsTheTodoAndIsReadAgain() throws {
        let server = InMemoryCollection()
        let laptop = try syncedDevice(server)
        let href = try #require(
            try SyncState(repository: laptop.repository).items().values.first { $0.base.name == "Call mum" }?.href)
        server.put(href, "not iCalendar")
        let report = try laptop.sync()
        #expect(report.unreadable == [href] && report.deleted == 0)
        #expect(try laptop.list().map(\.name).contains("Call mum"))
        // Still unreadable: reported again, since the todo is ours and kept its old version.
        #expect(try laptop.sync().unreadable == [href])
    }

    @Test func aNewObjectSentBrokenOnceArrivesWhenItIsSentWhole() throws {
        let server = InMemoryCollection()
        let laptop = try syncedDevice(server)
        let phone = try Device(folder, "phone", server)
        try phone.sync()
        try phone.repository.add(name: "Water plants")
        try phone.sync()
        let href = try #require(server.objects.first { $0.value.text.contains("Water plants") }?.key)
        let whole = try #require(server.objects[href]?.text)
        server.put(href, "not iCalendar")  // a broken answer: the object as this sync sees it
        #expect(try laptop.sync().unreadable == [href])
        server.put(href, whole)
        #expect(try laptop.sync().received == 1)
        #expect(try laptop.list() == phone.list())
    }

    @Test func anEditThatBeatADeleteNamesTheTodoAsTheUserKnewIt() throws {
        let server = InMemoryCollection()
        let laptop = try syncedDevice(server)
        let phone = try Device(folder, "phone", server)
        try phone.sync()
        let oldID = try laptop.id("Buy milk")
        _ = try laptop.repository.delete(ids: [oldID])
        _ = try phone.repository.rename(id: phone.id("Buy milk"), to: "Buy oat milk")
        try phone.sync()
        let report = try laptop.sync()
        let conflict = try #require(report.conflicts.first)
        let newID = try laptop.id("Buy oat milk")
        #expect(conflict.subject == .deleted && conflict.previousID == oldID && conflict.todoID == newID)
        #expect(conflict.name == "Buy oat milk" && conflict.deletedHere)
    }
}
