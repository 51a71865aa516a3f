import TestSupport
import Testing

@testable import todo

/// The reader of the companion's answer lines: lines split across reads, several in one read,
/// and one line far longer than a read, fed as a pipe would feed them.
@Suite(.timed) struct LineBufferTests {
    /// Feeds `bytes` to `buffer` through ``LineBuffer/fill(_:)`` in reads of at most `chunk`
    /// bytes (a pipe's reads), taking the lines as they become whole; returns them, and the space
    /// each read was offered.
    private func feed(_ bytes: [UInt8], chunk: Int, into buffer: LineBuffer) -> (lines: [[UInt8]], offered: [Int]) {
        var lines: [[UInt8]] = []
        var offered: [Int] = []
        var position = 0
        while position < bytes.count {
            let count = buffer.fill { space in
                offered.append(space.count)
                let count = min(chunk, space.count, bytes.count - position)
                space.copyBytes(from: bytes[position..<position + count])
                return count
            }
            position += count
            while let line = buffer.nextLine({ Array($0) }) { lines.append(line) }
        }
        return (lines, offered)
    }

    private func lines(_ text: String, chunk: Int) -> [String] {
        let buffer = LineBuffer()
        return feed(Array(text.utf8), chunk: chunk, into: buffer).lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func linesSplitAcrossReadsComeOutWhole() {
        let text = "{\"ok\": true}\n{\"objects\": [\"é€😀\"]}\nlast\n"
        for chunk in [1, 2, 3, 5, 13, 64] {
            #expect(
                lines(text, chunk: chunk) == ["{\"ok\": true}", "{\"objects\": [\"é€😀\"]}", "last"],
                "reads of \(chunk) bytes")
        }
    }

    @Test func severalLinesInOneReadComeOutInOrder() {
        let buffer = LineBuffer()
        _ = buffer.fill { space in
            space.copyBytes(from: Array("a\nbb\n\nccc\nrest".utf8))
            return 14
        }
        var taken: [String] = []
        while let line = buffer.nextLine({ String(decoding: $0, as: UTF8.self) }) { taken.append(line) }
        #expect(taken == ["a", "bb", "", "ccc"])
        #expect(buffer.pendingCount == 4, "the unfinished line stays pending")
        _ = buffer.fill { space in
            space.copyBytes(from: Array("!\n".utf8))
            return 2
        }
        #expect(buffer.nextLine({ String(decoding: $0, as: UTF8.self) }) == "rest!")
        #expect(buffer.nextLine({ _ in Issue.record("no line is pending") }) == nil)
        #expect(buffer.pendingCount == 0)
    }

    @Test func aReadThatBringsNothingKeepsNothing() {
        let buffer = LineBuffer()
        #expect(buffer.fill { _ in 0 } == 0)
        #expect(buffer.fill { _ in -1 } == -1)
        #expect(buffer.pendingCount == 0)
        #expect(buffer.nextLine({ Array($0) }) == nil)
    }

    /// A 6 MB line (calendar data: a `\r\n` escape every 75 bytes) in 64 KiB reads, between two
    /// short lines: it comes out byte for byte, and the space offered grows with it, so a long
    /// line is read in ever larger pieces where the pipe allows.
    @Test func aLineMuchLongerThanAReadComesOutWhole() {
        var long: [UInt8] = []
        let fold = Array("\\r\\n ".utf8)
        while long.count < 6_000_000 {
            long += Array(
                "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempo".utf8.prefix(71))
            long += fold
        }
        let stream = Array("{\"ok\": true}\n".utf8) + long + [0x0A] + Array("next\n".utf8)
        let buffer = LineBuffer()
        let (lines, offered) = feed(stream, chunk: 65_536, into: buffer)
        #expect(lines.count == 3)
        #expect(lines.first == Array("{\"ok\": true}".utf8))
        #expect(lines.dropFirst().first == long)
        #expect(lines.last == Array("next".utf8))
        #expect(offered.allSatisfy { $0 >= LineBuffer.minimumRead })
        #expect((offered.max() ?? 0) >= 3_000_000, "the space offered grew with the line: \(offered.max() ?? 0)")
        #expect(buffer.pendingCount == 0)
    }

    /// Many short lines through one buffer, read at every alignment: the consumed part is
    /// reclaimed (the buffer does not grow with the total read), and nothing is lost or repeated.
    @Test func manyLinesReuseTheSameSpace() {
        var stream: [UInt8] = []
        var expected: [[UInt8]] = []
        for index in 0..<20_000 {
            let line = Array("{\"n\": \(index), \"pad\": \"\(String(repeating: "x", count: index % 97))\"}".utf8)
            expected.append(line)
            stream += line + [0x0A]
        }
        let buffer = LineBuffer()
        let (lines, offered) = feed(stream, chunk: 4_099, into: buffer)
        #expect(lines == expected)
        #expect(
            (offered.max() ?? 0) <= 4 * LineBuffer.minimumRead, "the free space stayed small: \(offered.max() ?? 0)")
    }
}
