import Foundation
import TestSupport
import Testing

/// Hostile input that is valid: a 1 MB name, thousands of ids, SQL and control characters.
/// It is stored exactly (bound, never spliced) and shown safely.
@Suite(.timed) struct ReliabilityInputTests {
    let sandbox = CLISandbox()

    @Test("A 1,000,009-character name (ten 100,000-character words) round-trips through list, show and export")
    func aOneMegabyteName() throws {
        // Linux caps one argument at 128 KiB (MAX_ARG_STRLEN), so the name comes as ten words,
        // which `add` joins with spaces.
        let words = "abcdefghij".map { String(repeating: String($0), count: 100_000) }
        let name = words.joined(separator: " ")
        #expect(name.utf8.count == 1_000_009)
        let id = try sandbox.ok(["add"] + words).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id == "1")
        #expect(try sandbox.listJSON().first?["name"] as? String == name)
        let show = try parseJSON(try sandbox.ok("show", "1", "--json"), as: [String: Any].self, "todo show 1 --json")
        #expect(show["name"] as? String == name)
        let export = try parseJSON(try sandbox.ok("export"), as: [[String: Any]].self, "todo export")
        #expect(export.map { $0["name"] as? String } == [name])
        #expect(try sandbox.ok("list").contains(name))
        #expect(try Reliability.scalar(sandbox.database, "SELECT length(name) FROM todos WHERE id = 1") == 1_000_009)
        // Renaming to another megabyte and searching in it work too.
        _ = try sandbox.ok(["edit", "1", "--name", String(repeating: "z", count: 100_000)])
        #expect(try sandbox.listJSON("--search", "zzzz").count == 1)
        #expect(try Reliability.integrity(sandbox.database) == "ok")
    }

    @Test("5,000 ids in one command: done succeeds; with one missing id done/undone/rm fail and change nothing")
    func thousandsOfIDsInOneCommand() throws {
        let count = 5_000
        _ = try sandbox.ok("list")
        try Reliability.sqlite(
            sandbox.database,
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(count))
            INSERT INTO todos (name) SELECT 'todo ' || i FROM n
            """)
        let ids = (1...count).map(String.init)
        let done = try sandbox.todo(["done"] + ids)
        #expect(done.status == 0, "\(done.stderr.prefix(300))")
        #expect(done.stdout.split(separator: "\n").count == count)
        #expect(try Reliability.scalar(sandbox.database, "SELECT count(*) FROM todos WHERE done = 1") == count)

        let before = try Reliability.dump(sandbox.database)
        for command in [["undone"], ["rm", "--yes"], ["done"]] {
            let result = try sandbox.todo(command + ids + ["999999"])
            Reliability.expectOneError(
                result, status: 1, mentioning: ["999999"], "todo \(command[0]) with 5,001 ids, one missing")
            #expect(result.stdout.isEmpty)
            #expect(try Reliability.dump(sandbox.database) == before, "todo \(command[0]) changed something")
        }
        // Thousands of missing ids: still one error line.
        let missing = try sandbox.todo(["rm", "--yes"] + (1...count).map { String(100_000 + $0) })
        Reliability.expectOneError(missing, status: 1, mentioning: ["100001"], "todo rm with 5,000 missing ids")
        #expect(try Reliability.dump(sandbox.database) == before)

        // All 5,000 at once, and back with one undo.
        #expect(try sandbox.todo(["rm", "--yes"] + ids).status == 0)
        #expect(try Reliability.scalar(sandbox.database, "SELECT count(*) FROM todos") == 0)
        #expect(try sandbox.todo("undo").status == 0)
        #expect(try Reliability.scalar(sandbox.database, "SELECT count(*) FROM todos WHERE done = 1") == count)
        #expect(try Reliability.integrity(sandbox.database) == "ok")
        Reliability.report("many ids", "\(count) ids per command; done, undone, rm, undo")
    }

    static let hostileNames = [
        "'); DROP TABLE todos;--",
        "Robert'); DELETE FROM todos; --",
        "\" OR 1=1 --",
        "x'; ATTACH DATABASE '/tmp/pwned.sqlite' AS p; --",
        "%_\\%",
        "\u{1B}[2J\u{1B}[H clear screen",
        "\u{1B}]0;title\u{7}",
        "carriage\rreturn",
        "two\nlines",
        "tab\there",
        "bell\u{7}backspace\u{8}",
        "\u{9B}31m C1 CSI",
        "\u{7F}delete",
        "\u{202E}right-to-left override",
        "%s%n%x%d",
        "e\u{301} 🧑‍🚀 日本語"
    ]

    @Test("SQL and control characters in names: stored byte for byte, shown with no raw escape")
    func sqlAndControlCharactersInNames() throws {
        var ids: [String: String] = [:]
        for name in Self.hostileNames {
            ids[name] = try sandbox.ok("add", name).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // Stored exactly: the JSON round trip and the bytes in the file.
        let list = try sandbox.listJSON()
        #expect(Set(list.compactMap { $0["name"] as? String }) == Set(Self.hostileNames))
        for name in Self.hostileNames {
            let hex = try Reliability.sqlite(sandbox.database, "SELECT hex(name) FROM todos WHERE id = \(ids[name]!)")
                .stdout
            let expected = name.utf8.map { String(format: "%02X", $0) }.joined()
            #expect(
                hex.trimmingCharacters(in: .whitespacesAndNewlines) == expected,
                "\(name.debugDescription) stored differently")
        }
        #expect(
            try Reliability.scalar(
                sandbox.database, "SELECT count(*) FROM sqlite_schema WHERE name IN ('todos', 'todo_history')") == 2)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned.sqlite"))
        // Search takes them literally: '%' and '_' are not wildcards, quotes are not SQL.
        #expect(try sandbox.listJSON("--search", "'); DROP").count == 1)
        #expect(try sandbox.listJSON("--search", "%_\\").count == 1)

        // Text output: no raw control character, on a pipe or on a terminal.
        let outputs =
            [
                try sandbox.ok("list"), try sandbox.ok("list", "--outline"),
                try sandbox.ok(["done"] + ids.values.sorted()), try sandbox.ok(["undone"] + ids.values.sorted())
            ]
            + (try ids.values.map { try sandbox.ok("show", $0) })
        for output in outputs {
            let raw = output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
            }
            #expect(
                raw.isEmpty,
                "raw control characters \(raw.map { String(format: "U+%04X", $0.value) }) in: \(output.debugDescription.prefix(300))"
            )
        }
        let terminal = try PseudoTerminal.run(
            [ProcessRunner.todoBinary, "list"], environment: ["TODO_DB": sandbox.database])
        #expect(terminal.status == 0)
        #expect(
            !terminal.screen.contains("\u{1B}[2J") && !terminal.screen.contains("\u{1B}]0;")
                && !terminal.screen.contains("\u{9B}"))
        #expect(
            !terminal.screen.replacingOccurrences(of: "\r\n", with: "\n").contains("\r"),
            "a raw carriage return reached the terminal")
        #expect(
            terminal.screen.contains("^[[2J"),
            "the escape is not shown visibly: \(terminal.screen.debugDescription.prefix(400))")
        #expect(try Reliability.integrity(sandbox.database) == "ok")
    }
}
