import TodoStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer to a file descriptor: one `write(2)` per 64 KiB instead of one per line.
///
/// `print` locks and flushes per call, which dominates listing a long list; this keeps the
/// CLI's output cost proportional to bytes, not lines.
///
/// A class: it owns its buffer, and every holder (the command, a watch printer) must append to
/// the same one; a copy would write unflushed bytes twice. Used on one thread.
///
/// A failed write is remembered in ``failure`` (the caller turns it into an error and exit 1);
/// a reader that went away (EPIPE) ends the output quietly and is not a failure.
final class OutputStream {
    let descriptor: Int32
    /// The pending bytes, in memory this object owns. Raw memory rather than a `[UInt8]`
    /// property: every append to a class's stored property pays a dynamic exclusivity check
    /// (`swift_beginAccess`), a large share of a long listing's instructions.
    private let bytes: UnsafeMutablePointer<UInt8>
    private let pending: UnsafeMutablePointer<Int>
    private static let capacity = 1 << 16
    /// `errno` of the first write that failed, other than a closed pipe.
    private(set) var failure: Int32?
    /// True once the reader has gone: further output is dropped.
    private(set) var isClosed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes = .allocate(capacity: Self.capacity)
        pending = .allocate(capacity: 1)
        pending.initialize(to: 0)
    }

    deinit {
        bytes.deallocate()
        pending.deallocate()
    }

    /// Whether the descriptor is a terminal.
    var isTerminal: Bool { isatty(descriptor) == 1 }

    /// Appends `buffer`, flushing first when it would not fit; a buffer larger than the whole
    /// capacity is written straight through.
    @inline(__always)
    private func append(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let source = buffer.baseAddress, buffer.count > 0 else { return }
        if pending.pointee + buffer.count > Self.capacity {
            flush()
            if buffer.count > Self.capacity {
                writeOut(UnsafeRawBufferPointer(buffer))
                return
            }
        }
        (bytes + pending.pointee).update(from: source, count: buffer.count)
        pending.pointee += buffer.count
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func write(bytes sequence: some Sequence<UInt8>) {
        let array = Array(sequence)
        array.withUnsafeBufferPointer { append($0) }
    }

    /// Appends a literal without building a String.
    func write(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    /// Appends `count` spaces (none when `count` is not positive).
    func writeSpaces(_ count: Int) {
        var remaining = count
        while remaining > 0 {
            let chunk = min(remaining, Self.spaces.count)
            Self.spaces.withUnsafeBufferPointer { append(UnsafeBufferPointer(rebasing: $0[..<chunk])) }
            remaining -= chunk
        }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Appends a non-negative integer's decimal digits, right-aligned in `width` columns.
    func write(_ value: Int64, width: Int = 0) {
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
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
            append(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[(20 - count)...]))
        }
    }

    /// Appends a date's `YYYY-MM-DD` without building a String.
    func write(_ date: CalendarDate) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { bytes in
            let count = date.writeISO(to: bytes)
            append(UnsafeBufferPointer(rebasing: bytes[..<count]))
        }
    }

    /// Writes everything buffered, retrying short writes and EINTR. A closed pipe ends the
    /// output quietly; any other failure is kept in ``failure`` and ends it too.
    func flush() {
        let count = pending.pointee
        pending.pointee = 0
        writeOut(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    private func writeOut(_ buffer: UnsafeRawBufferPointer) {
        guard !isClosed, failure == nil, let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && errno == EPIPE {
                isClosed = true
                return
            } else {
                failure = written < 0 ? errno : EIO
                return
            }
        }
    }
}
