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

    /// A tag from `text`: `+word`, `@word`, or a bare `word` (a `+` tag). `nil` when the word is
    /// empty, too long, or holds white space, a control character or another leading sigil.
    public init?(_ text: some StringProtocol) {
        var word = Substring(text)
        var sigil = Sigil.plus
        if let first = word.first, first == "+" || first == "@" {
            sigil = first == "@" ? .at : .plus
            word = word.dropFirst()
        }
        guard Self.isValidWord(word) else { return nil }
        self.init(checked: String(word), sigil: sigil)
    }

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

    private static func isValidWord(_ word: Substring) -> Bool {
        guard !word.isEmpty, word.utf8.count <= maximumLength, word.first != "+", word.first != "@" else {
            return false
        }
        // ASCII (nearly every tag, read once per row of a list): printable and not a blank.
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.utf8.allSatisfy { (0x21...0x7E).contains($0) } }
        return !word.unicodeScalars.contains { $0.properties.isWhitespace || ControlCharacters.contains($0) }
    }

    /// As typed: `+work`, `@phone`.
    public var description: String { sigil.rawValue + word }

    public static func == (a: TodoTag, b: TodoTag) -> Bool { a.folded == b.folded }
    public func hash(into hasher: inout Hasher) { hasher.combine(folded) }
}

/// A todo's tags: a set by folded word, kept in the order they were added. Stored in the `tags`
/// column as their text separated by single spaces (``storage``).
///
/// The text is the value: the tags are read from it when asked for. A list reads a todo's tags
/// once per row and mostly shows them as written, so a stored value in the form ``storage``
/// writes is checked in one pass over its bytes and kept as it is, with no tag made.
public struct TodoTags: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The `tags` column's value: `+work @phone`, `""` for none. Always in its one form: every
    /// word a valid tag (``TodoTag``) with its sigil, none twice by folded word, single spaces.
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
        for word in text.utf8.split(separator: UInt8(ascii: " ")) {
            if let tag = TodoTag(Substring(word)), !kept.contains(tag) { kept.append(tag) }
        }
        storage = Self.joined(kept)
    }

    /// Whether `text` is in ``storage``'s form and ASCII (nearly every stored value): each word a
    /// sigil and 1-100 printable bytes that do not start with another sigil, single spaces, no
    /// word twice by folded word (ASCII folds by lower case, whatever the sigil). One pass over
    /// the bytes, allocating nothing; other values take the general way.
    private static func isStoredFormASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes -> Bool in
            let space = UInt8(ascii: " ")
            func isSigil(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "@") }
            func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
            /// Whether the words (without their sigils) at `a` and `b`, `length` bytes each, fold alike.
            func sameWord(_ a: Int, _ b: Int, _ length: Int) -> Bool {
                for offset in 0..<length where lower(bytes[a + offset]) != lower(bytes[b + offset]) { return false }
                return true
            }
            var start = 0
            while start < bytes.count {
                guard isSigil(bytes[start]), start + 1 < bytes.count, !isSigil(bytes[start + 1]) else { return false }
                var end = start + 1
                while end < bytes.count, bytes[end] != space {
                    guard (0x21...0x7E).contains(bytes[end]) else { return false }
                    end += 1
                }
                let length = end - start - 1
                guard (1...TodoTag.maximumLength).contains(length) else { return false }
                // The same word earlier: compare with each word before this one.
                var earlier = 0
                while earlier < start {
                    var earlierEnd = earlier + 1
                    while bytes[earlierEnd] != space { earlierEnd += 1 }
                    if earlierEnd - earlier - 1 == length, sameWord(earlier + 1, start + 1, length) { return false }
                    earlier = earlierEnd + 1
                }
                if end == bytes.count { return true }
                // One space, then another word (a trailing or a second space fails its sigil).
                start = end + 1
                guard start < bytes.count else { return false }
            }
            return true
        }
    }

    private static func joined(_ tags: [TodoTag]) -> String { tags.map(\.description).joined(separator: " ") }

    /// The tags, in order, read from ``storage``.
    public var tags: [TodoTag] {
        storage.isEmpty ? [] : storage.utf8.split(separator: UInt8(ascii: " ")).compactMap { TodoTag(Substring($0)) }
    }

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
