// The Swift side of scripts/bench: each mode runs one measurement and prints its figures.
// scripts/bench runs the C baseline beside it in the same run and builds the report.
import SQLite
import TodoStore

#if canImport(Glibc)
    import Glibc
#endif

/// The same rows the C baseline inserts: a third undated, the rest spread over 2024.
func benchRow(_ index: Int) -> (name: String, deadline: CalendarDate?, done: Bool) {
    let deadline = index % 3 == 0 ? nil : CalendarDate(year: 2024, month: 1 + index % 12, day: 1 + index % 28)
    return ("Todo number \(index)", deadline, index % 5 == 0)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Inserts `count` todos through the repository in one transaction; prints rows per second.
func benchInsert(path: String, count: Int) throws {
    let repository = try TodoRepository(path: path)
    let rows = (0..<count).map(benchRow)
    let elapsed = try ContinuousClock().measure {
        try repository.connection.transaction {
            for row in rows { try repository.add(name: row.name, deadline: row.deadline, isDone: row.done) }
        }
    }
    print(Double(count) / seconds(elapsed))
}

/// Reads every todo into `Todo` values, best of five; prints rows per second.
func benchFetch(path: String) throws {
    let repository = try TodoRepository(path: path)
    var best = Double.infinity
    var checksum = 0
    for _ in 0..<5 {
        var todos: [Todo] = []
        let elapsed = try ContinuousClock().measure { todos = try repository.fetch() }
        checksum &+= todos.count
        best = min(best, seconds(elapsed) / Double(max(todos.count, 1)))
    }
    precondition(checksum > 0, "fetch read no rows")
    print(1 / best)
}

let arguments = CommandLine.arguments
/// The items a snapshot benchmark is told to use (`diff 1000`: a smoke run's), else its default.
let snapshotCount = arguments.count == 3 ? Int(arguments[2]) ?? snapshotBenchCount : snapshotBenchCount
switch arguments.count > 1 ? arguments[1] : "" {
case "insert" where arguments.count == 4:
    try benchInsert(path: arguments[2], count: Int(arguments[3]) ?? 100_000)
case "fetch" where arguments.count == 3:
    try benchFetch(path: arguments[2])
case "watch-latency" where arguments.count == 5:
    try watchLatency(path: arguments[2], count: Int(arguments[3]) ?? 100, polling: arguments[4] == "poll")
case "write" where arguments.count == 4:
    try writeSpaced(path: arguments[2], count: Int(arguments[3]) ?? 100)
case "diff" where arguments.count <= 3:
    let (ours, baseline) = benchSnapshotDiff(count: snapshotCount)
    print(ours, baseline)
case "build" where arguments.count <= 3:
    print(benchSnapshotBuild(count: snapshotCount))
case "build-file" where arguments.count == 4:
    print(try benchSnapshotBuild(path: arguments[2], grouping: arguments[3]))
default:
    print(
        "usage: TodoBench insert PATH COUNT | fetch PATH | watch-latency PATH COUNT inotify|poll | write PATH COUNT | diff [COUNT] | build [COUNT] | build-file PATH done|tag|priority"
    )
    exit(2)
}
