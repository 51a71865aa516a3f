import TestSupport
import Testing

@testable import TodoSnapshot

/// The outline forest: structure, deletion with descendants, expansion and visibility.
@Suite(.timed) struct SectionSnapshotTests {
    /// a (b (c), d), e
    func tree() -> SectionSnapshot<String> {
        var outline = SectionSnapshot<String>()
        outline.append(["a", "e"])
        outline.append(["b", "d"], to: "a")
        outline.append(["c"], to: "b")
        return outline
    }

    @Test func appendToParentOrdersDepthFirst() {
        let outline = tree()
        #expect(outline.items == ["a", "b", "c", "d", "e"])
        #expect(outline.rootItems == ["a", "e"])
        #expect(outline.children(of: "a") == ["b", "d"])
        #expect(outline.count == 5)
    }

    @Test func levelAndParent() {
        let outline = tree()
        #expect(outline.level(of: "a") == 0)
        #expect(outline.level(of: "c") == 2)
        #expect(outline.parent(of: "c") == "b")
        #expect(outline.parent(of: "e") == nil)
    }

    @Test func insertBeforeAndAfterSiblings() {
        var outline = tree()
        outline.insert(["x"], before: "d")
        outline.insert(["y"], after: "a")
        outline.insert(["w"], before: "a")
        #expect(outline.items == ["w", "a", "b", "c", "x", "d", "y", "e"])
        #expect(outline.parent(of: "x") == "a")
        #expect(outline.parent(of: "y") == nil)
    }

    @Test func deleteRemovesDescendants() {
        var outline = tree()
        outline.expand(["b"])
        outline.delete(["b", "nothing"])
        #expect(outline.items == ["a", "d", "e"])
        #expect(!outline.contains("c"))
        #expect(outline.expandedItems.isEmpty)
        outline.delete(["a"])
        #expect(outline.items == ["e"])
    }

    @Test func collapsedParentsHideTheirDescendants() {
        var outline = tree()
        #expect(outline.visibleItems == ["a", "e"], "new items start collapsed, as in UIKit")
        outline.expand(["a"])
        #expect(outline.visibleItems == ["a", "b", "d", "e"])
        #expect(!outline.isVisible("c"))
        outline.expand(["b"])
        #expect(outline.visibleItems == ["a", "b", "c", "d", "e"])
        #expect(outline.isVisible("c"))
        outline.collapse(["a"])
        #expect(outline.visibleItems == ["a", "e"])
        #expect(outline.isExpanded("b"), "collapsing a parent keeps its children's own state")
        #expect(!outline.isVisible("c"))
        #expect(!outline.isVisible("missing"))
    }

    @Test func subtreeSnapshots() {
        var outline = tree()
        outline.expand(["b"])
        let children = outline.snapshot(of: "a")
        #expect(children.rootItems == ["b", "d"])
        #expect(children.items == ["b", "c", "d"])
        #expect(children.parent(of: "b") == nil)
        #expect(children.isExpanded("b"))
        let withParent = outline.snapshot(of: "a", includingParent: true)
        #expect(withParent.rootItems == ["a"])
        #expect(withParent.items == ["a", "b", "c", "d"])
        #expect(withParent.level(of: "c") == 2)
        #expect(!withParent.contains("e"))
    }

    @Test func expansionStateCarriesAcrossRebuilds() {
        var old = tree()
        old.expand(["a", "b"])
        old.collapse(["b"])
        var rebuilt = SectionSnapshot<String>()
        rebuilt.append(["a", "z"])
        rebuilt.append(["b"], to: "a")
        rebuilt.expand(["z", "b"])
        rebuilt.copyExpansionState(from: old)
        #expect(rebuilt.expandedItems == ["a", "z"], "shared items follow the old state, new ones keep theirs")

        var assigned = SectionSnapshot<String>()
        assigned.append(["a"])
        assigned.expandedItems = old.expandedItems.union(["gone"])
        #expect(assigned.expandedItems == ["a"])
    }

    @Test func duplicateIdentifierStops() async {
        await #expect(processExitsWith: .failure) {
            var outline = SectionSnapshot<Int>()
            outline.append([1, 2])
            outline.append([1], to: 2)
        }
    }
}
