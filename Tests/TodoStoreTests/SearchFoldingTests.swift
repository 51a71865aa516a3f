import TestSupport
import Testing
import TodoStore

/// `--search` ignores case in every script: Unicode full case folding plus canonical equivalence.
@Suite(.timed) struct SearchFoldingTests {
    let folder = TemporaryFolder()

    private func found(_ needle: String, in names: [String]) throws -> [String] {
        let repository = try TodoRepository(path: folder.file("search-\(abs(needle.hashValue)).sqlite"))
        for name in names { try repository.add(name: name) }
        return try repository.fetch(TodoFetchRequest(order: .name, search: needle)).map(\.name)
    }

    @Test(arguments: [
        ("ΣΊΣΥΦΟΣ", "σίσυφος"),  // final sigma
        ("σίσυφοσ", "ΣΊΣΥΦΟΣ"),
        ("STRASSE", "Straße"),  // ß folds to ss
        ("straße", "STRASSE"),
        ("ÉCLAIR", "éclair"),
        ("e\u{301}clair", "ÉCLAIR"),  // canonical equivalence
        ("ﬁle", "FILE"),  // ligature
        ("ſ", "S"),  // long s
        ("ꭰ", "Ꭰ"),  // Cherokee
        ("牛乳", "牛乳を買う"),  // no case: as typed
        ("milk", "Buy MILK")  // the ASCII fast path
    ])
    func caselessInEveryScript(needle: String, name: String) throws {
        #expect(try found(needle, in: [name, "unrelated"]) == [name])
    }

    @Test func foldingDoesNotInventMatches() throws {
        #expect(try found("ss", in: ["s", "Straße", "sß"]).sorted() == ["Straße", "sß"])
        #expect(try found("σς", in: ["ΣΣ", "σ"]) == ["ΣΣ"])
        #expect(try found("x", in: ["Straße"]) == [])
    }

    /// The ASCII path (eight bytes at a time, first byte first) against the plainest reading of
    /// the rule: lower-case A-Z in the name, then look for the needle anywhere. Names and needles
    /// mix the bytes around the A-Z range ('@', '[', '`', '{'), lengths around eight, and a
    /// non-ASCII byte late in a long name, which must take the folding path.
    @Test func theASCIIPathFindsWhatAPlainSubstringSearchFinds() {
        var random = SeededGenerator(seed: 0xA5C11)
        let alphabet = Array("aAbBzZ@[`{ 09".utf8)
        func reference(_ name: [UInt8], _ needle: [UInt8]) -> Bool {
            let lowered = name.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
            guard needle.count <= lowered.count else { return false }
            return (0...lowered.count - needle.count).contains { Array(lowered[$0..<$0 + needle.count]) == needle }
        }
        func matches(_ name: [UInt8], _ needle: [UInt8]) -> Bool {
            name.withUnsafeBufferPointer { name in
                needle.withUnsafeBufferPointer { TodoSearch.matches(name: name, foldedNeedle: $0) }
            }
        }
        for _ in 0..<5_000 {
            let name = (0..<Int.random(in: 0...19, using: &random)).map { _ in
                alphabet.randomElement(using: &random) ?? 0x61
            }
            let needle = Array(
                TodoSearch.fold(
                    String(
                        decoding: (0..<Int.random(in: 1...3, using: &random))
                            .map { _ in alphabet.randomElement(using: &random) ?? 0x61 }, as: UTF8.self)
                ).utf8)
            #expect(
                matches(name, needle) == reference(name, needle),
                "\"\(String(decoding: name, as: UTF8.self))\" contains \"\(String(decoding: needle, as: UTF8.self))\"")
        }
        // Past the first eight bytes, a non-ASCII name is folded: "É" is found by "é".
        #expect(matches(Array("twelve bytes É".utf8), Array("é".utf8)))
        #expect(matches(Array("twelve bytes É".utf8), Array("bytes".utf8)))
        #expect(!matches(Array("twelve bytes E\u{301}".utf8), Array("bytes e".utf8)))
    }
}
