import SQLite
import TextSafety

#if canImport(Glibc)
    import Glibc
#endif

/// A todo's priority on iCalendar's scale (RFC 5545 PRIORITY): 1 is the highest, 9 the lowest,
/// and 0 is none. The exact value is kept (a phone may write 2 or 7); people type and read the
/// three classes RFC 5545 names: high (1-4), medium (5), low (6-9), which stand for 1, 5 and 9.
public struct TodoPriority: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int

    /// `nil` unless `rawValue` is 0...9.
    public init?(rawValue: Int) {
        guard (0...9).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    private init(exactly value: Int) { rawValue = value }

    public static let none = TodoPriority(exactly: 0)
    public static let high = TodoPriority(exactly: 1)
    public static let medium = TodoPriority(exactly: 5)
    public static let low = TodoPriority(exactly: 9)

    public var isNone: Bool { rawValue == 0 }

    /// RFC 5545's three classes.
    public enum Level: String, Sendable, CaseIterable {
        case high, medium, low

        /// The values of the class.
        public var values: ClosedRange<Int> {
            switch self {
            case .high: 1...4
            case .medium: 5...5
            case .low: 6...9
            }
        }

        /// The value typing the class gives.
        public var priority: TodoPriority {
            switch self {
            case .high: .high
            case .medium: .medium
            case .low: .low
            }
        }
    }

    /// The class, `nil` for none.
    public var level: Level? {
        switch rawValue {
        case 1...4: .high
        case 5: .medium
        case 6...9: .low
        default: nil
        }
    }

    /// What a person types: `high`/`h`, `medium`/`med`/`m`, `low`/`l` (any case), `none` or
    /// nothing, or a digit 0-9 for an exact value. `nil` for anything else.
    public init?(parsing text: String) {
        let word = text.lowercased()
        switch word {
        case "high", "h": self = .high
        case "medium", "med", "m": self = .medium
        case "low", "l": self = .low
        case "none", "": self = .none
        default:
            guard word.utf8.count == 1, let digit = Int(word) else { return nil }
            self.init(exactly: digit)
        }
    }

    /// The forms ``init(parsing:)`` accepts, for messages and help.
    public static let acceptedForms = "high, medium, low (or H, M, L), none, or 1-9 (1 highest)"

    /// One letter for a list row: `H`, `M` or `L`, with the digit after it when the value is not
    /// the one the letter stands for (`H2`); `""` for none.
    public var shortLabel: String { Self.shortLabels[rawValue] }

    /// ``shortLabel`` of each value, by raw value: made once, as every row of a list asks.
    private static let shortLabels: [String] = (0...9).map { value in
        guard let priority = TodoPriority(rawValue: value), let level = priority.level else { return "" }
        let letter = level.rawValue.prefix(1).uppercased()
        return level.priority == priority ? letter : "\(letter)\(value)"
    }

    /// The word for `show`: `high`, `medium`, `low`, with the exact value when it is not the one
    /// the word stands for (`high (2)`); `none`.
    public var label: String {
        guard let level else { return "none" }
        return level.priority == self ? level.rawValue : "\(level.rawValue) (\(rawValue))"
    }

    /// Where the priority sorts: the highest first, none last.
    public var sortKey: Int { rawValue == 0 ? 10 : rawValue }
}

/// A tag: a word, and the sigil it was typed with (`+` as a todo.txt project or a taskwarrior
/// tag, `@` as a todo.txt context), so that it is written back as typed. Two tags are the same
/// tag when their words case-fold alike (the store's one folding rule, ``TodoSearch/fold(_:)``):
/// `+Work` and `@work` are one tag.
///
/// A word may hold spaces (`Home Improvement`: a category as Tasks.org, Apple Reminders and
/// Nextcloud Tasks let people name one). Such a tag is written quoted, `+"Home Improvement"`
/// (``description``), in lists, in `show` and in the `tags` column (``TodoTags``).
public struct TodoTag: Hashable, Sendable, CustomStringConvertible {
    public enum Sigil: String, Sendable {
        case plus = "+"
        case at = "@"
    }

    public let word: String
    public let sigil: Sigil
    /// The case-folded word: what matching and identity use.
    public let folded: String

    /// The most bytes in a tag's word.
    public static let maximumLength = 100

    /// What a tag is, for messages and help.
    public static let acceptedForms =
        "a word, optionally after + or @ (+work, @phone), or words with single spaces (\"Home Improvement\")"

