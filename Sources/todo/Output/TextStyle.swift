#if canImport(Glibc)
    import Glibc
#endif

/// Whether and how output is coloured: only on a terminal, never with `NO_COLOR` or
/// `--color never`, always with `--color always`.
struct TextStyle {
    /// Whether escape sequences are written at all.
    let enabled: Bool

    /// What `NO_COLOR` does, said the same way by the manual and the guide (a test holds the
    /// guide, docs/everyday-use.md, to this text), as ``resolve(option:stdoutIsTerminal:)`` does it.
    static let noColorRule =
        "NO_COLOR set to anything turns colour off, as TERM=dumb does, unless --color always asks for it."

    /// Decides from the `--color` option, the environment and whether stdout is a terminal.
    static func resolve(option: String?, stdoutIsTerminal: Bool) -> TextStyle {
        switch option {
        case "always": return TextStyle(enabled: true)
        case "never": return TextStyle(enabled: false)
        default:
            // https://no-color.org: any non-empty NO_COLOR turns colour off; so does a dumb terminal.
            let noColor = Environment.value("NO_COLOR") != nil
            let dumb = Environment.value("TERM") == "dumb"
            return TextStyle(enabled: stdoutIsTerminal && !noColor && !dumb)
        }
    }

    /// SGR codes this tool uses.
    enum Color: String {
        case red = "31"
        case yellow = "33"
        case green = "32"
        case dim = "2"
        case bold = "1"
    }

    /// `text` wrapped in the colour's escape sequence when colour is on.
    func paint(_ text: String, _ color: Color) -> String {
        enabled ? start(color) + text + Self.reset : text
    }

    /// The escape sequence that starts `color` (whether or not colour is on).
    func start(_ color: Color) -> String { "\u{1B}[\(color.rawValue)m" }

    /// The escape sequence that ends any colour.
    static let reset = "\u{1B}[0m"
}
