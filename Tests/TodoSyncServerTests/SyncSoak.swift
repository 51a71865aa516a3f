import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 39's soak: three devices and a phone write one collection on a real server (Radicale
/// or Xandikos) for a number of random operations, while the syncs meet random faults; then,
/// after quiet syncs, the oracles check the result against what everyone did.
///
/// - Devices: each its own database (``SyncDevice``), reaching the server through a
///   ``MisbehavingProxy``. Operations: `todo add` (with a deadline, priority, tags, a note),
///   `todo edit` of every field (name, deadline or none, priority, tags added and removed, note
///   replaced or appended to), `done`, `undone`, `rm`, `undo`, sqlite3-shell writes (an UPDATE
///   of one field, an INSERT, a DELETE), and `todo sync`.
/// - The phone (``SoakPhone``): plain HTTP on the server, adding objects with lines `todo` does
///   not know, changing SUMMARY, STATUS, CATEGORIES (reordered, added to), PRIORITY, DESCRIPTION
///   and DUE of any object, and deleting objects, each write conditional on the ETag it read.
/// - Identity: every todo's name starts with its key (`K17` added by a device, `S4` inserted by
///   sqlite3, `P3` made by the phone), and every rename keeps it, so the model follows each todo
///   through renames, syncs and devices.
/// - Faults, one per faulty sync (``Fault``): SIGKILL of the sync's process group (`todo` and its
///   `todo-sync`) once the proxy has answered a random number of its requests; the proxy cutting
///   answers of a kind of request (in the head or the body); stalling them (no answer, or a byte
///   at a time) with `TODO_SYNC_TIMEOUT=1`; answering 503 (or 500, 502, 504, 429), with or
///   without the request done; failing the n-th PUT; leaving objects out of a multiget (or
///   their data, or sending garbage for it); the server restarted in the middle of the
///   sync; two syncs of one device at once; a sqlite3 write in the middle of the sync. A faulty
///   sync may fail (exit 1, one `error:` line) but never crashes: any other exit, or a signal
///   that is not the soak's own SIGKILL, is a failure.
/// - Oracles, after two quiet rounds of syncs (proxy in pass mode): every device, a fresh device
///   and the phone's reading of the server agree on every field; no acknowledged add is missing
///   unless a delete of it was acknowledged; no key appears twice anywhere; a todo present after
///   an acknowledged delete was restored (`todo undo`) or a sync reported its `deleted`
///   conflict; each field holds a value someone wrote, and the last one to reach the server
///   unless a conflict said it was replaced (a device's write reaches it with that device's
///   next sync; a write an undo took back before any sync, a sqlite3 UPDATE to the value the
///   todo had, and a todo's fields brought back by `todo undo` of its `rm` are no writes: the
///   device has nothing to send for them); every reported conflict is on a todo (and for a field, that
///   field) that two actors wrote; every phone object keeps its unknown lines byte for byte.
///   Where a sync that would have reported a conflict ended without a report (killed), or a
///   device's write may have landed with its answer lost and been deleted before it synced
///   again (which it cannot always tell from a write that never landed, docs/sync.md), the
///   finding is counted as unverifiable rather than failed, and listed.
///
/// Seeded (``TestSeed``): the operations and faults replay with `TODO_TEST_SEED`; the moments
/// of kills depend on timing. Everything is bounded: each process has a time limit, waits are
/// on conditions with deadlines, and everything runs on loopback.
final class SyncSoak {
    let kind: CalDAVServer.Kind
    let operations: Int
    let seed: UInt64
    let server: CalDAVServer
    let proxy: MisbehavingProxy
    let devices: [SyncDevice]
    let phone: SoakPhone
    private(set) var figures: SoakFigures
    private let model = SoakModel()
    private var random: SeededGenerator
    private var step = 0
    private var counter = 0
    private var duplicatesSeen: Set<String> = []
    /// Each device's todos' keys by id, from every view of it taken (ids are never reused): a
    /// conflict may name a todo that is gone when the sync ends (a sqlite3 delete or another
    /// sync of the device while it ran).
    private var keysByID: [Int: [Int: String]] = [:]

    /// The faults a sync may meet, by name; ``pickFault()`` gives their weights.
    enum Fault: String, CaseIterable {
        case none, kill, cut, stall, status, restart
        case putFail = "put_fail"
        case dropped = "dropped_from_multiget"
        case twoAtOnce = "two_at_once"
        case sqliteDuring = "sqlite_during"
    }

    init(kind: CalDAVServer.Kind, operations: Int, seed: UInt64) throws {
        self.kind = kind
        self.operations = operations
        self.seed = seed
        random = SeededGenerator(seed: seed)
        figures = SoakFigures(kind: kind, seed: seed)
        server = kind == .radicale ? try CalDAVServer.radicale() : try CalDAVServer.xandikos()
        proxy = try MisbehavingProxy(server, timeLimit: max(600, operations))
        devices = [SyncDevice(proxy), SyncDevice(proxy), SyncDevice(proxy)]
        phone = SoakPhone(server)
        for device in devices { try device.setUp() }
    }

