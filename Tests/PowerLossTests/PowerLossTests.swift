import CPowerLossVFS
import Foundation
import SQLite
import TestSupport
import Testing
import TodoInterop
import TodoStore

/// Simulated power loss, as SQLite's own crash tests do it: a VFS that keeps every write since
/// the last sync undecided, cuts the power at a chosen write or sync, then drops, keeps or
/// tears (by 512-byte sector) what was not synced, and the file is reopened.
///
/// A SIGKILL cannot show this: the operating system's cache survives it. This proves what the
/// store's settings promise: WAL journal mode with `synchronous = FULL` (and checkpoints,
/// forced often here) lose no acknowledged command and never half-apply one.
@Suite(.timed, .serialized) struct PowerLossTests {
    let folder = TemporaryFolder()

    /// One command as `todo` runs it, through the same library calls.
    enum Command: CustomStringConvertible {
        case add(String, CalendarDate?)
        case done([Int64])
        case rm([Int64])
        case edit(Int64, String)
        case importJSON(String)
        case undo

        var description: String {
            switch self {
            case .add(let name, _): "add \(name)"
            case .done(let ids): "done \(ids)"
            case .rm(let ids): "rm \(ids)"
            case .edit(let id, let name): "edit \(id) \(name)"
            case .importJSON: "import"
            case .undo: "undo"
            }
        }
    }

    /// What a command leaves behind: the todos and both history stacks.
    struct State: Equatable, CustomStringConvertible {
        var todos: [Todo]
        var undoSteps: Int
        var redoSteps: Int
        var description: String {
            "\(todos.map { "\($0.id):\($0.name)\($0.isDone ? "✓" : "")" }) undo \(undoSteps) redo \(redoSteps)"
        }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func perform(_ command: Command, on repository: TodoRepository) throws {
        switch command {
        case .add(let name, let deadline):
            _ = try repository.recordingUndo("add") { () throws(TodoStoreError) in
                try repository.add(name: name, deadline: deadline)
            }
        case .done(let ids):
            _ = try repository.recordingUndo("done") { () throws(TodoStoreError) in
                try repository.setDone(true, ids: ids)
            }
        case .rm(let ids):
            _ = try repository.recordingUndo("rm") { () throws(TodoStoreError) in try repository.delete(ids: ids) }
        case .edit(let id, let name):
            _ = try repository.recordingUndo("edit") { () throws(TodoStoreError) in
                try repository.rename(id: id, to: name)
            }
        case .importJSON(let json):
            let todos = try TodoImporter.parse(Array(json.utf8), format: .json)
            try repository.recordingUndo("import") { () throws(TodoStoreError) in
                for todo in todos { try repository.add(name: todo.name, deadline: todo.deadline, isDone: todo.isDone) }
            }
        case .undo:
            _ = try repository.undo()
        }
    }

    static func state(of repository: TodoRepository) throws -> State {
        let connection = repository.connection
        // Without the created and completed times: they are the clock's at each run, and the
        // scenario is run again, cut, after it was recorded.
        return State(
            todos: try repository.fetch().sorted { $0.id < $1.id }.map {
                var todo = $0
                todo.created = nil
                todo.completed = nil
                return todo
            },
            undoSteps: Int(try connection.prepare("SELECT count(*) FROM todo_history").scalarInt64() ?? -1),
            redoSteps: Int(try connection.prepare("SELECT count(*) FROM todo_redo").scalarInt64() ?? -1))
    }

