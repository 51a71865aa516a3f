import Foundation
import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// ``SyncReport/changes``: each todo a sync changed here or sent, once (issue 35, point 5).
@Suite(.timed) struct SyncReportChangesTests {
    let folder = TemporaryFolder()

    @Test func aTodoChangedOnBothSidesIsOneChangeReceivedAndSent() throws {
        let server = InMemoryCollection()
        let laptop = try Device(folder, "laptop", server)
        let phone = try Device(folder, "phone", server)
        let milk = try laptop.repository.add(name: "Buy milk")
        try laptop.sync()
        try phone.sync()
        let phoneMilk = try phone.id("Buy milk")
        var done = try #require(try phone.repository.todo(id: phoneMilk)).fields
        done.isDone = true
        try phone.repository.replaceFields(id: phoneMilk, with: done)
        #expect(
            try phone.sync().changes == [.init(.done, todoID: phoneMilk, name: "Buy milk", sent: true)])
        var renamed = milk.fields
        renamed.name = "Buy oat milk"
        try laptop.repository.replaceFields(id: milk.id, with: renamed)
        let report = try laptop.sync()
        #expect(report.changes == [.init(.done, todoID: milk.id, name: "Buy oat milk", received: true, sent: true)])
        #expect(try phone.sync().changes == [.init(.changed, todoID: phoneMilk, name: "Buy oat milk", received: true)])
        #expect(try laptop.sync().changes.isEmpty)
    }

    @Test func aRemovalIsLastAndKeepsTheNameItHad() {
        var report = SyncReport()
        report.record(.init(.changed, todoID: 3, name: "Old", received: true))
        report.record(.init(.removed, todoID: 3, name: "Older", sent: true))
        report.record(.init(.added, todoID: 4, name: "New", received: true))
        report.record(.init(.changed, todoID: 4, name: "Newer", sent: true))
        #expect(
            report.changes == [
                .init(.removed, todoID: 3, name: "Old", received: true, sent: true),
                .init(.added, todoID: 4, name: "Newer", received: true, sent: true)
            ])
    }
}