    deinit {
        proxy.stop()
        server.stop()
    }

    /// The soak, its final checks, and their figures.
    func run() throws -> SoakFigures {
        let start = Date()
        while step < operations {
            step += 1
            switch Int.random(in: 0..<4, using: &random) {
            case 3: try phoneOperation()
            case let index: try deviceOperation(index)
            }
        }
        try finalChecks()
        figures.seconds = Date().timeIntervalSince(start)
        if !figures.failures.isEmpty { figures.failures.append("the run's trace: \(writeTrace())") }
        return figures
    }

    private func fail(_ message: String) {
        figures.failures.append("step \(step): \(message)")
        trace("FAILURE: \(message)")
    }

    /// With `TODO_SOAK_TRACE` set, every operation and sync is printed as it happens.
    private static let tracing = ProcessInfo.processInfo.environment["TODO_SOAK_TRACE"] != nil
    /// Every operation and sync, kept in memory always (printing them changes the timing that
    /// a failure may need: a kill's moment is not replayed by the seed), and written to a file
    /// when a run fails (``writeTrace()``), with each device's sync state at the end.
    private var traceLines: [String] = []

    private func trace(_ message: @autoclosure () -> String) {
        let line = "soak trace | \(kind) \(step): \(message())"
        traceLines.append(line)
        if Self.tracing { print(line) }
    }

    /// The trace and each device's sync state (links, items, objects sent and gone, as the
    /// sqlite3 shell prints them), in a file of the temporary folder; returns its path.
    private func writeTrace() -> String {
        var text = traceLines.joined(separator: "\n") + "\n"
        let query =
            "SELECT * FROM sync_links; SELECT uid, href, etag, name, done, completed FROM sync_items ORDER BY name; SELECT uid, href FROM sync_sent; SELECT uid FROM sync_gone; SELECT t.id, t.name, t.done, t.completed, u.uid FROM todos t LEFT JOIN todo_uids u ON u.todo_id = t.id ORDER BY t.name;"
        for (index, device) in devices.enumerated() {
            let dump = try? ProcessRunner.run("sqlite3", ["-cmd", ".timeout 10000", device.database, query])
            text += "== device \(index) state\n\(dump?.stdout ?? "(unreadable)")\(dump?.stderr ?? "")\n"
        }
        text += "== the server's listing\n\((try? phone.listing()).map { "\($0)" } ?? "(unreadable)")\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("soak-trace-\(kind)-\(seed).log").path
        try? text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func nextKey(_ prefix: String) -> String {
        counter += 1
        return "\(prefix)\(counter)"
    }

    private func pick<T>(_ choices: [T]) -> T { choices.randomElement(using: &random)! }

    /// One of `weights`' keys, drawn by weight; a literal argument keeps its order
    /// (KeyValuePairs), which replaying a seed needs.
    private func weighted(_ weights: KeyValuePairs<String, Int>) -> String { weighted(Array(weights)) }

    /// One of `weights`' keys, drawn by weight, in their order.
    private func weighted(_ weights: [(key: String, value: Int)]) -> String {
        var draw = Int.random(in: 0..<weights.reduce(0) { $0 + max(0, $1.value) }, using: &random)
        for (name, weight) in weights where weight > 0 {
            if draw < weight { return name }
            draw -= weight
        }
        return weights.first?.key ?? ""
    }

    // MARK: Values

    static let words = [
        "milk", "café, thé", "a;b", "back\\slash", "漢字", "naïve", "rent", "x:y", "🎉 party",
        String(repeating: "é", count: 45)
    ]
    static let notes = ["note", "two\nlines", "semi;colon, comma", "ünïcödé", "back\\slash\nnext", "🎉"]
    static let deviceTags = ["+work", "+home", "@phone", "+errand", "+urgent"]
    static let phoneTags = ["work", "home", "@phone", "errand", "garden"]

    private func name(for key: String) -> String {
        "\(key) \(pick(Self.words)) \(Int.random(in: 0..<100, using: &random))"
    }

    private func deadline() -> String {
        String(format: "2024-%02d-%02d", Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random))
    }

    // MARK: Devices

