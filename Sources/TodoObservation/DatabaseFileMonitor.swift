import Dispatch
import Synchronization
import TodoStore

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
/// of events the monitor also fires settling ticks: 1, 2, 4, 8 and 16 ms later, which catch
/// the commit soon after that fsync is done (a single, later first tick made every change
/// wait for it), then 40 and 150 ms for a slow disk. A reader that checks `PRAGMA data_version`
/// on every tick (no disk access when nothing changed) sees a commit at the first tick after
/// it became visible. The ticks stop at 150 ms: a commit that becomes visible later than that
/// after its last file event is seen only at the next event (another write to the files) or
/// the next check the app makes itself. An idle database costs no CPU at all.
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
    public convenience init(databasePath path: String, onChange: @escaping @Sendable () -> Void) throws(Failure) {
        try self.init(
            databasePath: path,
            scheduleTick: { queue, milliseconds, tick in
                queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds), execute: tick)
            }, onChange: onChange)
    }

    /// Runs `tick` on `queue` after `milliseconds`: how settling ticks are scheduled.
    typealias TickScheduler =
        @Sendable (_ queue: DispatchQueue, _ milliseconds: Int, _ tick: @escaping @Sendable () -> Void) -> Void

    /// ``init(databasePath:onChange:)`` with the settling ticks scheduled by `scheduleTick`
    /// (tests run them when they choose, on the monitor's queue, instead of waiting for them).
    init(
        databasePath path: String, scheduleTick: @escaping TickScheduler,
        onChange: @escaping @Sendable () -> Void
    ) throws(Failure) {
        let folder = DatabaseFile.folder(of: path)
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
        let state = State(
            names: [name, name + "-wal", name + "-journal"], onChange: onChange, queue: queue,
            scheduleTick: scheduleTick)
        queue.setSpecific(key: State.queueKey, value: state.queueToken)
        self.state = state
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [state] in
            if state.drainEvents(descriptor) { state.changed() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit { cancel() }

    /// Stops watching. Idempotent. Once it returns, no callback runs or will run: a callback
    /// under way on another thread is waited for. Called from inside a callback, it returns at
    /// once and that callback is the last.
    public func cancel() {
        state.cancel()
        source.cancel()
        // Wait out a callback already running on the queue (it passed the check before the
        // flag was set), unless this is that callback: waiting for itself would deadlock.
        if DispatchQueue.getSpecific(key: State.queueKey) != state.queueToken {
            queue.sync {}
        }
    }

    /// The mutable part. `generation` is confined to the monitor's queue; `cancelled` is read
    /// there and set from any thread, so it sits behind a mutex.
    private final class State: @unchecked Sendable {
        /// Tells the monitor's queue from others, so ``cancel()`` knows when it runs on it.
        static let queueKey = DispatchSpecificKey<Int>()
        let names: Set<String>
        let onChange: @Sendable () -> Void
        let queue: DispatchQueue
        let scheduleTick: TickScheduler
        /// Bumped on every burst, so stale settling ticks do nothing.
        var generation = 0
        private let cancelled = Mutex(false)
        /// This monitor's value for ``queueKey``.
        var queueToken: Int { Int(bitPattern: Unmanaged.passUnretained(self).toOpaque()) }

        init(
            names: Set<String>, onChange: @escaping @Sendable () -> Void, queue: DispatchQueue,
            scheduleTick: @escaping TickScheduler
        ) {
            self.names = names
            self.onChange = onChange
            self.queue = queue
            self.scheduleTick = scheduleTick
        }

        var isCancelled: Bool { cancelled.withLock { $0 } }

        func cancel() { cancelled.withLock { $0 = true } }

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
                        let namePointer = (buffer + offset + MemoryLayout<inotify_event>.size).assumingMemoryBound(
                            to: CChar.self)
                        if names.contains(String(cString: namePointer)) { relevant = true }
                    }
                    offset += MemoryLayout<inotify_event>.size + nameLength
                }
            }
            return relevant
        }

        func changed() {
            guard !isCancelled else { return }
            onChange()
            // The callback may have cancelled the monitor: then it was the last.
            guard !isCancelled else { return }
            generation += 1
            let current = generation
            for delay in [1, 2, 4, 8, 16, 40, 150] {
                scheduleTick(queue, delay) { [self] in
                    guard !isCancelled, generation == current else { return }
                    onChange()
                }
            }
        }
    }
}
