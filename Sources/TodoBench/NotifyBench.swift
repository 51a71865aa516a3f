// The `notify` figure: how long a commit in another process takes to reach a
// FetchedResultsController, with the inotify monitor or with a 100 ms data_version polling loop.
// scripts/bench starts `watch-latency`, waits for "ready", runs `write`, and pairs the two
// processes' CLOCK_MONOTONIC timestamps (one clock for the whole machine).
import Dispatch
import TodoObservation
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC, comparable between processes.
func monotonicNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Prints `id nanoseconds` when each new todo reaches the controller.
final class ArrivalPrinter: FetchedResultsControllerDelegate {
    var seen = 0
    func controller(_ controller: FetchedResultsController, didChangeContentWith batch: FetchedResultsBatch) {
        let now = monotonicNanoseconds()
        for insert in batch.difference.itemInserts { print(insert.item.id, now) }
        seen += batch.difference.itemInserts.count
        fflush(nil)
    }
}

/// Watches `path` until `count` todos have arrived, printing each arrival.
func watchLatency(path: String, count: Int, polling: Bool) throws {
    let repository = try TodoRepository(path: path)
    let controller = FetchedResultsController(repository: repository)
    let printer = ArrivalPrinter()
    controller.delegate = printer
    try controller.performFetch()
    let wake = DispatchSemaphore(value: 0)
    let monitor = polling ? nil : try DatabaseFileMonitor(databasePath: path) { wake.signal() }
    print("ready")
    fflush(nil)
    while printer.seen < count {
        if polling {
            usleep(100_000)
        } else {
            wake.wait()
        }
        try controller.processExternalChanges()
    }
    withExtendedLifetime(monitor) {}
}

/// Adds `count` todos, one transaction each, 20-30 ms apart; prints `id nanoseconds` as each
/// commit returns.
func writeSpaced(path: String, count: Int) throws {
    let repository = try TodoRepository(path: path)
    for index in 0..<count {
        let todo = try repository.add(name: "arrival \(index)")
        print(todo.id, monotonicNanoseconds())
        fflush(nil)
        usleep(UInt32(20_000 + (index * 7_919) % 10_000))
    }
}
