import TestSupport
import Testing
import TodoObservation
import TodoStore

@testable import todo

/// The ui filter's byte index finds exactly the todos the store's rule finds
/// (`TodoSearch.matches`), whichever way it searches: one pass over every byte (no candidates,
/// or most todos candidates), a search in each candidate's bytes (few candidates), or the
/// store's rule (a todo or a term that is not all ASCII). Never a match across a todo's name,
/// tags and note, nor across two todos.
@Suite(.timed) struct UINameIndexTests {
    /// Words whose ends and starts make terms that would match across two texts if the index
    /// let them (`k+w`: "milk" then "+work"), with non-ASCII and upper-case ones.
    static let words = ["milk", "MILK", "garden", "Gar", "age", "crème", "CRÈME", "straße", "σίσυφος", "a", "ka", "x"]
    static let tagWords = ["+work", "+Work", "@phone", "+home", "+crème", "@a"]
    static let terms = [
        "m", "k", "milk", "k+w", "k +w", "+w", "gar", "age", "garage", "a", "e", "è", "crème", "strasse", "ss",
        "σ", "ς", "+", "@", "k@", "e+", "ka", "zzz", "x", "milk milk", "\u{0}", "k\u{0}+"
    ]

    private static func todo(id: Int64, _ random: inout SeededGenerator) -> Todo {
        func pick(_ values: [String]) -> String { values[Int.random(in: 0..<values.count, using: &random)] }
        let name = (0..<Int.random(in: 1...3, using: &random)).map { _ in pick(words) }.joined(separator: " ")
        let tags = TodoTags(
            (0..<Int.random(in: 0...2, using: &random)).compactMap { _ in TodoTag(pick(tagWords)) })
        let note: String? =
            Int.random(in: 0..<3, using: &random) == 0
            ? (0..<Int.random(in: 1...4, using: &random)).map { _ in pick(words) }.joined(separator: "\n") : nil
        return Todo(id: id, TodoFields(name: name, tags: tags, note: note))
    }

    @Test func theIndexFindsWhatTheStoresRuleFinds() throws {
        let seed = TestSeed.make("ui name index")
        var random = SeededGenerator(seed: seed)
        for round in 0..<6 {
            let count = [1, 7, 40, 300][round % 4]
            let todos = (1...count).map { Self.todo(id: Int64($0), &random) }
            let index = UINameIndex(TodoResultsSnapshot(order: .due, todos: todos))
            let ordered = index.results.numberOfSections > 0 ? Array(index.results.list(inSection: 0)) : []
            #expect(ordered.count == count)
            for term in Self.terms {
                let folded = TodoSearch.fold(term)
                let expected = ordered.indices.filter { TodoSearch.matches(ordered[$0], foldedNeedle: folded) }
                #expect(index.positions(matching: folded) == expected, "seed \(seed), \(term), \(count) todos")
                // Candidates of every density: a few (each searched on its own) to all but one
                // (one pass over every byte, then kept to the candidates).
                for share in [0.05, 0.2, 0.5, 0.95] {
                    let candidates = ordered.indices.filter { _ in Double.random(in: 0..<1, using: &random) < share }
                    #expect(
                        index.positions(matching: folded, among: candidates)
                            == candidates.filter { TodoSearch.matches(ordered[$0], foldedNeedle: folded) },
                        "seed \(seed), \(term), \(count) todos, \(candidates.count) candidates")
                }
            }
        }
    }

    @Test func noMatchSpansTwoTextsOrTwoTodos() throws {
        let todos = [
            Todo(id: 1, TodoFields(name: "buy milk", tags: TodoTags([TodoTag("+work")].compactMap { $0 }), note: "ab")),
            Todo(id: 2, TodoFields(name: "cd", note: "ef"))
        ]
        let index = UINameIndex(TodoResultsSnapshot(order: .due, todos: todos))
        for term in ["k+w", "milk+", "kab", "+workab", "work ab", "abcd", "bc", "efcd", "fc"] {
            #expect(index.positions(matching: TodoSearch.fold(term)).isEmpty, "\(term)")
        }
        #expect(index.positions(matching: "milk") == [0])
        #expect(index.positions(matching: "+wor") == [0])
        #expect(index.positions(matching: "ef") == [1])
    }
}
