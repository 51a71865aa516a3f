/// Word wrapping, the one rule for text that must fit a narrow terminal (a phone over SSH is
/// 40 columns): `todo help` and `todo ui`'s footer and help page. Text is wrapped onto more
/// lines rather than cut or left to the terminal, which breaks lines mid-word.
enum TextWrapping {
    /// `text` in lines of at most `width` columns, broken at spaces; continuation lines start
    /// with `indent` spaces. A word wider than a line is cut (with "…"), never split across
    /// lines. An empty text is one empty line.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        // Leading spaces are the first line's own indentation: kept, not wrapped away.
        let leading = String(text.prefix { $0 == " " })
        let words = text.dropFirst(leading.count).split(separator: " ").map(String.init)
        return wrap(words: words, width: width, indent: indent, leading: leading)
    }

    /// `words` joined by spaces in lines of at most `width` columns, the first line starting
    /// with `leading`: as ``wrap(_:width:indent:)``, for words that hold spaces of their own
    /// and must stay on one line (`[--sort <order>]` in a usage line).
    static func wrap(words: [String], width: Int, indent: Int = 0, leading: String = "") -> [String] {
        let width = max(width, 1)
        let indent = min(max(indent, 0), width - 1)
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = leading
        var lineWidth = DisplayWidth.of(leading)
        var lineHasWord = false
        for word in words {
            let wordWidth = DisplayWidth.of(word)
            if lineHasWord, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = margin
                lineWidth = indent
                lineHasWord = false
            }
            if lineHasWord {
                line += " "
                lineWidth += 1
            }
            let fitted = DisplayWidth.truncate(word, toWidth: width - lineWidth)
            line += fitted
            lineWidth += DisplayWidth.of(fitted)
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
