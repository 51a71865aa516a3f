import SQLite
import TodoStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Command {
    /// `todo check`: SQLite's integrity and foreign-key checks, the schema version and the
    /// journal mode, one plain line each; exit 1 when a check fails.
    ///
    /// The file is never created, migrated or written: `check` reports it as it is (an old
    /// schema version stays old) and can be run on a damaged file without making it worse. It
    /// only reads, so in WAL mode another program's write lock does not stop it.
    static let check = Command(
        spec: CommandSpec(
            name: "check",
            abstract: "Check the database file for damage.",
            discussion: """
                Runs SQLite's integrity and foreign-key checks, compares the file's schema version
                with the one this todo knows, shows the journal mode and checks the subtasks' links
                (a todo under one that is gone or in another list shows at the top level; a loop
                fails), one line each. The file is only read, never changed. Exits 1 when a check
                fails.
                """,
            examples: ["todo check", "todo --db backup.sqlite check"]
        ),
        run: { (context) throws(CLIError) in
            let report = try DatabaseCheck.run(path: try context.databasePath())
            for line in report.lines { context.out.write(line + "\n") }
            if let failure = report.failure { throw failure }
        }
    )
}

/// What `todo check` found: the report lines and the first failed check, if any.
struct DatabaseCheck {
    private(set) var lines: [String] = []
    private(set) var failure: CLIError?

    /// How many integrity problems are read at most: enough to report, bounded on a wreck.
    static let problemLimit = 100

    private static let damagedHint =
        "Copy the file before changing it; 'sqlite3 FILE .recover' can save what is still readable."

    /// Checks the database at `path`.
    ///
    /// - Throws: a failure when the file is missing or cannot be opened as a database at all;
    ///   failed checks are in the returned report, after its lines.
    static func run(path: String) throws(CLIError) -> DatabaseCheck {
        var check = DatabaseCheck()
        let connection = try open(path)
        check.checkIntegrity(connection, path: path)
        check.checkForeignKeys(connection)
        check.checkSchema(connection, path: path)
        check.checkJournal(connection)
        check.checkSubtasks(connection)
        return check
    }

    private static func open(_ path: String) throws(CLIError) -> Connection {
        guard access(path, F_OK) == 0 else {
            throw .failure("no database at \(path)", hint: "todo creates it on first use, for example with 'todo add'.")
        }
        do {
            // Read-write (never create) rather than read-only: as the last connection it can then
            // remove the `-wal` file on close, leaving the folder as it found it. Nothing is
            // written: every statement below is a read. A file without write permission is
            // opened read-only by SQLite, and checked all the same.
            var options = Connection.Options()
            options.mode = .readWrite
            return try Connection(path: path, options: options)
        } catch  where error.isNotADatabase {
            throw .failure("\(path) is not an SQLite database, or its first page is damaged", hint: damagedHint)
        } catch {
            throw CLIError(error)
        }
    }

    private mutating func fail(_ error: CLIError) {
        if failure == nil { failure = error }
    }

    /// Turns an error thrown while reading into the words the report uses.
    private static func describe(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? "\(error)"
    }

    /// A failure for an SQLite error met while checking: busy keeps its own wording.
    private static func readFailure(_ error: any Error, path: String) -> CLIError {
        if let error = error as? SQLiteError, error.isBusy || error.isPermissionDenied { return CLIError(error) }
        return .failure("\(path) is damaged: \(describe(error))", hint: damagedHint)
    }

    private mutating func checkIntegrity(_ connection: Connection, path: String) {
        var problems: [String] = []
        do {
            let statement = try connection.prepare("PRAGMA integrity_check(\(Self.problemLimit))")
            try statement.forEachRow { problems += Self.problems($0.string(0)) }
        } catch {
            // A page too broken to walk stops the check itself with SQLITE_CORRUPT.
            let damaged = error.isNotADatabase
            lines.append(
                "integrity: \(damaged ? "damaged" : "cannot be read"): \(TodoText.sanitized(Self.describe(error)))")
            fail(Self.readFailure(error, path: path))
            return
        }
        if problems == ["ok"] {
            lines.append("integrity: ok")
            return
        }
        let first = TodoText.sanitized(problems.first ?? "no result")
        let more = problems.count >= Self.problemLimit ? "\(Self.problemLimit) or more" : "\(problems.count)"
        lines.append("integrity: damaged (\(more) \(problems.count == 1 ? "problem" : "problems"))")
        // One problem per line, a readable number of them.
        for problem in problems.prefix(Self.problemsShown) { lines.append("  " + TodoText.sanitized(problem)) }
        if problems.count > Self.problemsShown {
            lines.append(
                "  and \(problems.count - Self.problemsShown)\(problems.count >= Self.problemLimit ? " or" : "") more")
        }
        fail(.failure("\(path) is damaged: \(first)", hint: Self.damagedHint))
    }

    /// How many integrity problems are listed, one per line.
    static let problemsShown = 20