    /// A tag from `text`: `+word`, `@word`, or a bare `word` (a `+` tag). A word with spaces may
    /// come quoted after its sigil, as ``description`` writes it (`+"Home Improvement"`), or as
    /// it is (`+Home Improvement`, `Home Improvement`: what a shell leaves of `--tag "Home
    /// Improvement"`). `nil` when the word is no tag's: empty, over ``maximumLength`` bytes,
    /// starting with another sigil, holding a control character or white space other than
    /// single spaces between words, or, when it has spaces, a `"` or a `+` or `@` after a space.
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        let (word, sigil) = text.withUTF8 { bytes -> (String, Sigil?) in
            // Written as the stored form writes it (a sigil and a quoted word with spaces) when
            // that reading takes the whole text; otherwise the text past the sigil is the word.
            let stored = TodoTags.storedWord(in: bytes, at: 0)
            let sigil = Sigil(byte: stored.sigil)
            let word = stored.end == bytes.count ? stored.word : (sigil == nil ? 0 : 1)..<bytes.count
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self), sigil)
        }
        guard Self.isValidWord(Substring(word)) else { return nil }
        self.init(checked: word, sigil: sigil ?? .plus)
    }

    /// A tag of `word` as it is (no sigil or quotes taken off it): `nil` when it is not valid.
    public init?(word: String, sigil: Sigil) {
        guard Self.isValidWord(Substring(word)) else { return nil }
        self.init(checked: word, sigil: sigil)
    }

    /// A tag of a word ``isValidWord(_:)`` accepted.
    private init(checked word: String, sigil: Sigil) {
        self.word = word
        self.sigil = sigil
        folded = TodoSearch.fold(word)
    }

    /// Whether `word` is a tag's word; see ``isValidWord(_:byteCount:printable:)``. ASCII (nearly
    /// every tag, read once per row of a list) is judged on its bytes.
    static func isValidWord(_ word: Substring) -> Bool {
        let count = word.utf8.count
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            return isValidWord(word.utf8.lazy.map(Unicode.Scalar.init), byteCount: count, printable: isPrintableASCII)
        }
        return isValidWord(word.unicodeScalars, byteCount: count) {
            !$0.properties.isWhitespace && !ControlCharacters.contains($0)
        }
    }

    /// Whether an ASCII scalar other than the space may be in a word: a printable one.
    @inline(__always)
    static func isPrintableASCII(_ scalar: Unicode.Scalar) -> Bool { (0x21...0x7E).contains(scalar.value) }

    /// The one rule of a tag's word, over its scalars (`byteCount` of UTF-8): 1 to
    /// ``maximumLength`` bytes, not starting with a sigil, each scalar a space or one
    /// `printable` takes (no other white space, no control character). A word with a space
    /// holds no space at either end or after another, no `+` or `@` after a space and no `"` at
    /// all: so its quoted form (`+"Home Improvement"`) reads back as one word, and tags written
    /// one after another (`+"a +b"`: the tags `"a` and `b"`) never read as one (``TodoTags``).
    /// A category with a tab, a control character, a `"` or more bytes stays no tag.
    @inline(__always)
    static func isValidWord<Scalars: Sequence<Unicode.Scalar>>(
        _ scalars: Scalars, byteCount: Int, printable: (Unicode.Scalar) -> Bool
    ) -> Bool {
        guard (1...maximumLength).contains(byteCount) else { return false }
        var previous: Unicode.Scalar?
        var spaced = false
        var quoted = false
        for scalar in scalars {
            if scalar == " " {
                if previous == nil || previous == " " { return false }
                spaced = true
            } else {
                guard printable(scalar) else { return false }
                if scalar == "+" || scalar == "@" {
                    if previous == nil || previous == " " { return false }
                } else if scalar == "\"" {
                    quoted = true
                }
            }
            previous = scalar
        }
        return !spaced || (!quoted && previous != " ")
    }

    /// As typed: `+work`, `@phone`; a word with spaces quoted: `+"Home Improvement"`.
    public var description: String {
        word.utf8.contains(UInt8(ascii: " ")) ? sigil.rawValue + "\"" + word + "\"" : sigil.rawValue + word
    }

    public static func == (a: TodoTag, b: TodoTag) -> Bool { a.folded == b.folded }
    public func hash(into hasher: inout Hasher) { hasher.combine(folded) }
}

extension TodoTag.Sigil {
    /// The sigil a byte is, `nil` for any other byte.
    init?(byte: UInt8) {
        switch byte {
        case UInt8(ascii: "+"): self = .plus
        case UInt8(ascii: "@"): self = .at
        default: return nil
        }
    }
}

