import TestSupport
import Testing
import TodoStore

@testable import TodoSync

/// RELATED-TO as the apps write it (issue 36), and the one rule of a todo's link as sync sends
/// it (``ParentLink``), alone; the engine's use of them is tested on real servers
/// (SubtaskServerTests) and in memory below.
@Suite struct SubtaskMappingTests {
    private func object(_ lines: String...) throws -> VTodoObject {
        let text =
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//y//EN", "BEGIN:VTODO", "UID:child", "SUMMARY:Milk"]
            + lines + ["END:VTODO", "END:VCALENDAR", ""]).joined(separator: "\r\n")
        return try VTodoObject(parsing: text, timeZone: .offset(seconds: 0))
    }

    @Test func everyFormTheAppsWriteIsRead() throws {
        #expect(try object("RELATED-TO:groceries").parentUID == "groceries", "Tasks.org, Nextcloud Tasks")
        #expect(try object("RELATED-TO;RELTYPE=PARENT:groceries").parentUID == "groceries", "Apple Reminders")
        #expect(try object("RELATED-TO;RELTYPE=parent: groceries ").parentUID == "groceries", "any case, trimmed")
        #expect(try object("RELATED-TO;RELTYPE=SIBLING:x", "RELATED-TO;RELTYPE=DEPENDS-ON:y").parentUID == nil)
        #expect(try object("RELATED-TO;RELTYPE=CHILD:a", "RELATED-TO;RELTYPE=CHILD:b").childUIDs == ["a", "b"])
        #expect(try object("RELATED-TO:child").parentUID == nil, "itself")
        #expect(try object("RELATED-TO:").parentUID == nil)
        #expect(try object("RELATED-TO:" + String(repeating: "u", count: 1025)).parentUID == nil, "bounded")
    }

    @Test func aLinkIsWrittenOnlyWhenItChangesAndOthersStay() throws {
        var bare = try object("RELATED-TO:groceries", "RELATED-TO;RELTYPE=SIBLING:x", "SEQUENCE:4")
        let before = bare.text
        bare.setParent("groceries", now: 1_800_000_000)
        #expect(bare.text == before, "the same parent: byte for byte")
        bare.setParent("market", now: 1_800_000_000)
        #expect(bare.parentUID == "market")
        #expect(bare.text.contains("RELATED-TO;RELTYPE=PARENT:market\r\n") && !bare.text.contains("groceries"))
        #expect(bare.text.contains("RELATED-TO;RELTYPE=SIBLING:x") && bare.text.contains("SEQUENCE:5"))
        bare.setParent(nil, now: 1_800_000_000)
        #expect(bare.parentUID == nil && bare.text.contains("RELATED-TO;RELTYPE=SIBLING:x"))
    }

    @Test func theLinkRule() {
        func link(_ parentID: Int64?, list: Int64? = 1, uid: String? = nil, base: String? = nil, known: Bool = false)
            -> ParentLink
        {
            ParentLink.of(
                parentID: parentID, parentList: list, parentUID: uid, todoList: 1, base: base, baseIsKnown: known)
        }
        #expect(link(2, uid: "p") == .uid("p"))
        #expect(link(2, list: 7, uid: "p") == .uid("p"), "a parent in another list keeps its link")
        #expect(link(2) == .unnamedParent(2))
        #expect(link(2, list: 7) == .none)
        #expect(link(2, list: nil, base: "p", known: true) == .none, "the parent was deleted here")
        #expect(link(nil, base: "late") == .uid("late"), "not here yet: the link stands")
        #expect(link(nil, base: "p", known: true) == .none, "moved to the top here")
        #expect(link(2).differs(fromBase: nil) && link(2).differs(fromBase: "p"))
        #expect(!ParentLink.uid("p").differs(fromBase: "p") && !ParentLink.none.differs(fromBase: nil))
    }

    @Test func dependencyLinksMergeAsASet() {
        #expect(DependencyLinks.merged(base: ["a", "b"], local: ["a", "b", "c"], remote: ["b"]) == ["b", "c"])
        #expect(DependencyLinks.merged(base: [], local: ["x"], remote: ["y"]) == ["y", "x"])
        #expect(DependencyLinks.merged(base: ["a"], local: [], remote: ["a", "d"]) == ["d"])
        #expect(DependencyLinks(uids: ["a"], unnamed: [3]).differ(fromBase: ["a"]))
        #expect(!DependencyLinks(uids: ["b", "a"], unnamed: []).differ(fromBase: ["a", "b"]))
    }

    @Test func dependsOnIsWrittenOnlyWhenTheSetChanges() throws {
        var object = try object("RELATED-TO;RELTYPE=DEPENDS-ON:a", "RELATED-TO:groceries", "SEQUENCE:1")
        let before = object.text
        object.setDependsOn(["a"], now: 1_800_000_000)
        #expect(object.text == before)
        object.setDependsOn(["b", "a"], now: 1_800_000_000)
        #expect(Set(object.dependsOnUIDs) == ["a", "b"] && object.parentUID == "groceries")
        #expect(object.text.contains("SEQUENCE:2"))
    }
}
