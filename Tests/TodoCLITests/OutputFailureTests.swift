import Foundation
import TestSupport
import Testing

/// A failed write to standard output is a failed command; a reader that went away is not.
@Suite(.timed) struct OutputFailureTests {
    let sandbox = CLISandbox()

    /// Runs `todo ARGS > /dev/full` (ENOSPC on every write) through bash.
    private func toFullDisk(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            "bash", ["-c", "\"$0\" \"$@\" > /dev/full", ProcessRunner.todoBinary] + arguments,
            environment: ["TODO_DB": sandbox.database, "HOME": sandbox.folder.path])
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "this system has no /dev/full"))
    func writingToAFullDeviceFailsWithOneErrorLine() throws {
        _ = try sandbox.ok("add", "Buy milk")
        for arguments in [["export"], ["list"], ["list", "--json"], ["show", "1"], ["add", "x"], ["--help"]] {
            let result = try toFullDisk(arguments)
            #expect(result.status == 1, "todo \(arguments): \(result.stderr)")
            #expect(
                result.stderrLines == ["error: cannot write standard output: No space left on device"],
                "todo \(arguments)")
        }
    }

    @Test func aReaderThatLeavesEarlyIsNotAnError() throws {
        let items = (1...5_000).map { "{\"name\": \"todo number \($0) with a fairly long name to fill the pipe\"}" }
        _ = try sandbox.todo(["import", "-"], stdin: "[" + items.joined(separator: ",") + "]")
        let result = try ProcessRunner.run(
            "bash", ["-c", "set -o pipefail; \"$0\" list | head -1", ProcessRunner.todoBinary],
            environment: ["TODO_DB": sandbox.database, "HOME": sandbox.folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.split(separator: "\n").count == 1)
    }
}