    /// A random, valid command for the current state.
    static func randomCommand(_ state: State, using generator: inout SeededGenerator) -> Command {
        let ids = state.todos.map(\.id)
        let name = "todo \(UInt16.random(in: 0...9999, using: &generator))"
        let pick = ids.isEmpty ? 0 : Int.random(in: 0..<10, using: &generator)
        switch pick {
        case 0..<3:
            let deadline =
                Bool.random(using: &generator)
                ? CalendarDate(year: 2024, month: Int.random(in: 1...12, using: &generator), day: 1) : nil
            return .add(name + String(repeating: "x", count: Int.random(in: 0...600, using: &generator)), deadline)
        case 3: return .done([ids.randomElement(using: &generator) ?? 0])
        case 4: return .rm([ids.randomElement(using: &generator) ?? 0])
        case 5, 6: return .edit(ids.randomElement(using: &generator) ?? 0, name)
        case 7:
            let items = (0..<Int.random(in: 2...30, using: &generator)).map { index in
                "{\"name\": \"imported \(index) \(String(repeating: "y", count: Int.random(in: 0...300, using: &generator)))\", \"done\": \(index % 3 == 0)}"
            }
            return .importJSON("[" + items.joined(separator: ", ") + "]")
        default:
            return state.undoSteps > 0 ? .undo : .add(name, nil)
        }
    }

