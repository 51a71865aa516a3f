/// The screen as last drawn, one string per row, and the bytes it took to draw it.
///
/// ``draw(_:)`` compares the new frame with the last one and rewrites only the rows whose text
/// changed: cursor position, the row, erase to the end of the line. A frame that changes
/// nothing writes nothing. ``invalidate()`` forces the next frame to be a full repaint (after a
/// resize, when the terminal's content is unknown).
struct Screen {
    /// The rows as drawn, escape sequences included.
    private(set) var lines: [String] = []
    private var needsFullRepaint = true

    /// Frames that wrote at least one byte.
    private(set) var frames = 0
    /// Every byte written by frames.
    private(set) var totalBytes = 0
    /// The bytes of the latest frame that wrote anything.
    private(set) var lastFrameBytes = 0

    /// The next frame clears the screen and draws every row.
    mutating func invalidate() {
        needsFullRepaint = true
    }

    /// Draws `newLines` (one per terminal row, each already fitted to the width) and returns
    /// how many bytes that took.
    @discardableResult
    mutating func draw(_ newLines: [String]) -> Int {
        var output: [UInt8] = []
        if needsFullRepaint {
            output = Self.fullRepaint(newLines)
            needsFullRepaint = false
        } else {
            for (row, line) in newLines.enumerated() where row >= lines.count || lines[row] != line {
                Self.appendRow(row, line, to: &output)
            }
            // Rows beyond a shorter frame: cleared (only after a resize, which repaints anyway).
            if lines.count > newLines.count {
                for row in newLines.count..<lines.count { Self.appendRow(row, "", to: &output) }
            }
        }
        lines = newLines
        guard !output.isEmpty else { return 0 }
        let written = TerminalMode.writeAll(output)
        frames += 1
        totalBytes += written
        lastFrameBytes = written
        return written
    }

    /// What repainting the current screen from scratch costs, in bytes.
    var fullRepaintBytes: Int { Self.fullRepaint(lines).count }

    /// `frames=N bytes=M last_frame_bytes=K full_repaint_bytes=F`, for `TODO_UI_STATS`.
    var statsLine: String {
        "frames=\(frames) bytes=\(totalBytes) last_frame_bytes=\(lastFrameBytes) full_repaint_bytes=\(fullRepaintBytes)\n"
    }

    private static func fullRepaint(_ lines: [String]) -> [UInt8] {
        var output = Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
        for (row, line) in lines.enumerated() { appendRow(row, line, to: &output) }
        return output
    }

    /// `ESC [ row ; 1 H`, the line, `ESC [ 0 m ESC [ K` (erase the rest of the row).
    private static func appendRow(_ row: Int, _ line: String, to output: inout [UInt8]) {
        output.append(contentsOf: "\u{1B}[\(row + 1);1H".utf8)
        output.append(contentsOf: line.utf8)
        output.append(contentsOf: "\u{1B}[0m\u{1B}[K".utf8)
    }
}
