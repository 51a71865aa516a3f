import Foundation

/// A long-running program (such as `todo watch`, or `todo-sync` spoken to over its stdin) whose
/// stdout is read line by line as it comes.
public final class RunningProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSCondition()
    private var lines: [String] = []
    /// Every line it printed, including those already taken by ``nextLine(timeout:)``.
    public private(set) var transcript: [String] = []
    /// Its standard input when started with `input: true`; else /dev/null.
    private let input: Pipe?
    private var buffer = Data()
    private var ended = false
    private var errorBytes = Data()
    /// Set when stderr reached its end (the program and every child holding it have closed it).
    private var errorEnded = false

    /// Starts `executable` with `arguments` and an environment added to a minimal clean one;
    /// with `input`, its stdin is a pipe that ``send(_:)`` writes.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], input: Bool = false)
        throws
    {
        self.input = input ? Pipe() : nil
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self else { return }
            self.lock.lock()
            self.errorBytes.append(data)
            if data.isEmpty {
                self.errorEnded = true
                // Without this the handler is called again and again at the end of the pipe.
                handle.readabilityHandler = nil
            }
            self.lock.broadcast()
            self.lock.unlock()
        }
        process.standardInput = self.input ?? FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.received(handle.availableData)
        }
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// The process id, for signals a test sends itself.
    public var pid: Int32 { process.processIdentifier }

    private func received(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        if data.isEmpty { ended = true }
        buffer.append(data)
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            lines.append(line)
            transcript.append(line)
            buffer.removeSubrange(buffer.startIndex...newline)
        }
        lock.broadcast()
    }

    /// Writes one line to its stdin (started with `input: true`).
    public func send(_ line: String) {
        input?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes its stdin: the end of input.
    public func closeInput() {
        try? input?.fileHandleForWriting.close()
    }

    /// The lines printed and not yet taken.
    public func remainingLines() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// The next line of output, or `nil` if none arrives within `timeout` seconds.
    public func nextLine(timeout: TimeInterval = 30) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        lock.lock()
        defer { lock.unlock() }
        while lines.isEmpty && !ended {
            if !lock.wait(until: deadline) { break }
        }
        return lines.isEmpty ? nil : lines.removeFirst()
    }

    /// What the program wrote to stderr so far.
    public var errorOutput: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: errorBytes, as: UTF8.self)
    }

    /// Waits up to `timeout` seconds for the program to end by itself; its exit status, or
    /// `nil` while it still runs.
    public func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        guard !process.isRunning else { return nil }
        process.waitUntilExit()
        // The stderr handler takes the last bytes on its own thread: wait for the pipe's end
        // (bounded, as a child the program started may still hold the pipe open).
        let errorDeadline = Date(timeIntervalSinceNow: 2)
        lock.lock()
        while !errorEnded, lock.wait(until: errorDeadline) {}
        lock.unlock()
        return process.terminationStatus
    }

    /// Sends one SIGINT (Ctrl-C) and waits for the exit status. Bounded: a program still
    /// running after `timeout` seconds is killed and reported as status 128 + SIGKILL, so one
    /// that loses the signal fails its test instead of hanging the suite.
    public func interrupt(timeout: TimeInterval = 15) -> Int32 {
        process.interrupt()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return 128 + SIGKILL
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
