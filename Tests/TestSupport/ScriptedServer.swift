import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP server written for one test in Python (one that lacks a feature, redirects, asks
/// for Digest, or misbehaves), run by the system's python3 on loopback ports that the caller
/// chose with ``CalDAVServer/freePort()``. The script must end by itself (a bounded lifetime);
/// it is killed by pid when this is released, and waited for.
public final class ScriptedServer: @unchecked Sendable {
    private let process: Process
    public let folder = TemporaryFolder()

    /// Starts `script` with `arguments` and waits (at most 15 s) until every port in `ports`
    /// answers. Its output goes to `script.log` in ``folder``.
    public init(_ script: String, arguments: [String], ports: [Int]) throws {
        process = try CalDAVServer.runPython(["-c", script] + arguments, in: folder, log: "script.log")
        let deadline = Date(timeIntervalSinceNow: 15)
        while !ports.allSatisfy(CalDAVServer.portAnswers) && Date() < deadline { usleep(20_000) }
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
