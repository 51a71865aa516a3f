import TestSupport
import Testing
import TodoStore

/// `--search` ignores case in every script: Unicode full case folding plus canonical equivalence.
@Suite struct SearchFoldingTests {
    let folder = TemporaryFolder()

    private func found(_ needle: String, in names: [String]) throws -> [String] {
        let repository = try TodoRepository(path: folder.file("search-\(abs(needle.hashValue)).sqlite"))
        for name in names { try repository.add(name: name) }
        return try repository.fetch(TodoFetchRequest(order: .name, search: needle)).map(\.name)
    }

    @Test(arguments: [
        ("ΣΊΣΥΦΟΣ", "σίσυφος"),        // final sigma
        ("σίσυφοσ", "ΣΊΣΥΦΟΣ"),
        ("STRASSE", "Straße"),          // ß folds to ss
        ("straße", "STRASSE"),
        ("ÉCLAIR", "éclair"),
        ("e\u{301}clair", "ÉCLAIR"),     // canonical equivalence
        ("ﬁle", "FILE"),                // ligature
        ("ſ", "S"),                     // long s
        ("ꭰ", "Ꭰ"),                     // Cherokee
        ("牛乳", "牛乳を買う"),              // no case: as typed
        ("milk", "Buy MILK"),            // the ASCII fast path
    ])
    func caselessInEveryScript(needle: String, name: String) throws {
        #expect(try found(needle, in: [name, "unrelated"]) == [name])
    }

    @Test func foldingDoesNotInventMatches() throws {
        #expect(try found("ss", in: ["s", "Straße", "sß"]).sorted() == ["Straße", "sß"])
        #expect(try found("σς", in: ["ΣΣ", "σ"]) == ["ΣΣ"])
        #expect(try found("x", in: ["Straße"]) == [])
    }
}
