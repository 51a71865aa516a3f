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