    /// The problems in one row of `integrity_check`: SQLite may put several in one row, one a
    /// line, the first prefixed with "*** in database main ***".
    private static func problems(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("*** in database") && !$0.allSatisfy(\.isWhitespace) }
            .map(String.init)
    }

    private mutating func checkForeignKeys(_ connection: Connection) {
        var violations: [String] = []
        do {
            let statement = try connection.prepare("PRAGMA foreign_key_check")
            try statement.forEachRow { row in
                violations.append("\(row.string(0)) row \(row.int64(1)) refers to a missing \(row.string(2)) row")
            }
        } catch {
            lines.append("foreign keys: cannot be read: \(TodoText.sanitized(Self.describe(error)))")
            fail(Self.readFailure(error, path: connection.path))
            return
        }
        guard let first = violations.first.map(TodoText.sanitized) else {
            lines.append("foreign keys: ok")
            return
        }
        lines.append(
            "foreign keys: \(violations.count) broken \(violations.count == 1 ? "reference" : "references"); first: \(first)"
        )
        fail(
            .failure(
                "\(connection.path) has \(violations.count) broken foreign-key \(violations.count == 1 ? "reference" : "references"): \(first)",
                hint: Self.damagedHint))
    }

    private mutating func checkSchema(_ connection: Connection, path: String) {
        let latest = Migrator().latestVersion
        let identity: TodoRepository.FileIdentity
        do {
            identity = try TodoRepository.FileIdentity.read(from: connection)
        } catch {
            lines.append("schema: cannot be read: \(TodoText.sanitized(Self.describe(error)))")
            fail(Self.readFailure(error, path: path))
            return
        }
        let version = identity.schemaVersion
        if identity.belongsToAnotherApplication {
            lines.append(
                "schema: not a todo database (application_id \(identity.applicationID), user_version \(version))")
            fail(
                .failure(
                    "\(path) is an SQLite database of another application",
                    hint: "Choose another file with --db or TODO_DB."))
            return
        }
        if version == 0 {
            lines.append("schema: none yet (todo creates it on first use; this todo knows version \(latest))")
            return
        }
        if version > latest {
            lines.append("schema: version \(version) (newer than the \(latest) this todo knows)")
            fail(
                .failure(
                    "\(path) has schema version \(version), newer than the \(latest) this todo knows",
                    hint: "Upgrade todo to use this database."))
            return
        }
        do {
            // The columns this version has (a file of an older one gets the newer ones at its
            // next write): proves the table is there and readable.
            let columns = version == latest ? TodoColumns.list : TodoColumns.sinceFirstVersion
            _ = try connection.prepare("SELECT \(columns) FROM todos LIMIT 0")
        } catch {
            let message = TodoText.sanitized(Self.describe(error))
            lines.append("schema: version \(version), but the todos table is unusable: \(message)")
            fail(
                .failure(
                    "\(path) has schema version \(version) but its todos table is unusable: \(message)",
                    hint: Self.damagedHint))
            return
        }
        lines.append(
            version == latest
                ? "schema: version \(version) (current)"
                : "schema: version \(version) (this todo knows \(latest) and upgrades the file on its next write)")
    }

    private mutating func checkJournal(_ connection: Connection) {
        var mode = ""
        do {
            let statement = try connection.prepare("PRAGMA journal_mode")
            try statement.forEachRow { mode = $0.string(0) }
        } catch {
            lines.append("journal: cannot be read: \(TodoText.sanitized(Self.describe(error)))")
            fail(Self.readFailure(error, path: connection.path))
            return
        }
        mode = TodoText.sanitized(mode.lowercased())
        lines.append(mode == "wal" ? "journal: wal" : "journal: \(mode) (todo switches it to wal on its next write)")
    }

    /// Subtask links that do not hold (a file of schema 17 or later): a parent that is gone or
    /// in another list (the todo shows at the top level: reported, not a failure), and a loop,
    /// which the schema's triggers refuse and only a damaged file or one whose triggers were
    /// dropped can hold (a failure: readers cut it, but some todo is not where it was put).
    private mutating func checkSubtasks(_ connection: Connection) {
        guard (try? TodoRepository.FileIdentity.read(from: connection).schemaVersion).map({ $0 >= 17 }) == true else {
            return
        }
        var loose: [(Int64, Int64)] = []
        var looping: [Int64] = []
        do {
            let statement = try connection.prepare(
                """
                SELECT t.id, t.parent_id FROM todos t LEFT JOIN todos p ON p.id = t.parent_id
                WHERE t.parent_id IS NOT NULL AND (p.id IS NULL OR p.list_id IS NOT t.list_id) ORDER BY t.id
                """)
            try statement.forEachRow { loose.append(($0.int64(0), $0.int64(1))) }
            // Each walk up stops at the top, back at its start (a loop), or after more steps than
            // there are subtasks (a loop above it, reported from its own start).
            let loops = try connection.prepare(
                """
                WITH RECURSIVE up(start, id, steps) AS (
                    SELECT id, parent_id, 1 FROM todos WHERE parent_id IS NOT NULL
                    UNION ALL SELECT up.start, t.parent_id, up.steps + 1 FROM todos t JOIN up ON t.id = up.id
                    WHERE t.parent_id IS NOT NULL AND up.id IS NOT up.start
                      AND up.steps <= (SELECT count(*) FROM todos WHERE parent_id IS NOT NULL))
                SELECT DISTINCT start FROM up WHERE id = start ORDER BY start LIMIT \(Self.problemLimit)
                """)
            try loops.forEachRow { looping.append($0.int64(0)) }
        } catch {
            lines.append("subtasks: cannot be read: \(TodoText.sanitized(Self.describe(error)))")
            fail(Self.readFailure(error, path: connection.path))
            return
        }
        if !looping.isEmpty {
            let ids = CLIError.idList(looping)
            lines.append("subtasks: \(looping.count) \(looping.count == 1 ? "todo is" : "todos are") in a loop: \(ids)")
            fail(
                .failure(
                    "\(connection.path) has subtasks in a loop (todos \(ids))",
                    hint: "Lists show them at the top level. 'todo edit ID --top' takes one out of the loop."))
        }
        if let (id, parent) = loose.first {
            lines.append(
                "subtasks: \(loose.count) \(loose.count == 1 ? "todo is" : "todos are") under a todo gone or in another list (shown at the top level); first: \(id) under \(parent)"
            )
        } else if looping.isEmpty {
            lines.append("subtasks: ok")
        }
    }
}
