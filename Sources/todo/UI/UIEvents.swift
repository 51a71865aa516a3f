import Dispatch
import TodoObservation

#if canImport(Glibc)
    import Glibc
#endif

/// Everything that can wake `todo ui`'s main thread, gathered from the threads that notice it:
/// key bytes (a read source on standard input), "the database may have changed" (the file
/// monitor's queue), a resize (SIGWINCH) and a stop request (SIGINT, SIGTERM).
///
/// The main thread blocks on ``wake`` and then ``take()``s everything at once, so a burst of
/// events costs one redraw, and an idle session costs no CPU: nothing polls.
final class UIEvents: @unchecked Sendable {
    /// What happened since the last ``take()``.
    struct Batch {
        var bytes: [UInt8] = []
        var databaseChanged = false
        var resized = false
        var inputClosed = false
        var stopSignal: Int32?
    }

    /// Signalled after each posted event.
    let wake = DispatchSemaphore(value: 0)
    private let lock = DispatchQueue(label: "todo.ui.events")
    private var batch = Batch()
    private let inputQueue = DispatchQueue(label: "todo.ui.input")
    private var sources: [any DispatchSourceProtocol] = []
    private var monitor: DatabaseFileMonitor?

    /// Starts listening: standard input, the signals, and the database file at `databasePath`.
    func start(databasePath: String) throws(DatabaseFileMonitor.Failure) {
        monitor = try DatabaseFileMonitor(databasePath: databasePath) { [self] in
            post { $0.databaseChanged = true }
        }
        let input = DispatchSource.makeReadSource(fileDescriptor: 0, queue: inputQueue)
        input.setEventHandler { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(0, &buffer, buffer.count)
            if count > 0 {
                post { $0.bytes.append(contentsOf: buffer[0..<count]) }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                input.cancel()
                post { $0.inputClosed = true }
            }
        }
        input.resume()
        sources.append(input)
        sources += SignalSources.make([SIGWINCH, SIGINT, SIGTERM], queue: inputQueue) { [self] signalNumber in
            post { batch in
                if signalNumber == SIGWINCH { batch.resized = true } else { batch.stopSignal = signalNumber }
            }
        }
    }

    /// Stops every source and the monitor.
    func stop() {
        sources.forEach { $0.cancel() }
        sources.removeAll()
        monitor?.cancel()
        monitor = nil
    }

    /// Waits for at least one event and returns everything that arrived.
    func next() -> Batch {
        wake.wait()
        return take()
    }

    /// Everything that arrived, without waiting: for a caller with work of its own to do.
    func poll() -> Batch {
        // Consume the wake-ups too, so a later ``next()`` waits for a new event.
        while wake.wait(timeout: .now()) == .success {}
        return take()
    }

    /// Everything posted since the last call; resets it.
    func take() -> Batch {
        lock.sync {
            let taken = batch
            batch = Batch()
            return taken
        }
    }

    private func post(_ change: (inout Batch) -> Void) {
        lock.sync { change(&batch) }
        wake.signal()
    }
}
