import Foundation
import SQLite
import SyncProtocol
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// A calendar home in memory: collections by URL, each with its display name and colour, listed
/// with the sync token each would give now.
final class InMemoryHome: CalendarHome, @unchecked Sendable {
    struct Entry {
        var url: String
        var name: String?
        var color: String?
        var collection: InMemoryCollection
        var components = ["VTODO"]
    }

    var entries: [Entry] = []
    private(set) var requests = 0
    /// The collections the last sync opened, by URL (none when it opened none).
    private(set) var opened: [String] = []
    /// Collections that answer as deleted (404) when read, though listed.
    var notFound: Set<String> = []

    func collections() throws(SyncError) -> [HomeCollection] {
        requests += 1
        opened = []
        return entries.map {
            HomeCollection(
                url: $0.url, name: $0.name, color: $0.color, components: $0.components,
                syncToken: $0.collection.currentToken)
        }
    }

    /// Colours the server refuses (as Cyrus refused `#RRGGBBAA` before 2026): left as they were.
    var refusesColors: Set<String> = []
    /// Collections made, in order.
    private(set) var made: [MakeCollectionRequest] = []
    /// Property changes asked, in order.
    private(set) var set: [SetCollectionRequest] = []

    func makeCollection(_ request: MakeCollectionRequest) throws(SyncError) -> CollectionAnswer {
        made.append(request)
        let url = request.home + request.segment + "/"
        entries.append(.init(url: url, name: request.name, color: request.color, collection: InMemoryCollection()))
        return answer(url, asked: [.name, .color, .components])
    }

    func setCollection(_ request: SetCollectionRequest) throws(SyncError) -> CollectionAnswer {
        set.append(request)
        guard var entry = self[request.url] else { throw .collectionNotFound("PROPPATCH: 404") }
        if let name = request.name { entry.name = name }
        if let color = request.color, !refusesColors.contains(color) { entry.color = color }
        self[request.url] = entry
        return answer(
            request.url, asked: (request.name != nil ? [.name] : []) + (request.color != nil ? [.color] : []),
            refused: request.color.map { refusesColors.contains($0) } ?? false)
    }

    private func answer(_ url: String, asked: [CollectionProperty], refused: Bool = false) -> CollectionAnswer {
        let entry = self[url]
        return CollectionAnswer(
            collection: CollectionState(
                url: url, calendar: true, todos: true, components: ["VTODO"], name: entry?.name,
                color: entry?.color.flatMap(CalendarColor.read)),
            properties: asked.map {
                PropertyOutcome(
                    property: $0, set: !(refused && $0 == .color), status: refused && $0 == .color ? 403 : 200)
            })
    }

    subscript(url: String) -> Entry? {
        get { entries.first { $0.url == url } }
        set {
            entries.removeAll { $0.url == url }
            if let newValue { entries.append(newValue) }
        }
    }

    /// A sync of the account of `repository` (its home this one).
    func account(_ repository: TodoRepository) -> AccountSync {
        AccountSync(repository: repository, home: self, timeZone: .offset(seconds: 0), now: { 1_700_000_000 }) {
            (links) throws(SyncError) -> [any CalendarCollection] in
            self.opened = links.map(\.url)
            return links.map { link in
                guard !self.notFound.contains(link.url), let entry = self[link.url] else {
                    return GoneCollection()
                }
                return entry.collection
            }
        }
    }
}

/// A collection deleted on the server: every request answers 404.
struct GoneCollection: CalendarCollection {
    func changes(since token: String?) throws(SyncError) -> ChangesAnswer {
        throw .collectionNotFound("REPORT: no such collection (HTTP 404)")
    }
    func fetch(_ hrefs: [String]) throws(SyncError) -> FetchAnswer { throw .collectionNotFound("404") }
    func write(_ writes: [Write]) throws(SyncError) -> [WriteAnswer.Outcome] { throw .collectionNotFound("404") }
    func href(forNewUID uid: String) -> String { "/gone/\(uid).ics" }
}

/// ``AccountSync``: the home listed once a sync, the lists brought in line with the collections,
/// and only the lists with something to do synced (issue 35).
@Suite(.timed) struct AccountSyncTests {
    let folder = TemporaryFolder()
    static let home = "http://127.0.0.1/alice/"

