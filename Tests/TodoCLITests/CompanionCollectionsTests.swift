import SyncProtocol
import TestSupport
import Testing
import TodoSync

@testable import todo

/// `todo`'s side of the companion's collection requests: CompanionCollection sends them to the
/// real `todo-sync` (built beside this test runner, where `todo` looks for it) and reads the
/// answers strictly; a taken segment is `SyncError.collectionTaken`.
@Suite(.timed, .hangLimit) struct CompanionCollectionsTests {
    @Test func aCollectionMadeChangedAndDeletedThroughTheCompanion() throws {
        let server = try CalDAVServer.radicale(users: ["alice": "s3cret"])
        defer { server.stop() }
        let collection = try CompanionCollection(
            remote: SyncRemote(url: server.todoCollectionURL, user: "alice", passwordCommand: "echo s3cret"))
        let home = server.base + "/alice/"
        let request = MakeCollectionRequest(home: home, segment: "work-1", name: "Wörk", color: "#12ab34")
        let made = try collection.makeCollection(request)
        #expect(
            made.collection
                == CollectionState(
                    url: home + "work-1/", calendar: true, todos: true, components: ["VTODO"], name: "Wörk",
                    color: "#12AB34"))
        #expect(made.properties.map(\.property) == [.name, .color, .components])
        #expect(made.properties.allSatisfy { $0.set })
        do {
            _ = try collection.makeCollection(request)
            Issue.record("the segment taken was made again")
        } catch {
            guard case .collectionTaken(let message) = error else {
                Issue.record("not collectionTaken: \(error)")
                return
            }
            #expect(error.kind == "taken" && message.contains("already there"), "\(message)")
        }
        let renamed = try collection.setCollection(SetCollectionRequest(url: home + "work-1/", name: "Job"))
        #expect(renamed.collection.name == "Job" && renamed.collection.color == "#12AB34")
        #expect(renamed.outcome(.name)?.set == true && renamed.outcome(.color) == nil)
        #expect(try collection.deleteCollection(url: home + "work-1/") == .deleted)
        #expect(try collection.deleteCollection(url: home + "work-1/") == .absent)
    }
}
