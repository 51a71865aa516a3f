import Foundation
import TestSupport
import Testing

/// `todo ui` and statuses (issue 36): rows mark each state, `i` starts and stops a todo, one
/// `u` puts it back, and all of it fits 40 columns.
extension UITests {
    @Test func rowsMarkEachStateAndIStartsAndStops() throws {
        for name in ["Buy milk", "Pay rent", "Renew the passport before the trip to Lisbon"] {
            _ = try sandbox.ok("add", name)
        }
        _ = try sandbox.ok("start", "3", "--percent", "40")
        _ = try sandbox.ok("cancel", "2")
        let session = try startUI(columns: 40, rows: 20)
        var screen = try session.waitUntil("the states") { screen in
            screen.contains { $0.contains("[-] 2") }
                && screen.contains { $0.contains("[~] 3") && $0.contains("40% Renew") }
        }
        #expect(Self.fitsFortyColumns(screen), "\(screen.joined(separator: "\n"))")
        try session.press("i")
        try session.waitUntil("Buy milk started") { TmuxSession.cursorLine($0)?.contains("[~] 1") == true }
        try session.waitFor("In progress (u undoes)")
        #expect(try sandbox.listJSON().first?["status"] as? String == "in-process")
        try session.press("i")
        try session.waitUntil("Buy milk stopped") { TmuxSession.cursorLine($0)?.contains("[ ] 1") == true }
        try session.press("i")
        try session.waitUntil("started again") { TmuxSession.cursorLine($0)?.contains("[~] 1") == true }
        try session.press("u")
        screen = try session.waitUntil("undone") { TmuxSession.cursorLine($0)?.contains("[ ] 1") == true }
        #expect(Self.fitsFortyColumns(screen))
        #expect(try sandbox.listJSON().first?["status"] as? String == "needs-action")
    }
}
