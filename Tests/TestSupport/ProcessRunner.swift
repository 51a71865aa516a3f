import Foundation

/// What a finished process left: its exit status and both outputs.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// The stderr lines, without the trailing empty one.
    public var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
}

/// A program that did not finish within its time limit; it was killed.
public struct ProcessTimedOut: Error, CustomStringConvertible {
    public let command: String
    public let seconds: TimeInterval
    public let stdout: String
    public let stderr: String
    public var description: String {
        "\(command) did not finish within \(Int(seconds)) s; stdout: \(stdout.suffix(500)) stderr: \(stderr.suffix(500))"
    }
}

/// Runs real programs for end-to-end tests: the built `todo`, `sqlite3`, `python3`.
public enum ProcessRunner {
    /// Runs `executable` with `arguments`, an environment (added to a minimal clean one) and
    /// optional standard input; waits for it (at most `timeout` seconds, then kills it and throws
    /// `ProcessTimedOut`) and returns what it printed.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, currentDirectory: String? = nil,
        timeout: TimeInterval = 120
    ) throws -> ProcessResult {
        let executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : try which(executable))
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        var process = Process()
        var (out, err, input) = (Pipe(), Pipe(), Pipe())
        // A program a test has just copied (`copyExecutable`) can be "busy" for a moment: a
        // process another test started while the copy was open for writing inherited that
        // descriptor and holds it until its own exec. Started again, with a new Process, until
        // it starts or 5 s have passed.
        let busyUntil = Date().addingTimeInterval(5)
        while true {
            process.executableURL = executableURL
            process.arguments = arguments
            process.environment = env
            if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            do {
                try process.run()
                break
            } catch let error as NSError
                where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) && Date() < busyUntil
            {
                usleep(10_000)
                process = Process()
                (out, err, input) = (Pipe(), Pipe(), Pipe())
            }
        }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        // Read both pipes while waiting, so a large output cannot fill a pipe and stall the child.
        // Everything is bounded: a child that hangs is killed at the deadline and the test fails
        // with what it printed, instead of stalling the whole suite.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        nonisolated(unsafe) var outData = Data()
        let (errReader, outReader) = (err.fileHandleForReading, out.fileHandleForReading)
        DispatchQueue.global().async(group: group) { errData = errReader.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { outData = outReader.readDataToEndOfFile() }
        let timedOut = group.wait(timeout: .now() + timeout) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            _ = group.wait(timeout: .now() + 5)
        }
        process.waitUntilExit()
        if timedOut {
            throw ProcessTimedOut(
                command: ([executable] + arguments).joined(separator: " "), seconds: timeout,
                stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self))
        }
        return ProcessResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Copies the executable at `source` to `destination` (a fresh path), as a hard link where
    /// they share a file system. A copy that fails with "text file busy" is tried again (at most
    /// five times): while the copy is open for writing, a process another test starts at that
    /// moment can hold it until it runs its own program, and Linux refuses the write meanwhile.
    public static func copyExecutable(from source: String, to destination: String) throws {
        guard link(source, destination) != 0 else { return }
        for attempt in 1...5 {
            do {
                try FileManager.default.copyItem(atPath: source, toPath: destination)
                return
            } catch let error as NSError
                where (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY) && attempt < 5
            {
                try? FileManager.default.removeItem(atPath: destination)
            }
        }
    }

    /// The absolute path of a program on PATH.
    public static func which(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)")
        {
            return "\(folder)/\(name)"
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
    }

    /// The package's root folder, found from this source file's location.
    public static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The built `todo` executable: `TODO_BIN` when set, else the one beside the test bundle.
    public static let todoBinary: String = {
        if let path = ProcessInfo.processInfo.environment["TODO_BIN"] { return path }
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // The test runner lives in `.build/<config>/<name>.xctest` (a file on Linux).
        while folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("todo").path
    }()
}
