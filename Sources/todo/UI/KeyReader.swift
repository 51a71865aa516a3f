/// A key press, decoded from the bytes a terminal sends in raw mode.
enum Key: Equatable {
    case up, down, left, right, pageUp, pageDown, home, end, delete
    case enter, escape, backspace, tab
    /// Ctrl-C: in raw mode it is byte 3, not SIGINT.
    case interrupt
    /// Ctrl-Z: in raw mode it is byte 26, not SIGTSTP.
    case suspend
    /// Ctrl-U, used to clear a prompt; other control bytes arrive as ``control(_:)``.
    case clearLine
    case control(UInt8)
    /// Printable text: one grapheme's worth of scalars as typed.
    case character(Character)
}

/// Turns terminal input bytes into keys: ASCII, UTF-8 text, and the CSI / SS3 escape
/// sequences of arrows, Home/End and Page Up/Down (`ESC [ A`, `ESC O A`, `ESC [ 5 ~`...).
///
/// A sequence or UTF-8 character cut between two reads is kept until the rest arrives. A lone
/// ESC at the end of a read is the Escape key: terminals send a whole sequence in one write.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// Decodes `bytes` (after whatever an earlier call left incomplete) into keys.
    mutating func decode(_ bytes: [UInt8]) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        let input = pending
        decoding: while index < input.count {
            let byte = input[index]
            switch byte {
            case 0x1B:
                guard index + 1 < input.count else {
                    keys.append(.escape)
                    index += 1
                    break
                }
                let next = input[index + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    // ESC then an ordinary key (Alt+key, or Escape typed just before): Escape.
                    keys.append(.escape)
                    index += 1
                    break
                }
                var end = index + 2
                while end < input.count, (0x30...0x3F).contains(input[end]) { end += 1 }
                guard end < input.count else { break decoding }  // incomplete: wait for more
                let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
                if let key = Self.sequence(final: input[end], parameters: parameters) { keys.append(key) }
                index = end + 1
            case 13, 10:
                keys.append(.enter)
                index += 1
            case 127, 8:
                keys.append(.backspace)
                index += 1
            case 3:
                keys.append(.interrupt)
                index += 1
            case 9:
                keys.append(.tab)
                index += 1
            case 21:
                keys.append(.clearLine)
                index += 1
            case 26:
                keys.append(.suspend)
                index += 1
            case 0..<0x20:
                keys.append(.control(byte))
                index += 1
            case 0x20..<0x80:
                keys.append(.character(Character(Unicode.Scalar(byte))))
                index += 1
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= input.count else { break decoding }
                let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
                if let character = text.first, character != "\u{FFFD}" { keys.append(.character(character)) }
                index += length
            }
        }
        pending = Array(input[index...])
        return keys
    }

    /// The key of `ESC [ parameters final` (or `ESC O final`), or nil for one we do not use.
    private static func sequence(final: UInt8, parameters: String) -> Key? {
        switch Character(Unicode.Scalar(final)) {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H": return .home
        case "F": return .end
        case "~":
            switch parameters.split(separator: ";").first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            case "5": return .pageUp
            case "6": return .pageDown
            default: return nil
            }
        default: return nil
        }
    }
}
