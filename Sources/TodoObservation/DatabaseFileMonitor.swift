import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Wakes up when another process may have committed to a database file: Linux inotify on the
/// file's folder, no polling.
///
/// Why the folder: SQLite deletes and recreates the `-wal` file, and a watch on a deleted file
/// goes silent. Events for the database and its `-wal` and `-journal` files count; the `-shm`
/// index is written through `mmap`, which inotify never reports, so it is ignored.
///
/// A commit's last file write (its WAL frame) can come a moment before the commit becomes
/// visible to readers (the shared-memory index is updated after an fsync), so after each burst
/// of events the monitor also fires a few settling ticks (about 10, 40 and 150 ms later).
/// A reader that checks `PRAGMA data_version` on every tick therefore never misses a commit,
/// and an idle database costs no CPU at all.
///
/// Threading: events are delivered on the monitor's private serial queue. The monitor itself
/// may be shared: its properties never change after `init`, and a dispatch source may be
/// cancelled from any thread (hence `@unchecked`).
public final class DatabaseFileMonitor: @unchecked Sendable {
    /// Why a monitor could not start.
    public struct Failure: Error, Sendable, Equatable {
        /// The path that could not be watched.
        public let path: String
        /// `errno` from `inotify_init1` or `inotify_add_watch`.
        public let errno: Int32
    }

    private let descriptor: Int32
    private let queue = DispatchQueue(label: "todo.DatabaseFileMonitor")
    private let source: any DispatchSourceRead
    private let state: State

    /// Watches the database at `path` and calls `onChange` (on a private queue) when it may
    /// have changed. The monitor runs until ``cancel()`` or until it is released.
    public init(databasePath path: String, onChange: @escaping @Sendable () -> Void) throws(Failure) {
        let folder = Self.folder(of: path)
        let name = String(path.split(separator: "/").last ?? Substring(path))
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failure(path: path, errno: errno) }
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let code = errno
            close(descriptor)
            throw Failure(path: folder, errno: code)
        }
        self.descriptor = descriptor
        let state = State(names: [name, name + "-wal", name + "-journal"], onChange: onChange, queue: queue)
        self.state = state
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [state] in
            if state.drainEvents(descriptor) { state.changed() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit { cancel() }

    /// Stops watching. Idempotent; no callback starts after it returns... except one already
    /// running on the monitor's queue.
    public func cancel() {
        source.cancel()
        state.cancelTicks()
    }

    private static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The mutable part, confined to the monitor's queue.
    private final class State: @unchecked Sendable {
        let names: Set<String>
        let onChange: @Sendable () -> Void
        let queue: DispatchQueue
        /// Bumped on every burst and on cancel, so stale settling ticks do nothing.
        var generation = 0
        var cancelled = false

        init(names: Set<String>, onChange: @escaping @Sendable () -> Void, queue: DispatchQueue) {
            self.names = names
            self.onChange = onChange
            self.queue = queue
        }

        /// Reads every queued event; true when one concerns the database's files.
        func drainEvents(_ descriptor: Int32) -> Bool {
            var relevant = false
            let size = 4096
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            while true {
                let count = read(descriptor, buffer, size)
                guard count > 0 else { break }
                var offset = 0
                while offset < count {
                    let event = (buffer + offset).assumingMemoryBound(to: inotify_event.self)
                    let nameLength = Int(event.pointee.len)
                    if nameLength > 0 {
                        let namePointer = (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(to: CChar.self)
                        if names.contains(String(cString: namePointer)) { relevant = true }
                    }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                }
            }
            return relevant
        }

        func changed() {
            guard !cancelled else { return }
            onChange()
            generation += 1
            let current = generation
            for delay in [10, 40, 150] {
                queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in
                    guard !cancelled, generation == current else { return }
                    onChange()
                }
            }
        }

        func cancelTicks() {
            queue.async { [self] in
                cancelled = true
                generation += 1
            }
        }
    }
}