    /// A device's todos (id and fields), from `todo list --json`; a key twice is a failure.
    private func view(_ index: Int) throws -> [(id: Int, fields: SoakFields)] {
        let result = try devices[index].todo("list", "--json")
        guard result.status == 0 else {
            fail("device \(index): todo list failed: \(result.stderr)")
            return []
        }
        let todos = try parseJSON(result.stdout, as: [[String: Any]].self, "todo list --json")
        let listed = todos.map { (id: $0["id"] as? Int ?? 0, fields: SoakFields(json: $0)) }
        for todo in listed { keysByID[index, default: [:]][todo.id] = todo.fields.key }
        var seen: Set<String> = []
        for todo in listed where !seen.insert(todo.fields.key).inserted {
            // Once per device and todo: it stays a duplicate until something deletes a copy.
            guard duplicatesSeen.insert("\(index) \(todo.fields.key)").inserted else { continue }
            figures.duplicatesSeen += 1
            fail("device \(index) holds \(todo.fields.key) twice")
        }
        return listed
    }

    /// What a command of `actor` did, from the device's todos before and after it: new keys are
    /// made (or restored, if known), missing ones deleted, the fields that changed written.
    ///
    /// An `undo` that takes a field back to its value before an edit this device never synced is
    /// no write: the device has nothing to send for it (its value is what it last synced), and
    /// what others changed meanwhile stands, as if the edit had never been made.
    private func attribute(
        _ actor: SoakActor, before: [(id: Int, fields: SoakFields)], after: [(id: Int, fields: SoakFields)],
        undo: Bool = false
    ) {
        let old = Dictionary(before.map { ($0.fields.key, $0.fields) }, uniquingKeysWith: { first, _ in first })
        let new = Dictionary(after.map { ($0.fields.key, $0.fields) }, uniquingKeysWith: { first, _ in first })
        for (key, fields) in new {
            guard let previous = old[key] else {
                if model.knows(key) {
                    model.restored(key, fields, by: actor, at: step)
                } else {
                    model.created(key, fields, by: actor, at: step)
                }
                continue
            }
            guard undo, case .device(let device) = actor else {
                model.wrote(key, from: previous, to: fields, by: actor, at: step)
                continue
            }
            for field in SoakFields.all where previous.value(field) != fields.value(field) {
                guard model.syncedSinceLastWrite(key, field, of: device) else {
                    model.retractLastWrite(key, field, of: device)
                    continue
                }
                // After syncs that all failed, whether the edit undone was sent is unknown.
                let unsure = model.onlyInterruptedSinceLastWrite(key, field, of: device)
                model.wrote(
                    key, field, fields.value(field), tags: field == "tags" ? fields.tags : [], by: actor, at: step)
                if unsure { model.wroteByUnsureUndo(key, field, at: step) }
            }
        }
        for key in old.keys where new[key] == nil { model.deleted(key, by: actor, at: step) }
    }

    private func deviceOperation(_ index: Int) throws {
        let device = devices[index]
        let before = try view(index)
        let count = before.count
        var operation = weighted([
            "add": count < 8 ? 30 : count > 50 ? 2 : 9, "edit": 20, "done": 5, "undone": 4,
            "rm": count > 50 ? 14 : 4, "undo": 4, "sqlite": 7, "sync": 30
        ])
        if before.isEmpty, !["sync", "undo", "sqlite"].contains(operation) { operation = "add" }
        if operation == "sync" {
            try sync(index)
            return
        }
        figures.count("device \(operation)")
        if operation == "sqlite" {
            try sqliteWrite(index, view: before)
            return
        }
        let target = before.isEmpty ? nil : pick(before)
        var arguments: [String]
        switch (operation, target) {
        case ("edit", let target?):
            arguments = ["edit", "\(target.id)"]
            var changes = Array(
                ["name", "due", "priority", "tag", "untag", "note"].shuffled(using: &random).prefix(
                    Int.random(in: 1...3, using: &random)))
            if changes == ["untag"], target.fields.tags.isEmpty { changes = ["tag"] }
            for change in changes {
                switch change {
                case "name": arguments += ["--name", name(for: target.fields.key)]
                case "due": arguments += Bool.random(using: &random) ? ["--due", deadline()] : ["--no-due"]
                case "priority":
                    arguments += ["--priority", pick(["high", "medium", "low", "none", "2", "7"])]
                case "tag": arguments += ["--tag", pick(Self.deviceTags)]
                case "untag": arguments += ["--untag", target.fields.tags.isEmpty ? "work" : pick(target.fields.tags)]
                default:
                    arguments +=
                        Bool.random(using: &random) ? ["--append", pick(Self.notes)] : ["--note", pick(Self.notes)]
                }
            }
        case ("done", let target?): arguments = [target.fields.done ? "undone" : "done", "\(target.id)"]
        case ("undone", let target?): arguments = [target.fields.done ? "undone" : "done", "\(target.id)"]
        case ("rm", let target?): arguments = ["rm", "--yes", "\(target.id)"]
        case ("undo", _): arguments = ["undo"]
        default:
            arguments = ["add", name(for: nextKey("K"))]
            if Bool.random(using: &random) { arguments += ["--due", deadline()] }
            if Bool.random(using: &random) { arguments += ["--priority", pick(["high", "medium", "low", "3"])] }
            for _ in 0..<Int.random(in: 0...2, using: &random) { arguments += ["--tag", pick(Self.deviceTags)] }
            if Bool.random(using: &random) { arguments += ["--note", pick(Self.notes)] }
        }
        let result = try device.todo(arguments)
        trace("device \(index): todo \(arguments.joined(separator: " ")) -> \(result.status) \(result.stdout)")
        // Undo may find nothing to undo, or a todo another program (a sync) changed since.
        if result.status != 0 && !(operation == "undo" && result.status == 1) {
            fail("device \(index): todo \(arguments.joined(separator: " ")): exit \(result.status), \(result.stderr)")
        }
        attribute(.device(index), before: before, after: try view(index), undo: operation == "undo")
    }

