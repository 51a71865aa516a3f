import TestSupport
import Testing
import TodoObservation
import TodoSnapshot
import TodoStore

@testable import todo

/// The ui filter's in-memory narrowing over notes (issue 37: `--search` matches notes, and the
/// ui's `/` is the same search): for random texts, what the name index finds is what the store's
/// search fetches, notes included, and a term never spans a todo's name, tags and note.
@Suite(.timed) struct UINotesNarrowingTests {
    let folder = TemporaryFolder()

    static let words = ["milk", "MILK", "bread", "Straße", "STRASSE", "éclair", "x", "ab", "+MI", "note"]

    private static func text(_ random: inout SeededGenerator, words: ClosedRange<Int>) -> String {
        (0..<Int.random(in: words, using: &random)).map { _ in Self.words.randomElement(using: &random) ?? "a" }
            .joined(separator: Bool.random(using: &random) ? " " : "\n")
    }

    @Test func aNarrowingFindsWhatTheStoresSearchFindsInNotes() throws {
        let seed = TestSeed.make("aNarrowingFindsWhatTheStoresSearchFindsInNotes")
        var random = SeededGenerator(seed: seed)
        let repository = try TodoRepository(path: folder.file("notes.sqlite"))
        for _ in 0..<200 {
            let note = Int.random(in: 0..<3, using: &random) == 0 ? nil : Self.text(&random, words: 1...4)
            let tags = Bool.random(using: &random) ? TodoTags([TodoTag("+ab"), TodoTag("@milk")].compactMap { $0 }) : []
            try repository.add(TodoFields(name: Self.text(&random, words: 1...2), tags: tags, note: note))
        }
        let controller = FetchedResultsController(repository: repository, fetchRequest: TodoFetchRequest())
        try controller.performFetch()
        let index = UINameIndex(controller.snapshot)
        for step in 0..<80 {
            let word = Self.words.randomElement(using: &random) ?? "a"
            let start = Int.random(in: 0..<word.count, using: &random)
            let length = Int.random(in: 1...(word.count - start), using: &random)
            var terms = [String(word.dropFirst(start).prefix(length))]
            // Now and then a term across two words: found only where one field has both.
            if step % 5 == 0 { terms = [terms[0] + " " + (Self.words.randomElement(using: &random) ?? "a")] }
            var request = TodoFetchRequest()
            request.searches = terms
            let expected = try repository.fetch(request)
            let narrowing = UINarrowing(
                searches: terms, folded: terms.map(TodoSearch.fold), in: index, narrowing: nil, order: .due)
            let shown = narrowing.results.numberOfSections > 0 ? narrowing.results.list(inSection: 0).array : []
            #expect(shown == expected, "seed \(seed), step \(step): \(terms)")
            #expect(expected.allSatisfy(narrowing.matches), "the rule for one todo agrees")
        }
        // A note is found, and only in the note.
        let noted = try repository.add(TodoFields(name: "plain", note: "the quarterly ÉCLAIR review"))
        try controller.processExternalChanges()
        let again = UINameIndex(controller.snapshot)
        let found = UINarrowing(
            searches: ["éclair review"], folded: [TodoSearch.fold("éclair review")], in: again, narrowing: nil,
            order: .due)
        #expect(found.results.list(inSection: 0).array.map(\.id).contains(noted.id))
    }
}
