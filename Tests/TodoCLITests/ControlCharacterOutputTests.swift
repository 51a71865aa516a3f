import Foundation
import TestSupport
import Testing
import TextSafety

@testable import todo

/// Text from elsewhere (another program's name, a server's href, a path a script built) never
/// reaches the terminal raw: text output, `--json` and the `error:` / `warning:` lines show
/// control characters escaped, and one message stays one line.
@Suite(.timed) struct ControlCharacterOutputTests {
    let sandbox = CLISandbox()

    /// ESC and a colour sequence, the 8-bit CSI U+009B, a right-to-left override U+202E, and a
    /// newline that tries to forge a line of its own.
    static let hostile = "a\u{1B}[31m\u{9B}2J\u{202E}evil\nerror: forged"

    /// The scalars that must not appear raw in what a terminal shows (the line ends aside).
    private func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && ControlCharacters.contains($0) }.map(\.value)
    }

    /// The UTF-8 of a C1 character: 0xC2 then 0x80-0x9F.
    private func containsC1Bytes(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
    }

    /// Stores the hostile name with the sqlite3 shell, as another program would.
    private func insertHostileTodo() throws {
        let sql =
            "INSERT INTO todos (name) VALUES ('a' || char(27) || '[31m' || char(155) || '2J' || char(8238) || 'evil' || char(10) || 'error: forged')"
        _ = try sandbox.ok("list")  // creates the database
        let result = try ProcessRunner.run("sqlite3", [sandbox.database, sql])
        #expect(result.status == 0, "sqlite3: \(result.stderr)")
    }

    @Test func listAndShowEscapeTheName() throws {
        try insertHostileTodo()
        let escaped = "a^[[31m\\u{9b}2J\\u{202e}evil\\nerror: forged"
        let list = try sandbox.ok("list")
        #expect(list.contains(escaped), "todo list: \(list.debugDescription)")
        #expect(list.split(separator: "\n").count == 1, "one todo, one row: \(list.debugDescription)")
        let show = try sandbox.ok("show", "1")
        #expect(show.contains("name:      \(escaped)\n"), "todo show: \(show.debugDescription)")
        for output in [list, show] {
            #expect(rawControls(output).isEmpty)
            #expect(!containsC1Bytes(output))
        }
    }

    @Test func jsonEscapesEveryControlCharacterAndReadsBackTheSame() throws {
        try insertHostileTodo()
        for arguments in [["list", "--json"], ["show", "1", "--json"]] {
            let output = try sandbox.ok(arguments)
            #expect(!containsC1Bytes(output), "\(arguments): \(output.debugDescription)")
            #expect(rawControls(output).isEmpty, "\(arguments): \(output.debugDescription)")
            #expect(
                output.contains(#""a\u001b[31m\u009b2J\u202eevil\nerror: forged""#),
                "\(arguments): \(output.debugDescription)")
        }
        let todos = try sandbox.listJSON()
        #expect(todos.first?["name"] as? String == Self.hostile, "the escapes read back as the stored name")
    }

    /// Every writer of the name follows the one policy: the exports too. todo.txt and iCalendar
    /// have no escape for these characters, so each becomes U+FFFD (iCalendar's line ends are
    /// its own CR LF; todo.txt writes a line break in a name as a space).
    @Test func exportsReplaceEveryControlCharacter() throws {
        try insertHostileTodo()
        let todotxt = try sandbox.ok("export", "--format", "todotxt")
        #expect(rawControls(todotxt).isEmpty && !containsC1Bytes(todotxt), "\(todotxt.debugDescription)")
        #expect(todotxt.contains("a\u{FFFD}[31m\u{FFFD}2J\u{FFFD}evil error: forged"), "\(todotxt.debugDescription)")
        let ics = try sandbox.ok("export", "--format", "ics")
        #expect(rawControls(ics).isEmpty && !containsC1Bytes(ics), "\(ics.debugDescription)")
        #expect(ics.contains("SUMMARY:a\u{FFFD}[31m\u{FFFD}2J\u{FFFD}evil\\nerror: forged"), "\(ics.debugDescription)")
    }

    /// A `--db` path with a newline, ESC, CSI and a bidi override in it, under a plain file (so it
    /// cannot be created): one `error:` line (and at most a hint), escaped; nothing forged, nothing raw.
    @Test func anErrorMessageIsOneEscapedLine() throws {
        let file = sandbox.folder.file("plain")
        try "not a folder".write(toFile: file, atomically: true, encoding: .utf8)
        let path = file + "/missing\n\u{1B}[2J\u{9B}1m\u{202E}error: forged/todo.sqlite"
        let result = try sandbox.todo("--db", path, "list")
        #expect(result.status == 1)
        let lines = result.stderrLines
        #expect(lines.filter { $0.hasPrefix("error:") }.count == 1, "stderr: \(result.stderr.debugDescription)")
        #expect(lines.first?.hasPrefix("error:") == true)
        #expect(lines.count <= 2, "an error line and at most a hint: \(result.stderr.debugDescription)")
        #expect(
            lines.first?.contains("missing\\n^[[2J\\u{9b}1m\\u{202e}error: forged") == true,
            "stderr: \(result.stderr.debugDescription)")
        #expect(rawControls(result.stderr).isEmpty)
        #expect(!containsC1Bytes(result.stderr))
    }

    @Test func diagnosticLinesAreSanitizedAndShort() {
        #expect(Diagnostics.line("x\ny\u{9B}z\u{202E}", prefix: "warning: ") == "warning: x\\ny\\u{9b}z\\u{202e}\n")
        #expect(Diagnostics.line("plain") == "plain\n")
        let long = Diagnostics.line(String(repeating: "\u{1B}", count: 400), prefix: "error: ")
        #expect(long.hasPrefix("error: ^[^["))
        #expect(long.hasSuffix("…\n"))
        #expect(long.count == "error: ".count + Diagnostics.maximumLength + 1)
        #expect(long.filter { $0 == "\n" }.count == 1)
    }

    @Test func warningsAndErrorsGoThroughTheSameLine() throws {
        let file = sandbox.folder.file("stderr.txt")
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        let stream = todo.OutputStream(descriptor: descriptor)
        stream.writeWarning(
            "https://dav.example.com/a\r\nwarning: forged\u{9B}.ics on the server is not a readable todo")
        stream.writeError("cannot reach \u{1B}]0;title\u{7}", hint: "Try\nagain")
        stream.flush()
        close(descriptor)
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            written == """
                warning: https://dav.example.com/a\\r\\nwarning: forged\\u{9b}.ics on the server is not a readable todo
                error: cannot reach ^[]0;title^G
                Try\\nagain

                """)
    }

    @Test func jsonStringEscapesC0DelC1AndBidiControls() {
        #expect(JSON.string("Buy milk") == "\"Buy milk\"")
        #expect(JSON.string("say \"hi\" \\ bye") == #""say \"hi\" \\ bye""#)
        #expect(
            JSON.string("\u{0}\u{1B}\u{7F}\u{80}\u{9B}\u{9F}\u{A0}é") == #""\u0000\u001b\u007f\u0080\u009b\u009f"#
                + "\u{A0}é\"")
        #expect(
            JSON.string("\u{2028}\u{2029}\u{202A}\u{202E}\u{2066}\u{2069}\u{200F}")
                == #""\u2028\u2029\u202a\u202e\u2066\u2069"# + "\u{200F}\"")
        #expect(JSON.string("a\tb\r\nc") == #""a\tb\r\nc""#)
    }
}
