import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// A project (issue 37, point 2) in a VTODO: `X-TODO-PROJECT`, never a category, read and written,
/// and changed without touching any other line of another app's object.
@Suite(.timed) struct ProjectMappingTests {
    let utc = LocalTimeZone.offset(seconds: 0)
    let now: Int64 = 1_800_000_000

    func read(_ text: String) throws -> VTodoObject { try VTodoObject(parsing: text, timeZone: utc) }

    @Test func aProjectIsItsOwnPropertyNotACategory() throws {
        var fields = TodoFields(name: "Send the report", created: UTCTimestamp(secondsSince1970: now))
        fields.project = TodoProject("Work.Client A")
        fields.tags = TodoTags([TodoTag("errands")].compactMap { $0 })
        let object = VTodoObject.new(uid: "u", fields: fields, now: now)
        #expect(object.todo.property(named: "X-TODO-PROJECT")?.value == "Work.Client A")
        #expect(object.todo.property(named: "CATEGORIES")?.value == "errands")
        #expect(try read(object.text).fields == fields)
    }

    @Test func readAndChangedAloneOnAnotherAppsObject() throws {
        let text = Fixtures.todoObject([
            "SUMMARY:Send the report", "CATEGORIES:Work", "X-TODO-PROJECT:Work.ClientA", "X-APPLE-SORT-ORDER:7"
        ])
        var object = try read(text)
        #expect(object.fields.project?.path == "Work.ClientA")
        #expect(object.fields.tags.map(\.word) == ["Work"], "the category stays a tag")
        var changed = object.fields
        changed.project = TodoProject("Home")
        object.update(to: changed, now: now)
        let lines = object.text.split(separator: "\r\n").map(String.init)
        #expect(lines.contains("X-TODO-PROJECT:Home") && lines.contains("CATEGORIES:Work"))
        #expect(lines.contains("X-APPLE-SORT-ORDER:7"))
        changed.project = nil
        object.update(to: changed, now: now)
        #expect(!object.text.contains("X-TODO-PROJECT"))
        // A value that names no project is none.
        #expect(try read(Fixtures.todoObject(["SUMMARY:x", "X-TODO-PROJECT:Work..A"])).fields.project == nil)
    }
}