    /// A write by the sqlite3 shell (another program sharing the file): one field of one todo,
    /// a new todo, or a delete. Recorded from what the statement returned (it may run while a
    /// sync changes the same file).
    private func sqliteWrite(_ index: Int, view: [(id: Int, fields: SoakFields)]) throws {
        func quoted(_ text: String?) -> String {
            text.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" } ?? "NULL"
        }
        let choice =
            view.isEmpty ? "insert" : pick(["name", "deadline", "done", "priority", "tags", "note", "insert", "delete"])
        let target = view.isEmpty ? nil : pick(view)
        var sql: String
        var record: (_ output: String) -> Void
        switch (choice, target) {
        case ("insert", _), (_, nil):
            let key = nextKey("S")
            var fields = SoakFields(
                name: name(for: key), deadline: Bool.random(using: &random) ? deadline() : nil, done: false,
                priority: Int.random(in: 0...9, using: &random), tags: [], note: nil)
            if Bool.random(using: &random) { fields.tags = [pick(["work", "home"])] }
            sql =
                "INSERT INTO todos (name, deadline, priority, tags) VALUES (\(quoted(fields.name)), \(quoted(fields.deadline)), \(fields.priority), \(quoted(fields.tags.map { "+" + $0 }.joined(separator: " ")))) RETURNING id"
            record = { _ in self.model.created(key, fields, by: .device(index), at: self.step) }
        case ("delete", let target?):
            sql = "DELETE FROM todos WHERE id = \(target.id) RETURNING id"
            record = { _ in self.model.deleted(target.fields.key, by: .device(index), at: self.step) }
        case (let field, let target?):
            var fields = target.fields
            let column: String
            switch field {
            case "name":
                fields.name = name(for: fields.key)
                column = quoted(fields.name)
            case "deadline":
                fields.deadline = Bool.random(using: &random) ? deadline() : nil
                column = quoted(fields.deadline)
            case "done":
                fields.done.toggle()
                column = fields.done ? "1" : "0"
            case "priority":
                fields.priority = Int.random(in: 0...9, using: &random)
                column = String(fields.priority)
            case "tags":
                fields.tags = Array(
                    Self.deviceTags.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))
                )
                .map { ($0.hasPrefix("+") ? String($0.dropFirst()) : $0) }
                column = quoted(fields.tags.map { $0.hasPrefix("@") ? $0 : "+" + $0 }.joined(separator: " "))
            default:
                fields.note = Bool.random(using: &random) ? pick(Self.notes) : nil
                column = quoted(fields.note)
            }
            // A value the todo has already is no change: the device has nothing to send. What
            // it has is read in the statement's own transaction: a sync may change the todo
            // between the view and the statement (a fault runs it in the middle of one).
            sql =
                "BEGIN IMMEDIATE; SELECT \(field) IS NOT \(column), tags FROM todos WHERE id = \(target.id); UPDATE todos SET \(field) = \(column) WHERE id = \(target.id) RETURNING id; COMMIT;"
            record = { output in
                let before = output.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
                let parts = before.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
                let changed =
                    field == "tags"
                    ? Set((parts.last ?? "").split(separator: " "))
                        != Set(column.dropFirst().dropLast().split(separator: " "))
                    : parts.first == "1"
                guard changed else { return }
                self.model.wrote(
                    fields.key, field, fields.value(field), tags: fields.tags, by: .device(index), at: self.step)
            }
        }
        let result = try ProcessRunner.run("sqlite3", ["-cmd", ".timeout 10000", devices[index].database, sql])
        trace("device \(index): sqlite3 \(sql) -> \(result.status) \(result.stdout)")
        guard result.status == 0 else {
            fail("device \(index): sqlite3 \(sql): \(result.stderr)")
            return
        }
        if !result.stdout.isEmpty { record(result.stdout) }
    }

    // MARK: Syncs and their faults

    /// A sync's fault, by weight; `TODO_SOAK_FAULTS` (a comma-separated list of faults' names)
    /// keeps only those, and syncs without one, to tell which fault a failure needs.
    private func pickFault() -> Fault {
        let weights: KeyValuePairs = [
            "none": 36, "kill": 12, "cut": 10, "stall": 3, "status": 10, "put_fail": 5, "dropped_from_multiget": 4,
            "restart": 4, "two_at_once": 8, "sqlite_during": 8
        ]
        guard let only = ProcessInfo.processInfo.environment["TODO_SOAK_FAULTS"] else {
            return Fault(rawValue: weighted(weights)) ?? .none
        }
        let kept = Set(only.split(separator: ",").map(String.init) + ["none"])
        return Fault(rawValue: weighted(weights.filter { kept.contains($0.key) })) ?? .none
    }

    /// The kinds of request a sync makes (the proxy's names).
    static let requestKinds = [
        "sync-collection", "calendar-query", "calendar-query+data", "calendar-multiget", "get", "put", "delete"
    ]

    /// One sync of device `index`, with a random fault.
    private func sync(_ index: Int) throws {
        figures.count("sync")
        let fault = pickFault()
        figures.faults[fault.rawValue, default: 0] += 1
        trace("device \(index): sync, fault \(fault.rawValue)")
        switch fault {
        case .none:
            try finish(index, try startSync(index))
        case .kill, .restart, .sqliteDuring:
            // At the n-th request the proxy answers (logged just before its answer goes).
            let requests = Int.random(in: fault == .kill ? 1...5 : 0...6, using: &random)
            let target = proxy.requestCount + requests
            let process = try startSync(index)
            let reached = process.waitUntil(timeout: 60) { proxy.requestCount >= target }
            switch fault {
            case .kill:
                trace(
                    "device \(index): kill at request \(requests) of the sync: \(reached ? "killed" : "it ended first")"
                )
                if reached {
                    process.killGroup()
                } else {
                    figures.faults["kill_missed", default: 0] += 1
                }
                try finish(index, process, killed: reached)
            case .restart:
                trace("device \(index): server restarted at request \(requests) of the sync")
                try server.restart()
                try finish(index, process)
            default:
                try sqliteWrite(index, view: try view(index))
                try finish(index, process)
            }
        case .twoAtOnce:
            let first = try startSync(index)
            let second = try startSync(index, output: "sync-second")
            try finish(index, first)
            try finish(index, second)
        case .cut, .stall, .status, .putFail, .dropped:
            let kind = pick(Self.requestKinds)
            var environment: [String: String] = [:]
            switch fault {
            case .cut: try proxy.set(.cut(kind: kind, at: pick(MisbehavingProxy.CutPoint.allCases)))
            case .stall:
                try proxy.set(Bool.random(using: &random) ? .silent(kind: kind) : .drip(kind: kind, interval: 0.3))
                environment["TODO_SYNC_TIMEOUT"] = "1"
            case .status:
                try proxy.set(
                    .status(
                        kind: Bool.random(using: &random) ? "*" : kind, code: pick([503, 503, 500, 502, 504, 429]),
                        forward: Bool.random(using: &random)))
            case .dropped:
                try proxy.set(.multigetDrop(pick(MisbehavingProxy.MultigetFault.allCases), only: "calendar-multiget"))
            default: try proxy.set(.putFailNth(Int.random(in: 1...3, using: &random)))
            }
            let process = try startSync(index, environment: environment)
            defer { try? proxy.set(.pass) }
            try finish(index, process)
        }
    }

    /// `todo sync --json` on device `index`, in a process group of its own.
    private func startSync(
        _ index: Int, environment: [String: String] = [:], arguments: [String] = [], output: String = "sync"
    ) throws -> GroupProcess {
        let device = devices[index]
        return try GroupProcess(
            device.todoBinary, ["sync", "--json"] + arguments,
            environment: device.environment.merging(environment) { $1 },
            output: device.folder.file(output + ".out"))
    }

    /// Waits for a sync's end and takes in what it reported. `killed`: the soak killed it.
    /// Returns the report of a sync that succeeded.
    @discardableResult
    private func finish(_ index: Int, _ process: GroupProcess, killed: Bool = false) throws -> [String: Any]? {
        guard let termination = process.wait(timeout: 120) else {
            process.killGroup()
            _ = process.wait(timeout: 10)
            fail("device \(index): a sync did not end within 120 s; stderr: \(process.stderr.suffix(500))")
            model.sync(of: index, at: step, ended: .killed)
            return nil
        }
        figures.syncs += 1
        trace("device \(index): sync ended \(termination): \(process.stdout) \(process.stderr)")
        switch termination {
        case .signaled(SIGKILL) where killed:
            figures.syncsKilled += 1
            model.sync(of: index, at: step, ended: .killed)
            return nil
        case .exited(1):
            // A failed sync reports the conflicts it resolved before failing (beside its error).
            figures.syncsFailed += 1
            model.sync(of: index, at: step, ended: .failed)
            let errors = process.stderr.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            if errors.count != 1 {
                fail("device \(index): a failed sync printed \(errors.count) error lines: \(process.stderr)")
            }
            guard let answer = try? parseJSON(process.stdout, as: [String: Any].self, "todo sync --json"),
                let error = answer["error"] as? [String: Any]
            else {
                fail("device \(index): a failed todo sync --json printed \(process.stdout)")
                return nil
            }
            figures.errors[error["kind"] as? String ?? "(none)", default: 0] += 1
            try takeIn(answer, of: index)
            if error["kind"] as? String == "server_empty" { try serverEmpty(index) }
            return nil
        case .exited(0):
            figures.syncsSucceeded += 1
            model.sync(of: index, at: step, ended: .succeeded)
            guard let report = try? parseJSON(process.stdout, as: [String: Any].self, "todo sync --json") else {
                fail("device \(index): todo sync --json printed \(process.stdout)")
                return nil
            }
            try takeIn(report, of: index)
            return report
        default:
            figures.crashes += 1
            fail("device \(index): a sync crashed (\(termination)): \(process.stderr.suffix(2_000))")
            model.sync(of: index, at: step, ended: .killed)
            return nil
        }
    }

    /// A sync's figures and conflicts (of a failed one, its conflicts).
    private func takeIn(_ report: [String: Any], of index: Int) throws {
        figures.sent += report["sent"] as? Int ?? 0
        figures.received += report["received"] as? Int ?? 0
        figures.deleted += report["deleted"] as? Int ?? 0
        let conflicts = report["conflicts"] as? [[String: Any]] ?? []
        guard !conflicts.isEmpty else { return }
        _ = try view(index)
        let names = keysByID[index] ?? [:]
        for conflict in conflicts {
            let field = conflict["field"] as? String ?? "?"
            figures.conflicts[field == "deleted" ? "deleted" : "field", default: 0] += 1
            guard
                let key = (conflict["name"] as? String).map({ SoakFields(json: ["name": $0]).key })
                    ?? (conflict["id"] as? Int).flatMap({ names[$0] })
            else {
                fail("device \(index): a conflict on a todo it does not hold: \(conflict)")
                continue
            }
            if let problem = model.conflict(key, field: field, device: index, at: step) {
                figures.conflictsWithoutTwoWriters.append(problem)
            }
        }
    }

    /// A sync refused a listing with no todo (issue 22's guard): as a user would, make sure the
    /// server holds none, and confirm with `--force-delete`.
    private func serverEmpty(_ index: Int) throws {
        figures.serverEmptyRefusals += 1
        try proxy.set(.pass)
        let held = try phone.listing().count
        if held > 0 { fail("device \(index): a sync said the server lists no todo; it holds \(held)") }
        try finish(index, try startSync(index, arguments: ["--force-delete"]))
    }

    // MARK: The phone

    private func phoneOperation() throws {
        let listing = try phone.listing()
        let operation =
            listing.isEmpty ? "add" : weighted(["add": listing.count < 8 ? 40 : 12, "edit": 30, "delete": 8])
        figures.count("phone \(operation)")
        switch operation {
        case "add":
            let key = nextKey("P")
            let fields = SoakFields(
                name: name(for: key), deadline: Bool.random(using: &random) ? deadline() : nil,
                done: Int.random(in: 0..<5, using: &random) == 0, priority: pick([0, 0, 1, 4, 9]),
                tags: Array(Self.phoneTags.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random))),
                note: Bool.random(using: &random) ? pick(Self.notes) : nil)
            let text = SoakPhone.newObject(uid: "soak-\(seed)-\(key)", key: key, fields: fields)
            let status = try phone.put(server.todoCollectionPath + "soak-\(key).ics", text, ifMatch: nil)
            trace("phone: PUT \(key) -> \(status)")
            guard (200..<300).contains(status) else { return fail("phone: PUT of a new object answered \(status)") }
            // What the server holds is what the devices read: the phone's own reading of it.
            model.created(
                key, SoakICS.fields(text), by: .phone, at: step, unknownLines: SoakPhone.unknownLines(key: key))
        case "delete":
            let href = pick(listing.keys.sorted())
            guard let (text, etag) = try phone.get(href) else { return }
            let status = try phone.delete(href, ifMatch: etag)
            trace("phone: DELETE \(href) (\(SoakICS.fields(text).key)) -> \(status)")
            guard (200..<300).contains(status) else {
                figures.phoneRefused += 1
                return
            }
            model.deleted(SoakICS.fields(text).key, by: .phone, at: step)
        default:
            let href = pick(listing.keys.sorted())
            guard let (text, etag) = try phone.get(href) else { return }
            let changed = phoneEdit(text)
            let status = try phone.put(href, changed, ifMatch: etag)
            trace("phone: PUT \(href) \(SoakICS.fields(text)) -> \(SoakICS.fields(changed)): \(status)")
            guard (200..<300).contains(status) else {
                figures.phoneRefused += 1
                return
            }
            let old = SoakICS.fields(text)
            model.wrote(old.key, from: old, to: SoakICS.fields(changed), by: .phone, at: step)
        }
    }

    /// An object as the phone changes it: some of its SUMMARY (keeping the key), STATUS (with
    /// COMPLETED), CATEGORIES (reordered, one added), PRIORITY, DESCRIPTION and DUE; the rest
    /// of its lines as they were.
    private func phoneEdit(_ text: String) -> String {
        var lines = SoakICS.unfolded(text)
        let fields = SoakICS.fields(text)
        let changes = ["summary", "status", "categories", "priority", "description", "due"].shuffled(using: &random)
            .prefix(Int.random(in: 1...3, using: &random))
        for change in changes {
            switch change {
            case "summary":
                lines = SoakICS.setting("SUMMARY", to: "SUMMARY:" + SoakICS.escaped(name(for: fields.key)), in: lines)
            case "status":
                if fields.done {
                    lines = SoakICS.setting("STATUS", to: pick(["STATUS:NEEDS-ACTION", "STATUS:IN-PROCESS"]), in: lines)
                    lines = SoakICS.setting("COMPLETED", to: nil, in: lines)
                } else {
                    lines = SoakICS.setting("STATUS", to: pick(["STATUS:COMPLETED", "STATUS:CANCELLED"]), in: lines)
                    let stamp = String(format: "2024%02d%02dT101010Z", step % 12 + 1, step % 28 + 1)
                    lines = SoakICS.setting("COMPLETED", to: "COMPLETED:" + stamp, in: lines)
                }
            case "categories":
                var categories = SoakICS.values("CATEGORIES", in: lines).flatMap(SoakICS.list).reversed() as [String]
                let added = pick(Self.phoneTags)
                if !categories.contains(where: { $0.lowercased() == added }) { categories.append(added) }
                lines = SoakICS.setting(
                    "CATEGORIES", to: "CATEGORIES:" + categories.map(SoakICS.escaped).joined(separator: ","), in: lines)
            case "priority":
                let priority = pick([0, 1, 2, 5, 9])
                lines = SoakICS.setting("PRIORITY", to: priority == 0 ? nil : "PRIORITY:\(priority)", in: lines)
            case "description":
                let note = Bool.random(using: &random) ? pick(Self.notes) + " (phone)" : nil
                lines = SoakICS.setting("DESCRIPTION", to: note.map { "DESCRIPTION:" + SoakICS.escaped($0) }, in: lines)
            default:
                let due = Int.random(in: 0..<4, using: &random) == 0 ? nil : deadline()
                lines = SoakICS.setting(
                    "DUE", to: due.map { "DUE;VALUE=DATE:" + $0.replacingOccurrences(of: "-", with: "") }, in: lines)
            }
        }
        return SoakICS.serialized(lines)
    }

    // MARK: The end

    /// Quiet syncs, then every oracle.
    private func finalChecks() throws {
        try proxy.set(.pass)
        // Each device twice, in turn: what one sends, the others take in.
        for _ in 0..<2 {
            for index in devices.indices { try quietSync(index) }
        }
        let lists = try devices.map { try $0.list() }
        let auditor = SyncDevice(server)
        try auditor.setUp()
        try auditor.sync()
        let audited = try auditor.list()
        for (index, list) in lists.enumerated() where list != audited {
            figures.diverged += 1
            fail("device \(index) and a fresh device differ:\n\(Self.difference(list, audited))")
        }
        // The server as the phone reads it, object by object.
        var objects: [String: String] = [:]
        var phoneView: [String: SoakFields] = [:]
        for href in try phone.listing().keys.sorted() {
            guard let (text, _) = try phone.get(href) else { continue }
            let fields = SoakICS.fields(text)
            if phoneView[fields.key] != nil {
                figures.duplicated += 1
                fail("the server holds \(fields.key) twice")
            }
            phoneView[fields.key] = fields
            objects[fields.key] = text
        }
        let final = try view(0)
        var finalFields: [String: SoakFields] = [:]
        for todo in final { finalFields[todo.fields.key] = todo.fields }
        figures.duplicated += final.count - finalFields.count
        for (key, fields) in finalFields {
            var seen = phoneView[key]
            seen?.tags.sort()
            var held = fields
            held.tags.sort()
            if seen != held {
                figures.diverged += 1
                fail("the phone reads \(key) as \(seen.map { "\($0)" } ?? "missing"), the devices as \(held)")
            }
        }
        for key in phoneView.keys where finalFields[key] == nil {
            figures.diverged += 1
            fail("the server holds \(key), which no device does")
        }
        let findings = model.check(final: finalFields, objects: objects)
        figures.lost = findings.lost.count
        figures.wronglyChanged = findings.wronglyChanged.count
        figures.deletesUndone = findings.deletesUndone.count
        figures.unknownLinesLost = findings.unknownLinesLost.count
        figures.unverifiable = findings.unverifiable
        for message in findings.lost + findings.wronglyChanged + findings.deletesUndone + findings.unknownLinesLost {
            fail(message)
        }
        figures.finalTodos = finalFields.count
        figures.phoneObjects = model.keys.values.filter { $0.unknownLines != nil }.count
    }

    /// A sync in pass mode, which must succeed (after `--force-delete` where a user would).
    private func quietSync(_ index: Int) throws {
        figures.quietSyncs += 1
        let process = try startSync(index)
        guard process.wait(timeout: 120) == .exited(0) else {
            if process.stdout.contains("\"server_empty\"") {
                try serverEmpty(index)
            } else {
                fail(
                    "device \(index): a quiet sync failed (\(String(describing: process.termination))): \(process.stderr)"
                )
            }
            return
        }
        step += 1
        model.sync(of: index, at: step, ended: .succeeded)
        try takeIn(try parseJSON(process.stdout, as: [String: Any].self, "todo sync --json"), of: index)
    }

    /// The lines only one of two sorted lists has.
    static func difference(_ a: [String], _ b: [String]) -> String {
        let onlyA = Set(a).subtracting(b).sorted().map { "  - " + $0 }
        let onlyB = Set(b).subtracting(a).sorted().map { "  + " + $0 }
        return (onlyA + onlyB).joined(separator: "\n")
    }
}

