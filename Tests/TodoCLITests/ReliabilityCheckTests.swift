import Foundation
import TestSupport
import Testing
import TodoStore

@testable import todo

/// `todo check`: integrity, foreign keys, schema version and journal mode, one line each;
/// exit 1 with one `error:` line on a problem, never a crash, and the file is only read.
///
/// The in-process tests call `DatabaseCheck` directly; the end-to-end ones run the binary.
@Suite(.timed) struct ReliabilityCheckTests {
    let sandbox = CLISandbox()

    static let latest = Migrator().latestVersion

    /// A closed, checkpointed database of `count` todos with long names: many pages, no WAL.
    private func multiPageDatabase(_ path: String, count: Int = 600) throws -> (pageSize: Int, pages: Int) {
        _ = try sandbox.ok("--db", path, "list")
        try Reliability.sqlite(
            path,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO todos (name, deadline) SELECT 'todo ' || i || ' ' || hex(randomblob(100)), CASE WHEN i % 2 = 0 THEN '2030-01-01' END FROM n;
            PRAGMA wal_checkpoint(TRUNCATE);
            """)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "the WAL was not folded back")
        return (try Reliability.scalar(path, "PRAGMA page_size"), try Reliability.scalar(path, "PRAGMA page_count"))
    }

    /// Overwrites page `page` (1-based) of the file with random bytes.
    private func damage(_ path: String, page: Int, pageSize: Int, using random: inout SeededGenerator) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data((0..<pageSize).map { _ in UInt8.random(in: 0...255, using: &random) }))
        try handle.synchronize()
    }

    // MARK: In process

    @Test("A healthy database: five ok lines, no failure, the file unchanged")
    func healthyInProcess() throws {
        _ = try sandbox.ok("add", "x")
        let before = sandbox.fileState()
        let check = try DatabaseCheck.run(path: sandbox.database)
        #expect(
            check.lines == [
                "integrity: ok", "foreign keys: ok", "schema: version \(Self.latest) (current)", "journal: wal",
                "subtasks: ok"
            ])
        #expect(check.failure == nil)
        #expect(sandbox.fileState() == before, "check changed the file")
    }

    @Test("Schema versions, journal modes and wrong files are reported plainly")
    func versionsAndWrongFiles() throws {
        // Missing: a failure, and nothing is created.
        #expect(throws: CLIError.self) { try DatabaseCheck.run(path: sandbox.database) }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))

        _ = try sandbox.ok("add", "x")
        try Reliability.sqlite(sandbox.database, "PRAGMA user_version = 1")
        var check = try DatabaseCheck.run(path: sandbox.database)
        #expect(
            check.lines.contains { $0.hasPrefix("schema: version 1 (this todo knows \(Self.latest)") }
                && check.failure == nil, "\(check.lines)")

        try Reliability.sqlite(sandbox.database, "PRAGMA user_version = 42")
        check = try DatabaseCheck.run(path: sandbox.database)
        #expect(
            check.failure?.kind == .failure && check.failure?.message.contains("42") == true
                && check.failure?.message.contains("\(Self.latest)") == true)

        try Reliability.sqlite(sandbox.database, "PRAGMA user_version = \(Self.latest); PRAGMA journal_mode = DELETE")
        check = try DatabaseCheck.run(path: sandbox.database)
        #expect(
            check.lines.contains("journal: delete (todo switches it to wal on its next write)") && check.failure == nil,
            "\(check.lines)")

        let foreign = sandbox.folder.file("foreign.sqlite")
        try Reliability.sqlite(foreign, "CREATE TABLE notes (body TEXT)")
        #expect(try DatabaseCheck.run(path: foreign).failure?.message.contains("another application") == true)

        let empty = sandbox.folder.file("empty.sqlite")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        check = try DatabaseCheck.run(path: empty)
        #expect(check.failure == nil && check.lines.contains { $0.hasPrefix("schema: none yet") }, "\(check.lines)")

        let text = sandbox.folder.file("notes.txt")
        #expect(
            FileManager.default.createFile(
                atPath: text, contents: Data(String(repeating: "my shopping list\n", count: 300).utf8)))
        let error = #expect(throws: CLIError.self) { try DatabaseCheck.run(path: text) }
        #expect(
            error?.kind == .failure && error?.message.contains("not an SQLite database") == true,
            "\(String(describing: error))")
    }

    @Test("Garbage over each of 12 pages of a multi-page file: a failure every time, no crash")
    func damagedPagesInProcess() throws {
        let seed = Reliability.seed("check damaged pages")
        var random = SeededGenerator(seed: seed)
        let pristine = sandbox.folder.file("pristine.sqlite")
        let (pageSize, pages) = try multiPageDatabase(pristine)
        #expect(pages > 20, "only \(pages) pages")
        #expect(try DatabaseCheck.run(path: pristine).failure == nil)
        let sample = Set([1, 2, pages / 2, pages] + (0..<8).map { _ in Int.random(in: 1...pages, using: &random) })
            .sorted()
        for page in sample {
            let copy = sandbox.folder.file("damaged-\(page).sqlite")
            try FileManager.default.copyItem(atPath: pristine, toPath: copy)
            try damage(copy, page: page, pageSize: pageSize, using: &random)
            do {
                let check = try DatabaseCheck.run(path: copy)
                #expect(
                    check.failure?.kind == .failure,
                    "seed \(seed), page \(page) of \(pages): no failure: \(check.lines)")
                // Four checks; an integrity failure lists at most 20 problems and "and N more".
                #expect(
                    (4...(4 + DatabaseCheck.problemsShown + 1)).contains(check.lines.count),
                    "seed \(seed), page \(page): \(check.lines)")
                #expect(
                    check.lines.allSatisfy { $0.count <= 400 },
                    "seed \(seed), page \(page): a line of \(check.lines.map(\.count).max() ?? 0) characters")
            } catch {
                #expect(error.kind == .failure, "seed \(seed), page \(page): \(error)")
            }
        }
        // A subtle one: a leaf page's "start of cell content" field points into its header.
        let subtle = sandbox.folder.file("subtle.sqlite")
        try FileManager.default.copyItem(atPath: pristine, toPath: subtle)
        let handle = try #require(FileHandle(forUpdatingAtPath: subtle))
        try handle.seek(toOffset: UInt64((pages / 2 - 1) * pageSize + 5))
        try handle.write(contentsOf: Data([0x00, 0x10]))
        try handle.close()
        let check = try DatabaseCheck.run(path: subtle)
        #expect(
            check.lines.first?.hasPrefix("integrity: damaged") == true && check.lines.first?.contains("***") == false,
            "\(check.lines)")
        #expect(
            check.failure?.message.hasPrefix("\(subtle) is damaged: ") == true, "\(String(describing: check.failure))")
        Reliability.report("check", "\(sample.count + 1) damaged copies of a \(pages)-page file, every one reported")
    }

    @Test("A wreck: one problem per line, at most 20, then how many more")
    func aWreckIsListedOnePerLine() throws {
        let path = sandbox.folder.file("wreck.sqlite")
        let (pageSize, pages) = try multiPageDatabase(path, count: 2_000)
        // Each leaf page's "start of cell content" field pointed into its header: one
        // problem per page, with the file still readable enough to list them.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        for page in stride(from: 3, to: pages, by: 2) {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize + 5))
            try handle.write(contentsOf: Data([0x00, 0x10]))
        }
        try handle.close()
        let result = try sandbox.todo("--db", path, "check")
        #expect(result.status == 1)
        #expect(result.stderrLines.count <= 2)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let problems = lines.filter { $0.hasPrefix("  ") && !$0.hasPrefix("  and ") }
        #expect(problems.count == DatabaseCheck.problemsShown, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  and ") && $0.hasSuffix(" more") }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 300 }, "longest line: \(lines.map(\.count).max() ?? 0)")
    }

    @Test("Check reads while another client holds the write lock")
    func checkIsNotBlockedByAWriter() throws {
        _ = try sandbox.ok("add", "x")
        // The holder keeps the lock until the `release` file appears (or 60 s pass, which it
        // reports): check must finish while the lock is held, whatever the machine's speed.
        let release = sandbox.folder.file("release")
        let holder = try RunningProcess(
            try ProcessRunner.which("python3"),
            [
                "-c",
                """
                import os, sqlite3, sys, time
                c = sqlite3.connect(sys.argv[1], isolation_level=None)
                c.execute("BEGIN IMMEDIATE"); c.execute("INSERT INTO todos (name) VALUES ('held')")
                print("locked", flush=True)
                deadline = time.time() + 60
                while not os.path.exists(sys.argv[2]) and time.time() < deadline: time.sleep(0.01)
                c.execute("ROLLBACK"); c.close()
                print("released" if os.path.exists(sys.argv[2]) else "gave up", flush=True)
                """, sandbox.database, release
            ])
        try #require(holder.nextLine(timeout: 10) == "locked", "the lock holder did not start")
        let check = try DatabaseCheck.run(path: sandbox.database)
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        #expect(holder.nextLine(timeout: 70) == "released", "the lock was not held for the whole check")
        #expect(check.failure == nil, "\(check.lines)")
        #expect(check.lines.first == "integrity: ok", "\(check.lines)")
    }

    // MARK: Through the binary

    @Test("todo check on a healthy file: exit 0, five plain lines")
    func healthyThroughTheBinary() throws {
        _ = try sandbox.ok("add", "x")
        let result = try sandbox.todo("check")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        #expect(
            result.stdout
                == "integrity: ok\nforeign keys: ok\nschema: version \(Self.latest) (current)\njournal: wal\nsubtasks: ok\n"
        )
        #expect(try sandbox.ok("help", "check").contains("USAGE: todo check"))
    }

    @Test("todo check on damaged files: exit 1, one error line, never a crash; other commands fail cleanly too")
    func damagedThroughTheBinary() throws {
        let seed = Reliability.seed("check damaged pages (binary)")
        var random = SeededGenerator(seed: seed)
        let pristine = sandbox.folder.file("pristine.sqlite")
        let (pageSize, pages) = try multiPageDatabase(pristine)
        // Each page once: the random one may equal a fixed one (a second copy would fail).
        for page in Set([1, 2, pages / 2, pages - 1, Int.random(in: 3...pages, using: &random)]).sorted() {
            let copy = sandbox.folder.file("damaged-\(page).sqlite")
            try FileManager.default.copyItem(atPath: pristine, toPath: copy)
            try damage(copy, page: page, pageSize: pageSize, using: &random)
            let label = "seed \(seed), page \(page) of \(pages)"
            Reliability.expectOneError(try sandbox.todo("--db", copy, "check"), status: 1, "\(label): todo check")
            // Everyday commands on the damaged file: a clean answer, never a crash.
            for arguments in [["list"], ["add", "x"], ["done", "1"], ["export"]] {
                let result = try sandbox.todo(["--db", copy] + arguments)
                #expect(
                    [0, 1].contains(result.status),
                    "\(label): todo \(arguments[0]) exited \(result.status): \(result.stderr)")
                if result.status != 0 {
                    Reliability.expectOneError(result, status: 1, "\(label): todo \(arguments[0])")
                }
            }
        }
    }
}
