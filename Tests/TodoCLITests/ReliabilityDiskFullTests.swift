import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A full disk (a small tmpfs mounted by the test, as root): a clear exit-1 error that says
/// so, every acknowledged todo kept, the file intact; once space returns, `todo` works again.
///
/// Not root: reported as skipped. Root (CI): a failed mount is a failure, not a quiet pass.
@Suite(.timed, .serialized, .enabled(if: getuid() == 0, "needs root to mount a tmpfs"))
struct ReliabilityDiskFullTests {
    let sandbox = CLISandbox()

    /// A tmpfs of `size` mounted on a fresh folder; throws when the mount fails.
    private func mountTmpfs(size: String) throws -> String {
        let mountPoint = sandbox.folder.file("small-disk")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        let mount = try ProcessRunner.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", mountPoint])
        try #require(
            mount.status == 0,
            "mount -t tmpfs failed as root: \(mount.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        return mountPoint
    }

    private func unmount(_ mountPoint: String) {
        if (try? ProcessRunner.run("umount", [mountPoint]).status) != 0 {
            _ = try? ProcessRunner.run("umount", ["-l", mountPoint])
        }
    }

    private func remount(_ mountPoint: String, size: String) throws {
        let result = try ProcessRunner.run("mount", ["-o", "remount,size=\(size)", mountPoint])
        #expect(result.status == 0, "remount: \(result.stderr)")
    }

    /// Writes zeros to `path` until the disk refuses more; returns the bytes written.
    @discardableResult
    private func fill(_ path: String) -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        var total = 0
        while true {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            total += written
        }
        // The last partial page too.
        while chunk.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) == 1 { total += 1 }
        return total
    }

    private func names(_ database: String) throws -> Set<String> {
        let result = try ProcessRunner.run("sqlite3", [database, "SELECT name FROM todos"])
        try #require(result.status == 0, "sqlite3 could not read \(database): \(result.stderr)")
        return Set(result.stdout.split(separator: "\n").map(String.init))
    }

    @Test(
        "Adds until the 512 KiB disk is full: one 'disk is full' error, acknowledged todos kept, works again after a remount"
    )
    func growingUntilTheDiskIsFull() throws {
        // The first add creates the schema (112 KiB since lists, migration 0013) through the
        // write-ahead log: 256 KiB no longer held the log, the file and its index at once.
        let mountPoint = try mountTmpfs(size: "512k")
        defer { unmount(mountPoint) }
        let database = mountPoint + "/todo.sqlite"
        let env = ["TODO_DB": database]
        let long = String(repeating: "x", count: 1500)
        var acknowledged: Set<String> = []
        var failure: ProcessResult?
        for index in 0..<1_000 {
            let name = "todo \(index) \(long)"
            let result = try sandbox.todo(["add", name], environment: env)
            if result.status == 0 {
                acknowledged.insert(name)
            } else {
                failure = result
                break
            }
        }
        let refusal = try #require(failure, "1000 adds of 1.5 KB fit on a 512 KiB disk")
        #expect(!acknowledged.isEmpty, "the first add already failed: nothing was kept because nothing was written")
        Reliability.expectOneError(refusal, status: 1, mentioning: ["disk is full"], "todo add on a full disk")
        #expect(refusal.stdout.isEmpty)
        // Again, and a read: still a clean answer.
        Reliability.expectOneError(
            try sandbox.todo(["add", "one more"], environment: env), status: 1, mentioning: ["disk is full"],
            "second add")
        #expect(try Reliability.integrity(database) == "ok")
        #expect(try names(database) == acknowledged, "the stored todos differ from the acknowledged ones")

        try remount(mountPoint, size: "2m")
        let again = try sandbox.todo(["add", "after the remount"], environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try names(database) == acknowledged.union(["after the remount"]))
        #expect(try Reliability.integrity(database) == "ok")
        Reliability.report(
            "full disk (growing)", "\(acknowledged.count) adds acknowledged before the disk was full; all kept")
    }

    @Test(
        "A disk filled by another file: each command fails with one error line, nothing lost; deleting the file brings todo back"
    )
    func aDiskFilledByAnotherFile() throws {
        let mountPoint = try mountTmpfs(size: "512k")
        defer { unmount(mountPoint) }
        let database = mountPoint + "/todo.sqlite"
        let env = ["TODO_DB": database]
        var acknowledged: Set<String> = []
        for index in 0..<20 {
            let name = "todo \(index)"
            #expect(try sandbox.todo(["add", name], environment: env).status == 0)
            acknowledged.insert(name)
        }
        let filler = mountPoint + "/filler"
        let filled = fill(filler)
        #expect(filled > 0)
        // The disk is full while no connection is open: SQLite cannot even size its -shm file.
        for arguments in [
            ["add", "on a full disk"], ["done", "1"], ["edit", "2", "--name", "renamed"], ["rm", "--yes", "3"]
        ] {
            let result = try sandbox.todo(arguments, environment: env)
            #expect(result.status == 1, "todo \(arguments.joined(separator: " ")): \(result.stderr)")
            #expect(
                (1...2).contains(result.stderrLines.count) && result.stderrLines.first?.hasPrefix("error: ") == true,
                "todo \(arguments.joined(separator: " ")): \(result.stderr)")
            // SQLite reports SQLITE_IOERR_SHMSIZE there (no room for the -shm index): a full disk too.
            #expect(
                result.stderr.contains("disk is full"), "todo \(arguments.joined(separator: " ")): \(result.stderr)")
        }
        // The sqlite3 shell cannot open the file on this full disk either: check it right after
        // freeing the space, before todo runs again.
        try FileManager.default.removeItem(atPath: filler)
        #expect(try Reliability.integrity(database) == "ok")
        #expect(try names(database) == acknowledged)
        let again = try sandbox.todo(["add", "after freeing space"], environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try names(database) == acknowledged.union(["after freeing space"]))
        #expect(try Reliability.integrity(database) == "ok")
        Reliability.report(
            "full disk (filler)", "\(filled) bytes of filler; 4 commands refused; \(acknowledged.count) todos kept")
    }
}
