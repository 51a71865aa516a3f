import Foundation
import TestSupport
import Testing

/// SIGKILL at random moments: after every kill the file passes `PRAGMA integrity_check`,
/// every acknowledged write is there, and every command is all or nothing.
@Suite(.timed) struct ReliabilityCrashTests {
    let sandbox = CLISandbox()

    /// A fixed count, not a time budget: a seed replays the same rounds on any machine, and a
    /// slow one tests as much as a fast one (150 rounds take about 10 s on 2 cores).
    static let rounds = 150
    static let importSize = 2_000

    private struct Row: Equatable {
        var name: String
        var deadline: String?
        var done: Bool
    }

    private func rows() throws -> [Int64: Row] {
        let list = try sandbox.todo("list", "--json")
        #expect(list.status == 0, "todo list after a kill: \(list.stderr)")
        let array = try parseJSON(
            list.stdout, as: [[String: Any]].self,
            "todo list --json after a kill (stderr \(list.stderr.debugDescription))")
        var rows: [Int64: Row] = [:]
        for object in array {
            rows[Int64(try field(object, "id", as: Int.self))] = Row(
                name: try field(object, "name"), deadline: object["deadline"] as? String,
                done: try field(object, "done"))
        }
        return rows
    }

    /// A JSON file of `importSize` todos in the form `todo export` writes (and `todo import` reads).
    private func makeImportFile() throws -> String {
        let source = sandbox.folder.file("source.sqlite")
        _ = try sandbox.ok("--db", source, "list")
        try Reliability.sqlite(
            source,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.importSize))
            INSERT INTO todos (name, deadline, done) SELECT 'imported ' || i, CASE WHEN i % 3 = 0 THEN '2030-01-01' END, i % 2 FROM n
            """)
        let path = sandbox.folder.file("import.json")
        try sandbox.ok("--db", source, "export").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private enum Victim: String, CaseIterable {
        case add, done, rm, edit, `import`
    }

    @Test(
        "SIGKILL after a random 0-30 ms, 150 rounds (add, done, rm, edit, import of 2000): intact, acknowledged kept, all or nothing"
    )
    func killedWritersLeaveASoundFile() throws {
        let seed = Reliability.seed("sigkill")
        var random = SeededGenerator(seed: seed)
        let clock = Date()
        let importFile = try makeImportFile()
        // Time a whole import on a scratch file, so kills also land late in one. (The figure
        // only spreads the kill delays; nothing asserts on it.)
        let scratch = sandbox.folder.file("scratch.sqlite")
        let start = Date()
        let whole = try sandbox.todo("--db", scratch, "import", importFile)
        #expect(whole.status == 0, "todo import: \(whole.stderr)")
        let importDuration = Date().timeIntervalSince(start)
        #expect(try Reliability.scalar(scratch, "SELECT count(*) FROM todos") == Self.importSize)
        let victims = Victim.allCases

        // Acknowledged todos: id -> the name it must have. An acknowledged add must never vanish.
        var known: [Int64: String] = [:]
        for index in 0..<6 {
            let name = "acknowledged start \(index)"
            known[Int64(try sandbox.ok("add", name).trimmingCharacters(in: .whitespacesAndNewlines))!] = name
        }
        var current = try rows()
        var counts: [String: (killed: Int, finished: Int, failed: Int)] = [:]

        for round in 0..<Self.rounds {
            let context = "seed \(seed), round \(round)"
            // One acknowledged add per round.
            let ackName = "acknowledged \(round)"
            let ack = try sandbox.todo("add", ackName)
            #expect(ack.status == 0, "\(context): \(ack.stderr)")
            if let id = Int64(ack.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) { known[id] = ackName }
            current = try rows()

            var victim = victims.randomElement(using: &random)!
            let sameState = Dictionary(grouping: known.keys.filter { current[$0] != nil }) { current[$0]!.done }
            if victim == .done, (sameState.values.map(\.count).max() ?? 0) < 3 { victim = .add }
            var arguments: [String] = []
            var targets: [Int64] = []
            var newDone = true
            var edited: (name: String, deadline: String)?
            switch victim {
            case .add:
                arguments = ["add", "victim \(round)", "--due", "2031-02-03"]
            case .done:
                let group = sameState.values.first { $0.count >= 3 }!
                targets = Array(group.shuffled(using: &random).prefix(3))
                newDone = !current[targets[0]]!.done
                arguments = [newDone ? "done" : "undone"] + targets.map(String.init)
            case .rm:
                // Three throwaway todos from another client, then `rm` all three at once.
                let inserted = try Reliability.sqlite(
                    sandbox.database,
                    "INSERT INTO todos (name) VALUES ('throwaway \(round) a'), ('throwaway \(round) b'), ('throwaway \(round) c') RETURNING id"
                )
                targets = inserted.stdout.split(separator: "\n").compactMap { Int64($0) }
                #expect(targets.count == 3, "\(context): \(inserted.stderr)")
                current = try rows()
                arguments = ["rm", "--yes"] + targets.map(String.init)
            case .edit:
                let id = known.keys.filter { current[$0] != nil }.randomElement(using: &random)!
                targets = [id]
                edited = (
                    "edited \(round)",
                    String(
                        format: "2032-%02d-%02d", Int.random(in: 1...12, using: &random),
                        Int.random(in: 1...28, using: &random))
                )
                arguments = ["edit", String(id), "--name", edited!.name, "--due", edited!.deadline]
            case .import:
                arguments = ["import", importFile]
            }

            let process = try LaunchedProcess(
                ProcessRunner.todoBinary, arguments,
                environment: ["TODO_DB": sandbox.database, "HOME": sandbox.folder.path],
                outputFolder: sandbox.folder)
            let delay =
                victim == .import
                ? Int.random(in: 0...Int(importDuration * 1200), using: &random)
                : Int.random(in: 0...30, using: &random)
            Reliability.sleep(milliseconds: delay)
            let outcome = process.killNow()
            let finished = outcome.status == 0
            var count = counts[victim.rawValue] ?? (0, 0, 0)
            if outcome.signal != nil {
                count.killed += 1
            } else if finished {
                count.finished += 1
            } else {
                count.failed += 1
            }
            counts[victim.rawValue] = count
            let label =
                "\(context): \(arguments.prefix(4).joined(separator: " ")) killed after \(delay) ms (\(outcome.signal != nil ? "killed" : "exited \(outcome.status!)"))"
            #expect(outcome.signal != nil || finished, "\(label): \(outcome.stderr)")

            // The file is sound, and every acknowledged todo is there.
            #expect(try Reliability.integrity(sandbox.database) == "ok", "\(label)")
            let after = try rows()
            for (id, name) in known where !targets.contains(id) || victim == .done {
                #expect(
                    after[id]?.name == name,
                    "\(label): acknowledged todo \(id) '\(name)' is \(String(describing: after[id]))")
            }

            // All or nothing, per command.
            switch victim {
            case .add:
                let matches = after.filter { $0.value.name == "victim \(round)" }
                #expect(matches.count <= 1, "\(label): added twice")
                if finished {
                    #expect(
                        matches.count == 1 && matches.first?.value.deadline == "2031-02-03",
                        "\(label): acknowledged add missing")
                }
                if let match = matches.first { known[match.key] = match.value.name }
            case .done:
                let states = Set(targets.map { after[$0]?.done })
                #expect(states.count == 1, "\(label): half applied: \(targets.map { after[$0]?.done as Any })")
                if finished { #expect(states == [newDone], "\(label): acknowledged change missing") }
            case .rm:
                let present = targets.filter { after[$0] != nil }.count
                #expect(present == 0 || present == 3, "\(label): \(present) of 3 remain")
                if finished { #expect(present == 0, "\(label): acknowledged rm undone") }
            case .edit:
                let id = targets[0]
                let old = current[id]!
                let new = after[id]
                let applied = new?.name == edited!.name && new?.deadline == edited!.deadline
                let untouched = new?.name == old.name && new?.deadline == old.deadline
                #expect(applied || untouched, "\(label): half applied: \(String(describing: new)) (was \(old))")
                if finished { #expect(applied, "\(label): acknowledged edit missing") }
                if applied { known[id] = edited!.name }
            case .import:
                let added = after.count - current.count
                #expect(added == 0 || added == Self.importSize, "\(label): import added \(added) of \(Self.importSize)")
                if finished { #expect(added == Self.importSize, "\(label): acknowledged import missing") }
                // Keep the list small for the next rounds.
                try Reliability.sqlite(sandbox.database, "DELETE FROM todos WHERE name LIKE 'imported %'")
            }
        }
        let summary = counts.keys.sorted().map { "\($0) \(counts[$0]!.killed) killed/\(counts[$0]!.finished) finished" }
            .joined(separator: ", ")
        Reliability.report(
            "sigkill",
            "\(Self.rounds) rounds (\(counts.values.map(\.killed).reduce(0, +)) processes killed mid-run) in \(String(format: "%.1f", Date().timeIntervalSince(clock))) s: \(summary)"
        )
        // Kills must land mid-run, or the rounds only test finished commands.
        #expect(counts.values.map(\.killed).reduce(0, +) > 0, "seed \(seed): no process was killed mid-run: \(summary)")
    }
}