/// What a soak did and found.
struct SoakFigures {
    let kind: CalDAVServer.Kind
    let seed: UInt64
    var seconds = 0.0
    var operations: [String: Int] = [:]
    var syncs = 0
    var syncsSucceeded = 0
    var syncsFailed = 0
    var syncsKilled = 0
    var quietSyncs = 0
    var serverEmptyRefusals = 0
    var faults: [String: Int] = [:]
    var errors: [String: Int] = [:]
    var conflicts: [String: Int] = [:]
    var sent = 0
    var received = 0
    var deleted = 0
    var phoneRefused = 0
    var finalTodos = 0
    var phoneObjects = 0
    // What must be 0.
    var crashes = 0
    var diverged = 0
    var lost = 0
    var duplicated = 0
    var duplicatesSeen = 0
    var wronglyChanged = 0
    var deletesUndone = 0
    var conflictsWithoutTwoWriters: [String] = []
    var unknownLinesLost = 0
    var unverifiable: [String] = []
    var failures: [String] = []

    mutating func count(_ operation: String) { operations[operation, default: 0] += 1 }

    var operationCount: Int { operations.values.reduce(0, +) }

    static func list(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    /// The table of figures, one `soak |` line each.
    var table: String {
        let rows: [(String, String)] = [
            ("server", "\(kind), seed \(seed), \(String(format: "%.0f", seconds)) s"),
            ("operations", "\(operationCount) (\(Self.list(operations)))"),
            (
                "syncs",
                "\(syncs) (succeeded \(syncsSucceeded), failed \(syncsFailed), killed \(syncsKilled); quiet \(quietSyncs); server-empty refusals \(serverEmptyRefusals))"
            ),
            ("faults", Self.list(faults.filter { $0.key != "none" })),
            ("failed syncs by error", Self.list(errors)),
            ("sent/received/deleted", "\(sent) / \(received) / \(deleted); phone writes refused \(phoneRefused)"),
            ("conflicts reported", Self.list(conflicts)),
            ("todos at the end", "\(finalTodos) (phone objects made \(phoneObjects))"),
            ("crashes", "\(crashes)"),
            ("diverged", "\(diverged)"),
            ("lost", "\(lost)"),
            ("duplicated", "\(duplicated) at the end, \(duplicatesSeen) seen during the run"),
            ("wrongly changed", "\(wronglyChanged)"),
            ("deletes undone without conflict", "\(deletesUndone)"),
            ("conflicts without two writers", "\(conflictsWithoutTwoWriters.count)"),
            ("unknown lines lost", "\(unknownLinesLost)"),
            ("unverifiable (report lost)", "\(unverifiable.count)"),
            ("failures", "\(failures.count)")
        ]
        let table = rows.map { "soak | \($0.0.padding(toLength: 32, withPad: " ", startingAt: 0)) \($0.1)" }
        return (table + unverifiable.prefix(10).map { "soak |   unverifiable: \($0)" }).joined(separator: "\n")
    }
}
