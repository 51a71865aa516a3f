import SQLite

/// Case-insensitive substring search over todo names and tags, for every script.
///
/// SQLite's `LIKE` and `instr` fold ASCII case only, so "ÉCLAIR" would not find "éclair". The
/// store registers the SQL function `todo_matches` on its connection, and searches compare Unicode full case
/// foldings by Character: "ΣΊΣΥΦΟΣ" finds "σίσυφος" (final sigma), "STRASSE" finds "Straße",
/// and canonically equivalent spellings (a precomposed "é" and "e" plus a combining accent)
/// match too. Scripts without case, such as Japanese, match as typed.
public enum TodoSearch {
    /// The SQL function `todo_matches(name, folded_needle)`.
    static let sqlFunction = "todo_matches"

    /// The form both sides are compared in: Unicode full case folding, scalar by scalar (the
    /// lowercase mapping, except where the generated `CaseFolding` table says otherwise).
    public static func fold(_ text: String) -> String {
        // ASCII (most names and tags): lower-cased bytes; no ASCII letter folds otherwise.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        var folded = ""
        folded.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let exception = CaseFolding.exceptions[scalar.value] {
                folded += exception
            } else if scalar.isASCII {
                folded.unicodeScalars.append(
                    scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar)
            } else {
                folded += scalar.properties.lowercaseMapping
            }
        }
        return folded
    }

    /// Whether `name` contains the already folded `needle`: the one rule of a search, for SQL
    /// (through `todo_matches`) and for callers that narrow results they already hold.
    ///
    /// ASCII names (most of them) are searched on bytes without allocating; others are folded.
    /// It runs once per todo for every search (for every key typed in `todo ui`'s filter), so
    /// the ASCII path tests eight bytes at a time and looks for the needle's first byte before
    /// comparing the rest.
    public static func matches(name: UnsafeBufferPointer<UInt8>, foldedNeedle needle: UnsafeBufferPointer<UInt8>)
        -> Bool
    {
        if needle.isEmpty { return true }
        if isASCII(name) && isASCII(needle) {
            guard needle.count <= name.count else { return false }
            let first = needle[0]
            for start in 0...(name.count - needle.count) where lowerASCII(name[start]) == first {
                var offset = 1
                while offset < needle.count, lowerASCII(name[start + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
        return fold(String(decoding: name, as: UTF8.self)).contains(String(decoding: needle, as: UTF8.self))
    }

    /// Whether a search term selects `todo`: its name or its tags (as stored, `+work @phone`)
    /// contain the already folded `needle`. The rule of `TodoFetchRequest.searches`, which SQL
    /// applies with `todo_matches` on both columns; this is it for callers that hold todos.
    public static func matches(_ todo: Todo, foldedNeedle needle: String) -> Bool {
        var needle = needle
        var name = todo.name
        var tags = todo.tags.storage
        return needle.withUTF8 { needle in
            name.withUTF8 { matches(name: $0, foldedNeedle: needle) }
                || (!tags.isEmpty && tags.withUTF8 { matches(name: $0, foldedNeedle: needle) })
        }
    }

    /// Whether every byte is below 0x80, eight at a time.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var seen: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            seen |= UInt64(base[offset])
            offset += 1
        }
        return seen & 0x8080_8080_8080_8080 == 0
    }

    @inline(__always)
    private static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Registers ``sqlFunction`` on `connection`.
    static func register(on connection: Connection) throws(SQLiteError) {
        try connection.addTextPredicate(named: sqlFunction) { name, needle in
            matches(name: name, foldedNeedle: needle)
        }
        try connection.addTextPredicate(named: tagFunction) { tags, word in
            hasTag(storage: tags, foldedWord: word)
        }
        try connection.addTextPredicate(named: projectFunction) { project, path in
            TodoProject.isWithin(
                folded: fold(String(decoding: project, as: UTF8.self)), String(decoding: path, as: UTF8.self))
        }
    }

    /// The SQL function `todo_in_project(project, folded_path)`: whether the `project` column
    /// names the project `folded_path` or one inside it (``TodoProject/isWithin(_:)``). NULL
    /// (no project) never matches.
    static let projectFunction = "todo_in_project"

    /// The SQL function `todo_has_tag(tags, folded_word)`: whether the `tags` column holds a tag
    /// whose folded word is `folded_word` exactly (`work` finds `+Work` and `@work`, never
    /// `+workout`).
    static let tagFunction = "todo_has_tag"

    /// Whether the stored tags (``TodoTags/storage``) hold the already folded `word`: the one
    /// rule of a tag filter, in SQL and for callers that hold todos.
    public static func hasTag(storage: UnsafeBufferPointer<UInt8>, foldedWord word: UnsafeBufferPointer<UInt8>) -> Bool
    {
        guard !storage.isEmpty, !word.isEmpty else { return false }
        var start = 0
        while start < storage.count {
            // The stored form's one reading: past the sigil (a bare word, another program's
            // writing, reads as a `+` tag: TodoTag's own rule), a word with spaces unquoted.
            let stored = TodoTags.storedWord(in: storage, at: start)
            let end = stored.end
            let tag = UnsafeBufferPointer(rebasing: storage[stored.word])
            if tag.count == word.count || !isASCII(tag) {
                if isASCII(tag) {
                    var same = true
                    for index in 0..<tag.count where lowerASCII(tag[index]) != word[index] {
                        same = false
                        break
                    }
                    if same { return true }
                } else if fold(String(decoding: tag, as: UTF8.self)) == String(decoding: word, as: UTF8.self) {
                    return true
                }
            }
            start = end + 1
        }
        return false
    }
}
