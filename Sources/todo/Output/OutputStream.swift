import TodoStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered writer to a file descriptor: one `write(2)` per 64 KiB instead of one per line.
///
/// `print` locks and flushes per call, which dominates listing 100,000 todos; this keeps the
/// CLI's output cost proportional to bytes, not lines.
struct OutputStream {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    private static let capacity = 1 << 16

    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(Self.capacity)
    }

    /// Whether the descriptor is a terminal.
    var isTerminal: Bool { isatty(descriptor) == 1 }

    mutating func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.capacity { flush() }
    }

    mutating func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { flush() }
    }

    /// Appends a literal without building a String.
    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends `count` spaces (none when `count` is not positive).
    mutating func writeSpaces(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, Self.spaces.count)
            Self.spaces.withUnsafeBufferPointer { buffer.append(contentsOf: $0[..<chunk]) }
            remaining -= chunk
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Appends a non-negative integer's decimal digits, right-aligned in `width` columns.
    mutating func write(_ value: Int64, width: Int = 0) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { bytes in
            var rest = value.magnitude
            repeat {
                bytes[19 - count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            writeSpaces(width - count)
            buffer.append(contentsOf: bytes[(20 - count)...])
        }
    }

    /// Appends a date's `YYYY-MM-DD` without building a String.
    mutating func write(_ date: CalendarDate) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { bytes in
            let count = date.writeISO(to: bytes)
            buffer.append(contentsOf: bytes[..<count])
        }
    }

    /// Writes everything buffered, retrying short writes and EINTR. A closed pipe ends quietly.
    mutating func flush() {
        var offset = 0
        buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
