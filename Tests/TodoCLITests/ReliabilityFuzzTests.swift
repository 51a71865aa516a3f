import Foundation
import TestSupport
import Testing
import TodoStore

@testable import todo

/// Random and mutated command lines and dates: no crash, no hang, no stack trace; every
/// refusal is a usage error (exit 2) with one `error:` line.
@Suite(.timed) struct ReliabilityFuzzTests {
    static let parserInputs = 25_000
    static let dateInputs = 25_000
    static let binarySample = 200

    // MARK: Generators

    /// Makes command lines: valid ones from every command's spec, then mutated.
    struct CommandLineFuzzer {
        let specs = TodoCLI.commands.map(\.spec)
        var random: SeededGenerator

        static let values: [String] = [
            "", " ", "-", "--", "=", "--=", "-=", "==", "0", "1", "2", "-1", "+1", "007", "1.5", "1e3", "0x10",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999",
            "2024-05-01", "2024/05/01", "2023-02-29", "2024-02-29", "0000-01-01", "9999-12-31", "10000-01-01",
            "today", "tomorrow", "friday", "fri", "FRIDAY", "+3d", "+2w", "+99999999999999999999d", "+3660000d",
            "due", "name", "status", "json", "taskwarrior", "todotxt", "auto", "always", "never", "bash", "zsh", "fish",
            "Buy milk", "'); DROP TABLE todos;--", "%", "_", "\\", "\"", "'", "$(echo hi)", "`id`", "%s%n%x",
            "\u{1B}[2J", "\r", "\n", "\t", "a\u{7}b", "\u{9B}31m", "\u{202E}evil", "e\u{301}", "🧑‍🚀", "日本語",
            "٢٠٢٤-٠٥-٠١", "２０２４-０５-０１", "१२", "\u{FEFF}", "\u{200B}", "İ", "ß", "ﬁ",
            "todo.sqlite", "db/x.sqlite", "missing.json", "-y", "-h", "-yy", "-hy", "-x", "---", "--=x", "--db=",
            "--due=",
            // Long tokens. (A 100,000-character one is in `usageErrorsQuotingHostileInput`: the
            // "did you mean" edit distance makes each one cost milliseconds in a debug build.)
            String(repeating: "a", count: 2_000), String(repeating: "-", count: 1_000),
            "--" + String(repeating: "x", count: 1_000),
            "--due=" + String(repeating: "9", count: 2_000), String(repeating: "é", count: 2_000)
        ]

        init(seed: UInt64) { random = SeededGenerator(seed: seed) }