/// A todo's tags: a set by folded word, kept in the order they were added. Stored in the `tags`
/// column as their text (``TodoTag/description``) separated by single spaces (``storage``):
/// `+work @phone +"Home Improvement"`.
///
/// The stored form of a word with spaces is the word in double quotes after its sigil. No
/// migration rewrites the column: a value `todo` wrote before tags could hold spaces reads as it
/// did, as a plain word never holds a space and a quoted reading needs a space followed by no
/// sigil, which tags written one after another never make (`+"a +b"` is the tags `"a` and `b"`).
/// Another program that writes `+"a b"` (or `+"a` then the bare word `b"`) gets the tag `a b`.
///
/// The text is the value: the tags are read from it when asked for. A list reads a todo's tags
/// once per row and mostly shows them as written, so a stored value in the form ``storage``
/// writes is checked on its bytes and kept as it is, with no tag made.
public struct TodoTags: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The `tags` column's value: `+work @phone`, `""` for none. Always in its one form: every
    /// word a valid tag (``TodoTag``) with its sigil, a word with spaces quoted, none twice by
    /// folded word, single spaces between them.
    public private(set) var storage: String = ""

    public init() {}

    public init(_ tags: some Sequence<TodoTag>) {
        var kept: [TodoTag] = []
        for tag in tags where !kept.contains(tag) { kept.append(tag) }
        storage = Self.joined(kept)
    }

    public init(arrayLiteral tags: TodoTag...) { self.init(tags) }

    /// The tags of a stored `tags` value; words that are not valid tags (another program's
    /// writing) are skipped, a word without a sigil is a `+` tag, and a tag met again is left out.
    public init(storage text: String) {
        guard !text.isEmpty else { return }
        if Self.isStoredFormASCII(text) {
            storage = text
            return
        }
        var kept: [TodoTag] = []
        for tag in Self.read(text) where !kept.contains(tag) { kept.append(tag) }
        storage = Self.joined(kept)
    }

    /// A word of a stored value, as ``storedWord(in:at:)`` finds it.
    struct StoredWord {
        /// The bytes of the word: past its sigil, and its quotes when quoted.
        var word: Range<Int>
        /// Its sigil's byte (`+`, `@`), or 0 for a bare word.
        var sigil: UInt8
        /// Where it ends in the text (at the space after it, or the text's end).
        var end: Int
    }

    /// The word of a stored value that starts at `start`: the one reading of the `tags` column
    /// (``TodoTags``, ``TodoTag/init(_:)``, and the SQL tag filter, ``TodoSearch/hasTag(storage:foldedWord:)``).
    ///
    /// A sigil and `"` start a quoted word when the next `"` is followed by a space or the end,
    /// and the bytes between hold a space and no space followed by a sigil (the quoted form of a
    /// word with spaces, which holds no `"`). Anything else is a plain word, up to the next space.
    /// Valid tags written one after another never read as a quoted word: a space between two of
    /// them is followed by a sigil. (Whether a word read is a valid tag is ``TodoTag``'s rule.)
    static func storedWord(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> StoredWord {
        let space = UInt8(ascii: " ")
        let quote = UInt8(ascii: "\"")
        func isSigil(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "@") }
        let sigil = start < bytes.count && isSigil(bytes[start]) ? bytes[start] : 0
        let wordStart = sigil == 0 ? start : start + 1
        if sigil != 0, wordStart < bytes.count, bytes[wordStart] == quote {
            var index = wordStart + 1
            var spaced = false
            while index < bytes.count, bytes[index] != quote {
                if bytes[index] == space {
                    if index + 1 < bytes.count, isSigil(bytes[index + 1]) { break }
                    spaced = true
                }
                index += 1
            }
            if spaced, index < bytes.count, bytes[index] == quote, index + 1 == bytes.count || bytes[index + 1] == space
            {
                return StoredWord(word: (wordStart + 1)..<index, sigil: sigil, end: index + 1)
            }
        }
        var end = wordStart
        while end < bytes.count, bytes[end] != space { end += 1 }
        return StoredWord(word: wordStart..<end, sigil: sigil, end: end)
    }

    /// The valid tags of a stored value, in order (met again too).
    private static func read(_ text: String) -> [TodoTag] {
        var text = text
        return text.withUTF8 { bytes in
            var tags: [TodoTag] = []
            var start = 0
            while start < bytes.count {
                let stored = storedWord(in: bytes, at: start)
                let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[stored.word]), as: UTF8.self)
                if let tag = TodoTag(word: word, sigil: TodoTag.Sigil(byte: stored.sigil) ?? .plus) { tags.append(tag) }
                start = stored.end + 1
            }
            return tags
        }
    }

    /// Whether `text` is in ``storage``'s form and ASCII (nearly every stored value): each word a
    /// sigil and a valid word (quoted when it holds spaces), single spaces, no word twice by
    /// folded word (ASCII folds by lower case, whatever the sigil). On the bytes, allocating
    /// nothing; other values take the general way.
    private static func isStoredFormASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes -> Bool in
            guard !bytes.isEmpty else { return true }
            func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
            /// Whether the words at `a` and `b` fold alike.
            func sameWord(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                guard a.count == b.count else { return false }
                for offset in 0..<a.count
                where lower(bytes[a.lowerBound + offset]) != lower(bytes[b.lowerBound + offset]) {
                    return false
                }
                return true
            }
            var start = 0
            while true {
                let stored = storedWord(in: bytes, at: start)
                let word = UnsafeBufferPointer(rebasing: bytes[stored.word])
                // isPrintableASCII refuses every byte of a scalar beyond ASCII.
                guard stored.sigil != 0,
                    TodoTag.isValidWord(
                        word.lazy.map(Unicode.Scalar.init), byteCount: word.count, printable: TodoTag.isPrintableASCII)
                else { return false }
                // The same word earlier: compare with each word before this one.
                var earlier = 0
                while earlier < start {
                    let before = storedWord(in: bytes, at: earlier)
                    if sameWord(before.word, stored.word) { return false }
                    earlier = before.end + 1
                }
                if stored.end == bytes.count { return true }
                // One space, then another word (a trailing or a second space fails its sigil).
                start = stored.end + 1
                guard start < bytes.count else { return false }
            }
        }
    }

    private static func joined(_ tags: [TodoTag]) -> String { tags.map(\.description).joined(separator: " ") }

    /// The tags, in order, read from ``storage``.
    public var tags: [TodoTag] { storage.isEmpty ? [] : Self.read(storage) }

    public var description: String { storage }

    public var isEmpty: Bool { storage.isEmpty }
    public var count: Int { tags.count }
    public func makeIterator() -> IndexingIterator<[TodoTag]> { tags.makeIterator() }

    /// Whether a tag with `tag`'s folded word is here.
    public func contains(_ tag: TodoTag) -> Bool { tags.contains(tag) }

    /// Adds `tag` at the end, unless its word is here already (then the one here stays as written).
    @discardableResult
    public mutating func insert(_ tag: TodoTag) -> Bool {
        guard !contains(tag) else { return false }
        storage = storage.isEmpty ? tag.description : storage + " " + tag.description
        return true
    }

    /// Removes the tag with `tag`'s folded word, whatever its sigil.
    @discardableResult
    public mutating func remove(_ tag: TodoTag) -> Bool {
        var tags = tags
        guard let index = tags.firstIndex(of: tag) else { return false }
        tags.remove(at: index)
        storage = Self.joined(tags)
        return true
    }

    /// Equal when they are written the same (``storage``): the same tags, sigils and order. A
    /// value that reads differently is another value (a sigil changed on the phone is a change
    /// to show and keep); ``holdsTheSameTags(as:)`` is the set comparison.
    public static func == (a: TodoTags, b: TodoTags) -> Bool { a.storage == b.storage }
    public func hash(into hasher: inout Hasher) { hasher.combine(storage) }

    /// Whether both hold the same tags by folded word, in any order and with any sigils.
    public func holdsTheSameTags(as other: TodoTags) -> Bool { Set(tags) == Set(other.tags) }

    /// Whether both say the same: the same tags written the same way, in any order. Order is no
    /// meaning (a phone that rewrites its categories in another order changed nothing), a
    /// sigil or a letter's case is (`==` tells those apart too).
    public func means(theSameAs other: TodoTags) -> Bool {
        tags.count == other.tags.count && Set(tags.map(\.description)) == Set(other.tags.map(\.description))
    }
}

extension TodoPriority: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try Int64(rawValue).bind(to: statement, at: index)
    }
}

extension TodoTags: SQLiteBindable {
    public func bind(to statement: Statement, at index: Int32) throws(SQLiteError) {
        try storage.bind(to: statement, at: index)
    }
}