    /// A database with the schema, made through the default VFS, to copy for every run.
    func makeTemplate() throws -> [UInt8] {
        let path = folder.file("template.sqlite")
        do { _ = try TodoRepository(path: path) }  // closed at once: the WAL is folded in and removed
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "no template") }
        return [UInt8](data)
    }

    func fresh(_ name: String, from template: [UInt8]) throws -> String {
        let path = folder.file(name)
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        // A plain write: FileManager's is atomic (a temporary folder, an fsync and a rename per
        // copy), which this test's 1,000 copies do not need.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(path)") }
        defer { close(descriptor) }
        let written = template.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == template.count else { throw Failure(description: "cannot write \(path)") }
        return path
    }

    /// Runs `commands` through the power-loss VFS, the power cut at the `cutAt`-th write or sync
    /// (0: never). Returns how many commands were acknowledged (returned without error).
    func run(_ commands: [Command], path: String, cutAt: Int64, synchronous: String = "FULL") throws -> Int {
        powerloss_reset()
        let repository = try TodoRepository(path: path, vfs: "powerloss")
        // Checkpoints after every few pages, so cuts land inside them too.
        try repository.connection.execute("PRAGMA wal_autocheckpoint = 8")
        try repository.connection.execute("PRAGMA synchronous = \(synchronous)")
        powerloss_arm(cutAt)
        var acknowledged = 0
        for command in commands {
            do {
                try Self.perform(command, on: repository)
            } catch {
                guard powerloss_is_off() != 0 else {
                    throw Failure(description: "\(command) failed with the power on: \(error)")
                }
                break
            }
            guard powerloss_is_off() == 0 else { break }
            acknowledged += 1
        }
        return acknowledged
    }

    /// The seeded scenario: its commands and the state after each (index 0: before any).
    func scenario(seed: UInt64, length: Int, template: [UInt8]) throws -> (
        commands: [Command], states: [State], operations: Int64
    ) {
        var generator = SeededGenerator(seed: seed)
        let path = try fresh("reference-\(seed).sqlite", from: template)
        let repository = try TodoRepository(path: path)
        var states = [try Self.state(of: repository)]
        var commands: [Command] = []
        for _ in 0..<length {
            let command = Self.randomCommand(states[states.count - 1], using: &generator)
            try Self.perform(command, on: repository)
            commands.append(command)
            states.append(try Self.state(of: repository))
        }
        // The same commands through the VFS, never cut, count the writes and syncs to cut at.
        let counted = try fresh("count-\(seed).sqlite", from: template)
        let acknowledged = try run(commands, path: counted, cutAt: 0)
        #expect(acknowledged == commands.count)
        let operations = powerloss_operations()
        powerloss_reset()
        return (commands, states, operations)
    }

    struct Tally {
        var cuts = 0, drop = 0, keep = 0, tear = 0, insideCheckpoint = 0, inFlightApplied = 0
        var violations: [String] = []
    }

    /// Cuts the power at `cuts` seeded points of one scenario and checks each recovery.
    func cutScenario(
        seed: UInt64, cuts: Int, synchronous: String, modes: [Int32], template: [UInt8],
        tally: inout Tally
    ) throws {
        let (commands, states, operations) = try scenario(seed: seed, length: 14, template: template)
        #expect(operations > 20)
        var generator = SeededGenerator(seed: seed &* 31 &+ 7)
        for cut in 0..<cuts {
            let path = try fresh("cut.sqlite", from: template)
            let cutAt = Int64.random(in: 1...operations, using: &generator)
            let mode = modes.randomElement(using: &generator) ?? Int32(POWERLOSS_DROP)
            let acknowledged = try run(commands, path: path, cutAt: cutAt, synchronous: synchronous)
            if powerloss_unsynced_database_changes() > 0 { tally.insideCheckpoint += 1 }
            let cutSeed = UInt64.random(in: 0...UInt64.max, using: &generator)
            #expect(powerloss_cut(cutSeed, mode) == 0)
            tally.cuts += 1
            switch mode {
            case Int32(POWERLOSS_KEEP): tally.keep += 1
            case Int32(POWERLOSS_TEAR): tally.tear += 1
            default: tally.drop += 1
            }

            let context =
                "seed \(seed) cut \(cut) at operation \(cutAt)/\(operations) mode \(mode), \(acknowledged) acknowledged"
            let repository: TodoRepository
            do {
                repository = try TodoRepository(path: path)
            } catch {
                tally.violations.append("\(context): reopening failed: \(error)")
                continue
            }
            let integrity = try repository.connection.prepare("PRAGMA integrity_check")
            var problems: [String] = []
            try integrity.forEachRow { problems.append($0.string(0)) }
            guard problems == ["ok"] else {
                tally.violations.append("\(context): integrity \(problems.prefix(3))")
                continue
            }
            let observed = try Self.state(of: repository)
            if observed == states[acknowledged] { continue }
            if acknowledged + 1 < states.count, observed == states[acknowledged + 1] {
                tally.inFlightApplied += 1
                continue
            }
            tally.violations.append("\(context): \(observed) is neither \(states[acknowledged]) nor the next state")
        }
    }

    @Test func noAcknowledgedCommandIsLostNorAnyHalfAppliedAcrossAThousandPowerCuts() throws {
        #expect(powerloss_register() == 0)
        let template = try makeTemplate()
        var tally = Tally()
        let seeds: [UInt64] = [0xC0FFEE, 0xBADC0DE, 0x5EED, 0xD15C]
        for seed in seeds {
            try cutScenario(
                seed: seed, cuts: 250, synchronous: "FULL",
                modes: [Int32(POWERLOSS_DROP), Int32(POWERLOSS_KEEP), Int32(POWERLOSS_TEAR)],
                template: template, tally: &tally)
        }
        print(
            "power loss: \(tally.cuts) cut points over \(seeds.count) seeded scenarios of add, done, rm, edit, import and undo",
            "(\(tally.drop) unsynced writes dropped, \(tally.keep) kept, \(tally.tear) torn by sector; \(tally.insideCheckpoint) inside a checkpoint;",
            "\(tally.inFlightApplied) with the in-flight command applied whole); journal_mode=WAL, synchronous=FULL, wal_autocheckpoint=8:",
            "\(tally.violations.count) lost or half-applied")
        #expect(tally.cuts >= 1_000)
        #expect(tally.insideCheckpoint > 0)
        #expect(tally.violations.isEmpty, "\(tally.violations.prefix(5))")
    }

    /// The harness can fail: with `synchronous = OFF` nothing is ever synced, and dropping the
    /// unsynced writes loses acknowledged commands.
    @Test func withoutSyncsTheHarnessFindsLostCommands() throws {
        #expect(powerloss_register() == 0)
        let template = try makeTemplate()
        var tally = Tally()
        try cutScenario(
            seed: 0x0FF, cuts: 40, synchronous: "OFF", modes: [Int32(POWERLOSS_DROP)],
            template: template, tally: &tally)
        #expect(tally.cuts == 40)
        #expect(!tally.violations.isEmpty)
    }
}