        var commandNames: [String] { specs.map(\.name) }
        var optionNames: [String] {
            GlobalOptions.specs.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
                + specs.flatMap { $0.options.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) } }
        }

        mutating func token() -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0...1: return commandNames.randomElement(using: &random)!
            case 2...4: return optionNames.randomElement(using: &random)!
            case 5: return optionNames.randomElement(using: &random)! + "=" + Self.values.randomElement(using: &random)!
            case 6: return String(Int.random(in: -3...60, using: &random))
            case 7: return randomUnicode()
            default: return Self.values.randomElement(using: &random)!
            }
        }

        mutating func randomUnicode() -> String {
            let length = Int.random(in: 0...12, using: &random)
            var text = ""
            for _ in 0..<length {
                let ranges: [ClosedRange<UInt32>] = [
                    0x20...0x7E, 0x1...0x1F, 0x80...0x24F, 0x300...0x36F, 0x600...0x6FF,
                    0x3000...0x30FF, 0xFF00...0xFFEF, 0x1F300...0x1F6FF, 0xE000...0xF8FF
                ]
                let range = ranges.randomElement(using: &random)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) {
                    text.unicodeScalars.append(scalar)
                }
            }
            return text
        }

        /// A valid command line for a random command, built from its spec.
        mutating func valid() -> [String] {
            let spec = specs.randomElement(using: &random)!
            var line = [spec.name]
            for argument in spec.arguments where !argument.optional || Bool.random(using: &random) {
                let count = argument.repeats ? Int.random(in: 1...4, using: &random) : 1
                for _ in 0..<count {
                    line.append(
                        argument.name.contains("id")
                            ? String(Int.random(in: 1...30, using: &random))
                            : Self.values.randomElement(using: &random)!)
                }
            }
            for option in spec.options where Bool.random(using: &random) {
                line.append(option.name)
                if option.value != nil { line.append(Self.values.randomElement(using: &random)!) }
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                line.insert(contentsOf: ["--color", ["auto", "always", "never"].randomElement(using: &random)!], at: 0)
            }
            return line
        }

        /// A valid line with 1-5 random mutations, or (one time in ten) pure noise.
        mutating func next() -> [String] {
            if Int.random(in: 0..<10, using: &random) == 0 {
                return (0..<Int.random(in: 0...8, using: &random)).map { _ in token() }
            }
            var line = valid()
            for _ in 0..<Int.random(in: 1...5, using: &random) {
                let index = line.isEmpty ? 0 : Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<11, using: &random) {
                case 0: line.insert(token(), at: Int.random(in: 0...line.count, using: &random))
                case 1: if !line.isEmpty { line.remove(at: index) }
                case 2: if !line.isEmpty { line[index] = token() }
                case 3: if !line.isEmpty { line.insert(line[index], at: index) }
                case 4: if line.count > 1 { line.swapAt(index, Int.random(in: 0..<line.count, using: &random)) }
                case 5: line.insert("--", at: Int.random(in: 0...line.count, using: &random))
                case 6: if index + 1 < line.count { line[index] += "=" + line.remove(at: index + 1) }
                case 7:
                    if !line.isEmpty, let equals = line[index].firstIndex(of: "=") {
                        let (left, right) = (
                            String(line[index][..<equals]), String(line[index][line[index].index(after: equals)...])
                        )
                        line.replaceSubrange(index...index, with: [left, right])
                    }
                case 8:
                    if !line.isEmpty { line[index] = ["-", "--", "---"].randomElement(using: &random)! + line[index] }
                case 9:
                    if !line.isEmpty {
                        line[index] = String(
                            line[index].prefix(Int.random(in: 0...max(0, line[index].count), using: &random)))
                    }
                default:
                    if !line.isEmpty {
                        line[index] =
                            Bool.random(using: &random) ? line[index].uppercased() : line[index] + randomUnicode()
                    }
                }
            }
            return line
        }
    }

    /// The checks the command line gets before a command opens the database, as `TodoCLI`
    /// runs them, plus the value parsers every command uses.
    static func validate(_ arguments: [String], today: CalendarDate) throws(CLIError) {
        let parser = ArgumentParser(commands: TodoCLI.commands.map(\.spec))
        let parsed = try parser.parse(arguments)
        guard let name = parsed.commandName, let command = TodoCLI.commands.first(where: { $0.spec.name == name }),
            !parsed.flag("--help"), !parsed.flag("--version")
        else { return }
        try parser.validatePositionals(parsed, for: command.spec)
        if let color = parsed.value("--color"), !["auto", "always", "never"].contains(color) {
            throw .usage("bad colour")
        }
        if ["done", "undone", "rm", "show", "edit"].contains(name) { _ = try CommandContext.ids(parsed.positionals) }
        if let due = parsed.value("--due") { _ = try DueDateParser.parseDeadline(due, today: today) }
    }

    // MARK: In process

    @Test("Argument parser: 25,000 random and mutated command lines, only usage errors")
    func argumentParserFuzz() throws {
        let seed = Reliability.seed("argument parser fuzz")
        var fuzzer = CommandLineFuzzer(seed: seed)
        let today = CalendarDate(year: 2024, month: 5, day: 1)!
        var accepted = 0
        var refused = 0
        let clock = Date()
        for index in 0..<Self.parserInputs {
            let arguments = fuzzer.next()
            do {
                try Self.validate(arguments, today: today)
                accepted += 1
            } catch {
                refused += 1
                #expect(
                    error.kind == .usage && !error.message.isEmpty,
                    "seed \(seed), input \(index): \(arguments.map { String($0.prefix(80)) }) gave \(error)")
            }
        }
        let elapsed = Date().timeIntervalSince(clock)
        Reliability.report(
            "argument parser fuzz",
            "\(Self.parserInputs) command lines: \(accepted) accepted, \(refused) usage errors, \(String(format: "%.1f", elapsed)) s"
        )
    }

    /// Makes `--due` texts: valid forms, their mutations and noise.
    struct DateFuzzer {
        var random: SeededGenerator
        static let pieces = [
            "0", "1", "2", "9", "00", "12", "31", "29", "2024", "2023", "9999", "0000", "10000", "-", "/", ".", " ",
            "+", "d", "w", "D", "W",
            "mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "Tuesday", "WEDNES", "day", "today", "tomorrow",
            "tod", "tom",
            "٣", "३", "３", "𝟑", "²", "½", "Ⅻ", "٠١", "é", "ı", "İ", "\u{0}", "\u{1B}", "🗓",
            "99999999999999999999", "9223372036854775807", "3660000", "3660001", "522857", "-1"
        ]
        static let seeds = [
            "2024-05-01", "2024/05/01", "2024-02-29", "2023-02-29", "0001-01-01", "9999-12-31", "2024-13-01",
            "2024-00-10",
            "today", "tomorrow", "friday", "fri", "+0d", "+3d", "+2w", "+3660000d", "+522857w",
            "+99999999999999999999d", "+-3d"
        ]

        mutating func next() -> String {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                return (0..<Int.random(in: 0...8, using: &random)).map { _ in Self.pieces.randomElement(using: &random)!
                }.joined()
            case 1:
                var scalars = Array(Self.seeds.randomElement(using: &random)!.unicodeScalars)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let index = Int.random(in: 0...scalars.count, using: &random)
                    let piece = Array(Self.pieces.randomElement(using: &random)!.unicodeScalars)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: scalars.insert(contentsOf: piece, at: index)
                    case 1: if index < scalars.count { scalars.remove(at: index) }
                    default: if index < scalars.count { scalars.replaceSubrange(index...index, with: piece) }
                    }
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                return text
            default:
                let unit = ["d", "w", "D", "W", "y", ""].randomElement(using: &random)!
                let digits = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                    String(Int.random(in: 0...9, using: &random))
                }.joined()
                return ["+", "", "-", "++"].randomElement(using: &random)! + digits + unit
            }
        }
    }

    @Test("Date parser: 25,000 random and mutated --due texts, a real date or a usage error")
    func dueDateParserFuzz() throws {
        let seed = Reliability.seed("date parser fuzz")
        var fuzzer = DateFuzzer(random: SeededGenerator(seed: seed))
        var random = SeededGenerator(seed: seed ^ 0x5EED)
        let todays = [
            CalendarDate(year: 1, month: 1, day: 1)!, CalendarDate(year: 2024, month: 2, day: 29)!,
            CalendarDate(year: 9999, month: 12, day: 25)!, CalendarDate(year: 9999, month: 12, day: 31)!
        ]
        var dates = 0
        var refused = 0
        var slowest = 0.0
        let clock = Date()
        for index in 0..<Self.dateInputs {
            let text = fuzzer.next()
            let today =
                Bool.random(using: &random)
                ? todays.randomElement(using: &random)!
                : CalendarDate(
                    year: Int.random(in: 1...9999, using: &random), month: Int.random(in: 1...12, using: &random),
                    day: Int.random(in: 1...28, using: &random))!
            let start = Date()
            do {
                let date = try DueDateParser.parse(text, today: today)
                dates += 1
                #expect(
                    CalendarDate(year: date.year, month: date.month, day: date.day) == date
                        && CalendarDate(date.description) == date,
                    "seed \(seed), input \(index): '\(text)' gave an invalid date \(date)")
                if text.lowercased() == "today" { #expect(date == today) }
            } catch {
                refused += 1
                #expect(error.kind == .usage, "seed \(seed), input \(index): '\(text)' gave \(error)")
            }
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        let elapsed = Date().timeIntervalSince(clock)
        // The slowest parse is a figure for the log, not an assertion: a stopwatch flakes on a
        // loaded machine. (A parse that loops forever still hangs the test, which fails it.)
        Reliability.report(
            "date parser fuzz",
            "\(Self.dateInputs) texts: \(dates) dates, \(refused) usage errors, slowest \(String(format: "%.4f", slowest)) s, total \(String(format: "%.1f", elapsed)) s"
        )
    }

    // MARK: Through the binary

    @Test("200 fuzzed command lines through the built todo: exit 0, 1 or 2, never a signal or a stack trace")
    func fuzzedCommandLinesThroughTheBinary() throws {
        let seed = Reliability.seed("binary fuzz")
        let sandbox = CLISandbox()
        for index in 1...12 { _ = try sandbox.ok("add", "todo \(index)", "--due", "2024-05-\(10 + index)") }
        var fuzzer = CommandLineFuzzer(seed: seed)
        var statuses: [Int32: Int] = [:]
        var ran = 0
        let clock = Date()
        while ran < Self.binarySample {
            let arguments = fuzzer.next()
            // `watch` runs until interrupted; NUL cannot be in argv; the kernel caps one argument at 128 KiB.
            guard !arguments.contains("watch"), !arguments.contains(where: { $0.contains("\u{0}") }) else { continue }
            ran += 1
            let process = try LaunchedProcess(
                ProcessRunner.todoBinary, arguments,
                environment: [
                    "TODO_DB": sandbox.database, "HOME": sandbox.folder.path,
                    "XDG_DATA_HOME": sandbox.folder.file("xdg")
                ], currentDirectory: sandbox.folder.path, outputFolder: sandbox.folder)
            let outcome = process.wait(timeout: 20)
            let label =
                "seed \(seed), run \(ran): todo \(arguments.map { String($0.prefix(60)).debugDescription }.joined(separator: " "))"
            #expect(!outcome.timedOut, "\(label): still running after 20 s")
            #expect(
                outcome.signal == nil,
                "\(label): killed by signal \(outcome.signal ?? 0): \(outcome.stderr.prefix(500))")
            if let status = outcome.status {
                statuses[status, default: 0] += 1
                #expect([0, 1, 2].contains(status), "\(label): exit \(status)")
            }
            // A successful command may leave notes for a person on stderr (`No todos.` when a
            // fuzzed `--db` names a new, empty file, `note: no todo has the tag +x` for a tag filter
            // that names none); anything else there is one error line.
            if !outcome.stderr.isEmpty, !(outcome.status == 0 && Self.isNotices(outcome.stderr)) {
                #expect(outcome.stderr.hasPrefix("error: "), "\(label): stderr \(outcome.stderr.prefix(500))")
                // Errors quote arguments made safe: no control character, at most two lines.
                #expect(
                    outcome.stderrLines.count <= 2
                        && !Self.hasControlCharacter(outcome.stderr.replacingOccurrences(of: "\n", with: "")),
                    "\(label): stderr \(outcome.stderr.prefix(500).debugDescription)")
            }
            for trace in ["Fatal error", "Stack dump", "backtrace", "Illegal instruction", "Segmentation fault"] {
                #expect(!outcome.stderr.contains(trace) && !outcome.stdout.contains(trace), "\(label): \(trace)")
            }
        }
        #expect(try Reliability.integrity(sandbox.database) == "ok")
        let summary = statuses.keys.sorted().map { "exit \($0): \(statuses[$0]!)" }.joined(separator: ", ")
        Reliability.report(
            "binary fuzz",
            "\(ran) command lines (\(summary)) in \(String(format: "%.1f", Date().timeIntervalSince(clock))) s")
    }

    /// Whether `stderr` of a command that succeeded is only messages to a person, not rows: each
    /// line `No todos.` or a `note:`, with no control character that a terminal would act on.
    static func isNotices(_ stderr: String) -> Bool {
        guard stderr.hasSuffix("\n") else { return false }
        return stderr.dropLast().split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { line in
            (line == "No todos." || line.hasPrefix("note: ")) && !hasControlCharacter(String(line))
        }
    }

    /// C0 and C1 control characters (what a terminal acts on), new line included.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    @Test("Usage errors that quote hostile arguments stay one line, with no raw control character")
    func usageErrorsQuotingHostileInput() throws {
        let sandbox = CLISandbox()
        let cases: [[String]] = [
            ["add", "x", "--due", "2024\n05-01"],
            ["add", "x", "--due", "\u{1B}[2Jfriday"],
            ["list", "--sort", "name\rfake: row"],
            ["done", "1\n2"],
            ["--color", "\u{1B}[31m", "list"],
            ["frob\u{1B}]0;title\u{7}"],
            ["list", "--lim\u{9B}it", "3"]
        ]
        for arguments in cases {
            let result = try sandbox.todo(arguments)
            let label = "todo \(arguments.map(\.debugDescription).joined(separator: " "))"
            #expect(
                result.status == 2 && result.stdout.isEmpty && result.stderr.hasPrefix("error: "),
                "\(label): \(result.stderr.debugDescription)")
            #expect(result.stderrLines.count <= 2, "\(label): \(result.stderr.debugDescription)")
            #expect(
                !Self.hasControlCharacter(result.stderr.replacingOccurrences(of: "\n", with: "")),
                "\(label): \(result.stderr.debugDescription)")
        }
        // One 100,000-character unknown command and option: an answer, not a hang. The 60 s
        // limit only stops a runaway (say, a quadratic suggestion search); the time is printed.
        for arguments in [
            [String(repeating: "y", count: 100_000)], ["list", "--" + String(repeating: "x", count: 100_000)]
        ] {
            let process = try LaunchedProcess(
                ProcessRunner.todoBinary, arguments,
                environment: [
                    "TODO_DB": sandbox.database, "HOME": sandbox.folder.path,
                    "XDG_DATA_HOME": sandbox.folder.file("xdg")
                ], outputFolder: sandbox.folder)
            let outcome = process.wait(timeout: 60)
            #expect(!outcome.timedOut, "a 100,000-character typo was still running after 60 s")
            #expect(
                outcome.status == 2 && outcome.stderrLines.count <= 2 && outcome.stderr.hasPrefix("error: "),
                "status \(String(describing: outcome.status)): \(outcome.stderr.prefix(300).debugDescription)")
            Reliability.report(
                "hostile usage errors",
                "100,000-character token refused in \(String(format: "%.2f", outcome.elapsed)) s")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database), "a usage error created the database")
    }
}
