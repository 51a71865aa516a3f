/// The one rule for a collection's colour on a CalDAV server (Apple's `calendar-color`, in the
/// namespace `http://apple.com/ns/ical/`), for both sides of the protocol: what is read from a
/// server, and what is written to one.
///
/// Apps write `#RRGGBB` and `#RRGGBBAA` (Apple Reminders adds the alpha byte; owncloud/tasks#334
/// strips it); servers store what they are given, and some refuse the alpha form (Cyrus before
/// 2026, Fastmail's creation of calendars from DAVx⁵ ARGB colours: davx5-ose#2221). So a colour
/// is read in either form, its alpha dropped, and always written `#RRGGBB`: a list has one
/// colour, opaque, as `todo` stores it.
public enum CalendarColor {
    /// `text` as a colour, `#RRGGBB` in upper case: from `#RRGGBB` or `#RRGGBBAA` (hex digits of
    /// either case, XML blanks around them ignored), the alpha dropped. `nil` for anything else
    /// (a CSS name, an ARGB number, garbage): such a value is no colour a list can hold.
    public static func read(_ text: String) -> String? {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        var bytes = Substring(text).utf8[...]
        while let first = bytes.first, isBlank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isBlank(last) { bytes = bytes.dropLast() }
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        let digits = bytes.dropFirst()
        guard digits.allSatisfy(isHexDigit) else { return nil }
        return "#" + String(decoding: digits.prefix(6), as: UTF8.self).uppercased()
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
