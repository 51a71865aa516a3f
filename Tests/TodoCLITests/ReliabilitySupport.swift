import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Helpers shared by the `Reliability*` suites: seeded randomness, processes that can be
/// killed or timed out, and the `sqlite3` shell as an independent witness of the file.
enum Reliability {
    /// The seed for a randomised test (``TestSeed``); tests put it in every failure message.
    static func seed(_ label: String) -> UInt64 { TestSeed.make(label) }

    /// Prints a test's counts, so they show in CI logs.
    static func report(_ label: String, _ text: String) {
        print("[reliability] \(label): \(text)")
    }

    /// Runs the `sqlite3` shell on `database` (another client, outside `todo`); throws, with
    /// its stderr, when it fails: a setup step or a read that did not happen is never "".
    @discardableResult
    static func sqlite(_ database: String, _ sql: String) throws -> ProcessResult {
        let result = try ProcessRunner.run("sqlite3", [database, sql])
        guard result.status == 0 else {
            throw UnexpectedOutput(
                "sqlite3 \(database) \(String(sql.prefix(200)).debugDescription) exited \(result.status): \(result.stderr)"
            )
        }
        return result
    }

    /// `PRAGMA integrity_check` through the `sqlite3` shell, trimmed: "ok" when the file is sound,
    /// else what the shell said (an error included).
    static func integrity(_ database: String) throws -> String {
        let result = try ProcessRunner.run("sqlite3", [database, "PRAGMA integrity_check"])
        return (result.stdout + result.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Everything in the file as SQL text: equal dumps mean nothing changed.
    static func dump(_ database: String) throws -> String {
        try sqlite(database, ".dump").stdout
    }

    /// One integer from a query through the `sqlite3` shell.
    static func scalar(_ database: String, _ sql: String) throws -> Int {
        let result = try sqlite(database, sql)
        guard let value = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw UnexpectedOutput(
                "sqlite3 \(sql.debugDescription) printed \(result.stdout.debugDescription), not one integer")
        }
        return value
    }

    /// Expects a failure: `status`, nothing on stdout, one `error:` line and at most one hint.
    static func expectOneError(
        _ result: ProcessResult, status: Int32 = 1, mentioning words: [String] = [],
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectOneError(
            status: result.status, stderr: result.stderr, expected: status, mentioning: words, label,
            sourceLocation: sourceLocation)
    }

    static func expectOneError(
        status actual: Int32?, stderr: String, expected status: Int32, mentioning words: [String] = [],
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            actual == status, "\(label): status \(String(describing: actual)), stderr \(stderr)",
            sourceLocation: sourceLocation)
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect((1...2).contains(lines.count), "\(label): \(lines)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("error: ") == true, "\(label): \(lines)", sourceLocation: sourceLocation)
        for word in words {
            #expect(
                lines.first?.contains(word) == true, "\(label): '\(word)' not in \(lines)",
                sourceLocation: sourceLocation)
        }
    }

    /// A sleep in milliseconds.
    static func sleep(milliseconds: Int) {
        guard milliseconds > 0 else { return }
        usleep(useconds_t(milliseconds * 1000))
    }
}

/// A child process that is started now and finished later: waited for, timed out or killed.
///
/// Output goes to files (never a pipe that could fill up and stall the child), read at the end.
final class LaunchedProcess: @unchecked Sendable {
    /// How a launched process ended.
    struct Outcome {
        /// The exit status, or `nil` when a signal ended it.
        var status: Int32?
        /// The signal that ended it, or `nil` when it exited.
        var signal: Int32?
        var stdout: String
        var stderr: String
        /// Seconds from launch to exit.
        var elapsed: TimeInterval
        /// True when it was still running at the deadline and was killed for it.
        var timedOut = false

        var stderrLines: [String] {
            stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    private let process = Process()
    private let outPath: String
    private let errPath: String
    let started: Date

    /// Starts `executable` with a minimal clean environment plus `environment`; stdin is empty.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        currentDirectory: String? = nil, outputFolder: TemporaryFolder
    ) throws {
        let name = UUID().uuidString
        outPath = outputFolder.file("\(name).out")
        errPath = outputFolder.file("\(name).err")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        process.executableURL = URL(
            fileURLWithPath: executable.hasPrefix("/") ? executable : try ProcessRunner.which(executable))
        process.arguments = arguments
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        process.standardInput = FileHandle.nullDevice
        started = Date()
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Sends SIGKILL (a crash, a power cut for the process) and waits for the end.
    func killNow() -> Outcome {
        kill(process.processIdentifier, SIGKILL)
        return wait()
    }

    /// Waits for the end; past `timeout` seconds the process is killed and marked timed out.
    func wait(timeout: TimeInterval = 60) -> Outcome {
        let deadline = started.addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                kill(process.processIdentifier, SIGKILL)
                timedOut = true
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let elapsed = Date().timeIntervalSince(started)
        let byExit = process.terminationReason == .exit
        return Outcome(
            status: byExit ? process.terminationStatus : nil,
            signal: byExit ? nil : process.terminationStatus,
            stdout: String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self),
            stderr: String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self),
            elapsed: elapsed, timedOut: timedOut)
    }
}
