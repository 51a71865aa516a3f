/// A line being typed, edited as a shell edits one: the cursor moves with Left, Right,
/// Home/Ctrl-A and End/Ctrl-E; Backspace and Delete remove the character before and under it;
/// Ctrl-U removes everything before it, Ctrl-W the word before it.
///
/// Positions count `Character`s (grapheme clusters), so one key press never splits an accent
/// from its letter or a flag in two.
struct LineEditor: Equatable {
    private(set) var characters: [Character]
    /// Where the next character goes: 0 (before the first) to `characters.count` (the end).
    private(set) var cursor: Int

    /// `text` with the cursor at its end.
    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }
    /// The text before and after the cursor, for drawing it.
    var beforeCursor: String { String(characters[..<cursor]) }
    var afterCursor: String { String(characters[cursor...]) }

    /// Applies an editing key; returns false for a key that does not edit (Enter, Escape...).
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { break }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete, .control(4):  // Ctrl-D deletes forward, as in a shell line with text
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control(2):  // Ctrl-B
            cursor = max(0, cursor - 1)
        case .right, .control(6):  // Ctrl-F
            cursor = min(characters.count, cursor + 1)
        case .home, .control(1):  // Ctrl-A
            cursor = 0
        case .end, .control(5):  // Ctrl-E
            cursor = characters.count
        case .clearLine:  // Ctrl-U
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control(23):  // Ctrl-W: blanks before the cursor, then the word before them
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }
}
