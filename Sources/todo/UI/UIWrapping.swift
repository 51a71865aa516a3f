/// Word wrapping for the ui's footer and help page: on a narrow terminal (a phone over SSH is
/// 40 columns) a prompt's explanation or a help row is wrapped onto more lines rather than cut,
/// so everything the user must read stays on the screen.
enum UIWrapping {
    /// `text` in lines of at most `width` columns, broken at spaces; continuation lines start
    /// with `indent` spaces. A word wider than a line is cut (with "…"), never split across
    /// lines. An empty text is one empty line.
    static func wrap(_ text: String, width: Int, indent: Int = 0) -> [String] {
        let width = max(width, 1)
        let indent = min(max(indent, 0), width - 1)
        let margin = String(repeating: " ", count: indent)
        // Leading spaces are the first line's own indentation: kept, not wrapped away.
        let leading = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var line = leading
        var lineWidth = DisplayWidth.of(leading)
        var lineHasWord = false
        for word in text.dropFirst(leading.count).split(separator: " ") {
            let wordWidth = DisplayWidth.of(String(word))
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
            let fitted = DisplayWidth.truncate(String(word), toWidth: width - lineWidth)
            line += fitted
            lineWidth += DisplayWidth.of(fitted)
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }
}
