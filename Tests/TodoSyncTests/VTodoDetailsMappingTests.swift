import TestSupport
import Testing
import TodoInterop
import TodoStore

@testable import TodoSync

/// Issue 26's mapping: PRIORITY, CATEGORIES, DESCRIPTION, CREATED, COMPLETED, and the merge of
/// tags as a set.
@Suite(.timed) struct VTodoDetailsMappingTests {
    let utc = LocalTimeZone.offset(seconds: 0)

    func object(_ lines: String...) -> String { Fixtures.todoObject(lines) }

    func tags(_ words: String...) -> TodoTags { TodoTags(words.compactMap { TodoTag($0) }) }

    @Test func theDetailsAreReadFromTheirProperties() throws {
        let read = try VTodoObject(
            parsing: object(
                "SUMMARY:x", "PRIORITY:3", #"CATEGORIES:work,@phone,Home Office,a\,b"#, "CATEGORIES:errands,WORK",
                #"DESCRIPTION:line one\nline\, two"#, "CREATED:20240102T030405Z", "STATUS:COMPLETED",
                "COMPLETED:20240105T060708Z"),
            timeZone: utc
        ).fields
        #expect(read.priority.rawValue == 3)
        #expect(
            read.tags.storage == #"+work @phone +"Home Office" +a,b +errands"#,
            "a category with a space is a tag (issue 36); an escaped comma is part of its word; WORK is work")
        #expect(read.note == "line one\nline, two")
        #expect(read.created == UTCTimestamp(iso: "2024-01-02T03:04:05Z"))
        #expect(read.completed == UTCTimestamp(iso: "2024-01-05T06:07:08Z"))
        for bad in ["PRIORITY:10", "PRIORITY:high", "PRIORITY:-1"] {
            #expect(try VTodoObject(parsing: object("SUMMARY:x", bad), timeZone: utc).fields.priority == .none)
        }
        // A local CREATED (against RFC 5545) is no time; COMPLETED of a todo not done is none.
        let odd = try VTodoObject(
            parsing: object(
                "SUMMARY:x", "CREATED:20240102T030405", "STATUS:NEEDS-ACTION", "COMPLETED:20240105T060708Z"),
            timeZone: utc
        ).fields
        #expect(odd.created == nil && odd.completed == nil)
    }

    @Test func anUpdateRewritesOnlyTheTagsAndKeepsCategoriesThatAreNoTags() throws {
        let long = String(repeating: "x", count: 101)
        var object = try VTodoObject(
            parsing: object(
                "SUMMARY:x", #"CATEGORIES:Line\nbreak,Home Office,work"#, "CATEGORIES:\(long)", "PRIORITY:0",
                "X-KEEP:1"),
            timeZone: utc)
        let before = object.text
        var fields = object.fields
        #expect(fields.tags == tags("Home Office", "work"), "a line break or 101 bytes are no tag")
        fields.tags = tags("+work", "@phone", "Home Office", "@Back Yard")
        object.update(to: fields, now: 1_700_000_000)
        let categories = #"CATEGORIES:Line\nbreak,\#(long),work,@phone,Home Office,@Back Yard"#
        #expect(Self.unfolded(object.text).contains(categories + "\r\n"), "\(object.text)")
        #expect(object.text.contains("PRIORITY:0\r\n") && object.text.contains("X-KEEP:1\r\n"), "untouched")
        #expect(try VTodoObject(parsing: object.text, timeZone: utc).fields.tags == fields.tags)
        fields.tags = []
        fields.priority = .high
        fields.note = "a, b; c\nd"
        object.update(to: fields, now: 1_700_000_001)
        #expect(
            Self.unfolded(object.text).contains(#"CATEGORIES:Line\nbreak,\#(long)"# + "\r\n")
                && object.text.contains("PRIORITY:1\r\n"))
        #expect(object.text.contains(#"DESCRIPTION:a\, b\; c\nd"#))
        let reread = try VTodoObject(parsing: object.text, timeZone: utc)
        #expect(reread.fields == fields)
        fields.note = nil
        fields.priority = .none
        object.update(to: fields, now: 1_700_000_002)
        #expect(!object.text.contains("DESCRIPTION") && !object.text.contains("PRIORITY"))
        #expect(before != object.text)
    }

    /// `text` with its folded lines joined.
    static func unfolded(_ text: String) -> String { text.replacing("\r\n ", with: "") }

    /// A category is written back as it was read: no quotes are taken off it or put on it, and
    /// one that only looks like a tag's quoted form (`@"Home Office"`) is no tag.
    @Test func categoriesWithQuotesStayAsWritten() throws {
        var object = try VTodoObject(
            parsing: object("SUMMARY:x", #"CATEGORIES:@"Home Office","quoted word",work"#), timeZone: utc)
        #expect(object.fields.tags == tags("work"))
        var fields = object.fields
        fields.tags = tags("work", "Home Office")
        object.update(to: fields, now: 1_700_000_000)
        #expect(object.text.contains(#"CATEGORIES:@"Home Office","quoted word",work,Home Office"#), "\(object.text)")
    }

    @Test func tagsMergeAsASet() {
        let base = tags("+travel", "+family")
        #expect(
            TodoTags.mergedSet(base: base, local: tags("+travel"), remote: tags("+travel", "+family", "@budget"))
                .storage == "+travel @budget")
        // Without a base, the union: the server's first, so every device ends up with one order.
        #expect(TodoTags.mergedSet(base: nil, local: tags("+a"), remote: tags("+b")).storage == "+b +a")
        #expect(
            TodoTags.mergedSet(base: base, local: base, remote: tags("+family", "+travel")).storage == "+family +travel"
        )
        #expect(TodoTags.mergedSet(base: base, local: base, remote: []).isEmpty, "both removed there")
        let merged = ThreeWayMerge.merge(
            base: TodoFields(name: "x", tags: base),
            local: TodoFields(name: "x", priority: .high, tags: tags("+travel")),
            remote: TodoFields(name: "x", priority: .low, tags: tags("+travel", "+family", "+new")), todoID: 1)
        #expect(merged.fields.tags.storage == "+travel +new")
        #expect(
            merged.fields.priority == .low && merged.conflicts.map(\.subject) == [.field("priority")],
            "the server's wins")
    }
}