    /// A database set up with the account's collections at `urls` (each to the list of its name in
    /// the home), following every collection.
    func device(_ home: InMemoryHome, followsAll: Bool = true) throws -> TodoRepository {
        let repository = try TodoRepository(path: folder.file("laptop.sqlite"))
        let state = SyncState(repository: repository)
        for (index, entry) in home.entries.enumerated() {
            let list = try AccountSync.list(for: HomeCollection(url: entry.url, name: entry.name), in: repository)
            let remote = SyncRemote(
                url: entry.url, user: "alice", passwordCommand: nil, listID: list.id, home: Self.home,
                followsAll: followsAll)
            if index == 0 { try state.setRemote(remote) } else { _ = try state.link(remote, relinking: false) }
        }
        return repository
    }

    static func todo(_ uid: String, _ summary: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTODO\r\nUID:\(uid)\r\n"
            + "DTSTAMP:20240101T090000Z\r\nSUMMARY:\(summary)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    }

    @discardableResult
    func sync(_ home: InMemoryHome, _ repository: TodoRepository) throws -> SyncReport {
        var report = SyncReport()
        try home.account(repository).sync(into: &report)
        return report
    }

    func listID(_ name: String, _ repository: TodoRepository) throws -> Int64 {
        try #require(try repository.list(named: name)).id
    }

    @Test func aListWithNothingToDoIsNotOpenedAndAChangeOpensItsListAlone() throws {
        let home = InMemoryHome()
        let urls = (1...3).map { "\(Self.home)list\($0)/" }
        for (index, url) in urls.enumerated() {
            let collection = InMemoryCollection()
            collection.put("/cal/phone-\(index).ics", Self.todo("phone-\(index)", "Phone \(index)"))
            home.entries.append(.init(url: url, name: "List \(index + 1)", collection: collection))
        }
        let laptop = try device(home)
        #expect(try sync(home, laptop).received == 3)
        try sync(home, laptop)
        let requests = home.entries.map(\.collection.requests)
        try sync(home, laptop)
        #expect(home.opened == [], "nothing to do: no collection opened")
        #expect(home.entries.map(\.collection.requests) == requests)

        // A change here opens its list's collection alone; one there too.
        try laptop.add(TodoFields(name: "Here"), list: try listID("List 2", laptop))
        #expect(try sync(home, laptop).sent == 1)
        #expect(home.opened == [urls[1]])
        home.entries[2].collection.put("/cal/phone-new.ics", Self.todo("phone-new", "There"))
        #expect(try sync(home, laptop).received == 1)
        #expect(home.opened == [urls[2]])
        try sync(home, laptop)
        #expect(home.opened == [], "our own write and the phone's taken in: nothing to do")

        // A todo moved between two lists opens both: deleted from one, written to the other.
        try laptop.move(
            ids: [try #require(try laptop.fetch().first { $0.name == "Here" }).id], to: try listID("List 1", laptop))
        #expect(try sync(home, laptop).sent == 2)
        #expect(Set(home.opened) == [urls[0], urls[1]])
        #expect(home.entries[0].collection.objects.values.contains { $0.text.contains("SUMMARY:Here") })
        #expect(!home.entries[1].collection.objects.values.contains { $0.text.contains("SUMMARY:Here") })
    }

    @Test func aCollectionGoneIsAListKeptAndOneMadeIsALinked() throws {
        let home = InMemoryHome()
        let household = InMemoryCollection()
        household.put("/cal/eggs.ics", Self.todo("eggs", "Eggs"))
        home.entries = [.init(url: Self.home + "household/", name: "Household", collection: household)]
        let laptop = try device(home)
        // A list of this device, matched by name under case folding (empty, it has no collection
        // of its own yet).
        _ = try laptop.createList(named: "work")
        try sync(home, laptop)

        // Made on the phone: linked to the list of its name, coloured as it is.
        let work = InMemoryCollection()
        work.put("/cal/memo.ics", Self.todo("memo", "Memo"))
        home.entries.append(.init(url: Self.home + "work/", name: "Work", color: "#2E7D32FF", collection: work))
        let calendar = InMemoryCollection()
        home.entries.append(
            .init(url: Self.home + "cal/", name: "Events", collection: calendar, components: ["VEVENT"]))
        let linked = try sync(home, laptop)
        #expect(linked.account.linked.map(\.name) == ["work"], "the events calendar is no list")
        #expect(linked.received == 1 && linked.sent == 0)
        #expect(try laptop.lists().map(\.name).sorted() == ["Household", "Todos", "work"])

        // Deleted on the phone: the list is gone, its todos kept; said once.
        home[Self.home + "household/"] = nil
        let gone = try sync(home, laptop)
        #expect(gone.account.gone.map(\.name) == ["Household"] && gone.account.gone.first?.todos == 1)
        #expect(gone.deleted == 0)
        #expect(try laptop.fetch().contains { $0.name == "Eggs" })
        #expect(try sync(home, laptop).account.isEmpty)
        #expect(try SyncState(repository: laptop).links().first { $0.url.hasSuffix("/household/") }?.gone == true)
        // Back (a server that hid it for a while): it syncs again, nothing lost.
        home.entries.append(.init(url: Self.home + "household/", name: "Household", collection: household))
        #expect(try sync(home, laptop).account.back.map(\.name) == ["Household"])
        try laptop.add(TodoFields(name: "Bread"), list: try listID("Household", laptop))
        #expect(try sync(home, laptop).sent == 1)

        // Answering 404 while listed (deleted meanwhile): gone too, the other lists synced.
        home.notFound = [Self.home + "household/"]
        try laptop.add(TodoFields(name: "Milk"), list: try listID("Household", laptop))
        try laptop.add(TodoFields(name: "Slides"), list: try listID("work", laptop))
        let missing = try sync(home, laptop)
        #expect(missing.account.gone.map(\.name) == ["Household"] && missing.sent == 1, "\(missing)")
        #expect(try laptop.fetch().filter { $0.name == "Milk" || $0.name == "Eggs" }.count == 2)
    }

    @Test func anAccountOfSomeCollectionsMentionsANewOneOnce() throws {
        let home = InMemoryHome()
        home.entries = [.init(url: Self.home + "tasks/", name: "Tasks", collection: InMemoryCollection())]
        let laptop = try device(home, followsAll: false)
        try sync(home, laptop)
        home.entries.append(.init(url: Self.home + "shared/", name: "Shared", collection: InMemoryCollection()))
        let report = try sync(home, laptop)
        #expect(report.account.found == [AccountReport.Found(name: "Shared", url: Self.home + "shared/")])
        #expect(report.account.linked.isEmpty)
        #expect(try laptop.list(named: "Shared") == nil)
        #expect(try sync(home, laptop).account.found.isEmpty, "mentioned once")
    }

    @Test func namesAndColoursFollowTheServerAndAConflictKeepsThisSides() throws {
        let home = InMemoryHome()
        let url = Self.home + "work/"
        home.entries = [.init(url: url, name: "Work", color: "#FF0000", collection: InMemoryCollection())]
        let laptop = try device(home)
        _ = try laptop.createList(named: "Errands")
        try sync(home, laptop)
        let id = try listID("Work", laptop)

        // Renamed and recoloured there (Apple's #RRGGBBAA): here too.
        home[url]?.name = "Office"
        home[url]?.color = "#00ff0080"
        let renamed = try sync(home, laptop)
        #expect(renamed.account.renamed == [AccountReport.Renamed(listID: id, from: "Work", to: "Office")])
        #expect(try laptop.list(id: id)?.color == "#00FF00")
        // To another list's name: ` (2)`. A colour that is none (a CSS name): no opinion.
        home[url]?.name = "errands"
        home[url]?.color = "green"
        #expect(try sync(home, laptop).account.renamed.map(\.to) == ["errands (2)"])
        #expect(try laptop.list(id: id)?.color == "#00FF00")
        // A name that would be no list's: made one (control characters, a leading dash).
        home[url]?.name = "-\u{1B}[31mRed\tTape"
        #expect(try sync(home, laptop).account.renamed.map(\.to) == ["[31mRed Tape"])

        // Both sides changed: this side's is kept, reported once.
        _ = try laptop.renameList(id: id, to: "Desk")
        home[url]?.name = "Bureau"
        let both = try sync(home, laptop)
        #expect(
            both.account.conflicts == [
                AccountReport.Conflict(listID: id, name: "Desk", field: .name, kept: "Desk", replaced: "Bureau")
            ])
        #expect(try laptop.list(id: id)?.name == "Desk")
        #expect(try sync(home, laptop).account.isEmpty)
    }

    @Test func theMergeOfOneProperty() {
        typealias Merge = ListPropertyMerge
        #expect(Merge(local: "A", localBase: "A", remote: "B", remoteBase: "B") == .unchanged)
        #expect(Merge(local: "A", localBase: "A", remote: "C", remoteBase: "B") == .takeRemote("C"))
        #expect(Merge(local: "D", localBase: "A", remote: "B", remoteBase: "B") == .sendLocal("D"))
        #expect(Merge(local: "D", localBase: "A", remote: "D", remoteBase: "B") == .agreed)
        #expect(Merge(local: "D", localBase: "A", remote: "C", remoteBase: "B") == .conflict(kept: "D", replaced: "C"))
        #expect(Merge(local: nil, localBase: "#FF0000", remote: "#FF0000", remoteBase: "#FF0000") == .sendLocal(nil))
    }

    @Test func aListNameFromTheServer() {
        #expect(AccountSync.listName("Work", url: "") == "Work")
        #expect(AccountSync.listName("  --Work\u{202E}  ", url: "") == "Work")
        #expect(AccountSync.listName(nil, url: "http://h/alice/groceries/") == "groceries")
        #expect(AccountSync.listName("\u{7}\u{7}", url: "http://h/alice/-/") == "Tasks")
        #expect(AccountSync.listName(String(repeating: "x", count: 5_000), url: "").count == 200)
        let huge = AccountSync.bounded(
            HomeCollection(
                url: "http://h/a/", name: String(repeating: "é", count: 5_000),
                color: String(repeating: "#", count: 100),
                syncToken: String(repeating: "t", count: 10_000)))
        #expect(huge.name?.count == 200 && huge.color == nil && huge.syncToken == nil)
    }

    @Test func aListOfThisDeviceGetsACollectionOnceItHoldsATodoAndItsChangesAreSent() throws {
        let home = InMemoryHome()
        home.entries = [.init(url: Self.home + "tasks/", name: "Tasks", collection: InMemoryCollection())]
        let laptop = try device(home)
        let errands = try laptop.createList(named: "Errands", color: "#2E7D32")
        // A fresh database's empty default list, and an empty list: not made.
        try sync(home, laptop)
        #expect(home.made.isEmpty)
        try laptop.add(TodoFields(name: "Stamps"), list: errands.id)
        let made = try sync(home, laptop)
        #expect(home.made.map(\.name) == ["Errands"] && home.made.first?.color == "#2E7D32")
        #expect(home.made.first?.home == Self.home && home.made.first?.segment.count == 36, "a UUID")
        #expect(made.account.made.map(\.name) == ["Errands"] && made.sent == 1)
        let url = try #require(made.account.made.first?.url)
        #expect(home[url]?.collection.objects.values.contains { $0.text.contains("SUMMARY:Stamps") } == true)
        #expect(try sync(home, laptop).account.isEmpty, "made once")

        // Renamed and recoloured here: sent; a colour the server refuses is said once and kept here.
        _ = try laptop.renameList(id: errands.id, to: "Chores")
        _ = try laptop.setListColor(id: errands.id, to: "#112233")
        let sent = try sync(home, laptop)
        #expect(home.set.last == SetCollectionRequest(url: url, name: "Chores", color: "#112233"))
        #expect(sent.account.sent.first?.newName == "Chores" && sent.account.sent.first?.color == "#112233")
        #expect(home[url]?.name == "Chores" && home[url]?.color == "#112233")
        home.refusesColors = ["#445566"]
        _ = try laptop.setListColor(id: errands.id, to: "#445566")
        let refused = try sync(home, laptop)
        #expect(refused.account.refused.map(\.value) == ["#445566"] && refused.account.sent.isEmpty)
        #expect(try sync(home, laptop).account.isEmpty && home.set.count == 2, "not sent again")
        #expect(try laptop.list(id: errands.id)?.color == "#445566")

        // Gone: not made again. Forgotten on purpose: stays on this device.
        home[url] = nil
        #expect(try sync(home, laptop).account.gone.map(\.name) == ["Chores"])
        try laptop.add(TodoFields(name: "Envelopes"), list: errands.id)
        #expect(try sync(home, laptop).account.isEmpty && home.made.count == 1)
        let work = try laptop.createList(named: "Work")
        try laptop.add(TodoFields(name: "Slides"), list: work.id)
        try sync(home, laptop)
        #expect(home.made.map(\.name) == ["Errands", "Work"])
        _ = try SyncState(repository: laptop).forgetLink(list: work.id)
        try laptop.add(TodoFields(name: "Memo"), list: work.id)
        #expect(try sync(home, laptop).account.isEmpty && home.made.count == 2, "forgotten: stays here")
        // A gone list forgotten is an ordinary list again: made anew.
        _ = try SyncState(repository: laptop).forgetLink(list: errands.id)
        #expect(try sync(home, laptop).account.made.map(\.name) == ["Chores"])
    }
}
